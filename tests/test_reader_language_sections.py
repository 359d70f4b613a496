"""The reader on reviews written in other languages (issue: read what real reviewers
print), third round: the sections that hold no findings (a change summary, a risk
assessment, an action plan, references, a test plan), a severity tag that opens a
heading's title, place and line spellings, table columns, a document's severity field and
a verdict word.  Every fixture is written for these tests, in several languages.
"""

from __future__ import annotations

import pytest
from reader_kit import located

from council_filters.verdict import reading, words


def read(text: str) -> reading.Reading:
    return reading.read(text.encode(), "tester")


def where(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in read(text).findings]


# --------------------------------------------------------------------------- #
# 1. Sections that hold no findings of their own
# --------------------------------------------------------------------------- #
SECTIONS = {
    "chinese-plan-and-references": """\
# 第二轮审查

## 发现的问题

#### M1. 列表过滤没有防抖
`web/list.tsx:40` 每次按键都重新过滤全部数据。

#### M2. 导出接口缺少分页
`api/export.py:88` 一次性读取全部记录。

## 🛠️ 建议行动计划

### 本周（上线前）
1. 给过滤加防抖（半小时）

### 下周（持续优化）
2. 导出改为分页（两小时）

## 📚 参考资料

### 前端性能
- [防抖与节流](https://example.org/debounce)
""",
    "japanese-changes-and-next-steps": """\
# 決済モジュールのレビュー

## 変更概要
- `billing/retry.py:10-40` にリトライ処理を追加
- `billing/config.py:5` に上限回数の設定を追加

## 指摘事項

### 1. リトライで二重請求が起こりうる
- **ファイル**: `billing/retry.py:31`
- **重要度**: 高

## 次のステップ

### 今週中
1. 冪等キーを導入する
""",
    "korean-changes-and-risk": """\
# 인증 모듈 리뷰

## 변경 사항
- `auth/refresh.go:20-64` 토큰 갱신 로직 추가
- `auth/cache.go:10` 캐시 키 변경

## 발견된 문제

### 1. 만료된 토큰이 캐시에 남는다
- **위치**: `auth/cache.go:57`
- **심각도**: 중간

## 리스크 평가

### 배포 후 지켜볼 부분
- 갱신 요청이 몰릴 때의 지연
""",
    "portuguese-changes-and-scope": """\
# Revisão do módulo de pedidos

## Alterações
- `orders/service.py:12-40` adiciona o cancelamento
- `orders/api.py:8` expõe a rota nova

## Problemas encontrados

### 1. O cancelamento não libera o estoque
- **Arquivo:** `orders/service.py:33`
- **Severidade:** Alta

## Escopo
- `orders/models.py:1-80` lido por inteiro, sem observações
""",
}


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_the_plan_summary_references_and_test_plan_of_a_review_hold_no_findings(name):
    expected = {
        "chinese-plan-and-references": [("web/list.tsx", 40, None),
                                        ("api/export.py", 88, None)],
        "japanese-changes-and-next-steps": [("billing/retry.py", 31, "critical")],
        "korean-changes-and-risk": [("auth/cache.go", 57, "medium")],
        "portuguese-changes-and-scope": [("orders/service.py", 33, "critical")],
    }[name]
    assert where(SECTIONS[name]) == expected


def test_priority_groups_of_suggestions_that_restate_findings_by_id_add_none():
    text = """\
## 🔍 发现的问题

### 🟡 中等问题

#### **M1. 搜索没有防抖**
`src/search.ts:12` 每次输入都会触发查询。

#### **M2. 缺少错误边界**
`src/app.tsx:30` 运行时错误会让整页空白。

## 📋 改进建议（优先级排序）

### P0 - 必须修复（上线前）
1. **[M1] 给搜索加防抖** - 影响性能
2. **[M2] 增加错误边界** - 提高健壮性

### P1 - 强烈建议（两周内）
3. **[M1] 顺便缓存查询结果**
"""
    assert where(text) == [("src/search.ts", 12, "medium"), ("src/app.tsx", 30, "medium")]


