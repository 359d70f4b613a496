"""The reader on reviews written in other languages, read by family of form rather than
by phrase (issue: read what real reviewers print): a severity group that counts its
findings, the keys a verdict is stated under, the sections that hold no findings
(acceptance criteria, metrics, a mapping to standards), the parts of one finding, a
recap named with a qualifier after it, a key that ends with the noun "file", and the
concerns a review raises.  Every fixture is written for these tests, in several
languages.
"""

from __future__ import annotations

import pytest

from council_filters.verdict import reading


def read(text: str) -> reading.Reading:
    return reading.read(text.encode(), "tester")


def where(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in read(text).findings]


# --------------------------------------------------------------------------- #
# 1. A severity group that says how many findings it holds
# --------------------------------------------------------------------------- #
COUNTED = {
    "korean-counter": ("## CRITICAL 2건 (즉시 수정)", "## MINOR 1건 (참고용)"),
    "japanese-counter": ("## 重大 2件", "## 軽微 1件（報告のみ）"),
    "chinese-counter": ("## 严重问题 2 个", "## 轻微 1 项"),
    "english-word-cjk-counter": ("## HIGH 2件", "## LOW 1개"),
}


@pytest.mark.parametrize("heads", COUNTED.values(), ids=COUNTED.keys())
def test_a_counted_severity_group_grades_what_it_holds(heads: tuple[str, str]) -> None:
    text = f"""\
# Review of the upload service

{heads[0]}

### U-1 — size limit checked after the read

`upload/handler.go:52` reads the whole body before comparing it with the limit.

### U-2 — temporary files never removed

`upload/store.go:118` leaves the spool file behind on error.

{heads[1]}

| # | 위치 | 내용 |
|---|---|---|
| n1 | upload/util.go:7 | helper name does not say what it returns |
"""
    assert where(text) == [("upload/handler.go", 52, "critical"),
                           ("upload/store.go", 118, "critical"),
                           ("upload/util.go", 7, "minor")]


# --------------------------------------------------------------------------- #
# 2. The keys a verdict is stated under
# --------------------------------------------------------------------------- #
KEYS = {
    "chinese-overall-comment": ("**总评：✅ 通过 —— 可以合并**", "APPROVE"),
    "chinese-audit-conclusion": ("**审核结论**：需要修改", "REVISE"),
    "korean-overall-comment": ("**총평**: 반려", "REJECT"),
    "portuguese-opinion": ("**Parecer:** aprovado com ressalvas", "REVISE"),
    "spanish-opinion": ("**Dictamen:** aprobado", "APPROVE"),
}


@pytest.mark.parametrize("line,vote", KEYS.values(), ids=KEYS.keys())
def test_verdict_keys_of_other_languages(line: str, vote: str) -> None:
    text = f"# 审查 / Revisão\n\n## 发现的问题\n\n- `cache/lru.py:14` 容量为零时除零。\n\n{line}\n"
    assert read(text).verdict == vote


def test_a_summary_heading_that_is_also_a_key_needs_a_verdict_word() -> None:
    text = ("# 审查\n\n## 总评\n\n整体结构清晰，测试覆盖了主要路径。\n\n"
            "## 发现的问题\n\n- `cache/lru.py:14` 容量为零时除零。\n")
    assert read(text).verdict == "UNKNOWN"


# --------------------------------------------------------------------------- #
# 3. Sections that say what is to be met, measured or mapped: no findings
# --------------------------------------------------------------------------- #
NO_FINDINGS = {
    "german-acceptance-criteria": """\
# BUG-12 — Export bricht bei leeren Spalten ab

**Schweregrad:** Mittel

`export/csv.py:77` greift auf das erste Element einer leeren Liste zu.

## Akzeptanzkriterien

- [ ] Leere Spalten erzeugen eine leere Zelle statt eines Abbruchs.
- [ ] Ein Test deckt eine Tabelle ohne Zeilen ab.
""",
    "japanese-acceptance-criteria": """\
# レビュー: 検索 API

## 指摘事項

### 1. ページ番号が負でも受け付ける
`search/api.py:31` で `page` の下限を確認していない。

## 受け入れ基準

- [ ] 負のページ番号には 400 を返す
- [ ] 0 件のときも空配列を返す
""",
    "russian-metrics": """\
# Отчёт о ревью

## Найденные проблемы

### 1. Пароль пишется в журнал
**Критичность:** Высокая
**Файл:** `auth/login.py:40`

## МЕТРИКИ КОДА

### Сложность
- **Средняя:** Низкая
- **Максимальная:** 12 ветвлений в одной функции
""",
    "spanish-standards-mapping": """\
# Auditoría del módulo de pagos

## Hallazgos

### 1. Token de sesión en la URL
**Severidad:** Alta
**Ubicación:** `pay/redirect.js:9`

## Cumplimiento y estándares

- ❌ **A02 – Fallos criptográficos** (token expuesto)
- ⚠️ **A07 – Fallos de autenticación** (sesión reutilizable)
""",
}


