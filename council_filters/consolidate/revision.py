"""Files at the reviewed revision, for snippets and the evidence check, read safely in one pass.

Everything comes from git's object store at one revision (HEAD, or a scope's
snapshot commit): one ``ls-tree`` listing for all the paths, one
``check-ignore`` pass, one ``cat-file --batch`` stream for all the blobs.  The
repository's own configuration cannot make git run anything or rewrite what
is read: hooks, fsmonitor, attributes and replace refs are switched off and no
textconv or filter is ever asked for.  Nothing outside the repository is read:
a path that is absolute or climbs with ``..``, anything under ``.git/``, a
submodule, an ignored file, and a symlink whose target leaves the repository
all come back without lines, with the reason.  Binary and huge files are not
read either.  Every file's text is redacted before any line of it is used.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Sequence
from typing import TYPE_CHECKING

from council_filters.base import safefs
from council_filters.base.errors import DataError
from council_filters.base.paths import repo_path
from council_filters.consolidate.evidence import FileText

if TYPE_CHECKING:
    from council_filters.pack.git import GitRepo

MAX_SOURCE_BYTES = 8 * 1024 * 1024
MAX_LINKS = 8
# git options that neutralise what a reviewed repository's configuration could do.
SAFE_OPTIONS = (
    "-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null",
    "-c", "core.attributesFile=/dev/null", "-c", "core.untrackedCache=false",
)
SAFE_ENV = {"GIT_ATTR_NOSYSTEM": "1", "GIT_NO_REPLACE_OBJECTS": "1"}

OUTSIDE = "names a path outside the repository"
DOTDOT = "a path with '..' segments is not followed"
IN_GIT = "a path inside .git/ is never read"
NOT_READ = "the reviewed revision could not be read"


def _reason(text: str) -> FileText:
    return FileText(None, text)


def classify(path: str) -> str | None:
    """Why ``path`` is never read (None: a plain repository-relative path)."""
    p = path.replace("\\", "/")
    if ".." in p.split("/"):
        return DOTDOT
    rel = repo_path(path)
    if rel is None:
        return OUTSIDE
    if any(part.lower() == ".git" for part in rel.split("/")):
        return IN_GIT
    return None


class RevisionFiles:
    """Reads paths (relative to ``root``) as they are at ``rev``."""

    def __init__(self, root: str, rev: str = "HEAD") -> None:
        self.root = root
        self.rev = rev
        self._repo: GitRepo | None = None
        self._prefix = ""
        self._found = False

    def _git(self) -> GitRepo | None:
        if not self._found:
            from council_filters.pack.git import GitRepo

            self._found = True
            try:
                repo = GitRepo.discover(self.root)
            except DataError:
                return None
            rel = os.path.relpath(self.root, os.path.realpath(repo.root))
            self._repo = repo
            self._prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        return self._repo

    def _run(self, args: Sequence[str], stdin: bytes | None = None, ok: Sequence[int] = (0,)
             ) -> bytes:
        repo = self._git()
        assert repo is not None
        out: bytes = repo.run([*SAFE_OPTIONS, *args], stdin=stdin, ok_codes=ok,
                              env=SAFE_ENV).stdout
        return out

    def _entries(self, full: Sequence[str]) -> dict[str, tuple[str, str]]:
        """``{full path: (mode, oid)}`` at the revision; missing paths are absent."""
        out: dict[str, tuple[str, str]] = {}
        for i in range(0, len(full), 500):
            raw = self._run(["ls-tree", "-z", "--full-tree", self.rev, "--",
                             *[":(literal)" + p for p in full[i:i + 500]]])
            for rec in raw.split(b"\0"):
                if not rec:
                    continue
                meta, _, name = rec.partition(b"\t")
                mode, _kind, oid = meta.decode("ascii").split(" ")
                out[os.fsdecode(name)] = (mode, oid)
        return out

    def _blobs(self, oids: Sequence[str], limit: int) -> dict[str, tuple[bytes, int]]:
        repo = self._git()
        assert repo is not None
        got: dict[str, tuple[bytes, int]] = {}
        for oid, data, size in repo.read_blobs(list(dict.fromkeys(oids)), limit,
                                               options=SAFE_OPTIONS, env=SAFE_ENV):
            got[oid] = (data, size)
        return got

    def _ignored(self, full: Sequence[str]) -> set[str]:
        if not full:
            return set()
        raw = self._run(["check-ignore", "--no-index", "-z", "--stdin"],
                        stdin=b"".join(os.fsencode(p) + b"\0" for p in full), ok=(0, 1))
        return {os.fsdecode(p) for p in raw.split(b"\0") if p}

    def _follow(self, links: dict[str, str], entries: dict[str, tuple[str, str]]
                ) -> dict[str, str | FileText]:
        """For each symlink (full path -> oid): the tracked file it ends at, or why not."""
        out: dict[str, str | FileText] = {}
        current = dict(links)
        hops: dict[str, str] = {p: p for p in links}  # where each original link is now
        for _ in range(MAX_LINKS):
            if not current:
                break
            targets = self._blobs(list(current.values()), 4096)
            nxt: dict[str, str] = {}
            want: dict[str, str] = {}
            for link, oid in current.items():
                target = os.fsdecode(targets.get(oid, (b"", 0))[0])
                base = posixpath.dirname(link)
                joined = posixpath.normpath(posixpath.join(base, target))
                if (target.startswith("/") or joined == ".." or joined.startswith("../")
                        or not target or (self._prefix and not joined.startswith(self._prefix))):
                    for orig, at in hops.items():
                        if at == link:
                            out[orig] = _reason("a symlink pointing out of the repository")
                    continue
                want[link] = joined
            found = self._entries(sorted(set(want.values()))) if want else {}
            entries.update(found)
            for link, joined in want.items():
                entry = found.get(joined)
                for orig, at in list(hops.items()):
                    if at != link or orig in out:
                        continue
                    if entry is None:
                        out[orig] = _reason("a symlink to a path missing at the reviewed"
                                            " revision")
                    elif entry[0] == "120000":
                        hops[orig] = joined
                        nxt[joined] = entry[1]
                    elif entry[0] in ("100644", "100755"):
                        out[orig] = joined
                    else:
                        out[orig] = _reason("a symlink to a directory or a submodule")
            current = nxt
        for orig in links:
            out.setdefault(orig, _reason("a chain of symlinks too long to follow"))
        return out

    def read(self, paths: Sequence[str]) -> dict[str, FileText]:
        """``{path: FileText}`` for every path given."""
        out: dict[str, FileText] = {}
        full: dict[str, str] = {}
        for p in paths:
            why = classify(p)
            if why is not None:
                out[p] = _reason(why)
                continue
            rel = repo_path(p)
            assert rel is not None
            full[p] = self._prefix + rel if self._git() is not None else rel
        if not full:
            return out
        if self._git() is None:
            out.update({p: _reason("not in a git repository") for p in full})
            return out
        try:
            self._read(full, out)
        except (DataError, OSError, ValueError):
            for p in full:
                out.setdefault(p, _reason(NOT_READ))
        return out

    def _read(self, full: dict[str, str], out: dict[str, FileText]) -> None:
        from council_filters.redaction.shown import redact_shaped

        entries = self._entries(sorted(set(full.values())))
        links = {f: entries[f][1] for f in set(full.values())
                 if f in entries and entries[f][0] == "120000"}
        resolved = self._follow(links, entries) if links else {}
        target: dict[str, str] = {}
        for p, f in full.items():
            entry = entries.get(f)
            if entry is None:
                out[p] = _reason("no such file at the reviewed revision")
            elif entry[0] == "160000":
                out[p] = _reason("a submodule: its files are not in this repository")
            elif entry[0] == "120000":
                r = resolved[f]
                if isinstance(r, FileText):
                    out[p] = r
                else:
                    target[p] = r
            elif entry[0] not in ("100644", "100755"):
                out[p] = _reason("a directory, not a file")
            else:
                target[p] = f
        ignored = self._ignored(sorted(set(target.values())))
        for p in [p for p, f in target.items() if f in ignored]:
            out[p] = _reason("a file the repository ignores is never read")
            del target[p]
        blobs = self._blobs([entries[f][1] for f in target.values()], MAX_SOURCE_BYTES)
        texts: dict[str, FileText] = {}
        for p, f in target.items():
            oid = entries[f][1]
            if oid not in texts:
                data, size = blobs.get(oid, (b"", -1))
                if size < 0:
                    texts[oid] = _reason(NOT_READ)
                elif size > MAX_SOURCE_BYTES:
                    texts[oid] = _reason(f"a file over {MAX_SOURCE_BYTES >> 20} MiB is not read")
                elif safefs.is_binary(data):
                    texts[oid] = _reason("a binary file")
                else:
                    # Redacted as the pack was: only the credential's span, so a quote
                    # of the pack's line (its placeholder standing for the value) matches.
                    red, changed = redact_shaped(data)
                    text = red.decode("utf-8", errors="replace").replace("\r\n", "\n")
                    texts[oid] = FileText(text.split("\n"), None, frozenset(changed))
            out[p] = texts[oid]


def _repo_at(root: str) -> GitRepo:
    from council_filters.pack.git import GitRepo

    return GitRepo.discover(root)


def check_revision(root: str, rev: str) -> None:
    """Raise a DataError unless ``rev`` names a commit in the repository at ``root``
    (the revision is never read as an option)."""
    from council_filters.pack.git import check_ref

    if not rev or rev.startswith("-") or not rev.isprintable() or any(c.isspace() for c in rev):
        raise DataError("a revision cannot be empty, start with '-' or hold blanks")
    if not (rev == "HEAD" or rev.startswith(("HEAD~", "HEAD^"))):
        check_ref(rev.split("~")[0].split("^")[0])
    repo = _repo_at(root)
    res = repo.run([*SAFE_OPTIONS, "rev-parse", "--verify", "--quiet", "--end-of-options",
                    rev + "^{commit}"], ok_codes=range(256), env=SAFE_ENV)
    if res.returncode != 0:
        raise DataError(f'no commit "{rev}" in the repository')


def change(root: str, base: str, rev: str) -> bytes:
    """The reviewed change, ``git diff BASE...REV``: no external diff, no textconv, no
    colour, the repository's configuration neutralised, renames found."""
    repo = _repo_at(root)
    out: bytes = repo.run([*SAFE_OPTIONS, "-c", "diff.external=", "diff", "--no-color",
                           "--no-ext-diff", "--no-textconv", "-M", f"{base}...{rev}"],
                          env=SAFE_ENV).stdout
    return out