@pytest.mark.parametrize("heading, kind", [
    ("変更概要", "changes"), ("变更摘要", "changes"), ("변경 사항", "changes"),
    ("검토 범위", "changes"), ("Alterações", "changes"), ("요약", "summary"),
    ("风险评估", "summary"), ("Visão geral", "summary"), ("Übersicht der Änderungen", "summary"),
    ("建议行动计划", "action"), ("次のステップ", "action"), ("다음 단계", "action"),
    ("Próximos passos", "action"), ("Nächste Schritte", "action"),
    ("参考资料", "other"), ("テスト計画", "other"),
    ("Referências", "other"), ("Testplan", "other"),
    ("变更导致崩溃", None), ("요약 화면이 비어 있음", None), ("Referenzfehler im Parser", None),
])
def test_the_section_names_of_other_languages_are_read_by_kind(heading, kind):
    from council_filters.verdict import document

    assert document._intl_head(heading) == kind


def test_the_section_tables_are_compiled_and_documented():
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "parse-verdict.md").read_text()
    for table in (words.SUMMARY_HEADS_INTL, words.ACTION_HEADS_INTL, words.CHANGES_HEADS_INTL,
                  words.OTHER_HEADS_INTL):
        re.compile(table)
    for word in ("変更概要", "变更摘要", "요약", "行动计划", "다음 단계", "Próximos passos",
                 "テスト計画", "Referências"):
        assert word in doc


# --------------------------------------------------------------------------- #
# 2. A severity word of another language that tags a heading's title
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("heading", [
    "### 1. 重大: 入力が未検証",
    "### 2. 严重：上传未限大小",
    "### 3. 높음: 평문비밀번호",
    "### 4. 高：令牌未做签名校验",
])
def test_a_heading_opening_with_a_severity_tag_is_a_finding_with_its_fields(heading):
    text = f"""\
## 指摘事項

{heading}

- **ファイル**: `svc/upload.py:21`
- **説明**: 値をそのまま使っている。
"""
    assert where(text) == [("svc/upload.py", 21, "critical")]


def test_a_severity_heading_naming_its_group_stays_a_group():
    text = """\
## 严重问题：必须修复

- `svc/a.py:3` 密码以明文写入日志。
- `svc/b.py:9` 删除接口没有鉴权。
"""
    assert where(text) == [("svc/a.py", 3, "critical"), ("svc/b.py", 9, "critical")]


# --------------------------------------------------------------------------- #
# 3. Places and lines
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("place", [
    "`net/client.go` 118번째 줄",
    "`net/client.go` 118행",
    "`net/client.go`（118-120행）",
    "`net/client.go`, 라인 118",
])
def test_a_korean_line_after_a_path_is_its_line(place):
    text = f"""\
## 발견된 문제

### 1. 재시도 간격이 고정되어 있다

- **위치**: {place}
- **설명**: 실패가 이어지면 서버에 부하가 몰린다.
"""
    assert where(text) == [("net/client.go", 118, None)]


def test_a_location_field_in_japanese_lists_several_places_each_kept():
    text = """\
## 指摘事項

1. **中: 例外が握りつぶされている**
   - 該当: `jobs/sync.py:40-52`, `90-95`, `jobs/export.py:12`
   - 失敗してもログに何も残らない。
"""
    assert where(text) == [("jobs/sync.py", 40, "medium")]
    assert located(read(text).findings)[0][1] == [("jobs/export.py", 12), ("jobs/sync.py", 90)]


# --------------------------------------------------------------------------- #
# 4. Tables whose text or place column is named in another language
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("header", [
    "| ID | 심각도 | 위치 | 요약 |",
    "| ID | 重要度 | 場所 | 概要 |",
    "| ID | Severidade | Arquivo | Resumo |",
    "| ID | Schweregrad | Datei | Zusammenfassung |",
])
def test_a_findings_table_whose_text_column_names_a_summary_is_read(header):
    text = f"""\
## 지적 사항

{header}
|---|---|---|---|
| R-1 | 🔴 Critical | `hooks/start.mjs:44` | 환경 변수가 숫자로 잘못 읽힌다 |
| R-2 | 🟡 Minor | `docs/setup.md` | 예시 명령이 오래되었다 |
"""
    assert where(text) == [("hooks/start.mjs", 44, "critical"), ("docs/setup.md", None, "minor")]


