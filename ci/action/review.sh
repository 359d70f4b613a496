#!/usr/bin/env bash
# The action's review step: council review over the pull request, the synthesis to the job
# summary, SARIF and reviewdog diagnostics to files, and the outcome as step outputs:
#
#   result     passed | failed | neutral      exit-code  council's exit code
#   sarif      the SARIF file (when written)  rdjsonl    the reviewdog diagnostics
#   comments   true when inline comments can be posted (a same-repository pull request)
#
# This step itself succeeds whenever council ran (the gate step decides the colour after
# the uploads).  Without reviewer commands, or without an API key named in required-env
# (a pull request from a fork gets no secrets), it ends neutral: a notice and a summary
# say why, and the job is neither failed for it nor passed silently.
# Nothing from the inputs is run as code, and no input's value is ever printed.
set -euo pipefail
: "${GITHUB_OUTPUT:?}" "${GITHUB_WORKSPACE:?}" "${RUNNER_TEMP:?}"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
out="$RUNNER_TEMP/council"
mkdir -p "$out"
chmod 700 "$out"
cd "$GITHUB_WORKSPACE"

output() { printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; }

# The pull request, from the event: fork or not, its base branch.
read -r fork event_base < <(python3 - <<'PY'
import json, os, re
pr = {}
try:
    with open(os.environ.get("GITHUB_EVENT_PATH", ""), encoding="utf-8") as fh:
        pr = json.load(fh).get("pull_request") or {}
except (OSError, ValueError, AttributeError):
    pass
head = ((pr.get("head") or {}).get("repo") or {}).get("full_name")
base = ((pr.get("base") or {}).get("repo") or {}).get("full_name")
ref = (pr.get("base") or {}).get("ref") or ""
print("true" if pr and head != base else "false",
      ref if re.fullmatch(r"[A-Za-z0-9._/-]{1,200}", ref) else "-")
PY
)

neutral() {
  local why="$1"
  [ "$fork" = true ] && why="$why This pull request comes from a fork, and GitHub gives such runs no secrets."
  echo "::notice title=council did not run::$why"
  {
    echo "### Council: not run"
    echo
    echo "$why"
    echo
    echo "No verdict was given, so this check neither passes nor fails the change on the council's word."
  } >> "$summary"
  output result neutral
  output exit-code 0
  output comments false
  exit 0
}

# The reviewer commands: the input's text (a secret or the workflow), or a file outside the
# checkout.  Never a file the pull request can change.
commands="$out/commands"
if [ -n "${INPUT_COMMANDS:-}" ]; then
  (umask 077 && printf '%s\n' "$INPUT_COMMANDS" > "$commands")
elif [ -n "${INPUT_COMMANDS_FILE:-}" ]; then
  if [ ! -f "$INPUT_COMMANDS_FILE" ]; then
    echo "::error title=council::commands-file: no such file"
    exit 2
  fi
  real="$(realpath -- "$INPUT_COMMANDS_FILE")"
  workspace="$(realpath -- "$GITHUB_WORKSPACE")"
  case "$real/" in
    "$workspace"/*)
      echo "::error title=council::commands-file is inside the checkout, which the pull request can change; write it under \$RUNNER_TEMP or pass the commands input"
      exit 2
      ;;
  esac
  commands="$real"
else
  neutral "No reviewer commands: the commands input is empty (is its secret or variable set?)."
fi

# The API keys the reviewers need.
missing=()
for name in ${INPUT_REQUIRED_ENV//,/ }; do
  if [[ ! "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
    echo "::error title=council::required-env takes environment variable names"
    exit 2
  fi
  [ -n "${!name:-}" ] || missing+=("$name")
done
if [ "${#missing[@]}" -gt 0 ]; then
  neutral "Not set: ${missing[*]} (needed by the reviewers)."
fi

# The base of the change.
base="${INPUT_BASE:-}"
if [ -z "$base" ]; then
  base_ref="${GITHUB_BASE_REF:-}"
  [ -n "$base_ref" ] || { [ "$event_base" != - ] && base_ref="$event_base"; } || true
  if [ -n "$base_ref" ]; then
    base="origin/$base_ref"
    if ! git rev-parse --verify --quiet "$base^{commit}" > /dev/null; then
      git fetch --no-tags --quiet origin "+refs/heads/$base_ref:refs/remotes/origin/$base_ref" \
        || echo "::warning title=council::could not fetch the base branch (checkout with fetch-depth: 0)"
    fi
  else
    base="HEAD~1"
  fi
fi

args=(review --base "$base" --config "$commands" --report-dir "$out/report"
      --min-reviewers "${INPUT_MIN_REVIEWERS:-1}"
      --sarif "$out/council.sarif" --rdjsonl "$out/council.rdjsonl"
      --job-summary "$out/job-summary.md")
[ -z "${INPUT_FAIL_ON:-}" ] || args+=(--fail-on "$INPUT_FAIL_ON")
[ -z "${INPUT_FAIL_LEVEL:-}" ] || args+=(--fail-level "$INPUT_FAIL_LEVEL")

set +e
council "${args[@]}" > "$out/synthesis.md" 2> "$out/council.log"
code=$?
set -e
cat "$out/council.log" >&2

{
  echo "## Council"
  echo
  if [ -s "$out/job-summary.md" ]; then
    cat "$out/job-summary.md"       # the synthesis and the reviewers' usage
  elif [ -s "$out/synthesis.md" ]; then
    cat "$out/synthesis.md"
  else
    echo "council wrote no synthesis (exit $code); its messages are in the step's log."
  fi
  if [ "$code" -ne 0 ]; then
    echo
    echo "### Why this check failed"
    echo
    # council's own messages name the gates and findings; they carry no reviewer text.
    grep -E '^council(-consolidate)?: ' "$out/council.log" | sed 's/^/    /' || true
  fi
} >> "$summary"

[ ! -s "$out/council.sarif" ] || output sarif "$out/council.sarif"
if [ -s "$out/council.rdjsonl" ]; then
  output rdjsonl "$out/council.rdjsonl"
fi
if [ "${GITHUB_EVENT_NAME:-}" = pull_request ] || [ "${GITHUB_EVENT_NAME:-}" = pull_request_target ]; then
  if [ "$fork" = true ] && [ "${INPUT_INLINE_COMMENTS:-false}" = true ]; then
    echo "::notice title=council::no inline comments on a fork's pull request (its token cannot write reviews); the findings are in the summary and in code scanning"
    output comments false
  elif [ -s "$out/council.rdjsonl" ]; then
    output comments true
  else
    output comments false
  fi
else
  output comments false
fi
output exit-code "$code"
if [ "$code" -eq 0 ]; then output result passed; else output result failed; fi
