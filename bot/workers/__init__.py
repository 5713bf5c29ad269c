"""Workers: they send what the use cases owe, close due questions and push daily questions."""
