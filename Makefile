# council-filters: every target installs what it needs into .venv first.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install demo council review-cycle review-cycle-files review-cycle-example test test-fast lint bench golden docs clean

# The offline SARIF and RDFormat validators the format tests run (npm registry).
# Without npm those tests skip and say why.
VALIDATORS := node_modules/.installed

# The editable install puts the checkout on sys.path with a plain .pth line
# (compat mode): the default mode's import hook costs about 10 ms at every
# start of every filter, more than council-redact's whole start-up.
$(STAMP): pyproject.toml setup.py council_filters/redaction/_machine.c
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]' --config-settings editable_mode=compat
	$(PY) -m compileall -q council_filters
	touch $(STAMP)

$(VALIDATORS): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm install --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm not found: the SARIF/RDFormat validator tests will be skipped"; fi

install: $(STAMP)

# The executables the pipelines run.  Override BIN to use another install
# (a venv, pipx, the bin/ launchers); then nothing is installed into .venv.
VENV_BIN := $(abspath $(VENV)/bin)
BIN      ?= $(VENV_BIN)
BIN_DEPS := $(if $(filter $(VENV_BIN),$(abspath $(BIN))),$(STAMP))

## council: a whole council on a repository: a call of the `council` command
## (`council --help`), which chains the filters by real pipes.
##   make council MODE=review BASE=origin/main
##   make council MODE=question ARGS='"Is the cache safe?" --paths src/cache.py'
##   make council MODE=plan ARGS=docs/plans/cache.md
## Reviewer commands: COMMANDS=FILE when given, else council's own rule
## ($COUNCIL_COMMANDS, else ~/.config/council/commands; `council init` writes
## the example there).  The reviewed repository's .council/commands is used
## only with ARGS=--trust-repo-config.
MODE     ?= review
BASE     ?=
ARGS     ?=
REPO     ?= .
REPO_ABS := $(abspath $(REPO))
COMMANDS ?=
COUNCIL_ARGS = $(if $(filter review,$(MODE)),$(if $(BASE),--base '$(BASE)'),) \
  $(if $(COMMANDS),--config '$(abspath $(COMMANDS))') $(ARGS)

council: $(BIN_DEPS)
	@$(BIN)/council -C '$(abspath $(REPO))' $(MODE) $(COUNCIL_ARGS)

## review-cycle: the code-review flow, run by `council code-review` (see its --help):
## `run` in REPO (the context, the security scan and -- with RUN_TESTS=1 -- the change's
## tests, the six reviewers through your reviewer commands, consolidation, the report and
## STATE), `accept` ACCEPT, then with FIX=1 `fix` and `rereview`; `status` last (its exit 3,
## work remains, is not a failure here).  BASE, TASK and SPEC are passed on; COMMANDS=FILE
## names the commands file (default: council's own rule); RUN_ARGS adds `run` options
## (e.g. --worktree, --audit).
##   make review-cycle BASE=origin/main TASK='Expire idle sessions' ACCEPT='--severity critical'
##   make review-cycle FIX=1 STATE=review/state.json ACCEPT=--all
STATE       ?= review-state.json
ACCEPT      ?= --severity critical,security
FIX         ?=
RUN_TESTS   ?=
RUN_ARGS    ?=
TASK        ?=
SPEC        ?=
REVIEW      = $(BIN)/council -C '$(REPO_ABS)' code-review
STATE_ABS   = $(abspath $(STATE))
CR_CONFIG   = $(if $(COMMANDS),--config '$(abspath $(COMMANDS))')

review-cycle: $(BIN_DEPS)
	@$(REVIEW) run --state '$(STATE_ABS)' $(if $(BASE),--base '$(BASE)') \
	  $(if $(TASK),--task '$(TASK)') $(if $(SPEC),--spec '$(SPEC)') \
	  $(if $(RUN_TESTS),--run-tests) $(CR_CONFIG) $(RUN_ARGS)
	@$(REVIEW) accept --state '$(STATE_ABS)' $(ACCEPT)
	@$(if $(FIX),$(REVIEW) fix --state '$(STATE_ABS)' $(CR_CONFIG))
	@$(if $(FIX),$(REVIEW) rereview --state '$(STATE_ABS)' $(CR_CONFIG))
	@$(REVIEW) status --state '$(STATE_ABS)' || [ $$? -eq 3 ]