@pytest.mark.parametrize("text", NO_FINDINGS.values(), ids=NO_FINDINGS.keys())
def test_sections_that_hold_no_findings(text: str) -> None:
    found = where(text)
    assert len(found) == 1, found
    assert found[0][0] is not None and found[0][1] is not None


# --------------------------------------------------------------------------- #
# 4. The parts of one finding written as its sub-headings
# --------------------------------------------------------------------------- #
def test_reproduction_steps_are_part_of_the_finding() -> None:
    text = """\
# Prüfung des Importdienstes

## Befunde

### B-1 — Import überschreibt Einträge anderer Nutzer
**Schweregrad:** Hoch
**Datei:** `import/merge.py:63`

#### Reproduktion
1. Zwei Konten anlegen, beide importieren `data/sample.csv`.
2. Das zweite Konto sieht danach die Einträge des ersten.
"""
    assert where(text) == [("import/merge.py", 63, "critical")]


def test_the_details_and_state_of_a_finding_are_parts_of_it() -> None:
    text = """\
# 設定読み込みのレビュー

## 指摘事項

### C-1: 既定値が環境変数より優先される
**場所**: `config/load.py:22`
**重要度**: 中

#### 問題の詳細
`config/defaults.yaml` を先に読み、環境変数で上書きしていない。

#### ステータス
未修正
"""
    assert where(text) == [("config/load.py", 22, "medium")]


# --------------------------------------------------------------------------- #
# 5. A recap named with a qualifier after its name
# --------------------------------------------------------------------------- #
def test_priority_recommendations_restate_the_findings() -> None:
    text = """\
# Revisão do serviço de mensagens

## Problemas encontrados

1. **Fila sem limite** ❌
   - **Severidade:** Alta
   - **Problema:** a fila cresce sem limite quando o consumidor para

2. **Sem reenvio** ⚠️
   - **Severidade:** Média
   - **Problema:** mensagens com erro são descartadas

## Recomendações prioritárias

### 🔴 Crítico

1. **Limitar a fila**
   - definir um máximo e rejeitar acima dele

2. **Reenviar mensagens com erro**
   - três tentativas com espera crescente
"""
    assert [s for _, _, s in where(text)] == ["critical", "medium"]


# --------------------------------------------------------------------------- #
# 6. A key that ends with the noun "file" names the place
# --------------------------------------------------------------------------- #
FILE_KEYS = {
    "japanese-test-file": "**テストファイル**: `tests/cart.test.ts`",
    "chinese-config-file": "**配置文件**：`deploy/app.yaml`",
    "korean-test-file": "**테스트 파일**: `tests/cart_test.go`",
}


@pytest.mark.parametrize("field", FILE_KEYS.values(), ids=FILE_KEYS.keys())
def test_a_key_ending_in_file_names_the_place(field: str) -> None:
    text = f"""\
# Review

## Findings

### 1. Discount applied twice for bundled items

{field}
**Severity**: High

The bundle path and the item path both subtract the discount.
"""
    path = field.split("`")[1]
    assert where(text) == [(path, None, "critical")]


# --------------------------------------------------------------------------- #
# 7. The concerns a review raises are findings, as "Concerns" are
# --------------------------------------------------------------------------- #
CONCERNS = {
    "japanese": "懸念点",
    "chinese": "担忧",
    "korean": "우려 사항",
    "german": "Bedenken",
    "spanish": "Preocupaciones",
    "french": "Préoccupations",
}


