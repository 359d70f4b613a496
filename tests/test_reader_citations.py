# ruff: noqa: E501  (a review line is as long as its writer made it)
"""The reader on shapes of located findings seen in real review write-ups (issue:
read what real reviewers print), with fixtures written for these tests, among them:

- a code citation, the fence IDE assistants cite code with (`` ```START:END:PATH ``), right
  after the item that states the finding: the citation is that finding's place;
- a paragraph that only names a file (``**src/a.cs:**``) over items that open with only a
  line (``Lines 10-14: ...``): each item is a finding at that file and line.
"""

from __future__ import annotations

from reader_kit import located

from council_filters.verdict import reading


def where(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity"))
            for f in reading.read(text.encode(), "tester").findings]


CITED = """\
## Findings (worst first)
- **The retry loop never gives up.** `fetch_all()` retries on every error, so a 404 spins
  forever.

```88:97:/home/dev/checkout/svc/net/fetch.py
while True:
    try:
        return get(url)
    except Exception:
        continue
```

- **Timeouts are in milliseconds, not seconds.** The client multiplies again.

```12:14:D:\\src\\svc\\net\\client.py
timeout = cfg.timeout * 1000
```

- **No finding here has a citation.** The cache key omits the locale.
"""


def test_a_code_citation_after_an_item_is_its_place() -> None:
    got = where(CITED)
    assert got[0][:2] == ("/home/dev/checkout/svc/net/fetch.py", 88)
    assert got[1][:2] == ("D:/src/svc/net/client.py", 12)
    assert got[2][:2] == (None, None)
    assert len(got) == 3


def test_a_citation_never_moves_a_finding_that_has_a_place() -> None:
    text = ("## Findings\n- **[P2] svc/app.py:40 — the flag is read twice**\n\n"
            "```5:9:svc/other.py\nx = 1\n```\n")
    assert where(text) == [("svc/app.py", 40, "medium")]


def test_a_citation_after_prose_that_holds_no_finding_adds_none() -> None:
    text = ("## Context\nThe module was written last year.\n\n```1:3:svc/app.py\nx = 1\n```\n")
    assert where(text) == []


FILE_HEADED = """\
## High severity

### Early returns (3)

**src/Billing/Invoice.cs:**
- Lines 12-20: the branches nest four deep where a guard would do
- Line 58 - the null case falls through to the division

__src/Billing/Tax.cs__
- L7: the rounding mode is the platform default
"""


def test_items_that_open_with_a_line_take_the_file_named_above_them() -> None:
    assert where(FILE_HEADED) == [
        ("src/Billing/Invoice.cs", 12, "critical"),
        ("src/Billing/Invoice.cs", 58, "critical"),
        ("src/Billing/Tax.cs", 7, "critical"),
    ]


def test_a_list_of_plain_notes_under_a_file_name_is_not_read_as_lines() -> None:
    # items that do not open with a line stay what they were before
    text = "## Notes\n\n**src/a.py:**\n- the module is small\n- it has tests\n"
    assert all(line is None for _, line, _ in where(text))


TALLIED = """\
## Statistics
- Checks run: 40
- Critical: 1
- **High issues** — 0
- 2 minor
- P1: 2 (see below)

## Critical issues
- Critical: the lock taken in `svc/pool.py:31` is never released on the error path
"""


def test_a_count_of_findings_by_severity_is_no_finding() -> None:
    assert where(TALLIED) == [("svc/pool.py", 31, "critical")]


FOLDED_BODY = """\
**Actionable comments posted: 1**

> [!WARNING]
> Two comments fall outside the diff and are listed here.
>
> <details>
> <summary>Outside diff range comments (1)</summary><blockquote>
>
> <details>
> <summary>pkg/store/disk.go (1)</summary><blockquote>
>
> `210-214`: **The temporary file is renamed before it is synced.**
>
> A crash between the two leaves an empty file in place of the old one.
>
> </blockquote></details>
>
> </blockquote></details>

<details>
<summary>Duplicate comments (2)</summary><blockquote>
<details>
<summary>pkg/store/index.go (2)</summary><blockquote>

`33-33`: **Earlier concern resolved.**

`90-97`: **The index is rebuilt on every read.**

_Potential issue_ | _Major_

</blockquote></details>
</blockquote></details>

<details>
<summary>Nitpick comments (1)</summary><blockquote>
<details>
<summary>cmd/tool/main.go (1)</summary><blockquote>

`5-5`: **Group the imports.**

</blockquote></details>
</blockquote></details>

<details>
<summary>Additional comments (1)</summary><blockquote>
<details>
<summary>pkg/store/lock.go (1)</summary><blockquote>

`12-20`: **Locking order is consistent.**

</blockquote></details>
</blockquote></details>

<details>
<summary>Review details</summary>
<details>
<summary>Files selected for processing (3)</summary>
* pkg/store/disk.go
</details>
</details>
"""


