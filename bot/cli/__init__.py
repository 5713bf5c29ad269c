"""The command line: `python -m bot` and its subcommands, one module each (main.py parses)."""