@pytest.mark.parametrize("head", CONCERNS.values(), ids=CONCERNS.keys())
def test_concern_sections_hold_findings(head: str) -> None:
    text = f"""\
# Review

## Verdict

**APPROVE**

### Strengths

- The retry loop is easy to follow.

### {head}

- **Lock file left behind on crash** — the next start has to clean it up.
- **Two-second timeout** — a loaded host may hit it and refuse to start.
"""
    assert len(read(text).findings) == 2


# --------------------------------------------------------------------------- #
# 8. A heading whose aside in brackets says the item was settled
# --------------------------------------------------------------------------- #
SETTLED_ASIDES = {
    "japanese": ("（対応済み）", False),
    "chinese": ("（已修复）", False),
    "korean": ("（해결됨）", False),
    "spanish": (" (resuelto)", False),
    "german-negated": (" (nicht behoben)", True),
    "japanese-open": ("（未対応）", True),
    "english-partial": (" (partially fixed)", True),
}


@pytest.mark.parametrize("aside,open_", SETTLED_ASIDES.values(), ids=SETTLED_ASIDES.keys())
def test_a_settled_aside_closes_the_item(aside: str, open_: bool) -> None:
    text = f"""\
# Review of the session module

## Findings

## P0: tokens are signed with a fixed fallback secret{aside}

`auth/session.ts:14` falls back to a constant when the variable is unset.

## P1: the design names routes that were never built

`docs/routes.md` lists `/api/kids/*`, the code serves `/kids/*`.
"""
    files = [f for f, _, _ in where(text)]
    assert ("auth/session.ts" in files) is open_
    assert "docs/routes.md" in files


# --------------------------------------------------------------------------- #
# 9. A glob's star inside a cited name is part of the place
# --------------------------------------------------------------------------- #
def test_a_glob_in_a_place_is_kept() -> None:
    text = """\
# Auditoria do módulo de instâncias

## Bugs

### BUG-2 — o contador nunca volta a zero
**Arquivo:** `db/migrations/20260101_*.sql:3-27`
**Severidade:** Alta

### BUG-3 — a data sai sem fuso horário
**Arquivo:** **src/report.py**:12
**Severidade:** Baixa
"""
    assert where(text) == [("db/migrations/20260101_*.sql", 3, "critical"),
                           ("src/report.py", 12, "minor")]


# --------------------------------------------------------------------------- #
# 10. A line written before its file, in the words of each language
# --------------------------------------------------------------------------- #
LINE_FIRST = {
    "spanish": "En la línea 31 de `cart/total.py` el descuento se aplica dos veces.",
    "spanish-en": "Línea 31 en `cart/total.py`: el descuento se aplica dos veces.",
    "german": "In Zeile 31 von `cart/total.py` wird der Rabatt doppelt abgezogen.",
    "french": "À la ligne 31 du fichier `cart/total.py`, la remise est appliquée deux fois.",
    "portuguese": "Na linha 31 de `cart/total.py` o desconto é aplicado duas vezes.",
    "russian": "В строке 31 файла `cart/total.py` скидка применяется дважды.",
    "japanese-no": "`cart/total.py` の31行目で割引が二重に適用される。",
    "chinese-corner-brackets": "「cart/total.py」第31行：折扣被重复扣除。",
}


@pytest.mark.parametrize("line", LINE_FIRST.values(), ids=LINE_FIRST.keys())
def test_a_line_before_its_file(line: str) -> None:
    text = f"# Review\n\n## Findings\n\n1. {line}\n2. `cart/tax.py:8` rounds too early.\n"
    assert where(text)[0][:2] == ("cart/total.py", 31)


# --------------------------------------------------------------------------- #
# 11. The numbering of Chinese, Japanese and Korean headings
# --------------------------------------------------------------------------- #
def test_cjk_numbering_leaves_the_severity_group() -> None:
    text = """\
# 缓存模块审查

## 一、严重问题

### 1）缓存键缺少租户
`cache/keys.py:14` 不同租户共用一个键。

## 二、一般问题

① `cache/ttl.py:30` 过期时间写死。

## 第3点：軽微

`cache/names.py:5` 的命名不一致。
"""
    assert where(text) == [("cache/keys.py", 14, "critical"), ("cache/ttl.py", 30, "medium"),
                           ("cache/names.py", 5, "minor")]


