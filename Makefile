# eventcal — the two commands that matter: `make serve` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000
WORKERS ?= 1
CHROMIUM := /usr/bin/chromium

.PHONY: serve test lint typecheck unit browser-deps bench clean lock messages

$(STAMP): pyproject.toml requirements/lock.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements/lock.txt -e '.[dev]'
	@touch $(STAMP)

## Serve the API on the embedded SQLite database (./eventcal.db) at http://$(HOST):$(PORT)
serve: $(STAMP)
	$(BIN)/eventcal serve --host $(HOST) --port $(PORT) --workers $(WORKERS)

## The whole suite: lint, format check, strict typing, import layers, tests (SQLite, and PostgreSQL when EVENTCAL_TEST_POSTGRES_URL is set)
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests $(wildcard bench)
	$(BIN)/ruff format --check src tests $(wildcard bench)
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) browser-deps
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

## What the browser tests (tests/browser) need beside Python: Debian's Chromium, and axe-core from
## the npm registry (package-lock.json; also the client generator and tsc of tests/docs/test_clients.py). Installed when missing; without them the browser tests are
## skipped, unless EVENTCAL_REQUIRE_BROWSER=1 (CI) makes that a failure. `make serve` needs neither.
browser-deps:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing Debian's Chromium for the browser tests (apt-get)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "NOTE: $(CHROMIUM) is missing: the browser tests will be skipped." \
	         "Install it as root with: apt-get install chromium"; \
	  fi; \
	fi
	@if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then \
	  if command -v npm >/dev/null; then \
	    npm ci --no-audit --no-fund; \
	  else \
	    echo "NOTE: npm is missing, so axe-core is too: the browser tests will be skipped." \
	         "Install Node.js and npm, then run: npm ci"; \
	  fi; \
	fi

## Benchmark (not part of `make test`): see bench/README.md
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -c requirements/lock.txt -e '.[bench]'
	$(BIN)/python bench/run.py $(BENCH_ARGS)

## Bring the message catalogs (src/eventcal/i18n/locales/*/LC_MESSAGES/eventcal.po) up to date with the source
messages: $(STAMP)
	$(BIN)/python -c 'from eventcal.i18n.catalogs import main; main()'

## Re-pin every dependency after changing pyproject.toml
lock:
	rm -rf /tmp/eventcal-lock && $(PYTHON) -m venv /tmp/eventcal-lock
	/tmp/eventcal-lock/bin/pip install --quiet -e '.[dev,bench]'
	/tmp/eventcal-lock/bin/pip freeze --exclude-editable > requirements/lock.txt

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache node_modules tests/browser/screenshots
