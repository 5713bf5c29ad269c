"""Decks from and to other formats. import-deck reads spreadsheets' CSV (spreadsheet/), GIFT
(gift/), Aiken (aiken.py) and plain-text practice tests (practice_test.py) into decks an author
finishes and checks (drafts.py: a deck with fields left to fill in, mistakes by line);
export-deck writes CSV, GIFT, Aiken and Anki packages (export/)."""