# --------------------------------------------------------------------------- #
# 12. A table's line column in Korean, and a verdict word followed by a mark
# --------------------------------------------------------------------------- #
def test_korean_line_column() -> None:
    text = """\
# 리뷰

## 발견 사항

| 파일 | 라인 | 심각도 | 설명 |
|---|---|---|---|
| `pay/charge.go` | 88 | 높음 | 재시도 시 중복 결제 |
| `pay/log.go` | 12 | 낮음 | 로그 수준이 과하다 |
"""
    assert where(text) == [("pay/charge.go", 88, "critical"), ("pay/log.go", 12, "minor")]


MARKED = {
    "chinese-check": ("最终结论：通过 ✅", "APPROVE"),
    "chinese-cross": ("结论：不通过 ❌", "REVISE"),
    "japanese-check": ("**判定**: 承認 ✅", "APPROVE"),
    "english-thumbs": ("Verdict: GO 👍", "APPROVE"),
}


@pytest.mark.parametrize("line,vote", MARKED.values(), ids=MARKED.keys())
def test_a_verdict_word_followed_by_a_mark(line: str, vote: str) -> None:
    text = f"# 审查\n\n## 发现的问题\n\n- `cache/lru.py:14` 容量为零时除零。\n\n{line}\n"
    assert read(text).verdict == vote


# --------------------------------------------------------------------------- #
# 13. A severity tag: any word of the table in brackets, a CJK word by its lead
# --------------------------------------------------------------------------- #
TAGS = {
    "chinese-optional-bracketed": ("[可选] `ui/menu.tsx:7` 菜单项命名可以更清楚", "minor"),
    "japanese-proposal-bracketed": ("[提案] `ui/menu.tsx:7` メニュー名を揃える", "minor"),
    "korean-suggestion-bracketed": ("【제안】 `ui/menu.tsx:7` 메뉴 이름 통일", "minor"),
    "spanish-medium-bracketed": ("[Medio] `ui/menu.tsx:7` nombres de menú", "medium"),
    "korean-fatal-lead": ("**치명적**: `ui/menu.tsx:7` 권한 검사가 없다", "critical"),
    "chinese-must-fix": ("**必须修复**：`ui/menu.tsx:7` 缺少权限检查", "critical"),
    "chinese-suggestion-key": ("**建议**：`ui/menu.tsx:7` 改用常量", None),
    "spanish-media-word": ("Media: `ui/menu.tsx:7` nombres de menú", None),
}


@pytest.mark.parametrize("item,sev", TAGS.values(), ids=TAGS.keys())
def test_other_language_tags(item: str, sev: str | None) -> None:
    text = f"# 审查\n\n## 发现的问题\n\n- {item}\n- `ui/list.tsx:9` 列表没有虚拟滚动\n"
    assert where(text)[0] == ("ui/menu.tsx", 7, sev)


# --------------------------------------------------------------------------- #
# 14. Suggested follow-ups in Chinese: what to do next, not findings of their own
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("head", ["建议后续", "后续建议", "建议后续工作"])
def test_chinese_follow_ups_are_no_findings(head: str) -> None:
    text = f"""\
# 审查

## 发现的问题

- `auth/token.py:21` 令牌过期时间没有校验。

## {head}

- 为令牌过期补一个测试
- 之后考虑把密钥放进配置中心
"""
    assert where(text) == [("auth/token.py", 21, None)]


@pytest.mark.parametrize(("opening", "sev"), [
    ("**严重程度**：中 — ", "medium"),
    ("[심각도: 중간] ", "medium"),
    ("【重要度：高】", "critical"),
    ("**Schweregrad**: niedrig — ", "minor"),
])
def test_a_severity_key_opening_an_item_gives_its_value(opening: str, sev: str) -> None:
    # the key names the field ("severity"); the value after it is the finding's severity,
    # never the key's own leading word ("심각도" starts with "serious")
    text = f"## Findings\n\n1. {opening}`src/store.py:40` the lock is never released\n"
    assert where(text) == [("src/store.py", 40, sev)]


