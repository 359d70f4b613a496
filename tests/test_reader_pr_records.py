"""Saved pull-request review data read whatever its nesting (issue: read what real reviewers
print, item 7): review comments known by their keys, threads, replies and resolved state,
the badges of their bodies, and the bodies a review bot posts with no place.  Every record
below is written for these tests; none is a reviewer's text."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from council_filters.verdict import formats, pr_records, reading

from conftest import run_filter


def read(raw: str | bytes) -> reading.Reading:
    return reading.read(raw if isinstance(raw, bytes) else raw.encode(), "tester")


def with_another(rec: dict[str, Any]) -> str:
    """``rec`` saved after a plain comment on another file (the array then holds two)."""
    return json.dumps([rest(99, "docs/notes.md", "The heading skips a level.", 3), rec])


def where(got: reading.Reading) -> list[tuple[Any, ...]]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings]


def places(got: reading.Reading) -> list[tuple[Any, Any]]:
    return [(f.get("file"), f.get("line")) for f in got.findings]


BOT = {"login": "lint-reviewer[bot]", "type": "Bot"}
HUMAN = {"login": "maintainer-k", "type": "User"}

# a REST review comment, as `gh api repos/o/r/pulls/7/comments` saves one
def rest(cid: int, path: str, body: str, line: int | None = None, **extra: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "url": f"https://api.github.com/repos/o/r/pulls/comments/{cid}", "id": cid,
        "pull_request_review_id": 900 + cid, "diff_hunk": "@@ -1,3 +1,4 @@\n+x = 1",
        "path": path, "commit_id": "c0ffee", "original_commit_id": "c0ffee", "user": BOT,
        "body": body, "created_at": "2026-05-01T10:00:00Z", "line": line,
        "original_line": line, "start_line": None, "side": "RIGHT", "position": 4,
        "subject_type": "line", "in_reply_to_id": None}
    rec.update(extra)
    return rec


POTENTIAL = ("_\u26a0\ufe0f Potential issue_\n\n**The cache key leaves out the tenant**\n\n"
             "Two tenants reading the same report share one entry.")
REFACTOR = ("_\U0001f6e0\ufe0f Refactor suggestion_\n\n**Split the parser from the loader**\n\n"
            "The two halves change for different reasons.")
MAJOR = ("_\u26a0\ufe0f Potential issue_ | _\U0001f7e0 Major_\n\n**A retry posts the entry twice**"
         "\n\nThe retry wrapper runs after the commit.")


# --------------------------------------------------------------------------- #
# any nesting, known by the records' keys
# --------------------------------------------------------------------------- #
def test_review_comments_kept_under_any_key_are_read_at_their_envelope() -> None:
    # a tool saved the comments of two pull requests in an object keyed by their number
    saved = {"repository": "o/r", "pulls": {
        "41": {"title": "cache", "review_comments": [rest(1, "svc/cache.py", MAJOR, 30)]},
        "42": {"title": "parser", "review_comments": [rest(2, "svc/parse.py", REFACTOR, 12)]}}}
    got = read(json.dumps(saved, indent=2))
    assert where(got) == [("svc/cache.py", 30, "medium"), ("svc/parse.py", 12, "minor")]


def test_an_array_of_one_review_comment_is_read() -> None:
    got = read(json.dumps([rest(2, "svc/parse.py", REFACTOR, 12)]))
    assert where(got) == [("svc/parse.py", 12, "minor")]


def test_the_envelope_place_decides_over_a_place_the_body_cites() -> None:
    body = ("_\u26a0\ufe0f Potential issue_ | _\U0001f534 Critical_\n\n**The lock is never "
            "released**\n\nUnlike `svc/other.py:88`, this path returns before the unlock.")
    got = read(with_another(rest(3, "svc/lock.py", body, 51)))
    assert where(got)[1:] == [("svc/lock.py", 51, "critical")]


def test_a_comment_whose_line_moved_on_keeps_the_line_it_was_written_on() -> None:
    rec = rest(4, "svc/lock.py", MAJOR, None, original_line=77, start_line=70)
    got = read(with_another(rec))
    assert places(got)[1:] == [("svc/lock.py", 77)]


def test_a_comment_saved_with_only_its_diff_position_takes_its_line_from_the_hunk() -> None:
    # older saves carry `position` (a place in the diff) and the hunk up to the line
    hunk = ("@@ -40,6 +40,8 @@ def load(path):\n     data = read(path)\n-    check(data)\n"
            "+    if not data:\n+        return None\n     return parse(data)")
    old = {"path": "svc/load.py", "position": 5, "original_position": 5, "diff_hunk": hunk,
           "body": "An empty file now returns None.", "user": BOT}
    removed = dict(old, diff_hunk="@@ -40,3 +40,2 @@\n     data = read(path)\n-    check(data)",
                   body="The check is gone.")
    file_level = dict(old, subject_type="file", body="The module has no tests.")
    got = read(json.dumps([old, removed, file_level]))
    assert places(got) == [("svc/load.py", 43), ("svc/load.py", 41), ("svc/load.py", None)]


def test_graphql_reviews_with_their_comments_are_one_finding_a_comment() -> None:
    # reviews.nodes[].comments.nodes[]: a review holds comments at places of their own
    dump = {"data": {"repository": {"pullRequest": {"reviews": {"nodes": [
        {"author": {"login": "copilot-pull-request-reviewer"}, "state": "COMMENTED",
         "comments": {"nodes": [
             {"path": "web/menu.tsx", "line": 14, "body": "The index is never used."},
             {"path": "web/menu.tsx", "line": 40, "body": "The timer is not cleared."}]}}]}}}}}
    got = read(json.dumps(dump))
    assert places(got) == [("web/menu.tsx", 14), ("web/menu.tsx", 40)]


def test_snake_case_review_threads_with_their_resolution_state() -> None:
    # the shape an MCP server gives: review_threads[] with is_resolved / is_outdated
    saved = {"review_threads": [
        {"is_resolved": True, "is_outdated": False, "comments": [
            {"body": "Add a label to the button.", "path": "ui/bar.tsx", "line": 9,
             "author": "copilot-pull-request-reviewer"}]},
        {"is_resolved": False, "is_outdated": True, "comments": [
            {"body": "The icon draws a person, not a headset.", "path": "ui/bar.tsx",
             "line": None, "original_line": 31, "author": "copilot-pull-request-reviewer"},
            {"body": "Good point, swapping it.", "path": "ui/bar.tsx", "author": "dev-a"}]}],
        "total_count": 2}
    got = read(json.dumps(saved))
    assert places(got) == [("ui/bar.tsx", 31)]


def test_gitlab_discussions_take_their_place_from_the_position() -> None:
    saved = [
        {"id": "d1", "individual_note": False, "notes": [
            {"id": 1, "type": "DiffNote", "body": "This query runs once per row.",
             "author": {"username": "review-bot"}, "resolvable": True, "resolved": False,
             "position": {"base_sha": "a", "head_sha": "b", "old_path": "db/rows.rb",
                          "new_path": "db/rows.rb", "position_type": "text",
                          "old_line": None, "new_line": 23}},
            {"id": 2, "type": "DiffNote", "body": "Will batch it.",
             "author": {"username": "dev-b"}, "resolvable": True, "resolved": False,
             "position": {"new_path": "db/rows.rb", "new_line": 23}}]},
        {"id": "d2", "individual_note": False, "notes": [
            {"id": 3, "type": "DiffNote", "body": "A removed guard.",
             "author": {"username": "review-bot"}, "resolvable": True, "resolved": True,
             "position": {"new_path": "db/guard.rb", "new_line": None, "old_line": 8}}]}]
    got = read(json.dumps(saved))
    assert places(got) == [("db/rows.rb", 23)]


def test_gitlab_merge_request_notes_skip_system_notes() -> None:
    saved = [{"id": 1, "type": None, "system": True, "body": "added 2 commits",
              "author": {"username": "dev-b"}},
             {"id": 2, "type": "DiffNote", "system": False, "body": "The retry has no cap.",
              "author": {"username": "review-bot"}, "resolvable": True, "resolved": False,
              "position": {"new_path": "net/retry.go", "new_line": 44}}]
    assert places(read(json.dumps(saved))) == [("net/retry.go", 44)]


def test_comments_keyed_by_file_take_the_key_as_their_path() -> None:
    # Gerrit's comments of a change: a list a file, with a resolution flag and replies
    saved = {"/PATCHSET_LEVEL": [{"id": "p1", "message": "Looks reasonable overall.",
                                  "author": {"name": "bot"}, "unresolved": False,
                                  "patch_set": 2}],
             "core/queue.c": [
                 {"id": "c1", "line": 88, "message": "The lock is taken twice here.",
                  "author": {"name": "bot"}, "unresolved": True, "patch_set": 2},
                 {"id": "c2", "line": 88, "message": "Done", "in_reply_to": "c1",
                  "author": {"name": "dev"}, "unresolved": False, "patch_set": 2},
                 {"id": "c3", "line": 120, "message": "Old note.", "author": {"name": "bot"},
                  "unresolved": False, "patch_set": 1}]}
    assert places(read(json.dumps(saved))) == [("core/queue.c", 88)]


def test_bitbucket_and_azure_devops_places_and_states() -> None:
    bitbucket = {"values": [
        {"id": 1, "content": {"raw": "The loop never ends on an empty page.", "markup": "md"},
         "inline": {"from": None, "to": 31, "path": "fetch/pages.py"},
         "user": {"display_name": "review-bot"}, "deleted": False},
        {"id": 2, "content": {"raw": "Good catch."}, "inline": {"to": 31,
                                                              "path": "fetch/pages.py"},
         "user": {"display_name": "dev"}, "parent": {"id": 1}, "deleted": False}],
        "pagelen": 50}
    assert places(read(json.dumps(bitbucket))) == [("fetch/pages.py", 31)]
    azure = {"value": [
        {"id": 7, "status": "active", "threadContext": {"filePath": "src/Store.cs",
                                                        "rightFileStart": {"line": 19}},
         "comments": [{"id": 1, "content": "Dispose the reader.", "author": {"name": "bot"}}]},
        {"id": 8, "status": "fixed", "threadContext": {"filePath": "src/Store.cs",
                                                       "rightFileStart": {"line": 40}},
         "comments": [{"id": 1, "content": "Null check.", "author": {"name": "bot"}}]}]}
    assert places(read(json.dumps(azure))) == [("src/Store.cs", 19)]


def test_records_saved_one_a_line_are_read() -> None:
    lines = [{"path": "api/admin.py", "line": 101, "body": "The page size is not bounded."},
             {"path": "api/admin.py", "line": None, "body": "The module mixes two routers."},
             {"author": "review-bot", "path": "api/users.py", "line": 7,
              "body": "Fixed in 5d1e2c.", "in_reply_to_id": 11}]
    got = read("\n".join(json.dumps(x) for x in lines) + "\n")
    assert places(got) == [("api/admin.py", 101), ("api/admin.py", None)]


def test_pages_of_arrays_one_after_another_are_read_as_one() -> None:
    # `gh api --paginate` prints one array a page, with nothing between them
    pages = (json.dumps([rest(20, "svc/a.py", MAJOR, 3), rest(21, "svc/b.py", MAJOR, 4)])
             + json.dumps([rest(22, "svc/c.py", REFACTOR, 5)]) + "\n")
    assert places(read(pages)) == [("svc/a.py", 3), ("svc/b.py", 4), ("svc/c.py", 5)]


def test_a_stream_of_objects_printed_over_several_lines_each() -> None:
    # what `jq '.[] | {path, line, body}'` prints
    stream = "".join(json.dumps({"path": p, "line": n, "body": "x is unchecked"}, indent=2)
                     + "\n" for p, n in (("svc/a.py", 3), ("svc/b.py", 9)))
    assert places(read(stream)) == [("svc/a.py", 3), ("svc/b.py", 9)]


def test_a_group_of_threads_under_a_file_takes_the_files_path() -> None:
    # a digest a tool wrote: one object a file, its open threads with a line and a preview
    saved = [{"path": "deploy/compose.yml", "count": 2, "threads": [
        {"id": "T1", "line": 12, "preview": "**The health check needs curl in the image**"},
        {"id": "T2", "line": 40, "preview": "**The port differs from the README**"}]},
        {"path": "deploy/Dockerfile", "count": 1, "threads": [
            {"id": "T3", "line": 3, "preview": "**Pin the base image**"}]}]
    got = read(json.dumps(saved))
    assert places(got) == [("deploy/compose.yml", 12), ("deploy/compose.yml", 40),
                           ("deploy/Dockerfile", 3)]


def test_a_place_a_bot_records_in_its_opening_html_comment() -> None:
    body = ('<!-- scan-comment {"id": "B1", "file_path": "jobs/run.ts", "start_line": 17, '
            '"end_line": 19} -->\n\U0001f534 **The job is never awaited**\n\nThe promise is '
            "dropped, so a failure is silent.")
    dump = {"data": {"repository": {"pullRequest": {"reviewThreads": {"nodes": [
        {"id": "PRRT_1", "isResolved": False, "comments": {"nodes": [
            {"body": body, "author": {"login": "scan-bot"}}]}}]}}}}}
    got = read(json.dumps(dump))
    assert where(got) == [("jobs/run.ts", 19, "critical")]
    assert not got.findings[0]["summary"].startswith("<!--")


def test_utf16_with_its_byte_order_mark_is_decoded() -> None:
    # what a Windows shell's redirection writes
    raw = json.dumps([rest(5, "svc/cache.py", MAJOR, 30)], indent=2).encode("utf-16")
    got = read(raw)
    assert where(got) == [("svc/cache.py", 30, "medium")]


# --------------------------------------------------------------------------- #
# what is not a finding
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("body", [
    "Fixed in 3f2a1b0: the key now carries the tenant.",
    "Addressed: the retry runs before the commit now.",
    "\u2705 Done",
])
def test_a_comment_saying_it_was_fixed_is_no_finding(body: str) -> None:
    got = read(json.dumps([rest(6, "svc/cache.py", MAJOR, 30),
                           rest(7, "svc/cache.py", body, 30, user=HUMAN)]))
    assert places(got) == [("svc/cache.py", 30)]


def test_fixed_as_a_word_of_a_finding_still_is_one() -> None:
    got = read(with_another(rest(8, "svc/buf.c", "Fixed-size buffers overflow on long names.",
                                 14)))
    assert places(got)[1:] == [("svc/buf.c", 14)]


def test_a_comment_the_bot_marked_addressed_is_no_finding() -> None:
    body = MAJOR + "\n\n<!-- fingerprint:x -->\n\n\u2705 Addressed in commits 1a2b3c to 4d5e6f"
    got = read(json.dumps([rest(9, "svc/cache.py", body, 30), rest(10, "svc/io.py", MAJOR, 5)]))
    assert places(got) == [("svc/io.py", 5)]


def test_a_resolved_thread_and_its_replies_are_no_findings() -> None:
    dump = {"data": {"repository": {"pullRequest": {"reviewThreads": {"nodes": [
        {"isResolved": True, "isOutdated": True, "path": "lib/one.py", "line": None,
         "originalLine": 4, "comments": {"nodes": [{"body": MAJOR, "author": BOT}]}},
        {"isResolved": False, "isOutdated": False, "path": "lib/two.py", "line": 8,
         "originalLine": 8, "comments": {"nodes": [
             {"body": POTENTIAL, "author": BOT},
             {"body": "I think this is fine as is.", "author": HUMAN}]}}]}}}}}
    got = read(json.dumps(dump))
    assert where(got) == [("lib/two.py", 8, "medium")]


def test_a_record_in_a_settled_state_is_no_finding_but_an_outdated_one_is() -> None:
    for state in ("resolved", "RESOLVED", "closed", "fixed"):
        rec = dict(rest(9, "svc/cache.py", MAJOR, 30), state=state)
        assert places(read(with_another(rec))) == [("docs/notes.md", 3)], state
    rec = dict(rest(9, "svc/cache.py", MAJOR, 30), state="outdated")
    assert ("svc/cache.py", 30) in places(read(with_another(rec)))
    thread = {"review_threads": [{"state": "resolved", "comments": [
        {"body": MAJOR, "path": "svc/cache.py", "line": 30, "author": "review-bot"}]}]}
    assert places(read(json.dumps(thread))) == []


# --------------------------------------------------------------------------- #
# bodies posted with no place: reviews and issue comments
# --------------------------------------------------------------------------- #
WALKTHROUGH = (
    "<!-- This is an auto-generated comment: summarize by coderabbit.ai -->\n"
    "<!-- walkthrough_start -->\n\n## Walkthrough\n\nThe loader is split from the parser.\n\n"
    "## Changes\n\n| Cohort / File(s) | Summary |\n|---|---|\n"
    "| **Loader** <br> `svc/load.py` | Reads the files; `svc/load.py:40` opens them lazily. |\n"
    "| **Parser** <br> `svc/parse.py` | Parses what the loader gives. |\n")
OVERVIEW = (
    "## Pull request overview\n\nThis PR splits the loader.\n\n**Changes:**\n"
    "- Moves reading into `svc/load.py`\n\n### Reviewed changes\n\n"
    "Reviewer reviewed 2 out of 2 changed files in this pull request and generated 1 comment."
    "\n\n| File | Description |\n| ---- | ----------- |\n"
    "| svc/load.py | New loader. |\n| svc/parse.py | Parser without IO. |\n\n"
    "<details>\n<summary>Comments suppressed due to low confidence (2)</summary>\n\n"
    "**svc/load.py:58**\n* The handle is opened in text mode but read as bytes.\n"
    "**svc/parse.py:12**\n* The error names the wrong field.\n</details>\n")
SUMMARY_OF_CHANGES = (
    "## Summary of Changes\n\nHello! Here is a summary of the pull request.\n\n### Highlights\n\n"
    "* **Loader**: `svc/load.py` now streams its input.\n* **Parser**: errors name fields.\n")
DIGEST = (
    "**Actionable comments posted: 1**\n\n> [!CAUTION]\n> Some comments are outside the diff.\n"
    ">\n> <details>\n> <summary>\u26a0\ufe0f Outside diff range comments (1)</summary>"
    "<blockquote>\n>\n> <details>\n> <summary>svc/load.py (1)</summary><blockquote>\n>\n"
    "> `88-95`: _\u26a0\ufe0f Potential issue_ | _\U0001f7e0 Major_\n>\n"
    "> **The handle leaks when the parse fails.**\n>\n> Close it in a finally block.\n>\n"
    "> </blockquote></details>\n>\n> </blockquote></details>\n\n"
    "<details>\n<summary>\U0001f7e1 Minor comments (2)</summary><blockquote>\n\n"
    "<details>\n<summary>svc/parse.py-12-14 (1)</summary><blockquote>\n\n"
    "`12-14`: _\u26a0\ufe0f Potential issue_ | _\U0001f7e1 Minor_\n\n"
    "**The message names the wrong field.**\n\n</blockquote></details>\n"
    "<details>\n<summary>Procfile (1)</summary><blockquote>\n\n"
    "`3-3`: **The worker line has no concurrency.**\n\n</blockquote></details>\n\n"
    "</blockquote></details>\n\n"
    "<details>\n<summary>\U0001f4dc Review details</summary>\n\n"
    "<details>\n<summary>\U0001f4d2 Files selected for processing (2)</summary>\n\n"
    "* `svc/load.py`\n* `svc/parse.py`\n</details>\n</details>\n")


def _review(body: str, state: str = "COMMENTED", user: dict[str, str] = BOT) -> dict[str, Any]:
    return {"id": 77, "node_id": "PRR_x", "user": user, "body": body, "state": state,
            "html_url": "https://github.com/o/r/pull/7#pullrequestreview-77",
            "submitted_at": "2026-05-01T10:00:00Z", "commit_id": "c0ffee"}


def test_a_bots_summary_comments_give_no_finding() -> None:
    # issue comments (issues/N/comments): a walkthrough (with the checks it ran) and a
    # summary of changes
    checks = ("\n\n<!-- checks_start -->\n\n<details>\n<summary>\U0001f6a5 Pre-merge checks | "
              "\u274c 2</summary>\n\n### \u274c Failed checks (1 warning, 1 inconclusive)\n\n"
              "| Check name | Status | Explanation | Resolution |\n| :---: | :--- | :--- | :--- |\n"
              "| Docstring Coverage | \u26a0\ufe0f Warning | Coverage is 40%, under the 80% asked."
              " | Write docstrings for the new functions. |\n"
              "| Title check | \u2753 Inconclusive | The title names only part of the change. | "
              "Name both halves in the title. |\n\n<sub>Tip: the checks can be set per "
              "repository.</sub>\n\n</details>\n")
    saved = [dict(_review(WALKTHROUGH + checks), state=None),
             dict(_review(SUMMARY_OF_CHANGES), state=None)]
    got = read(json.dumps(saved))
    assert got.findings == []


def test_an_overview_review_reads_only_its_suppressed_comments() -> None:
    got = read(json.dumps([_review(OVERVIEW)]))
    assert places(got) == [("svc/load.py", 58), ("svc/parse.py", 12)]


@pytest.mark.parametrize("saved", [OVERVIEW, "\n\n" + OVERVIEW])
def test_an_overview_saved_as_markdown_reads_only_its_suppressed_comments(saved: str) -> None:
    # the whole text is the bot's overview: its table of changed files holds no finding
    got = read(saved)
    assert places(got) == [("svc/load.py", 58), ("svc/parse.py", 12)]


def test_a_page_quoting_an_overview_after_its_own_findings_keeps_them() -> None:
    text = ("- `svc/cache.py:12` \u2014 the key leaves out the tenant\n\n---\n\n" + OVERVIEW)
    got = read(text)
    assert ("svc/cache.py", 12) in places(got)


def test_a_review_body_digest_by_severity_sections() -> None:
    # pulls/N/reviews: the digest's items, the level in its section's name or badge line,
    # a file summary with the item's range after the name, and a name with no extension
    got = read(json.dumps([_review(DIGEST)]))
    assert where(got) == [("svc/load.py", 88, "medium"), ("svc/parse.py", 12, "minor"),
                          ("Procfile", 3, "minor")]
    assert got.findings[0]["summary"] == "The handle leaks when the parse fails"


def test_gh_pr_view_reads_reviews_and_comments_but_not_the_description() -> None:
    view = {"body": "## Summary\n\n- fixes `svc/load.py:40` crash\n- adds tests",
            "comments": [{"author": {"login": "coderabbitai"}, "authorAssociation": "NONE",
                          "body": WALKTHROUGH, "createdAt": "2026-05-01T10:00:00Z"}],
            "reviews": [{"author": {"login": "coderabbitai"}, "state": "COMMENTED",
                         "body": DIGEST, "submittedAt": "2026-05-01T10:02:00Z"}]}
    got = read(json.dumps(view))
    assert places(got) == [("svc/load.py", 88), ("svc/parse.py", 12), ("Procfile", 3)]


def test_a_review_posted_in_markdown_keeps_its_findings() -> None:
    # a model's review posted as a comment (not a bot's overview): its Markdown is read
    body = ("## Review\n\n### Issues\n\n1. **`svc/load.py:58`** - the handle is opened in text "
            "mode but read as bytes.\n")
    got = read(json.dumps([{"user": HUMAN, "body": body, "id": 5,
                            "html_url": "https://github.com/o/r/pull/7#issuecomment-5"}]))
    assert places(got) == [("svc/load.py", 58)]


def test_parse_verdict_reads_saved_review_pages_from_a_windows_shell() -> None:
    # the command as a user runs it on `gh api --paginate ... > comments.json` saved by a
    # Windows shell: UTF-16 with its mark, two pages, a reply and a fixed note among them
    pages = (json.dumps([rest(30, "svc/a.py", MAJOR, 3),
                         rest(31, "svc/a.py", "Fixed in 9e9e9e.", 3, user=HUMAN,
                              in_reply_to_id=30)])
             + json.dumps([rest(32, "svc/b.py", POTENTIAL, 8)]))
    code, out, err = run_filter("parse-verdict", ["-r", "bot"], pages.encode("utf-16"))
    assert code == 0, err
    rec = json.loads(out)
    assert [(f["file"], f["line"], f.get("severity")) for f in rec["findings"]] == [
        ("svc/a.py", 3, "medium"), ("svc/b.py", 8, "medium")]
    assert rec["verdict"] == "UNKNOWN"  # a pull request's comments state no verdict


@pytest.mark.parametrize(("body", "sev", "title"), [
    (REFACTOR, "minor", "Split the parser from the loader"),
    ("![medium](https://www.gstatic.com/codereviewagent/medium-priority.svg)\n\nThe timeout "
     "is read before the config is loaded.", "medium",
     "The timeout is read before the config is loaded"),
    ("**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)</sub></sub>"
     "  Keep the lock while flushing**\n\nThe flush runs after the unlock.", "critical",
     "Keep the lock while flushing"),
])
def test_one_bot_comment_saved_alone_is_one_finding_with_no_file(
        body: str, sev: str, title: str) -> None:
    got = read(body)
    assert where(got) == [(None, None, sev)]
    assert got.findings[0]["summary"] == title


@pytest.mark.parametrize("text", [
    "## Review\n\nThe code is fine.\n",
    "![diagram](docs/flow.png)\n\nThe flow as drawn.\n",
    "**<sub>![P2 Badge](https://img.shields.io/badge/P2-yellow)</sub>**\n\n---\n",
])
def test_a_text_not_opening_with_a_badge_is_no_lone_comment(text: str) -> None:
    assert read(text).findings == []


# --------------------------------------------------------------------------- #
# severity from the body's badge
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("body", "sev"), [
    (POTENTIAL, "medium"),
    (REFACTOR, "minor"),
    (MAJOR, "medium"),
    ("_\U0001f6e0\ufe0f Refactor suggestion_ | _\U0001f7e0 Major_\n\n**Move it**", "medium"),
    ("_\u26a0\ufe0f Potential issue_ | _\U0001f7e1 Minor_\n\n**Typo in the error**", "minor"),
    ("_\U0001f9f9 Nitpick_ | _\U0001f535 Trivial_\n\n**Name the constant**", "minor"),
    ("![high](https://www.gstatic.com/codereviewagent/high-priority.svg)\n\nThe token leaks.",
     "critical"),
    ("![low](https://www.gstatic.com/codereviewagent/low-priority.svg)\n\nA stray space.",
     "minor"),
    ("**<sub><sub>![P2 Badge](https://img.shields.io/badge/P2-yellow?style=flat)</sub></sub>"
     "  Keep the old flag working**\n\nThe rename drops the alias.", "medium"),
    ("The early return skips the unlock.", None),
])
def test_the_bodys_badge_gives_the_severity(body: str, sev: str | None) -> None:
    got = read(with_another(rest(11, "svc/lock.py", body, 9)))
    assert where(got)[1:] == [("svc/lock.py", 9, sev)]


def test_a_badge_line_is_not_the_findings_summary() -> None:
    got = read(with_another(rest(12, "svc/cache.py", POTENTIAL, 3)))
    assert got.findings[1]["summary"].startswith("The cache key leaves out the tenant")


# --------------------------------------------------------------------------- #
# what is left to the other readers
# --------------------------------------------------------------------------- #
def test_a_review_document_with_a_verdict_is_not_taken_for_review_data() -> None:
    doc = {"verdict": "REVISE", "summary": "two issues",
           "comments": [{"path": "lib/b.py", "line": 3, "body": "off by one", "user": BOT}]}
    got = read(json.dumps(doc))
    assert got.verdict == "REVISE"
    assert places(got) == [("lib/b.py", 3)]


def test_json_with_no_review_data_is_not_taken_for_it() -> None:
    assert pr_records.comment_records({"name": "x", "items": [{"id": 1, "text": "hi"}]}) is None
    assert pr_records.comment_records([1, 2, 3]) is None
    assert formats.unwrap(json.dumps({"commits": [{"message": "fix", "author": BOT}]})) \
        .meta.get("doc") is None


# --------------------------------------------------------------------------- #
# bounded and never crashing
# --------------------------------------------------------------------------- #
def test_the_walk_is_linear() -> None:
    def saved(n: int) -> str:
        return json.dumps({"threads": [{"isResolved": i % 3 == 0, "path": f"m/f{i}.py",
                                        "line": i + 1, "comments": {"nodes": [
                                            {"body": MAJOR, "author": BOT},
                                            {"body": "ok", "author": HUMAN}]}}
                                       for i in range(n)]})
    small, large = saved(1500), saved(6000)

    def best(text: str) -> tuple[float, int]:
        # the least CPU time of three readings: other processes on a loaded machine
        # neither add to it nor, over three tries, decide it
        runs = []
        for _ in range(3):
            t0 = time.process_time()
            n = len(read(text).findings)
            runs.append((time.process_time() - t0, n))
        return min(runs)

    (t_small, n_small), (t_large, n_large) = best(small), best(large)
    assert (n_small, n_large) == (1000, 4000)
    assert t_large < 8 * max(t_small, 0.01)


def test_deep_or_odd_values_never_crash() -> None:
    rng = random.Random(7)
    keys = ["body", "path", "line", "original_line", "comments", "nodes", "notes", "isResolved",
            "in_reply_to_id", "author", "user", "position", "threads", "state", "new_path"]

    def value(depth: int) -> Any:
        r = rng.random()
        if depth > 6 or r < 0.3:
            return rng.choice([None, True, 0, -3, 2.5, "x", "lib/b.py", "Fixed.", "", 10**12,
                               "\u00b2", "\u0663", "@@ -\u0663 +1 @@\n+x"])
        if r < 0.6:
            return [value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(keys): value(depth + 1) for _ in range(rng.randint(0, 5))}

    for _ in range(400):
        v = value(0)
        out = pr_records.comment_records(v)
        assert out is None or isinstance(out, list)
        read(json.dumps(v))
    deep = "[" * 5000 + "]" * 5000
    read(deep)
    read('{"comments": ' + "[" * 60 + "{}" + "]" * 60 + "}")
