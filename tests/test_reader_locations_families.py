"""The reader on where real reviewers put a finding's place, and on findings it used to
miss (issue: read what real reviewers print): one fixture per family, written for these
tests.  Each family is the shape, not one reviewer's spelling of it: the fixtures vary
the bot, the wording, the markup and the order.
"""

from __future__ import annotations

import pytest
from reader_kit import located

from council_filters.verdict import reading


def read(text: str) -> reading.Reading:
    return reading.read(text.encode(), "tester")


def where(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in read(text).findings]


# --------------------------------------------------------------------------- #
# 1. Bot review comments whose place sits outside the comment's prose
# --------------------------------------------------------------------------- #
HUNK_HEADER_WITH_PROMPT = """\
lib/queue/worker.py
```diff
@@ -40,6 +40,8 @@ class Worker:
     def drain(self):
+        for job in self.jobs:
+            job.run()
```
**reviewbot-x[bot]**:
_\u26a0\ufe0f Potential issue_ | _\U0001f7e0 Major_

**Jobs are run while the list is being mutated.**

`job.run()` may enqueue follow-ups into `self.jobs`, so the loop can skip or repeat work.
Iterate over a copy.

<details>
<summary>Prompt for AI Agents</summary>

```
In @lib/queue/worker.py around lines 43 - 44, iterate over list(self.jobs) so that
jobs appended by job.run() are not visited in the same pass.
```

</details>
"""

HUNK_HEADER_FILE_LEVEL = """\
deploy/helm/values.yaml
```diff
+replicas: 1
+resources: {}
```
**Copilot**:
A single replica with no resource limits means the pod is evicted first under pressure
and the service goes down during every node drain. Set limits and at least two replicas.
"""

HUNK_HEADER_BY_A_PERSON = """\
deploy/helm/values.yaml
```diff
+replicas: 1
```
**maria-k**:
I think one replica is fine for the staging chart, we can revisit later.
"""

IN_PATH_AND_LINES = """\
![high](https://example.invalid/badges/high-priority.svg)

in `cmd/sync/main.go`
Comment on lines +120 to +126

The error from `os.Rename` is dropped, so a failed rename leaves the temporary file behind
and reports success.
"""

DUMP_WITH_METADATA = """\
------------------------------------------------------------
Comment #901 by review-helper[bot] on web/app/router.ts:57
State: open | Created: 2026-01-03T10:00:00Z

![medium](https://example.invalid/badges/medium-priority.svg)

The catch-all route is registered before `/health`, so the health probe never reaches its
handler and always returns the SPA shell.

---

Comment #902 by review-helper[bot] on .dockerignore:N/A
State: open | Created: 2026-01-03T10:00:00Z

![low](https://example.invalid/badges/low-priority.svg)

`node_modules` is no longer ignored, which makes every build context several hundred MB.
"""

ITALIC_THREAD = """\
_@codebot[bot] reviewed on 2026-02-01 09:00_

---

_Review comment by @codebot[bot] on `src/parse/tokens.rs`:212 on 2026-02-01 09:00_

**<sub>![P1 Badge](https://img.shields.io/badge/P1-orange)</sub> Stop the lexer looping on `\\`**

A trailing `\\` makes `next_token` return without consuming input, so the caller spins.

---

_Review comment by @jdoe on `src/parse/tokens.rs`:212 on 2026-02-01 10:30_

Good catch, but the fuzzer never produced that input; low priority for me.
"""

EMAIL_NOTIFICATION = """\
From: "some-reviewer[bot]" <notifications@example.invalid>
Subject: Re: [org/repo] docs: rewrite the setup guide (PR #12)

@some-reviewer[bot] commented on this pull request.

> +Run `make setup` once, then `make serve`.
+The server listens on port 8000.

![high](https://example.invalid/badges/high-priority.svg)

The Makefile has no `setup` target any more; the first command fails for every new reader.

> +Logs go to `/var/log/app`.

![medium](https://example.invalid/badges/medium-priority.svg)

Logs are written to stdout since the container move; this path does not exist.

--
Reply to this email directly or view it on the site.
"""