def test_a_table_column_holding_file_and_line_together_is_the_place():
    text = """\
### 指摘事項
| # | 重要度 | ファイル:行 | 内容 |
|---|--------|------------|------|
| 1 | 高 | `api/users.py:42` | 権限チェックが抜けている |
| 2 | 低 | `api/users.py:90` | 変数名が紛らわしい |
"""
    assert where(text) == [("api/users.py", 42, "critical"), ("api/users.py", 90, "minor")]


# --------------------------------------------------------------------------- #
# 5. A one-finding document's severity field, in another language
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("field, expected", [
    ("**Severidade:** 🟧 Média", "medium"),
    ("**Schweregrad:** Hoch", "critical"),
    ("**重要度**: 低", "minor"),
])
def test_a_document_severity_field_in_another_language_is_its_findings(field, expected):
    text = f"""\
# F-12 — O filtro de datas aceita um intervalo invertido

{field}

## Base

- Arquivo: `srv/periodo.js:58`.
- O teste de integração esperava 400 e recebeu 204.
"""
    assert where(text) == [("srv/periodo.js", 58, expected)]


# --------------------------------------------------------------------------- #
# 6. Verdict words
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("value", ["현 상태로 병합 불가", "머지 불가", "병합·배포 불가"])
def test_a_korean_cannot_merge_asks_for_changes(value):
    assert words.vote_of(value) == "REVISE"
    assert read(f"## 종합 판정\n\n{value}\n").verdict == "REVISE"


@pytest.mark.parametrize("line, expected", [
    ("**结论：本次改动可以接受，没有阻塞项。**", "APPROVE"),
    ("**最终判定**：`REVIEW_RESULT: PASS`（建议项不阻塞）", "APPROVE"),
    ("**Empfehlung:** Deployen. Die offenen Kleinigkeiten folgen im nächsten Sprint.", "APPROVE"),
    ("**Empfehlung:** Nicht mergen, bevor die Migration getestet ist.", "REJECT"),
    ("**Empfehlung:** Freigeben, aber erst nach dem Fix", "UNKNOWN"),
    ("结论：可以接受吗？还需要讨论。", "UNKNOWN"),
])
def test_verdicts_said_as_acceptable_an_inner_result_key_or_an_imperative(line, expected):
    assert read(line + "\n").verdict == expected


# --------------------------------------------------------------------------- #
# 7. Nothing under a label, and test results
# --------------------------------------------------------------------------- #
def test_a_per_file_label_saying_none_with_an_aside_is_no_finding():
    text = """\
**レビュー結果**

- `app/Models/Invite.php`
  - **判定**: OK
  - **Suggestion**: なし（意図はコメントで明確）。
- `resources/js/Register.svelte`
  - **判定**: OK
  - **Suggestion**: なし。
  - **Warning**: `token` が URL に残る。
"""
    assert where(text) == [("resources/js/Register.svelte", None, "medium")]


def test_a_retest_table_in_another_language_restates_no_new_finding():
    text = """\
### Gefundene Bugs

#### BUG-1: Das Limit wird beim Tippen nicht erzwungen
- **Schweregrad:** Niedrig
- **Status:** Offen

### Re-Test-Ergebnisse

| Bug | Schweregrad | Vorher | Nachher |
|-----|-------------|--------|---------|
| BUG-1 | Niedrig | Offen | Offen |
| BUG-2 | Hoch | Offen | BEHOBEN |
"""
    assert where(text) == [(None, None, "minor")]


# --------------------------------------------------------------------------- #
# 8. A summary at the head of the review that lists the findings detailed below
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text", [
    """\
# 第三轮审查

## 📊 总体评价

**评级：良好**

### 主要问题 ⚠️
- ⚠️ 列表过滤缺少防抖
- ⚠️ 导出接口没有分页
- ⚠️ 登录接口没有限流

## 🔍 发现的问题

- **列表过滤缺少防抖** — `web/list.tsx:40` 每次按键都重新过滤。
- **导出接口没有分页** — `api/export.py:88` 一次性读取全部记录。

## 📋 改进建议（优先级排序）

### P3 - 长期优化
- 引入虚拟滚动
""",
    """\
# Third review

## Overview

### Main issues
- The list filter has no debounce
- The export endpoint has no pagination
- The login endpoint has no rate limit

## Findings

- **The list filter has no debounce** — `web/list.tsx:40` filters on every key press.
- **The export endpoint has no pagination** — `api/export.py:88` reads every record at once.
""",
])
def test_a_summary_at_the_head_lists_the_findings_below_once_and_keeps_the_rest(text):
    got = read(text).findings
    assert [(f.get("file"), f.get("line")) for f in got] == [
        (None, None), ("web/list.tsx", 40), ("api/export.py", 88)]
    assert "登录" in got[0]["summary"] or "login" in got[0]["summary"]


