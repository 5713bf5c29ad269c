"""Reading and writing decks in other formats: spreadsheets' CSV (spreadsheet.py) and plain-text
practice tests (practice_test.py), each into a deck an author finishes and checks."""
