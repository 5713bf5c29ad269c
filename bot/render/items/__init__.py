"""The item report (`python -m bot item-report`) as a terminal table and CSV (text.py) and as
one static HTML page (html.py)."""