def test_a_bots_folded_summary_body_lists_its_findings_by_file() -> None:
    assert where(FOLDED_BODY) == [
        ("pkg/store/disk.go", 210, None),
        ("pkg/store/index.go", 90, "medium"),
        ("cmd/tool/main.go", 5, "minor"),
    ]


SEVERAL_IN_A_FIELD = """\
### P1 — The guard reads the first key only

**FILE:LINE:** [tools/guard.py:40](/tmp/wt/tools/guard.py:40), [tools/guard.py:77](/tmp/wt/tools/guard.py:77)

The second declaration wins under every YAML parser.

### P2 — The count is off by one

**Location:** `lib/count.rs:12`, `lib/count.rs:12` and `lib/tally.rs:3`

### P2 — A place named in passing is not a second place

**Location:** `app/run.py:9` calls `app/util.py:30` with the wrong flag
"""


def test_a_location_field_listing_several_places_is_one_finding_with_related_places() -> None:
    assert where(SEVERAL_IN_A_FIELD) == [
        ("tools/guard.py", 40, "critical"),
        ("lib/count.rs", 12, "medium"),
        ("app/run.py", 9, "medium"),
    ]
    assert [r for _, r in located(reading.read(SEVERAL_IN_A_FIELD.encode()).findings)] == [
        [("tools/guard.py", 77)], [("lib/tally.rs", 3)], []]


FIELDS_UNDER_A_FILE_HEADING = """\
# Review: the cache layer

## store/lru.go

### Finding 1
- **Line 88:** [BUG] eviction skips the head; compare `list.go:12` where the same walk is right
- **Severity:** High
- **Type:** BUG

### Finding 2
- **Lines 120-131:** [QUESTION] the size is read without the lock, unlike `map.go:40`
- **Severity:** Low
"""


def test_a_line_field_is_in_the_file_its_heading_names_whatever_its_prose_cites() -> None:
    assert where(FIELDS_UNDER_A_FILE_HEADING) == [
        ("store/lru.go", 88, "critical"),
        ("store/lru.go", 120, "minor"),
    ]


CJK_LADDER = """\
# 代码评审

## 🔴 严重问题（必须修复）

### A1. `svc/queue.py:40` — 任务在列表被修改时执行

## 🟡 中等问题（建议修复）

### B1. `svc/cache.py` — 缓存从不清理

## 🟢 轻微问题（可选）

### C1. `svc/log.py:7` — 日志级别写死
"""


def test_chinese_severity_headings_and_file_level_headings_are_read() -> None:
    assert where(CJK_LADDER) == [
        ("svc/queue.py", 40, "critical"),
        ("svc/cache.py", None, "medium"),
        ("svc/log.py", 7, "minor"),
    ]


PASTED_COMMENTS = """\
# Review comments kept for the record

````md
_\u26a0\ufe0f Potential issue_ | _\U0001f7e0 Major_

**The retry budget is shared by every request.**

One slow caller drains it for all the others.

<details>
<summary>Tools</summary>

[warning] 12-12: net/retry.py#L12
Function has too many branches.

</details>

<details>
<summary>Prompt for AI Agents</summary>

```
In net/retry.py around lines 30 to 41, give each request its own budget.
```

</details>
````

````md
_\u26a0\ufe0f Potential issue_ | _\U0001f534 Critical_

**The token is logged at debug level.**

<details>
<summary>Proposed fix</summary>

```diff
-log.debug("token %s", token)
```

</details>
````

````markdown
_\U0001f6e0\ufe0f Refactor suggestion_ | _\U0001f7e1 Minor_

**Name the magic number.**

<details>
<summary>Prompt for AI Agents</summary>

```
net/pool.py around lines 7 to 9: name the constant 64.
```

</details>
````
"""


def test_comments_pasted_one_fence_each_are_read_each_at_its_prompts_place() -> None:
    assert where(PASTED_COMMENTS) == [
        ("net/retry.py", 30, "medium"),
        (None, None, "critical"),
        ("net/pool.py", 7, "minor"),
    ]