## review-cycle-files: the deterministic layers over finding files written elsewhere
## (the same state file and IDs).  With BASE=REF the deterministic layers run first, in REPO: council-context writes CONTEXT (BASE, TASK and SPEC are
## passed on; a blocking context -- no diff -- stops here), council-scan
## writes the security script findings to SCAN (SCAN_ARGS=--audit adds the
## dependency audit) and, only with RUN_TESTS=1 (the tests are the change's
## code), council-tests runs the context's test command with a trimmed
## environment and writes its findings to TESTS (their summary records go to
## SCAN.summary.json and TESTS.summary.json).  Then the
## origins' finding files (FINDINGS, plus SCAN and TESTS when BASE is set) are
## consolidated (IDs continue those in STATE; same-fingerprint findings keep
## their IDs), added to STATE (created from CONTEXT, or empty, when missing),
## the ACCEPT selection is accepted (every other open finding is dismissed),
## corrector output in FIXES is recorded when given, and the re-review scope
## is printed.
##   make review-cycle-files BASE=origin/main TASK='Expire idle sessions' \
##        FINDINGS='req.jsonl arq.jsonl reg.jsonl prf.jsonl' ACCEPT='--severity critical,security'
##   make review-cycle-files FINDINGS='sec.jsonl req.jsonl tst.jsonl arq.jsonl reg.jsonl prf.jsonl' \
##        STATE=review-state.json ACCEPT='--severity critical,security'
## REPO is the checkout the findings point into (anchors and fingerprints);
## REVIEW_ARGS adds consolidate options (e.g. --diff change.diff), TESTS_ARGS
## council-tests options (e.g. --timeout 300), SCAN_ARGS council-scan options.
## `make review-cycle-example` runs it on examples/code-review.
FINDINGS    ?=
FIXES       ?=
REVIEW_ARGS ?=
TESTS_ARGS  ?=
SCAN_ARGS   ?=
REVIEW_DIR  ?= $(dir $(STATE))
CONTEXT     ?= $(REVIEW_DIR)context.json
SCAN        ?= $(REVIEW_DIR)sec-script.jsonl
TESTS       ?= $(REVIEW_DIR)tst-script.jsonl
RUNS_TESTS  = $(and $(strip $(BASE)),$(filter 1 yes true,$(RUN_TESTS)))
SCRIPT_FINDINGS = $(if $(strip $(BASE)),$(SCAN)) $(if $(RUNS_TESTS),$(TESTS))
CONTEXT_ARGS = --repo '$(REPO_ABS)' --base '$(BASE)' $(if $(TASK),--task '$(TASK)') \
               $(if $(SPEC),--spec '$(SPEC)')

review-cycle-files: $(BIN_DEPS)
	@if [ -z '$(strip $(FINDINGS) $(BASE))' ]; then \
	  echo "review-cycle-files: give BASE=REF and/or FINDINGS='sec.jsonl tst.jsonl ...'" >&2; exit 2; fi
	@$(if $(strip $(BASE)),$(BIN)/council-context $(CONTEXT_ARGS) > '$(CONTEXT)')
	@$(if $(strip $(BASE)),$(BIN)/council-scan --repo '$(REPO_ABS)' --context '$(CONTEXT)' \
	    $(SCAN_ARGS) --summary '$(SCAN).summary.json' > '$(SCAN)')
	@$(if $(RUNS_TESTS),$(BIN)/council-tests '$(CONTEXT)' --repo '$(REPO_ABS)' --run-tests \
	    $(TESTS_ARGS) --summary '$(TESTS).summary.json' > '$(TESTS)')
	@[ -e '$(STATE)' ] || $(BIN)/council-state --file '$(STATE)' init \
	    $(if $(strip $(BASE)),'$(CONTEXT)') < /dev/null
	@$(BIN)/council-consolidate --format findings --state '$(STATE)' --repo '$(REPO_ABS)' \
	    $(REVIEW_ARGS) $(FINDINGS) $(SCRIPT_FINDINGS) \
	  | $(BIN)/council-state --file '$(STATE)' add
	@$(BIN)/council-state --file '$(STATE)' accept $(ACCEPT)
	@$(if $(strip $(FIXES)),$(BIN)/council-state --file '$(STATE)' record-fix $(FIXES))
	@$(BIN)/council-state --file '$(STATE)' scope

## review-cycle-example: the code-review flow on the bundled six-origin
## findings against the example project (state in examples/build/).
EXAMPLE_REVIEW := examples/code-review
review-cycle-example: $(BIN_DEPS)
	@mkdir -p examples/build
	@rm -f examples/build/review-state.json
	@$(MAKE) -s --no-print-directory review-cycle-files REPO=examples/project/change \
	  STATE=examples/build/review-state.json \
	  FINDINGS='$(addprefix $(EXAMPLE_REVIEW)/,sec.jsonl req.jsonl tst.jsonl arq.jsonl reg.jsonl prf.jsonl)' \
	  FIXES=$(EXAMPLE_REVIEW)/fixes.jsonl
	@$(BIN)/council-state --file examples/build/review-state.json status || true

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

## test: what CI runs (.ci/run): the lint step (ruff, mypy, the docs check:
## each command's docs/ page ends with its current --help), then the whole suite.  Any failure fails it, and so does a run
## that collects no tests (pytest's exit 5).
test: $(STAMP) $(VALIDATORS)
	@$(MAKE) -s --no-print-directory lint
	$(PY) -m pytest

## test-fast: the inner loop -- every test not marked slow (no real pipes,
## installs, crash or concurrency runs); `make test` still runs everything.
test-fast: $(STAMP)
	$(PY) -m pytest -m 'not slow'

lint: $(STAMP)
	$(PY) -m ruff check council_filters tests bench
	$(PY) -m mypy
	$(PY) tests/docs.py --check

## docs: regenerate the --help section of each command's page in docs/
docs: $(STAMP)
	$(PY) tests/docs.py --write

## bench: benchmarks against the reference tools, ratios from one run
bench: $(STAMP) $(VALIDATORS)
	@# Fresh bytecode for the checkout's sources: start-up is part of every timing, and an
	@# environment with PYTHONDONTWRITEBYTECODE would otherwise compile them on every run.
	@$(PY) -m compileall -q council_filters
	@for b in bench/bench_*.py; do $(PY) $$b || exit 1; done

## golden: regenerate golden outputs (review the diff before committing)
golden: $(STAMP)
	$(PY) tests/golden.py --regen

clean:
	rm -rf $(VENV) node_modules build *.egg-info .pytest_cache .mypy_cache .ruff_cache
