#!/usr/bin/env bash
# The action's install step: council-filters from the action's own checkout (never from a
# package index by name) into a private virtual environment, put on PATH for the next steps.
# The C module is built when the runner has a compiler; otherwise the pure-Python one is used.
set -euo pipefail
: "${GITHUB_ACTION_PATH:?}" "${RUNNER_TEMP:?}" "${GITHUB_PATH:?}"
python="${COUNCIL_PYTHON:-python3}"
venv="$RUNNER_TEMP/council-filters-venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$GITHUB_ACTION_PATH"
echo "$venv/bin" >> "$GITHUB_PATH"