# --------------------------------------------------------------------------- #
# An id's fields separated by middle dots: the first field after the id is its severity
# --------------------------------------------------------------------------- #
DOT_FIELDS = {
    "german-bold-paragraphs": """\
## Befunde

**K-01 · hoch · SICHERHEIT · `srv/auth/token.go:41-55`**
Das Token wird vor der Signaturprüfung verwendet.

**K-02 · niedrig · STIL · `srv/auth/token.go:90`**
Der Name der Hilfsfunktion sagt nicht, was sie tut.
""",
    "portuguese-headings": """\
## Achados

### A3 · média · desempenho · `web/lista.ts:12`
A lista é ordenada a cada tecla digitada.

### A4 · alta · segurança · `web/login.ts:30`
A senha aparece no log do navegador.
""",
}


@pytest.mark.parametrize("name", sorted(DOT_FIELDS))
def test_a_severity_field_after_an_id_between_middle_dots_is_read(name: str) -> None:
    got = where(DOT_FIELDS[name])
    assert [sev for _, _, sev in got] == (["critical", "minor"] if name.startswith("german")
                                          else ["medium", "critical"])
    assert all(f is not None and line is not None for f, line, _ in got)


# --------------------------------------------------------------------------- #
# The legend of a review's scale says what each level means: none of it is a finding
# --------------------------------------------------------------------------- #
LEGENDS = {
    "japanese-bullets": """\
## 重要度の定義

- **高** — リリース前に必ず直す。
- **中** — 次のスプリントで直す。
- **低** — 余裕があれば直す。

## 指摘事項

### [高] 入力値が検証されない

`api/handlers/user.py:42` で受け取った ID をそのまま SQL に渡している。
""",
    "spanish-table": """\
### Escala de severidad

| Nivel | Significado |
|---|---|
| Alta | Bloquea la publicación |
| Media | Debe corregirse pronto |
| Baja | Mejora opcional |

### Hallazgos

1. **Alta:** el token de sesión se guarda en `localStorage` (`web/auth/store.ts:18`).
""",
    "russian-bullets": """\
## Шкала приоритетов

- **P0** — нельзя выпускать без исправления.
- **P1** — основной сценарий сломан.
- **P2** — пробел качества.

## Найденные проблемы

### [P1] Кэш не сбрасывается после обновления профиля

Смотри `app/cache/store.go:88`.
""",
}


@pytest.mark.parametrize("name", sorted(LEGENDS))
def test_the_legend_of_a_scale_holds_no_finding(name: str) -> None:
    got = where(LEGENDS[name])
    assert len(got) == 1
    assert got[0][0] is not None and got[0][1] is not None and got[0][2] == "critical"


# --------------------------------------------------------------------------- #
# A severity field ("严重级别：critical", "심각도: 낮음") is a field of its finding, never a
# finding whose tag is the key's own leading word
# --------------------------------------------------------------------------- #
KEY_FIELDS = {
    "chinese-headings": """\
## 问题清单

### 1. REQ-017 与实现不一致

- 判定：`不一致`
- 严重级别：`critical`

期望：取消后不得付款。实际：`billing/worker.py:77` 仍会调用网关。

### 2. REQ-021 返回值不符

- 严重级别：`minor`

期望：返回 SKIPPED；实际抛出异常（`billing/worker.py:120`）。
""",
    "japanese-numbered-items": """\
## 指摘事項

1. キャッシュが期限切れにならない
   - 深刻度：low
   - 場所：`cache/ttl.rs:14`
2. トークンがログに残る
   - 深刻度：high
   - 場所：`auth/log.rs:9`
""",
}


@pytest.mark.parametrize("name", sorted(KEY_FIELDS))
def test_a_severity_field_is_a_field_of_its_finding(name: str) -> None:
    got = where(KEY_FIELDS[name])
    want = {"chinese-headings": [("billing/worker.py", 77, "critical"),
                                 ("billing/worker.py", 120, "minor")],
            "japanese-numbered-items": [("cache/ttl.rs", 14, "minor"),
                                      ("auth/log.rs", 9, "critical")]}[name]
    assert got == want


