# civtable — the two commands of the set-up contract: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip

.PHONY: run test install install-test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# Runtime install (editable, so `civtable` runs the checkout).
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

## make run: create .venv, install, and start the main job (the terminal game for now).
run: install
	$(BIN)/civtable play seven-wonders --players 4

## make test: install test dependencies, then lint, type-check and run the whole suite.
test: install-test lint typecheck unit

lint: install-test
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install-test
	$(BIN)/mypy

unit: install-test
	$(BIN)/pytest -n auto -q

bench: install
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build dist .mypy_cache .pytest_cache .ruff_cache
