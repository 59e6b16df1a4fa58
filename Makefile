# civtable — the two commands of the set-up contract: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip

.PHONY: run test install install-test system-deps build-tools lint typecheck unit bench clean \
	compiled compiled-ci test-compiled

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

## make test: install test dependencies, then lint, type-check and run the whole suite; then
## build the compiled rules (CI share) and replay the fixed-seed games on them.
test: install-test system-deps lint typecheck compiled-ci unit test-compiled

## make compiled: the opt-in compiled build of the rules (issue 21): the modules of
## scripts/compiled.toml, compiled with mypyc and the system C compiler into build/compiled
## (never beside the .py files). Use it with CIVTABLE_COMPILED=1; stale builds are refused.
COMPILED_CI := build/compiled-ci

compiled: install-test build-tools
	$(BIN)/python scripts/build_compiled.py

## The CI share (games marked ci = true) in a directory of its own, then those games'
## fixed-seed fingerprints and property tests (determinism, JSON, copies, illegal input) on it:
## the compiled rules must give the same games, bit for bit.
compiled-ci: install-test build-tools
	$(BIN)/python scripts/build_compiled.py --ci --out $(COMPILED_CI)

test-compiled: compiled-ci
	CIVTABLE_COMPILED=1 CIVTABLE_COMPILED_DIR=$(COMPILED_CI) $(BIN)/pytest -n auto -q \
		tests/test_compiled.py $$($(BIN)/python scripts/build_compiled.py --ci --print-tests)

## Debian's chromium (browser tests) and a PostgreSQL on loopback (storage tests), if missing.
system-deps:
	bash scripts/ensure-chromium.sh
	bash scripts/ensure-postgres.sh >/dev/null

## A C compiler and the Python headers (the compiled build), if missing.
build-tools: install-test
	bash scripts/ensure-build-tools.sh $(BIN)/python

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