@pytest.mark.parametrize("text,found", [
    (HUNK_HEADER_WITH_PROMPT, [("lib/queue/worker.py", 43, "medium")]),
    (HUNK_HEADER_FILE_LEVEL, [("deploy/helm/values.yaml", None, None)]),
    (IN_PATH_AND_LINES, [("cmd/sync/main.go", 120, "critical")]),
    (DUMP_WITH_METADATA, [("web/app/router.ts", 57, "medium"), (".dockerignore", None, "minor")]),
    (ITALIC_THREAD, [("src/parse/tokens.rs", 212, "critical")]),
    (EMAIL_NOTIFICATION, [(None, None, "critical"), (None, None, "medium")]),
], ids=["hunk-header-and-agent-prompt", "hunk-header-file-level", "in-path-comment-on-lines",
        "comment-dump-metadata", "italic-thread-metadata", "notification-email"])
def test_a_bot_comment_takes_its_place_from_around_its_prose(text: str,
                                                            found: list[tuple]) -> None:
    assert where(text) == found


def test_a_person_replying_under_a_hunk_is_no_finding() -> None:
    assert where(HUNK_HEADER_BY_A_PERSON) == []
    # the person's reply in a thread, with the bot's metadata form, is none either
    assert [f for f in read(ITALIC_THREAD).findings if "fuzzer" in f["summary"]] == []


def test_a_bot_comment_summary_is_its_title_not_its_badge() -> None:
    got = read(HUNK_HEADER_WITH_PROMPT).findings
    assert got[0]["summary"] == "Jobs are run while the list is being mutated."
    got = read(DUMP_WITH_METADATA).findings
    assert got[0]["summary"].startswith("The catch-all route")


# --------------------------------------------------------------------------- #
# 3. Plain finding lists: an id before the tag or the path, a numbered must-fix list
# --------------------------------------------------------------------------- #
IDS_BEFORE_TAGS = """\
## Automated review

Open items from the last pass:

- QA-07-001 P1: the retry loop in `net/backoff.py` never gives up after the cap.
- QA-07-002 P2: the changelog entry still names the old flag.
- QA-07-003 P3: typo in the help text of `sync`.
"""

IDS_BEFORE_PATHS = """\
Outcome: changes required

must_fix:
  - id: K2-4 services/billing/invoice.go:88 - totals are rounded before tax is added,
    so invoices are off by a cent on odd amounts.
  - id: K2-5 services/billing/pdf.go:12 - the template path is relative to the cwd.
"""

NUMBERED_MUST_FIX = """\
Review of the migration plan v2.3.

### 3. Five Must-Fix Items for v2.4
1. **Rollback Gap:** The plan drops the old column in the same release that stops writing it,
   so a rollback has nowhere to read from.
2. **Lock Duration:** Backfilling forty million rows inside one transaction holds the table lock
   for the whole run and blocks every writer.
3. **Owner Missing:** No one is named to watch the replication lag during the cut-over window,
   which the runbook requires.

**Verdict:** request changes
"""


def test_an_id_before_the_tag_opens_a_finding() -> None:
    got = where(IDS_BEFORE_TAGS)
    assert [sev for _, _, sev in got] == ["critical", "medium", "minor"]
    assert got[0][0] == "net/backoff.py"


def test_an_id_before_the_path_keeps_the_place() -> None:
    assert [(f, ln) for f, ln, _ in where(IDS_BEFORE_PATHS)] == [
        ("services/billing/invoice.go", 88), ("services/billing/pdf.go", 12)]


def test_a_numbered_must_fix_list_of_titled_items_is_one_finding_each() -> None:
    got = read(NUMBERED_MUST_FIX)
    assert got.verdict == "REVISE"
    assert [(f.get("file"), f.get("severity")) for f in got.findings] == [(None, "critical")] * 3
    assert got.findings[1]["summary"].startswith("Lock Duration")


# --------------------------------------------------------------------------- #
# 2. Labelled location fields in any language
# --------------------------------------------------------------------------- #
FIELDS_ZH = """\
## 评审记录

**Mode**: local
**Triggered by**: 手动运行

### 发现

#### \U0001f534 [P1] 未转义的用户输入进入 SQL

**位置**\uff1a`store/query.py`
**行号**\uff1a77
**问题**\uff1a`name` 直接拼接进查询字符串。
"""

FIELDS_JA = """\
## 指摘事項

### [P2] キャッシュが失効しない

- ファイル: `cache/lru.ts`
- 行: 140
- 説明: TTL が設定されていません。
"""

FIELDS_DE_SUBBULLET = """\
## Befunde

- **[P1]** Passwort wird im Klartext geloggt
  - **Datei:** `auth/login.py`
  - **Zeile:** 52
- **[P2]** Zeitüberschreitung fehlt beim HTTP-Aufruf
  - **Ort:** `client/http.py`, Zeile 19
"""

