# Quick start: `make run` (play) and `make test` (the whole suite).
#
# Two lock files with hashes: requirements-run.lock (the browser table, the lab and
# print-and-play: what `make run` needs) and requirements-dev.lock (everything, with the
# tests and checkers: what `make test` needs). `make lock` regenerates both.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
PORT ?= 8000
DB ?= cardlab.db
GAME ?= uptime
PIP_COMPILE := $(BIN)/pip-compile --quiet --generate-hashes --strip-extras --allow-unsafe \
	--no-emit-index-url --no-emit-find-links

.PHONY: run play test lint typecheck imports bench clean setup setup-dev system-deps lock fuzz
.PHONY: compiled test-compiled bench-compiled measure-compiled gate-compiled

setup: $(RUN_STAMP)
setup-dev: $(DEV_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): requirements-run.lock pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-run.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# The dev lock holds every package of the run lock (same versions), so it serves both.
$(DEV_STAMP): requirements-dev.lock pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@ $(RUN_STAMP)

# The browser table: lobby, rules, new tables with bots, playtest reports.
run: $(RUN_STAMP)
	@echo "Open http://127.0.0.1:$(PORT)/ in your browser (Ctrl-C stops the server)."
	$(BIN)/cardlab serve --host 127.0.0.1 --port $(PORT) --db $(DB)

# Terminal play against bots: make play GAME=runway
play: $(RUN_STAMP)
	$(BIN)/cardlab play $(GAME) --seat 0

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

# The layers (pyproject.toml [tool.importlinter]): core imports no game, engines only core...
imports: $(DEV_STAMP)
	$(BIN)/lint-imports

system-deps:
	bash scripts/system-deps.sh

test: $(DEV_STAMP) system-deps lint typecheck imports
	$(BIN)/python -m pytest -n 2 tests

# The browser table's protocol fuzzer, longer than the bounded run in `make test`.
fuzz: $(DEV_STAMP)
	CARDLAB_FUZZ_EXAMPLES=2000 $(BIN)/python -m pytest -n 0 -q tests/web/test_fuzz.py

bench: $(RUN_STAMP)
	$(BIN)/cardlab bench uptime --players 4

# Optional: the engines compiled with mypyc (docs/agents.md "Compiled engines"). Built out
# of tree in build/compiled/src; src/ stays the reference and what every other target runs.
# test-compiled runs the same-seed tests on the compiled build (it skips, saying why, on a
# machine without a C compiler or Python headers).
COMPILED := build/compiled/src
COMPILED_TESTS := tests/uptime tests/runway tests/supercomputer \
	tests/agents/test_ismcts_same_decisions.py tests/agents/test_agent_api.py tests/test_conformance.py \
	tests/test_core.py tests/agents/test_evaluation.py tests/test_seeds.py
COMPILED_STAMP := build/compiled/.built
$(COMPILED_STAMP): $(shell find src -name '*.py' -o -name '*.toml') scripts/build_compiled.py
	$(BIN)/python scripts/build_compiled.py
	touch $@

compiled: $(DEV_STAMP) $(COMPILED_STAMP)

test-compiled: $(DEV_STAMP)
	@if $(BIN)/python scripts/build_compiled.py --check; then \
		$(MAKE) --no-print-directory $(COMPILED_STAMP) && \
		PYTHONPATH=$(COMPILED) $(BIN)/python -m pytest -n 2 $(COMPILED_TESTS); \
	else echo "test-compiled: SKIPPED (the plain-Python tests still ran in make test)"; fi

bench-compiled: compiled
	PYTHONPATH=$(COMPILED) $(BIN)/cardlab bench $(GAME) --players 4

# The gate on the compiled engines: the same games and verdicts as `cardlab gate all` (the
# same-decision tests hold on both builds), more skill games within its budget (docs/lab.md).
gate-compiled: compiled
	PYTHONPATH=$(COMPILED) $(BIN)/cardlab gate all

# Plain vs compiled in turns, CPU time, 4 players, every game (about 3 minutes).
measure-compiled: compiled
	$(BIN)/python benchmarks/compare_builds.py --build plain=src --build compiled=$(COMPILED)

# Regenerate both lock files from pyproject.toml (the run lock keeps the dev lock's versions).
lock: $(DEV_STAMP)
	$(PIP_COMPILE) --extra lab --extra ray --extra web --extra print --extra rl \
		--extra test --extra checks -o requirements-dev.lock pyproject.toml
	cp requirements-dev.lock requirements-run.lock
	$(PIP_COMPILE) --extra web --extra lab --extra print -o requirements-run.lock pyproject.toml

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
