# Quick start: `make run` (play) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000
DB ?= cardlab.db
GAME ?= uptime

.PHONY: run play test lint typecheck bench clean setup system-deps

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# The browser table: lobby, rules, new tables with bots, playtest reports.
run: $(STAMP)
	@echo "Open http://127.0.0.1:$(PORT)/ in your browser (Ctrl-C stops the server)."
	$(BIN)/cardlab serve --host 127.0.0.1 --port $(PORT) --db $(DB)

# Terminal play against bots: make play GAME=runway
play: $(STAMP)
	$(BIN)/cardlab play $(GAME) --seat 0

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(STAMP)
	$(BIN)/mypy

system-deps:
	bash scripts/system-deps.sh

test: $(STAMP) system-deps lint typecheck
	$(BIN)/python -m pytest -n 2 tests

bench: $(STAMP)
	$(BIN)/cardlab bench uptime --players 4

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
