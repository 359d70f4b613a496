#!/usr/bin/env bash
# The action's last step: the job's colour, decided after the summary, the SARIF upload and
# the inline comments are done.  neutral (not run: a notice said why) and passed end green;
# failed ends red with council's own exit code.
set -euo pipefail
case "${COUNCIL_RESULT:-}" in
  passed | neutral) exit 0 ;;
  failed)
    code="${COUNCIL_EXIT:-1}"
    [[ "$code" =~ ^[0-9]+$ ]] && [ "$code" -ne 0 ] || code=1
    echo "::error title=council::the council's gate failed (exit $code); the job summary names the reasons"
    exit "$code"
    ;;
  *)
    echo "::error title=council::the review step gave no result"
    exit 1
    ;;
esac
