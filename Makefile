# Quick start: `make run` (play) and `make test` (the whole suite).
#
# The engines: every install target compiles the hot modules with mypyc (out of tree, into
# build/mypyc, cached by the sources' hash: "up to date" in a second when nothing changed)
# when a C compiler, the Python headers and mypy are present, and says "pure Python (why)"
# otherwise; cardlab loads a build only while its sources are unchanged. CARDLAB_PURE=1
# forces the plain source, e.g. `CARDLAB_PURE=1 make test` (docs/agents.md "Compiled engines").
#
# Two lock files with hashes: requirements-run.lock (the browser table, the lab,
# print-and-play and the engines' compiler: what `make run` needs) and requirements-dev.lock
# (everything, with the tests and checkers: what `make test` needs). `make lock` regenerates
# both, the run lock from the dev lock's pins (the same versions in both).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
PORT ?= 8000
DB ?= cardlab.db
GAME ?= uptime
ENGINES := $(BIN)/python scripts/build_compiled.py
PIP_COMPILE := $(BIN)/pip-compile --quiet --generate-hashes --strip-extras --allow-unsafe \
	--no-emit-index-url --no-emit-find-links

.PHONY: run play test lint typecheck imports bench clean setup setup-dev system-deps lock fuzz
.PHONY: test-js test-fast slow-list compiled test-pure test-compiled bench-compiled measure-compiled gate-compiled

setup: $(RUN_STAMP)
setup-dev: $(DEV_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The run lock holds the compile step's mypy (it brings mypyc; pyproject's `compile` extra,
# part of `run`), so a fresh `make run` compiles the engines from its own lock. Without a C
# compiler or the Python headers the engines install as pure Python (saying why).
$(RUN_STAMP): requirements-run.lock pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-run.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(ENGINES) --fallback
	touch $@

# The dev lock holds every package of the run lock (same versions), so it serves both.
$(DEV_STAMP): requirements-dev.lock pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(ENGINES) --fallback
	touch $@ $(RUN_STAMP)

# The browser table: lobby, rules, new tables with bots, playtest reports.
run: $(RUN_STAMP)
	@$(ENGINES) --fallback
	@echo "Open http://127.0.0.1:$(PORT)/ in your browser (Ctrl-C stops the server)."
	$(BIN)/cardlab serve --host 127.0.0.1 --port $(PORT) --db $(DB)

# Terminal play against bots: make play GAME=runway
play: $(RUN_STAMP)
	@$(ENGINES) --fallback
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

# The client's pure functions (static/lib/*.js, ES modules) under node's own test runner;
# `make test` runs them too, through tests/web/test_js_units.py.
test-js:
	node --test tests/js/

# The whole suite on the default build (compiled where the toolchain is), then the
# same-decision tests again on the plain source, the reference (COMPILED_TESTS below).
test: $(DEV_STAMP) system-deps lint typecheck imports compiled
	$(BIN)/python -m pytest -n 2 --durations=25 --junitxml=artifacts/junit.xml tests
	$(MAKE) --no-print-directory test-pure

# The inner loop: every test but the slow ones (tests/durations.json, measured; browser
# tests), in a few minutes. `make slow-list` re-measures the list from `make test`'s report.
test-fast: $(DEV_STAMP) compiled
	$(BIN)/python -m pytest -n 2 -m "not slow" tests

slow-list:
	$(BIN)/python scripts/slow_tests.py artifacts/junit.xml tests/durations.json

# The browser table's protocol fuzzer, longer than the bounded run in `make test`.
fuzz: $(DEV_STAMP)
	CARDLAB_FUZZ_EXAMPLES=2000 $(BIN)/python -m pytest -n 0 -q tests/web/test_fuzz.py

bench: $(RUN_STAMP)
	@$(ENGINES) --fallback
	$(BIN)/cardlab bench uptime --players 4

# The compiled engines (docs/agents.md "Compiled engines"): built out of tree by
# scripts/build_compiled.py into build/mypyc/<key> (cached; a mypyc error fails here, while
# the install targets fall back to pure Python). COMPILED_TESTS are the same-decision tests:
# `make test` runs them on both builds; test-compiled insists on the compiled one (it skips,
# saying why, on a machine without a C compiler or Python headers).
COMPILED_TESTS := tests/uptime tests/runway tests/supercomputer \
	tests/agents/test_ismcts_same_decisions.py tests/agents/test_agent_api.py tests/test_conformance.py \
	tests/test_core.py tests/agents/test_evaluation.py tests/test_seeds.py tests/test_build.py \
	tests/test_state_pickling.py

compiled: $(DEV_STAMP)
	$(ENGINES)

test-pure: $(DEV_STAMP)
	CARDLAB_PURE=1 $(BIN)/python -m pytest -n 2 $(COMPILED_TESTS)

test-compiled: $(DEV_STAMP)
	@if $(ENGINES) --check; then \
		$(ENGINES) && $(BIN)/python -m pytest -n 2 $(COMPILED_TESTS); \
	else echo "test-compiled: SKIPPED (the plain-Python tests still ran in make test)"; fi

bench-compiled: compiled
	$(BIN)/cardlab bench $(GAME) --players 4

# The gate on the compiled engines (now the default build): the same games and verdicts on
# both builds (the same-decision tests hold), more skill games within its budget (docs/lab.md).
gate-compiled: compiled
	$(BIN)/cardlab gate all

# Plain vs compiled in turns, CPU time, 4 players, every game (about 3 minutes). The
# compiled tree is the build's work copy (a copied tree loads its extensions by Python's
# own import order); CARDLAB_PURE=1 makes src/ the plain reference.
measure-compiled: compiled
	CARDLAB_PURE=1 $(BIN)/python benchmarks/compare_builds.py --build plain=src \
		--build compiled=build/mypyc/work/src

# Regenerate both lock files from pyproject.toml (the run lock keeps the dev lock's versions).
lock: $(DEV_STAMP)
	$(PIP_COMPILE) --extra lab --extra ray --extra web --extra print --extra rl \
		--extra test --extra checks --extra compile -o requirements-dev.lock pyproject.toml
	cp requirements-dev.lock requirements-run.lock
	$(PIP_COMPILE) --extra web --extra lab --extra print --extra compile \
		-o requirements-run.lock pyproject.toml

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
