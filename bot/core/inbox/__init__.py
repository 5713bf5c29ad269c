"""What comes in, before any use case acts on it: each update acted on once (updates), and a
group member's command allowance (allowance), both kept where every replica sees them."""