# --------------------------------------------------------------------------- #
# 9. A finding marked fixed, in another language, at the head of its body
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("mark", [
    "> ✅ behoben (Commit 6933dfa)",
    "> 已修复（提交 6933dfa）",
    "✅ 수정 완료 — 커밋 6933dfa",
    "> ✅ Corrigido no commit 6933dfa",
    "**修正済み**（6933dfa）",
])
def test_a_heading_whose_body_opens_saying_it_was_fixed_is_no_finding(mark):
    text = f"""\
## Warnungen

### WR-01: Pfade aus `agent_id` ohne Prüfung

**Datei:** `webui/state.py:21`

Die Kennung wird nicht geprüft.

### WR-02: Löschrouten ohne Rate-Limit

{mark}

**Datei:** `webui/main.py:212`

Löschen und Zurücksetzen sind ungedrosselt.
"""
    assert where(text) == [("webui/state.py", 21, "medium")]


def test_a_body_opening_with_an_english_word_for_fixed_stays_a_finding():
    text = """\
## Findings

### 1. Layout overflow

Fixed width columns overflow on small screens at `web/table.css:12`.
"""
    assert where(text) == [("web/table.css", 12, None)]


# --------------------------------------------------------------------------- #
# 10. A bold title over its sub-points: one finding, not one a sub-point
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text", [
    """\
### 指摘事項

**Minor 1: 既存選択でエラートーストが出る**
- `src/table.tsx:164`: `reject(new Error(...))` を使っている
- CrudTable の catch（`src/crud.tsx:570-571`）でエラーとして表示される
- **修正案**: キャンセルとして返す

**Minor 2: name ガードが不一致**
- `src/actions.ts:128`: falsy チェックなし
- `src/edit/actions.ts:76`: falsy チェックあり
""",
    """\
### Findings

**Minor 1: choosing an existing item shows an error toast**
- `src/table.tsx:164`: `reject(new Error(...))` is used
- the catch in `src/crud.tsx:570-571` shows it as an error
- **Fix**: return a cancel result instead

**Minor 2: the name guard differs between two actions**
- `src/actions.ts:128`: no falsy check
- `src/edit/actions.ts:76`: falsy check present
""",
])
def test_a_tagged_bold_title_over_its_sub_points_is_one_finding(text):
    assert where(text) == [("src/table.tsx", 164, "minor"), ("src/actions.ts", 128, "minor")]


def test_a_numbered_bold_title_with_its_severity_aside_takes_its_field_list():
    text = """\
## 발견 사항

**1. 세션 고정 공격 가능** (심각도: 높음)
- 파일: `auth/session.ts:33`
- 근거:
  - `auth/login.ts:12` 에서 세션을 재발급하지 않음
  - `auth/logout.ts:5` 도 같은 패턴
- 제안: 로그인 직후 세션 ID를 재발급

**2. 비밀번호 규칙이 약함** (심각도: 낮음)
- 파일: `auth/policy.ts:8`
"""
    assert where(text) == [("auth/session.ts", 33, "critical"), ("auth/policy.ts", 8, "minor")]


def test_a_bold_group_over_tagged_items_stays_a_group():
    text = """\
## Problemas encontrados

**Críticos**
- **[ALTA]** `api/auth.py:42` o token não é validado
- **[ALTA]** `api/admin.py:9` qualquer usuário apaga registros
"""
    assert where(text) == [("api/auth.py", 42, "critical"), ("api/admin.py", 9, "critical")]