# --------------------------------------------------------------------------- #
# An id glued to its bracketed tag, and a tag in full-width brackets, as Chinese and
# Japanese writers put them ("V-1(LOW、新規):", "BUG-3（重大）")
# --------------------------------------------------------------------------- #
GLUED_TAGS = {
    "japanese-bullets": """\
### 指摘

- D-1(LOW、新規): `docs/guide.md:40` の手順が古いコマンドを案内している。
- D-2(HIGH、前回から継続): `docs/setup.md:12` のポート番号が実装と違う。
""",
    "chinese-headings": """\
## 问题

### BUG-3（重大）订单取消后仍会扣款

见 `pay/worker.go:55`。

### BUG-4（轻微）日志缺少请求编号

见 `pay/log.go:9`。
""",
}


@pytest.mark.parametrize("name", sorted(GLUED_TAGS))
def test_a_tag_glued_to_its_id_or_in_full_width_brackets_is_read(name: str) -> None:
    want = {"japanese-bullets": [("docs/guide.md", 40, "minor"),
                                 ("docs/setup.md", 12, "critical")],
            "chinese-headings": [("pay/worker.go", 55, "critical"),
                                 ("pay/log.go", 9, "minor")]}[name]
    assert where(GLUED_TAGS[name]) == want


# --------------------------------------------------------------------------- #
# A severity key of another language later in an item's first line is its tag, as
# "Severity: high" is ("[S-6] 種別: 実装 / 深刻度: high")
# --------------------------------------------------------------------------- #
INLINE_KEYS = {
    "japanese-bullets": """\
### 指摘

- [R-1] 種別: 設計 / 深刻度: high
  - 内容: `jobs/sync.py:30` で再試行が無限に続く。
- [R-2] 種別: 文書 / 深刻度: low
  - 内容: `README.md:12` の手順が古い。
""",
    "german-headings": """\
## Befunde

### K-1 Bereich: Backend / Schweregrad: hoch

Der Cache in `svc/cache.go:41` wird nie geleert.

### K-2 Bereich: Logging / Schweregrad: niedrig

Die Logzeile in `svc/log.go:7` hat keine Anfrage-ID.
""",
}


@pytest.mark.parametrize("name", sorted(INLINE_KEYS))
def test_a_severity_key_later_in_the_first_line_is_the_items_tag(name: str) -> None:
    assert [sev for _, _, sev in where(INLINE_KEYS[name])] == ["critical", "minor"]


# --------------------------------------------------------------------------- #
# The groups of a review's own scale written as one word ("MUST_FIX", "SHOULD_FIX") in a
# severity column or a tag
# --------------------------------------------------------------------------- #
SCALE_GROUPS = {
    "chinese-table": """\
## 问题清单

| # | 严重度 | 描述 | 文件 | 行号 |
|---|--------|------|------|------|
| 1 | MUST_FIX | 重复清理导致竞态 | run.ts | L75-89 |
| 2 | SHOULD_FIX | 启动无重复调用保护 | transport.ts | L22 |
""",
    "english-tags": """\
## Findings

- [MUST_FIX] `run.ts:75` cleanup runs twice on exit.
- [SHOULD_FIX] `transport.ts:22` start() can be called twice.
""",
}


@pytest.mark.parametrize("name", sorted(SCALE_GROUPS))
def test_a_scale_group_written_as_one_word_is_a_severity(name: str) -> None:
    assert where(SCALE_GROUPS[name]) == [("run.ts", 75, "critical"),
                                         ("transport.ts", 22, "medium")]


# --------------------------------------------------------------------------- #
# Vietnamese in the same tables: the severity key and its values, the place and line
# keys, a findings section's name and a summary's
# --------------------------------------------------------------------------- #
VIETNAMESE = {
    "fields": """\
## Tóm tắt

- Thay đổi thêm bộ nhớ đệm cho hồ sơ người dùng.
- Kiểm thử đơn vị đều qua.

## Các vấn đề phát hiện

### 1. Bộ nhớ đệm không bao giờ hết hạn

- **Mức độ:** Cao
- **Vị trí:** `svc/cache/store.py`
- **Dòng:** 41

### 2. Thiếu mã yêu cầu trong nhật ký

- **Mức độ nghiêm trọng:** Thấp
- **Tệp:** `svc/log.py`
- **Dòng:** 7
""",
    "table": """\
## Lỗi

| # | Tệp | Dòng | Mức độ | Mô tả |
|---|-----|------|--------|-------|
| 1 | svc/cache/store.py | 41 | Cao | Bộ nhớ đệm không bao giờ hết hạn |
| 2 | svc/log.py | 7 | Thấp | Thiếu mã yêu cầu trong nhật ký |
""",
}


