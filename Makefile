# council-filters: every target installs what it needs into .venv first.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install demo council review-cycle test lint bench golden docs clean

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

BIN := $(abspath $(VENV)/bin)

## council: a whole council on a repository, the filters chained by real pipes.
##   make council MODE=review BASE=origin/main
##   make council MODE=question ARGS='"Is the cache safe?" --paths src/cache.py'
##   make council MODE=plan ARGS=docs/plans/cache.md
## Reviewer commands come from COMMANDS (default .council/commands; start from
## council.commands.example).  A reviewer whose CLI is missing is UNAVAILABLE.
MODE     ?= review
BASE     ?=
ARGS     ?=
REPO     ?= .
COMMANDS ?= .council/commands
REPO_ABS := $(abspath $(REPO))
PACK_ARGS = $(if $(filter review,$(MODE)),$(if $(BASE),--base '$(BASE)'),) $(ARGS)

council: $(STAMP)
	@cd '$(REPO_ABS)' && $(BIN)/council-pack $(MODE) $(PACK_ARGS) \
	  | $(BIN)/council-dispatch --config '$(abspath $(COMMANDS))' \
	  | $(BIN)/council-redact --jsonl \
	  | $(BIN)/council-fence --jsonl \
	  | $(BIN)/council-parse-verdict --jsonl \
	  | $(BIN)/council-consolidate --write

## demo: install, then run the main job on the embedded example: a bundled
## repository with one change and four recorded reviewers (one leaks secrets,
## one tries to break out of its fence, one times out, one answers in JSON).
demo: $(STAMP)
	@examples/build-repo.sh examples/build/repo
	@rm -rf examples/build/repo/docs/council
	@COUNCIL_EXAMPLES='$(abspath examples)' COUNCIL_TIMEOUT=2 COUNCIL_KILL_GRACE=1 \
	  $(MAKE) -s --no-print-directory council REPO=examples/build/repo BASE=main \
	    COMMANDS=examples/commands | tee examples/build/inline.md
	@$(PY) examples/check-demo.py examples/build

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
