# Every target creates .venv when it is missing; only Python 3.11+ is needed on the machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

$(BIN)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("quizbot needs Python 3.11 or newer") if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e .
	@touch $@

$(BIN)/.installed-dev: $(BIN)/.installed
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $@

run: $(BIN)/.installed
	@$(BIN)/python -m bot

# The docs build last: --strict fails on a broken link or a page left out of mkdocs.yml's nav
# (without --quiet, which would hide the warnings --strict counts).
lint: $(BIN)/.installed-dev
	$(BIN)/ruff check bot content storage tests benchmarks
	$(BIN)/ruff format --check bot content storage tests benchmarks
	$(BIN)/mypy bot content storage
	$(BIN)/lint-imports
	$(BIN)/python -m bot check-decks --strict content
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

test: lint
	$(BIN)/pytest --numprocesses=auto --maxprocesses=4

bench: $(BIN)/.installed-dev
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache site