@pytest.mark.parametrize("name", sorted(VIETNAMESE))
def test_vietnamese_keys_columns_and_sections_are_read(name: str) -> None:
    assert where(VIETNAMESE[name]) == [("svc/cache/store.py", 41, "critical"),
                                       ("svc/log.py", 7, "minor")]


# --------------------------------------------------------------------------- #
# Lines that open with an enumerator of Chinese and Japanese ("（1）", "1）", "①") are the
# items of a list, as "1." lines are
# --------------------------------------------------------------------------- #
CJK_ENUMERATED = {
    "japanese-full-width-parentheses": """\
## 指摘事項

（1）【必須】ファイル：api/user.py（12行目）入力が検証されない。
（2）【軽微】`api/list.py` の 30 行目でソートが毎回走る。
""",
    "chinese-circled-numbers": """\
## 问题

① 【严重】`pay/order.go` 的第 55 行：取消后仍扣款。
② 【中】pay/log.go 第9行 日志缺少请求编号。
""",
    "japanese-number-and-paren": """\
レビュー結果です。
1）【必須】`api/user.py:12` 入力が検証されない。
2）【軽微】`api/list.py:30` ソートが毎回走る。
""",
}


@pytest.mark.parametrize("name", sorted(CJK_ENUMERATED))
def test_lines_opening_with_cjk_enumerators_are_items(name: str) -> None:
    got = where(CJK_ENUMERATED[name])
    assert [(f, ln) for f, ln, _ in got] == (
        [("pay/order.go", 55), ("pay/log.go", 9)] if name.startswith("chinese")
        else [("api/user.py", 12), ("api/list.py", 30)])
    assert [sev for _, _, sev in got] == (["critical", "medium"] if name.startswith("chinese")
                                          else ["critical", "minor"])


# --------------------------------------------------------------------------- #
# A line, then its file after a comma or in brackets ("行 12，`a.go`", "第 40 行（`a.go`）",
# "Zeile 3, `a.go`"), is that file's line
# --------------------------------------------------------------------------- #
LINE_THEN_FILE = {
    "chinese-numbered": """\
## 问题

1. 行 12，`pay/util.go`：命名不一致。
2. 第 40 行（`pay/conn.go`）：连接未关闭。
""",
    "german-bullets": """\
## Befunde

- Zeile 12, `pay/util.go`: uneinheitliche Namen.
- Zeile 40 (`pay/conn.go`): die Verbindung wird nie geschlossen.
""",
}


@pytest.mark.parametrize("name", sorted(LINE_THEN_FILE))
def test_a_line_then_its_file_is_that_files_line(name: str) -> None:
    assert [(f, ln) for f, ln, _ in where(LINE_THEN_FILE[name])] == [("pay/util.go", 12),
                                                                    ("pay/conn.go", 40)]


def test_a_course_reviews_core_severity_is_critical_in_a_localised_field() -> None:
    text = """\
## 缺点

### 1. 领域对象没有守住业务不变量

- 严重程度：core
- 位置：src/domain/board.js:14-18

### 2. 命名不一致

- 严重程度：minor
- 位置：src/ui/panel.js:3
"""
    assert where(text) == [("src/domain/board.js", 14, "critical"),
                           ("src/ui/panel.js", 3, "minor")]


# --------------------------------------------------------------------------- #
# A table's description column named by a compound that ends with the noun ("问题描述",
# "문제 설명"), never a fix's column ("修复说明")
# --------------------------------------------------------------------------- #
COMPOUND_COLUMNS = {
    "chinese": """\
## 问题

| 文件 | 行号 | 严重程度 | 问题描述 | 修复说明 |
|---|---|---|---|---|
| pay/order.go | 55 | 严重 | 取消后仍扣款 | 先检查状态 |
| pay/log.go | 9 | 轻微 | 日志缺少请求编号 | 加上编号 |
""",
    "korean": """\
## 발견 사항

| 파일 | 라인 | 심각도 | 문제 설명 |
|---|---|---|---|
| pay/order.go | 55 | 높음 | 취소 후에도 결제됨 |
| pay/log.go | 9 | 낮음 | 로그에 요청 ID 없음 |
""",
}