# --------------------------------------------------------------------------- #
# 11. A task's header over its analysis
# --------------------------------------------------------------------------- #
def test_a_single_unchecked_status_box_is_a_task_state_not_a_form_to_fill_in():
    text = """\
# TAREFA-07: Corrigir a aceitação concorrente de tickets

**Prioridade:** 🔴 Crítico
**Status:** [ ] Pendente

## Análise técnica

### 2 Vulnerabilidades Críticas Identificadas

#### 1. **Sem lock pessimista**
**Arquivo:** `backend/services/UpdateTicket.ts:139`
**Problema:** o SELECT não trava a linha.

#### 2. **Mutex só em memória**
**Arquivo:** `backend/controllers/Ticket.ts:343-351`
**Problema:** não vale entre instâncias.
"""
    assert where(text) == [("backend/services/UpdateTicket.ts", 139, "critical"),
                           ("backend/controllers/Ticket.ts", 343, "critical")]
    assert read(text).verdict == "UNKNOWN"


def test_unchecked_verdict_options_are_still_a_form():
    assert words.is_enumeration("[ ] APPROVE [ ] REVISE")
    assert words.is_enumeration("[ ] APPROVE")
    assert not words.is_enumeration("[ ] Pendente")


# --------------------------------------------------------------------------- #
# 12. The evidence a finding's field lists is no finding of its own
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("key, loc_key", [
    ("**触发场景**：", "**位置**："), ("**Trigger**:", "**Location**:"),
    ("**発生箇所の例**：", "**場所**："), ("**Evidência:**", "**Arquivo:**"),
])
def test_the_nested_list_of_an_evidence_field_belongs_to_the_heading_finding(key, loc_key):
    text = f"""\
## Bugs

### BUG-10: `pick` returns undefined on an empty array

- {loc_key} `src/utils/random.ts:30-32`
- {key} several call sites may pass an empty array:
  - `src/engine/events.ts:219`: `pick(staff)` with no apprentices
  - `src/engine/morning.ts:103`: `pick(clerks)` with no clerks
- **Fix**: check for an empty array first.
"""
    assert where(text) == [("src/utils/random.ts", 30, None)]


def test_a_nested_list_under_a_findings_field_is_still_read():
    text = """\
## Review

### Module `billing`

- **Problems found**:
  - `billing/retry.py:31` retries without an idempotency key
  - `billing/config.py:5` has no upper bound
"""
    assert where(text) == [("billing/retry.py", 31, None), ("billing/config.py", 5, None)]


# --------------------------------------------------------------------------- #
# 13. A review in another language is a review: its findings without a file stay
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text", [
    """\
## 🔴 Débitos Críticos

### DT-03: Ausência total de testes
**Severidade:** 🔴 CRÍTICA
**Localização:** Todo o projeto

Nenhum teste unitário, de integração ou E2E.
""",
    """\
## 발견 사항

### RV-03: 테스트가 전혀 없다
**심각도:** 높음

단위 테스트도 통합 테스트도 없다.
""",
])
def test_a_fileless_finding_of_a_review_in_another_language_is_kept(text):
    assert where(text) == [(None, None, "critical")]


def test_the_parts_of_a_finding_as_sub_headings_are_no_findings_in_other_languages():
    text = """\
# Security review

## 🔴 VULNERABILIDADES CRÍTICAS

### VULN #003 - Ausência de bloqueio de conta

**Severidade:** 🔴 CRÍTICA

#### 📍 Localização
- **Arquivo:** `app/api/auth.py`

#### ⏱️ Estimativa
- **Tempo:** 3 horas

#### Correção
Bloquear a conta após cinco tentativas.
"""
    assert where(text) == [("app/api/auth.py", None, "critical")]


def test_a_checklist_of_gates_in_korean_holds_no_findings_of_its_own():
    text = """\
# Design review (설계 리뷰)

## 상세 발견사항

### REV-01 — 캐시 키에 사용자 권한이 없음
**심각도: P0**

`cache/keys.py:12` 에서 tenant 만 키로 쓴다.

## 권장 검증 게이트

### P0 — 실제 데이터 도입 전
- [ ] 같은 tenant 내 사용자 격리 테스트
"""
    assert where(text) == [("cache/keys.py", 12, "critical")]
