#!/usr/bin/env bash
# The action's inline comments: the findings as reviewdog diagnostics (rdjsonl, with
# `suggestions` where a reviewer gave replacement code) posted as one pull-request review.
# Only lines the pull request added are commented on; reviewdog never fails the job (the
# gate step does that).
set -euo pipefail
: "${COUNCIL_RDJSONL:?}"
reviewdog -f=rdjsonl -name=council -reporter=github-pr-review -filter-mode=added \
  -fail-level=none < "$COUNCIL_RDJSONL"
