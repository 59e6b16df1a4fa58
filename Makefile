# civtable — the two commands of the set-up contract: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip

.PHONY: run test install install-test system-deps lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# Runtime install (editable, so `civtable` runs the checkout; it builds the optional C
# extension in place, again when its source changes).
EXT := setup.py src/civtable/rl/encoders/_tta_fast.c

$(VENV)/.installed: pyproject.toml $(EXT) | $(BIN)/python
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(EXT) | $(BIN)/python
	$(PIP) install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

## make run: create .venv, install, and start the web app (http://127.0.0.1:8000, SQLite in the
## user data directory; `civtable serve --db postgresql://...` for PostgreSQL).
run: install
	$(BIN)/civtable serve

## make test: install test dependencies, then lint, type-check and run the whole suite.
test: install-test system-deps lint typecheck unit

## Debian's chromium (browser tests) and a PostgreSQL on loopback (storage tests), if missing.
system-deps:
	bash scripts/ensure-chromium.sh
	bash scripts/ensure-postgres.sh >/dev/null

lint: install-test
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install-test
	$(BIN)/mypy

unit: install-test system-deps
	$(BIN)/pytest -n auto -q

bench: install
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build dist .mypy_cache .pytest_cache .ruff_cache
	find src -name '*.so' -delete
