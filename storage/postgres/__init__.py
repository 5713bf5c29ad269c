"""The PostgreSQL adapter of the quiz core's storage ports."""