FIELDS_FR_ES = """\
## Problèmes

### [P2] Le verrou n'est jamais libéré

Fichier : `worker/pool.go`
Ligne : 231

### [P3] Mensaje de error poco claro

Archivo: `cli/errores.rs`
Línea: 8
"""

FIELD_NOT_A_PATH = """\
## 审计发现

- [P1] **首页成员卡片重复**
  - 位置：`/home` 首页成员卡片
"""


@pytest.mark.parametrize("text,found", [
    (FIELDS_ZH, [("store/query.py", 77, "critical")]),
    (FIELDS_JA, [("cache/lru.ts", 140, "medium")]),
    (FIELDS_DE_SUBBULLET, [("auth/login.py", 52, "critical"), ("client/http.py", 19, "medium")]),
    (FIELDS_FR_ES, [("worker/pool.go", 231, "medium"), ("cli/errores.rs", 8, "minor")]),
    (FIELD_NOT_A_PATH, [(None, None, "critical")]),
], ids=["chinese-bold-fullwidth", "japanese-sub-bullets", "german-sub-bullet",
        "french-and-spanish-lines", "a-route-is-no-place"])
def test_a_labelled_location_field_in_any_language_places_the_finding(
        text: str, found: list[tuple]) -> None:
    assert where(text) == found


# --------------------------------------------------------------------------- #
# 5. One finding at several places
# --------------------------------------------------------------------------- #
SAME_ISSUE_AT = """\
## Issues

### Should fix

- **`web/views/orders.py:140` — the page size is read from the query string unbounded.**
  A client can ask for a million rows. The same problem appears in:
  - `web/views/invoices.py:88` — `per_page` is passed straight to the query
  - `web/views/users.py:51` — same, through `limit`

  **Fix:** clamp to 100.

- **`web/forms.py:12` — the e-mail field is not normalised.** Evidence:
  - `web/forms.py:30` lower-cases it later, but only on save
"""


def test_same_issue_at_several_places_is_one_finding_with_related_places() -> None:
    assert where(SAME_ISSUE_AT) == [("web/views/orders.py", 140, "medium"),
                                    ("web/forms.py", 12, "medium")]
    assert located(read(SAME_ISSUE_AT).findings) == [
        (("web/views/orders.py", 140), [("web/views/invoices.py", 88), ("web/views/users.py", 51)]),
        (("web/forms.py", 12), [])]


# --------------------------------------------------------------------------- #
# 7. A location given only as a comment inside the item's code block
# --------------------------------------------------------------------------- #
CODE_COMMENT_PLACE = """\
## Concerns

1. **Global mutable cache**
   The cache is a module-level dict shared by every request:
   ```python
   # services/cache.py:22-24
   _CACHE = {}
   ```
   **Recommendation:** scope it to the app instance.

2. **Timeout never applied**
   ```go
   client := &http.Client{} // see below
   ```
   The client is built without a timeout.

## Strengths

1. **Queries are parameterised**
   ```ts
   // db/users.ts:8
   db.prepare("SELECT * FROM users WHERE id = ?")
   ```
"""


def test_a_code_comment_that_is_only_a_location_places_the_item() -> None:
    assert [(f, ln) for f, ln, _ in where(CODE_COMMENT_PLACE)] == [
        ("services/cache.py", 22), (None, None)]


# --------------------------------------------------------------------------- #
# 6. A table row citing only a line, the file named above the table
# --------------------------------------------------------------------------- #
ROWS_UNDER_A_FILE_HEADING = """\
## Review of `lib/parse/date.ts`

| Area | Severity | Finding |
|---|---|---|
| Correctness | High | L14: months are read as 0-based, so every date is a month early |
| Style | Low | line 30 — the format string is repeated |
| Tests | Pass | all cases covered |
"""

ROWS_ZH_UNDER_A_QUOTE = """\
## 多维评审 — `9f3e2a1`

> 修改 `pkg/ratelimit/bucket.go`（12 行）

| 维度 | 评级 | 发现 |
|---|---|---|
| 架构 | \u2705 | 无问题 |
| 正确性 | \U0001f534 Critical | L41: 令牌桶在并发下会被重复扣减 |
| 测试 | \u26a0\ufe0f | 缺少并发测试 |
"""


