# council-filters: every target installs what it needs into .venv first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install demo test lint bench golden docs clean

# The offline SARIF and RDFormat validators the format tests run (npm registry).
# Without npm those tests skip and say why.
VALIDATORS := node_modules/.installed

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(VALIDATORS): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm install --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm not found: the SARIF/RDFormat validator tests will be skipped"; fi

install: $(STAMP)

## demo: install, then run the main job on the embedded example
demo: $(STAMP)
	@$(PY) examples/demo.py

## test: the whole suite (what CI runs)
test: $(STAMP) $(VALIDATORS)
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check council_filters tests bench
	$(PY) -m mypy
	$(PY) tests/docs.py --check

## docs: regenerate the README's per-filter sections from each --help
docs: $(STAMP)
	$(PY) tests/docs.py --write

## bench: benchmarks against the reference tools, ratios from one run
bench: $(STAMP)
	@for b in bench/bench_*.py; do $(PY) $$b || exit 1; done

## golden: regenerate golden outputs (review the diff before committing)
golden: $(STAMP)
	$(PY) tests/golden.py --regen

clean:
	rm -rf $(VENV) node_modules build *.egg-info .pytest_cache .mypy_cache .ruff_cache