PLAN_AFTER_FINDINGS = """\
# Turn handling fixes

## Issues found

### 1. The turn ends before the blast resolves (CRITICAL)
The timer fires first.

### 2. Fragments drift between clients (MEDIUM)
Each client rolls its own seed.

## Implementation todos

### todo-1: Make the turn end after the blast resolves
### todo-2: Share one seed for fragments
"""


CJK_RECAP = """\
## 🔴 严重问题

### S1. `api/stream.py:30` — 事件流重复推送相同的数据

## 修复优先级建议

| 优先级 | 问题 |
|---|---|
| P0 | 事件流重复推送 |
"""


def test_a_plan_of_work_after_the_findings_restates_them() -> None:
    assert where(PLAN_AFTER_FINDINGS) == [(None, None, "critical"), (None, None, "medium")]
    assert where(CJK_RECAP) == [("api/stream.py", 30, "critical")]


JAPANESE_RECHECK = """\
# 再レビュー

## 各指摘の確認
- P1-1 直った。ロックは解除時に必ず戻る。
- P2-1 文書化で対応（README に記載）。
- P2-2 修正済み。

## 新しい指摘
### P2-A キャッシュの上限が無い
- 場所: `lib/cache.ts:30`（set）、`lib/store.ts:8-12`（flush(0)）、`:40`（init）。

### P1-B 起動時の例外が握りつぶされる
- 起き方: 設定の読み込みが失敗すると画面が白いままになる。

### 確認して問題なしとしたもの
- タイマーは解除される。
"""


def test_a_japanese_recheck_reads_new_findings_only_with_every_place() -> None:
    assert where(JAPANESE_RECHECK) == [("lib/cache.ts", 30, "medium"), (None, None, "critical")]
    assert located(reading.read(JAPANESE_RECHECK.encode()).findings)[0][1] == [
        ("lib/store.ts", 8), ("lib/store.ts", 40)]


RULE_IN_A_FOLD = """\
_\u26a0\ufe0f Potential issue_ | _\U0001f534 Critical_

<details>
<summary>Analysis chain</summary>

Script executed:

```shell
rg "open(" src/io
```

Length of output: 120

---

Script executed:

```shell
rg "close(" src/io
```

</details>

**The file handle leaks on the error path.**

<details>
<summary>Prompt for AI Agents</summary>

```
In src/io/reader.py around lines 50 to 58, close the handle in a finally block.
```

</details>
"""


def test_a_rule_inside_a_folded_block_does_not_end_the_comment() -> None:
    assert where(RULE_IN_A_FOLD) == [("src/io/reader.py", 50, "critical")]


def test_an_item_opening_with_several_places_is_one_finding_with_related_places() -> None:
    text = ("## Findings\n"
            "- `pkg/run_test.go:40-44`, `pkg/run.go:40-44` \u2014 the helper is dead code.\n"
            "- `pkg/a.go:3` \u2014 calls `pkg/b.go:9` with the wrong flag.\n")
    assert located(reading.read(text.encode()).findings) == [
        (("pkg/run_test.go", 40), [("pkg/run.go", 40)]), (("pkg/a.go", 3), [])]


# Codex's cloud answers cite a file as "【F:path†L12-L20】" (a lenticular bracket, "F:", the
# path, a dagger and the lines), after the sentence that states the finding, in any language
DAGGER_NUMBERED = """\
## Blocking points
1. **No direct-access guard in the new classes** – each provider can be loaded by its URL.【F:wp-plugin/src/Embed/Factory.php†L1-L9】【F:wp-plugin/src/Embed/Vimeo.php†L1-L5】
2. **The provider list is frozen** – adding one means patching the core.【F:wp-plugin/src/Embed/Factory.php†L40-L52】
"""

DAGGER_BULLETS = """\
## Problèmes
- Le cache n'est jamais vidé après une mise à jour du profil 【F:app/Cache/Store.php†L88】
- La clé de session est écrite dans le journal en clair 【F:app/Auth/Session.php†L17-L19】
"""


def test_a_codex_file_citation_is_the_place_of_the_finding_it_follows() -> None:
    assert where(DAGGER_NUMBERED) == [("wp-plugin/src/Embed/Factory.php", 1, "critical"),
                                      ("wp-plugin/src/Embed/Factory.php", 40, "critical")]
    assert where(DAGGER_BULLETS) == [("app/Cache/Store.php", 88, None),
                                     ("app/Auth/Session.php", 17, None)]
