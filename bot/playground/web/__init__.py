"""The playground's page: static files (no build step, nothing from outside the machine) and the
JSON API they talk to."""