def test_a_row_citing_only_a_line_takes_the_file_named_above_the_table() -> None:
    assert where(ROWS_UNDER_A_FILE_HEADING) == [
        ("lib/parse/date.ts", 14, "critical"), ("lib/parse/date.ts", 30, "minor")]
    # a line the row's prose mentions is a reference, not the row's place: the row is
    # in the file its heading names, at no line
    text = ROWS_UNDER_A_FILE_HEADING.replace("L14: months", "months (see L14)")
    assert where(text)[0] == ("lib/parse/date.ts", None, "critical")


def test_a_table_in_another_language_skips_passing_rows_and_places_the_cited_line() -> None:
    assert where(ROWS_ZH_UNDER_A_QUOTE) == [
        ("pkg/ratelimit/bucket.go", 41, "critical"), (None, None, "medium")]


# --------------------------------------------------------------------------- #
# 3b. A bold severity label over a plain list (its items are findings, not its body)
# --------------------------------------------------------------------------- #
LABEL_OVER_A_LIST = """\
## Review notes

**Must fix**

- src/importer/csv.py — rows with a quoted newline are split in two
- docs/IMPORT.md — the delimiter option is documented with the wrong flag name

**Nice to have:**

- a progress bar for large files
"""


def test_a_bold_severity_label_over_a_list_is_the_items_severity() -> None:
    assert where(LABEL_OVER_A_LIST) == [
        ("src/importer/csv.py", None, "critical"), ("docs/IMPORT.md", None, "critical"),
        (None, None, "minor")]


# the same family in other dumps' markup
BOT_VARIANTS = {
    "location-line-over-hunk": ("""\
src/cache/store.py:88
```diff
+    self.items[key] = value
```
**sourcery-ai[bot]**:
**issue (bug_risk):** The write is not guarded by the lock taken in `get`.
""", [("src/cache/store.py", 88, None)]),
    "commented-on-path-line-n": ("""\
Comment by greptile-apps[bot] on `api/users.ts` line 42

Missing await on the save call; errors are swallowed.
---
""", [("api/users.ts", 42, None)]),
    "path-then-bare-line": ("""\
lib/retry.go
Line 17

![medium](https://example.invalid/medium-priority.svg)

The backoff never resets after a success.
""", [("lib/retry.go", 17, "medium")]),
    "path-heading-over-hunk": ("""\
### pkg/db/conn.go

```diff
@@ -10,4 +10,6 @@
+ db.SetMaxOpenConns(0)
```

**coderabbitai[bot]** commented:

_\u26a0\ufe0f Potential issue_ | _\U0001f534 Critical_

**Zero means unlimited connections.**

Set a bound.
""", [("pkg/db/conn.go", None, "critical")]),
    "file-field-and-commented-on-lines": ("""\
**File:** `app/models/user.rb`
**Copilot** commented on lines +30 to +31:

The regex allows a trailing newline; use \\A and \\z.
""", [("app/models/user.rb", 30, None)]),
    "comment-on-lines-under-a-path-heading": ("""\
### internal/sync/copy.go

![medium](https://example.invalid/medium-priority.svg)

Comment on lines +10 to +12

The error from the second copy is dropped.
""", [("internal/sync/copy.go", 10, "medium")]),
    "bot-commented-on-line-under-a-file-heading": ("""\
## Review comments

#### `web/app.js`

**gemini-code-assist[bot]** commented on line +33:

![high](https://example.invalid/high-priority.svg)

The click handler is registered twice.
""", [("web/app.js", 33, "critical")]),
    "quoted-hunk-naming-its-file": ("""\
> **src/app.ts**
> ```diff
> + app.listen(port)
> ```

**cursor[bot]**: **Port is read before the config loads**

`port` is undefined at this point.
""", [("src/app.ts", None, None)]),
}


@pytest.mark.parametrize("name", sorted(BOT_VARIANTS))
def test_bot_comment_places_in_other_dumps_markup(name: str) -> None:
    text, found = BOT_VARIANTS[name]
    got = read(text).findings
    assert [(f.get("file"), f.get("line"), f.get("severity")) for f in got] == found
    assert all(not f["summary"].startswith(("File:", "**", "sourcery", "pkg/")) for f in got)