@pytest.mark.parametrize("name", sorted(COMPOUND_COLUMNS))
def test_a_compound_description_column_holds_the_findings_text(name: str) -> None:
    got = read(COMPOUND_COLUMNS[name]).findings
    assert [(f.get("file"), f.get("line"), f.get("severity")) for f in got] == [
        ("pay/order.go", 55, "critical"), ("pay/log.go", 9, "minor")]
    assert "\u4fee" not in got[0]["summary"] and "\u5148" not in got[0]["summary"]


# --------------------------------------------------------------------------- #
# Strengths in Ukrainian, Vietnamese and Russian ("Сильні сторони", "Điểm mạnh", "Что
# сделано хорошо"): praise, not findings, even where an item names a place
# --------------------------------------------------------------------------- #
STRENGTHS = {
    "ukrainian": ("## Сильні сторони", "- `api/user.py`: зрозуміла логіка.\n"
                  "- Кеш у `svc/cache.go:12` покритий тестами."),
    "vietnamese": ("### Ưu điểm", "- `api/user.py`: logic rõ ràng.\n"
                   "- Bộ nhớ đệm trong `svc/cache.go:12` được kiểm thử kỹ."),
    "russian": ("## Что сделано хорошо", "1. `api/user.py`: понятная логика.\n"
                "2. Кэш в `svc/cache.go:12` покрыт тестами."),
}


@pytest.mark.parametrize("name", sorted(STRENGTHS))
def test_strengths_in_more_languages_hold_no_finding(name: str) -> None:
    head, item = STRENGTHS[name]
    text = (f"# Code review\n\n## Findings\n\n- `core/a.py:3` swallows the error.\n\n{head}"
            f"\n\n{item}\n")
    assert where(text) == [("core/a.py", 3, None)]


def test_a_change_tables_compound_column_lists_no_finding() -> None:
    text = """\
## 本次变更

| 类别 | 文件 | 变更内容 |
|---|---|---|
| 后端 | `src/report/index.js` | 标签改为英文 |
| 版本 | `package.json` | 0.1.0 → 0.1.1 |

## 结论

**APPROVE**
"""
    assert read(text).findings == []


# --------------------------------------------------------------------------- #
# A settled word in another language after an item's dash, as "— fixed" is read
# --------------------------------------------------------------------------- #
DASH_SETTLED = {
    "portuguese": (" — corrigido", False),
    "chinese": (" — 已修复", False),
    "german": (" – behoben", False),
    "russian": (" — исправлено", False),
    "portuguese-negated": (" — não corrigido", True),
    "german-negated": (" – noch nicht behoben", True),
    # the same words in an aside, read before
    "spanish-aside": (" (corregido)", False),
    "japanese-aside": ("（修正済み）", False),
    "russian-aside": (" (исправлено)", False),
}


@pytest.mark.parametrize("tail,open_", DASH_SETTLED.values(), ids=DASH_SETTLED.keys())
def test_a_settled_word_after_a_numbered_items_dash_closes_it(tail: str, open_: bool) -> None:
    text = f"""\
## Findings

1. `store/ledger.py:88` sums the amounts as floats{tail}
2. `store/ledger.py:131` reads the whole table into memory.

Verdict: REVISE
"""
    want = [("store/ledger.py", 88)] if open_ else []
    assert [(f, n) for f, n, _ in where(text)] == want + [("store/ledger.py", 131)]


@pytest.mark.parametrize("tail,open_", DASH_SETTLED.values(), ids=DASH_SETTLED.keys())
def test_a_settled_word_after_a_bold_bullets_dash_closes_it(tail: str, open_: bool) -> None:
    text = f"""\
### Issues

- **High** `web/form.tsx:19`: the submit button stays enabled while saving{tail}
- **Low** `web/form.tsx:52`: the label is not tied to its input.
"""
    files = [(f, n) for f, n, _ in where(text)]
    assert (("web/form.tsx", 19) in files) is open_
    assert ("web/form.tsx", 52) in files
