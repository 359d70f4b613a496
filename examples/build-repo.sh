#!/bin/sh
# Build the example repository: `main` holds project/base, the checked-out
# branch `feature/session-expiry` adds project/change on top.  Dates and
# identities are pinned, so the commits are the same on every machine.
#   build-repo.sh DEST   (DEST is replaced)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:?usage: build-repo.sh DEST}
rm -rf "$dest"
mkdir -p "$dest"
export GIT_AUTHOR_NAME=example GIT_AUTHOR_EMAIL=example@example.invalid
export GIT_COMMITTER_NAME=example GIT_COMMITTER_EMAIL=example@example.invalid
export GIT_AUTHOR_DATE=2026-01-05T10:00:00Z GIT_COMMITTER_DATE=2026-01-05T10:00:00Z
cd "$dest"
git init -q -b main
git config commit.gpgsign false
cp -R "$here/project/base/." .
git add -A
git commit -q -m "tinyauth: user store and sessions"
git checkout -q -b feature/session-expiry
cp -R "$here/project/change/." .
export GIT_AUTHOR_DATE=2026-01-06T10:00:00Z GIT_COMMITTER_DATE=2026-01-06T10:00:00Z
git add -A
git commit -q -m "sessions: expiry, purge and admin user search"