# --------------------------------------------------------------------------- #
# Location spellings seen around those families
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("item", [
    "`pkg/io/reader.go`:42 — the buffer is reused after return",
    "[P1] the buffer is reused after return, at `pkg/io/reader.go`:42",
    "`pkg/io/reader.go` (L42) — the buffer is reused after return",
    "pkg/io/reader.go, L42: the buffer is reused after return",
    "[P2] pkg/io/reader.go @ L42 the buffer is reused after return",
    "pkg/io/reader.go\uff1a42 缓冲区在返回后被复用",
    "pkg/io/reader.go 第42行：缓冲区在返回后被复用",
    "pkg/io/reader.go 42行目: バッファが返却後に再利用される",
])
def test_a_location_spelling_places_the_item(item: str) -> None:
    got = where("## Findings\n\n- " + item + "\n")
    assert [(f, ln) for f, ln, _ in got] == [("pkg/io/reader.go", 42)]


# --------------------------------------------------------------------------- #
# 3c. A lead-in line over a plain list of findings
# --------------------------------------------------------------------------- #
LEAD_IN_LISTS = """\
## Plan review

Open findings so far:

- F-1: the cache has no size bound, so memory grows without limit.
- F-2: the retry loop has no backoff and hammers the API.

Top concerns:

1. **Scope** — the plan mixes the auth rewrite with the billing change.
2. **Testing** — no load test is planned for the new queue.

Resolved issues:

- the typo in the config key.

Suggestions:

- rename the queue to something shorter.
"""


def test_a_lead_in_line_makes_the_list_under_it_findings() -> None:
    got = read(LEAD_IN_LISTS).findings
    # a "Suggestions:" lead-in names a severity (minor) over new items of its own
    assert [(f["summary"][:6], f.get("severity")) for f in got] == [
        ("F-1: t", None), ("F-2: t", None), ("Scope ", None), ("Testin", None),
        ("rename", "minor")]
    assert all("file" not in f for f in got)


# more of families 5, 6 and 7, in other markup
MORE_PLACES = {
    "same-issue-inline": ("""\
## Issues

- `lib/pool.py:10` — the lock is not released on error. The same issue occurs in
  `lib/queue.py:22` and `lib/cache.py:31`.
""", [("lib/pool.py", 10), ("lib/queue.py", 22), ("lib/cache.py", 31)]),
    "also-in-files": ("""\
## Issues

- **The old flag name is still documented.** Also in:
  - `docs/install.md`
  - `docs/usage.md`
""", [("docs/install.md", None), ("docs/usage.md", None)]),
    "line-items-under-a-file-heading": ("""\
## Findings

### `src/app.py`

- :339 — the handler swallows errors
- Line 12: the import is unused
- L40-L44 duplicated retry block
""", [("src/app.py", 339), ("src/app.py", 12), ("src/app.py", 40)]),
    "line-items-under-a-bold-file-line": ("""\
## Findings

**src/app.py**
- line 339: the handler swallows errors
- (L12) unused import
""", [("src/app.py", 339), ("src/app.py", 12)]),
    "body-line-under-a-heading-naming-the-file": ("""\
## Review

#### 2. \U0001f7e1 Timeout handling in `net/client.go`

At :88 the context is dropped, so the timeout never applies.
""", [("net/client.go", 88)]),
    "line-column-under-a-file-heading": ("""\
### web/auth.ts

| Line | Severity | Issue |
|---|---|---|
| 12 | high | token compared with == |
| 40 | low | stray console.log |
""", [("web/auth.ts", 12), ("web/auth.ts", 40)]),
    "code-comment-under-a-finding-heading": ("""\
## Concerns

### Global state in the plugin

```ts
// plugin/main.ts:14
let current = null;
```

This leaks between requests.
""", [("plugin/main.ts", 14)]),
}


@pytest.mark.parametrize("name", sorted(MORE_PLACES))
def test_more_places_in_other_markup(name: str) -> None:
    text, found = MORE_PLACES[name]
    # each finding's place, then the other places it cites
    assert [p for own, rel in located(read(text).findings) for p in (own, *rel)] == found


@pytest.mark.parametrize("name", ["same-issue-inline", "also-in-files"])
def test_one_finding_cited_at_several_places_is_read_once(name: str) -> None:
    assert len(read(MORE_PLACES[name][0]).findings) == 1


