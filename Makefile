# council-filters: every target installs what it needs into .venv first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install demo test lint bench golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## demo: install, then run the main job on the embedded example
demo: $(STAMP)
	@$(PY) examples/demo.py

## test: the whole suite (what CI runs)
test: $(STAMP)
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check council_filters tests bench
	$(PY) -m mypy

## bench: benchmarks against the reference tools, ratios from one run
bench: $(STAMP)
	@for b in bench/bench_*.py; do $(PY) $$b || exit 1; done

## golden: regenerate golden outputs (review the diff before committing)
golden: $(STAMP)
	$(PY) tests/golden.py --regen

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
