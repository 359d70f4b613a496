"""Putting one review context together: diff, metadata, spec, docs, stack, test commands.

The only side effects are reading the work tree and running ``git`` (and
``gh`` for ``--pr`` when it is installed); nothing of the repository is run.
See ``docs/context.md`` for the object and every rule.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from council_filters.base import childenv, gitcmd
from council_filters.base import diffs as diffparse
from council_filters.base.errors import DataError, UsageError
from council_filters.context import specs
from council_filters.context import stack as stk
from council_filters.pack.git import GitFailed, GitRepo, check_ref

DEFAULT_THRESHOLD = 80
READ_CAP = 1 << 20  # manifests and docs are read up to 1 MiB each
MAX_COMMITS = 100
#: Base candidates when none is given: the remote's default branch, then the usual names.
BASE_CANDIDATES = ("origin/HEAD", "main", "master", "trunk", "develop", "origin/main",
                   "origin/master")
#: The gaps ``missing`` may name, in report order, and the class each has alone.
GAP_ORDER = ("diff", "spec", "konecty_task", "codebase_docs", "test_cmd")
READINESS = ("ready", "degraded", "critical", "blocking")
GH_TIMEOUT = 30


@dataclass(frozen=True)
class Options:
    repo: str = "."
    base: str | None = None
    pr: int | None = None
    spec: str | None = None
    task: str | None = None
    feature: str | None = None
    diff: bytes | None = None  # a pre-supplied diff
    test_cmd: str | None = None
    coverage_cmd: str | None = None
    threshold: float | None = None
    committed: bool = False  # only BASE...HEAD, never the work tree's uncommitted changes
    #: What the diff covers: ``base`` (BASE...HEAD, plus the work tree unless ``committed``),
    #: ``worktree`` (HEAD against every uncommitted change, untracked files included),
    #: ``staged`` (HEAD against the index) or ``commit`` (``commit`` against its first parent).
    scope: str = "base"
    commit: str | None = None


SCOPES = ("base", "worktree", "staged", "commit")


@dataclass
class Facts:
    """What git (or the file system) told us."""

    root: Path
    git: GitRepo | None
    files: list[str]
    notes: list[str] = field(default_factory=list)


def reader(root: Path) -> Callable[[str], bytes | None]:
    def read(path: str) -> bytes | None:
        full = root / path
        try:
            if full.is_symlink() or not full.is_file():
                return None
            with open(full, "rb") as fh:
                return fh.read(READ_CAP)
        except OSError:
            return None
    return read


def _walk(root: Path) -> list[str]:
    out = []
    for directory, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in stk.SKIP_DIRS)
        rel = os.path.relpath(directory, root)
        for name in names:
            out.append(name if rel == "." else f"{rel}/{name}".replace(os.sep, "/"))
    return out


def gather(repo: str) -> Facts:
    """The repository holding ``repo``: the top of its git work tree, else the folder itself."""
    root = Path(repo)
    if not root.is_dir():
        raise UsageError("not a directory", source=repo)
    root = root.resolve()
    try:
        git = GitRepo.discover(root)
    except DataError:
        return Facts(root, None, _walk(root), ["not in a git work tree: no git metadata"])
    root = Path(git.root).resolve()
    raw = git.out("ls-files", "-z", "--cached", "--others", "--exclude-standard")
    files = [os.fsdecode(p) for p in raw.split(b"\0") if p]
    present = [f for f in files if (root / f).exists() or (root / f).is_symlink()]
    return Facts(root, git, present)


def _gh(args: list[str], cwd: Path) -> bytes | None:
    exe = shutil.which("gh", path=childenv.safe_path(os.environ.get("PATH", os.defpath)))
    if exe is None:
        return None
    env = gitcmd.config_env({**gitcmd.env(), "GH_PROMPT_DISABLED": "1", "NO_COLOR": "1"})
    try:  # gh runs git in the checkout: the same overrides reach it through the environment
        res = subprocess.run([exe, *args], cwd=cwd, capture_output=True, timeout=GH_TIMEOUT,
                             check=False, stdin=subprocess.DEVNULL, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return res.stdout if res.returncode == 0 else None


def pr_metadata(number: int, facts: Facts) -> dict[str, Any] | None:
    raw = _gh(["pr", "view", str(number), "--json",
               "number,title,body,url,headRefName,baseRefName"], facts.root)
    if raw is None:
        return None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    return {k: data.get(k) for k in ("number", "title", "body", "url", "headRefName",
                                     "baseRefName")}


def resolve_base(git: GitRepo, supplied: str | None, pr: dict[str, Any] | None
                 ) -> tuple[str | None, str]:
    """(base ref, how it was chosen)."""
    if supplied is not None:
        check_ref(supplied)
        if not git.verify_commit(supplied):
            raise DataError(f'base "{supplied}" is not a commit in this repository')
        return supplied, "supplied"
    if pr and isinstance(pr.get("baseRefName"), str):
        for cand in (f"origin/{pr['baseRefName']}", pr["baseRefName"]):
            try:
                check_ref(cand)
            except DataError:
                continue
            if git.verify_commit(cand):
                return cand, "pr"
    branch = git.branch_name()
    head = git.out("rev-parse", "HEAD").strip()
    same: str | None = None  # a candidate at HEAD's own commit: the diff is empty
    for cand in BASE_CANDIDATES:
        if cand == branch or not git.verify_commit(cand):
            continue
        if git.out("rev-parse", cand + "^{commit}").strip() == head:
            same = same or cand
            continue
        return cand, "default"
    return (same, "default") if same else (None, "none")


MAX_UNTRACKED = 500


def worktree_diff(git: GitRepo, since: str) -> bytes | None:
    """The work tree against commit ``since`` (committed and uncommitted changes, new
    untracked files included), or None when the work tree has no uncommitted change.

    Untracked files that are empty are left out: they are most often the file a shell
    redirect just created for this very run.
    """
    status = git.out("status", "--porcelain", "-z", "--untracked-files=all")
    if not status.strip(b"\0"):
        return None
    parts = [git.out("diff", "--no-color", "--no-ext-diff", "--text", "-M", since, "--")]
    untracked = [os.fsdecode(p) for p in git.out(
        "ls-files", "-z", "--others", "--exclude-standard").split(b"\0") if p]
    for path in sorted(untracked)[:MAX_UNTRACKED]:
        full = git.root / path
        if full.is_symlink() or not full.is_file() or full.stat().st_size == 0:
            continue
        parts.append(git.run(["diff", "--no-color", "--no-ext-diff", "--text", "--no-index", "--",
                              "/dev/null", path], ok_codes=(0, 1)).stdout)
    return diffparse.text_diff(b"".join(parts))


def _commits(git: GitRepo, merge_base: str) -> list[dict[str, str]]:
    raw = git.out("log", "--reverse", f"--max-count={MAX_COMMITS}", "--format=%H%x00%s%x00",
                  f"{merge_base}..HEAD")
    parts = raw.split(b"\0")
    out = []
    for i in range(0, len(parts) - 1, 2):
        sha = parts[i].strip().decode("ascii", "replace")
        if sha:
            out.append({"commit": sha, "subject": parts[i + 1].decode("utf-8", "replace")})
    return out


def collect(opts: Options) -> dict[str, Any]:
    """The context object (see docs/context.md)."""
    return collect_with_diff(opts)[0]


def _scoped(git: GitRepo, opts: Options, head_sha: str
            ) -> tuple[bytes, str, str, str, dict[str, Any] | None]:
    """(diff, base, how, merge base, head override) for the worktree, staged and commit scopes."""
    if opts.scope == "worktree":
        return worktree_diff(git, head_sha) or b"", "HEAD", "worktree", head_sha, None
    if opts.scope == "staged":
        diff = git.out("diff", "--no-color", "--no-ext-diff", "-M", "--cached", head_sha, "--")
        return diff, "HEAD", "staged", head_sha, None
    from council_filters.council.scope import commit_of

    sha = commit_of(git, opts.commit or "", "--commit")
    res = git.run(["rev-parse", "--verify", "--quiet", sha + "^1"], ok_codes=range(256))
    parent = res.stdout.decode("ascii", "replace").strip() if res.returncode == 0 else None
    args = ["diff", "--no-color", "--no-ext-diff", "-M"]
    diff = git.out(*args, parent, sha, "--") if parent else git.out(
        "show", "--no-color", "--no-ext-diff", "--format=", "--root", sha, "--")
    head = {"branch": None, "commit": sha,
            "subject": git.out("log", "-1", "--format=%s", sha).rstrip(b"\n")
            .decode("utf-8", "replace")}
    return diff, parent or sha, "commit", parent or sha, head


def collect_with_diff(opts: Options) -> tuple[dict[str, Any], bytes]:
    """The context object and the unified diff it describes (what a reviewer is shown)."""
    if opts.scope not in SCOPES:
        raise UsageError(f"unknown scope {opts.scope!r} (one of: {', '.join(SCOPES)})")
    facts = gather(opts.repo)
    tree = stk.Tree(facts.files, reader(facts.root))
    notes = list(facts.notes)
    git = facts.git

    pr = None
    if opts.pr is not None:
        pr = pr_metadata(opts.pr, facts)
        if pr is None:
            notes.append(f"PR #{opts.pr}: gh is not installed or could not read it;"
                         " number kept, no metadata")
            pr = {"number": opts.pr}

    head: dict[str, Any] = {"branch": None, "commit": None, "subject": None}
    base = base_how = merge_base = None
    commits: list[dict[str, str]] = []
    diff = opts.diff
    diff_source = "supplied" if diff is not None else None
    if git is not None:
        has_head = git.verify_commit("HEAD")
        if has_head:
            branch = git.branch_name()
            head = {"branch": None if branch == "HEAD" else branch,
                    "commit": git.out("rev-parse", "HEAD").strip().decode("ascii"),
                    "subject": git.out("log", "-1", "--format=%s").rstrip(b"\n")
                    .decode("utf-8", "replace")}
            if opts.scope != "base":
                diff, base, base_how, merge_base, other = _scoped(git, opts, head["commit"])
                diff_source = opts.scope
                head = other or head
            else:
                base, base_how = resolve_base(git, opts.base, pr)
            if opts.scope == "base" and base is not None:
                merge_base = git.merge_base(base)
                if merge_base is None:
                    notes.append(f"{base} and HEAD share no history")
                else:
                    commits = _commits(git, merge_base)
                    if diff is None:
                        diff, diff_source = git.diff(base), "git"
            if diff_source in (None, "git") and not opts.committed and (
                    merge_base is not None or base is None):
                since = merge_base or head["commit"]
                local = worktree_diff(git, since)
                if local is not None:
                    diff, diff_source = local, "worktree"
                    if base is None:
                        base, base_how, merge_base = "HEAD", "worktree", since
        else:
            notes.append("the repository has no commits yet")
    elif opts.base is not None or opts.scope != "base":
        raise DataError(f"--{opts.scope} needs a git work tree", source=opts.repo)
    if diff_source == "worktree" and opts.scope == "base":
        notes.append("the diff includes uncommitted changes (--committed leaves them out)")
    if diff is None and pr is not None and opts.pr is not None and opts.base is None:
        fetched = _gh(["pr", "diff", str(opts.pr)], facts.root)
        if fetched is not None:
            diff, diff_source = fetched, "gh"

    files = diffparse.parse(diff or b"")
    changed = [f.path for f in files]

    # Spec: supplied, else matched on the feature name or the branch.
    spec: dict[str, Any] | None = None
    if opts.spec is not None:
        spec = _supplied_spec(facts, tree, opts.spec)
    else:
        names = [("feature", opts.feature)] if opts.feature else []
        if head["branch"]:
            names.append(("branch", head["branch"]))
        if pr and isinstance(pr.get("headRefName"), str):
            names.append(("branch", pr["headRefName"]))
        match = specs.find_spec(tree, names)
        if match is not None:
            spec = {"path": match.path, "kind": match.kind, "matched_on": match.matched_on,
                    "files": specs.spec_files(tree, match.path)}

    docs = specs.codebase_docs(tree)
    declared, declared_from = specs.declared(tree)

    stacks = stk.detect(tree, changed)
    for s in stacks:
        notes.extend(s.notes)
    apply_declared(stacks, declared)
    runs = _test_runs(stacks, opts, declared)
    test_cmd = runs[0]["test_cmd"] if len(runs) == 1 else None
    coverage_cmd = opts.coverage_cmd or declared.get("coverage_cmd") or (
        runs[0]["coverage_cmd"] if len(runs) == 1 else None)
    if len(runs) == 1 and runs[0]["coverage_cmd"] is None and coverage_cmd:
        runs[0]["coverage_cmd"] = coverage_cmd
    threshold, threshold_source = _threshold(opts, declared, stacks)

    missing_alone = {
        "diff": not files,
        "spec": spec is None,
        "konecty_task": not (opts.task and opts.task.strip()),
        "codebase_docs": not docs,
        "test_cmd": not runs,
    }
    missing = [g for g in GAP_ORDER if missing_alone[g]]
    readiness, gaps = classify(missing)
    if missing_alone["diff"]:
        notes.append(_why_no_diff(git, base, base_how, merge_base, diff))

    return {
        "kind": "context",
        "scope": opts.scope,
        "base": base,
        "base_source": base_how if base is not None else None,
        "merge_base": merge_base,
        "head": head,
        "commits": commits,
        "pr": pr,
        "task": opts.task if opts.task and opts.task.strip() else None,
        "diff": {
            "source": diff_source if files else None,
            "files_changed": len(files),
            "added": sum(len(f.added) for f in files),
            "removed": sum(f.removed for f in files),
            "files": [f.summary() for f in files],
        },
        "spec": spec,
        "codebase_docs": docs,
        "declared": {**declared, "from": declared_from} if declared else None,
        "stack": [s.record() for s in stacks],
        "test_cmd": test_cmd,
        "coverage_cmd": coverage_cmd,
        "coverage_threshold": stk.number(threshold),
        "coverage_threshold_source": threshold_source,
        "test_runs": runs,
        "missing": missing,
        "readiness": readiness,
        "gaps": gaps,
        "notes": sorted(set(notes)),
    }, diff or b""


def apply_declared(stacks: list[stk.Stack], declared: dict[str, Any]) -> None:
    """STACK.md / TESTING.md win: a declared language, manager or framework replaces the
    detected one when the change has one stack, and stands alone when nothing was detected."""
    values = {k: str(declared[k]).split()[0].lower().strip(",;")
              for k in ("language", "manager", "framework") if declared.get(k)}
    if not values and not (declared.get("test_cmd") or declared.get("coverage_cmd")):
        return
    if not stacks:
        if not values:
            return
        lang = values.get("language")
        stacks.append(stk.Stack(".", stk.LANGUAGE_ECOSYSTEMS.get(lang or "", lang or "unknown"),
                                lang or "unknown", values.get("manager", "unknown"),
                                stk.join(specs.CODEBASE, "STACK.md"),
                                framework=values.get("framework"), source="docs"))
        return
    if len(stacks) == 1:
        stack = stacks[0]
        for key in ("test_cmd", "coverage_cmd"):
            if declared.get(key) and getattr(stack, key) != declared[key]:
                setattr(stack, key, str(declared[key]))
                stack.source = "docs"
        for key, value in values.items():
            if getattr(stack, key) != value:
                setattr(stack, key, value)
                stack.source = "docs"


def _why_no_diff(git: GitRepo | None, base: str | None, how: str | None,
                 merge_base: str | None, diff: bytes | None) -> str:
    if git is None:
        return "no diff: not a git work tree and no --diff given"
    if base is None:
        return "no diff: no base branch found (give --base REF)"
    if merge_base is None:
        return f"no diff: {base} and HEAD share no history"
    if diff is not None and diff.strip():
        return "no diff: the diff names no file"
    return f"no diff: HEAD has no changes against {base}"


def classify(missing: list[str]) -> tuple[str, list[dict[str, str]]]:
    """Readiness and the class of each gap (diff blocking; spec+task critical; else degradable)."""
    both = "spec" in missing and "konecty_task" in missing
    gaps = []
    for item in missing:
        if item == "diff":
            cls = "blocking"
        elif item in ("spec", "konecty_task") and both:
            cls = "critical"
        else:
            cls = "degradable"
        gaps.append({"item": item, "class": cls})
    if any(g["class"] == "blocking" for g in gaps):
        readiness = "blocking"
    elif any(g["class"] == "critical" for g in gaps):
        readiness = "critical"
    elif gaps:
        readiness = "degraded"
    else:
        readiness = "ready"
    return readiness, gaps


def _supplied_spec(facts: Facts, tree: stk.Tree, given: str) -> dict[str, Any]:
    path = Path(given)
    full = path if path.is_absolute() else facts.root / path
    if not full.exists():
        raise UsageError("spec not found", source=given)
    try:
        rel = full.resolve().relative_to(facts.root).as_posix()
    except ValueError:
        rel = None
    if full.is_dir():
        files = sorted(p.relative_to(full).as_posix() for p in full.rglob("*") if p.is_file())
    else:
        files = [full.name]
    return {"path": rel if rel is not None else given, "kind": "supplied",
            "matched_on": "supplied", "files": files}


def _test_runs(stacks: list[stk.Stack], opts: Options, declared: dict[str, Any]
               ) -> list[dict[str, Any]]:
    """What council-tests runs: one repo-level command (given or declared), else one per stack."""
    given = opts.test_cmd or declared.get("test_cmd")
    if given:
        source = "supplied" if opts.test_cmd else "docs"
        frameworks = {s.framework for s in stacks if s.framework}
        return [{"root": ".", "test_cmd": given,
                 "coverage_cmd": opts.coverage_cmd or declared.get("coverage_cmd"),
                 "framework": declared.get("framework") or (
                     frameworks.pop() if len(frameworks) == 1 else None),
                 "source": source}]
    runs = []
    seen = set()
    for s in stacks:
        if s.test_cmd is None or (s.root, s.test_cmd) in seen:
            continue
        seen.add((s.root, s.test_cmd))
        runs.append({"root": s.root, "test_cmd": s.test_cmd, "coverage_cmd": s.coverage_cmd,
                     "framework": s.framework, "source": s.source})
    return runs


def _threshold(opts: Options, declared: dict[str, Any], stacks: list[stk.Stack]
               ) -> tuple[float, str]:
    if opts.threshold is not None:
        return opts.threshold, "supplied"
    if isinstance(declared.get("coverage_threshold"), (int, float)):
        return float(declared["coverage_threshold"]), "docs"
    configured = sorted({s.coverage_threshold for s in stacks if s.coverage_threshold is not None})
    if configured:
        return configured[-1], "config"
    return float(DEFAULT_THRESHOLD), "default"


__all__ = ["Options", "collect", "classify", "GitFailed"]