# --------------------------------------------------------------------------- #
# Nothing invented by those rules
# --------------------------------------------------------------------------- #
NOT_FINDINGS = {
    "bot-approves-under-a-hunk": ("src/a.py\n```diff\n+x = 1\n```\n**copilot**:\n"
                                  "Looks good to me.\n"),
    "bot-only-asks": ("src/a.py\n```diff\n+x = 1\n```\n**coderabbitai[bot]**:\n"
                      "Should this be configurable?\n"),
    "a-person-in-a-comment-dump": ("Comment #4 by alice on src/a.py:12\n\n"
                                   "Can we rename this?\n\n---\n"),
    "a-file-name-over-a-code-sample": ("# Setup\n\nconfig/app.yaml\n```yaml\nport: 80\n```\n"
                                       "The port can be changed here.\n"),
    "a-lead-in-over-none": "## Review\n\nCurrent findings:\n\n- None.\n",
    "also-in-outside-a-finding": ("## Notes\n\nThe same naming is also used in:\n- `docs/a.md`\n"
                                  "- `docs/b.md`\n"),
    "a-resolved-bot-comment": ("src/a.py:3\n```diff\n+x\n```\n**cursor[bot]**:\n"
                               "~~**Off-by-one in loop**~~ \u2705 Fixed in abc123\n"),
}


@pytest.mark.parametrize("name", sorted(NOT_FINDINGS))
def test_the_place_rules_invent_no_finding(name: str) -> None:
    assert read(NOT_FINDINGS[name]).findings == []


# --------------------------------------------------------------------------- #
# 4. Markdown link lists whose text or target holds the path and lines
# --------------------------------------------------------------------------- #
LINK_LIST = """\
## Action items

### Priority: High

- [ ] [session-store.adapter.ts:64-65](#session-store-adapter-ts-l64-65) wrap the parse in a try
- [ ] [src/jobs/retry.ts](https://github.com/o/r/blob/main/src/jobs/retry.ts#L79-L89) - return \
the result directly

### Priority: Medium

- [ ] [L88-L90 of api/handlers.py](https://gitlab.com/o/r/-/blob/abc/api/handlers.py#L88-L90): \
missing auth check
"""


def test_a_link_list_places_each_item_and_keeps_its_words() -> None:
    got = read(LINK_LIST).findings
    assert [(f.get("file"), f.get("line"), f.get("end_line"), f.get("severity")) for f in got] == [
        ("session-store.adapter.ts", 64, 65, "critical"), ("src/jobs/retry.ts", 79, 89, "critical"),
        ("api/handlers.py", 88, 90, "medium")]
    assert [f["summary"] for f in got] == [
        "wrap the parse in a try", "return the result directly", "missing auth check"]


def test_a_titled_item_whose_key_is_a_verdict_word_is_no_finding() -> None:
    text = ("## Issues\n\n- **Overall:** the change is mostly fine but needs two small follow-ups "
            "later on.\n- **Race on shutdown:** the pool is closed before the queue drains, "
            "dropping jobs.\n")
    assert [f["summary"][:16] for f in read(text).findings] == ["Race on shutdown"]


# notification e-mails of other review systems: the file line, then the comments
NOTIFICATIONS = {
    "patch-set-lines": ("""\
From: "review-assist[bot]" <noreply@review.example>

Patch Set 1: Code-Review-1

(2 comments)

File src/cache.py:

https://review.example/c/repo/+/123/1/src/cache.py#40
PS1, Line 40:     return self.items[key]
The key may be missing; use get().

https://review.example/c/repo/+/123/1/src/cache.py#77
PS1, Line 77:     lock.release()
Release the lock in a finally block.
""", [("src/cache.py", 40), ("src/cache.py", 77)]),
    "on-file-then-quote": ("""\
@mr-reviewer[bot] commented on this merge request.

On src/app/routes.rb:
> get "/admin", to: "admin#index"

The admin route has no authentication constraint.
""", [("src/app/routes.rb", None)]),
    "on-file-line-then-bot": ("""\
On `lib/parse.ts`, line 12:

**reviewbot[bot]**: the regex is not anchored, so any prefix matches.
""", [("lib/parse.ts", 12)]),
    "on-file-by-a-person": ("""\
On src/app/routes.rb:
> get "/admin"

Looks odd to me, can you check?
""", []),
}


@pytest.mark.parametrize("name", sorted(NOTIFICATIONS))
def test_a_notification_names_the_file_above_its_comments(name: str) -> None:
    text, found = NOTIFICATIONS[name]
    got = read(text).findings
    assert [(f.get("file"), f.get("line")) for f in got] == found
    assert all(not f["summary"].startswith(("http", "get ", "PS1")) for f in got)
