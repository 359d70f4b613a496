"""The reader on reviews written in other languages than English (issue: read what real
reviewers print): the vocabulary tables of docs/parse-verdict.md, each checked on fixtures
written for these tests (severity words and keys, severity headings, place and line keys,
status words that say an item is fixed, praise sections, verdict keys and words).  Each
fixture is in its own words; several languages per rule.
"""

from __future__ import annotations

import pytest
from reader_kit import located

from council_filters.base import severity
from council_filters.verdict import reading, words


def read(text: str) -> reading.Reading:
    return reading.read(text.encode(), "tester")


def where(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in read(text).findings]


# --------------------------------------------------------------------------- #
# 1. Severity words: a field's value, a table cell, in any language of the table
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("value, expected", [
    ("Alta (afeta 40% dos pedidos)", "critical"),
    ("🔴 **高**", "critical"),
    ("높음 — 데이터 손실", "critical"),
    ("重大（マージ前に対応）", "critical"),
    ("Hoch", "critical"),
    ("Critique", "critical"),
    ("Média (30%)", "medium"),
    ("中等", "medium"),
    ("Moyenne", "medium"),
    ("mittel", "medium"),
    ("средняя", "medium"),
    ("Baja (cosmético)", "minor"),
    ("軽微", "minor"),
    ("낮음", "minor"),
    ("Niedrig (bekannte Einschränkung)", "minor"),
    ("bassa", "minor"),
    ("High — data loss", "critical"),
    ("maybe later", None),
    ("", None),
])
def test_a_severity_value_is_read_by_its_leading_word_in_any_language(value, expected):
    assert severity.lead_severity(value) == expected


SEVERITY_FIELDS = {
    "spanish-bullets-under-numbered-headings": ("""\
# Auditoría del módulo de pagos

### 1. El reintento duplica el cobro

- **Gravedad:** Alta
- **Hallazgo:** `billing/retry.py` reintenta sin clave de idempotencia.

### 2. Mensajes de error sin traducir

- **Gravedad:** Baja
- **Hallazgo:** los textos de `ui/errors.ts` están en inglés.
""", [("billing/retry.py", None, "critical"), ("ui/errors.ts", None, "minor")]),
    "korean-fields-with-full-width-colon": ("""\
## 발견 사항

### 1. 캐시 키에 사용자 ID가 빠짐
- **파일**：`src/cache/keys.ts:18`
- **심각도**：높음

### 2. 로그 메시지 오타
- **파일**：`src/log.ts:5`
- **심각도**：낮음
""", [("src/cache/keys.ts", 18, "critical"), ("src/log.ts", 5, "minor")]),
    "japanese-importance-field": ("""\
## 指摘事項

#### F-1: タイムアウトが設定されていない
- **重要度**: 中
- **場所**: `client/http.go:77`
""", [("client/http.go", 77, "medium")]),
    "german-french-italian-portuguese-russian": ("""\
## Befunde

### B1 — Sperre wird nie freigegeben
**Schweregrad:** Mittel
**Datei:** `lock/manager.py:40`

### B2 — Le cache n'expire jamais
**Sévérité :** Basse
**Fichier :** `cache/store.py:12`

### B3 — Il token non viene ruotato
**Gravità:** alta
**File coinvolti:** `auth/token.py:9`

### B4 — Consulta sem índice
**Severidade:** Média
**Arquivo:** `db/query.sql:3`

### B5 — Нет проверки входных данных
**Серьёзность:** высокая
**Файл:** `api/handler.go:55`
""", [("lock/manager.py", 40, "medium"), ("cache/store.py", 12, "minor"),
      ("auth/token.py", 9, "critical"), ("db/query.sql", 3, "medium"),
      ("api/handler.go", 55, "critical")]),
}


SEVERITY_FIELDS["chinese-full-width-punctuation"] = ("""\
## 问题

### 1. 锁未释放
- **文件**：`src/a.py`（第12行）
- **严重程度**：高

### 2. 重复计算
- **位置**：`src/b.py:3`、`src/c.py:9`
- **严重程度**：低
""", [("src/a.py", 12, "critical"), ("src/b.py", 3, "minor")])


@pytest.mark.parametrize("name", sorted(SEVERITY_FIELDS))
def test_a_severity_field_in_another_language_gives_the_finding_its_severity(name):
    text, expected = SEVERITY_FIELDS[name]
    assert where(text) == expected


def test_a_chinese_place_list_is_one_finding_with_the_second_place_related():
    got = located(read(SEVERITY_FIELDS["chinese-full-width-punctuation"][0]).findings)
    assert got[1] == (("src/b.py", 3), [("src/c.py", 9)])


def test_a_severity_column_named_in_chinese_with_one_character_values():
    text = """\
## 问题清单

| 严重度 | 问题 | 位置 |
|--------|------|------|
| 🔴 **高** | 令牌未校验签名 | `auth/jwt.py:30` |
| 🟡 **中** | 重试没有退避 | `net/retry.py:12` |
| 🟢 **低** | 日志级别过高 | `app/log.py:4` |
"""
    assert where(text) == [("auth/jwt.py", 30, "critical"), ("net/retry.py", 12, "medium"),
                           ("app/log.py", 4, "minor")]


# --------------------------------------------------------------------------- #
# 2. Severity headings: a section named by its severity in another language
# --------------------------------------------------------------------------- #
SEVERITY_HEADINGS = {
    "portuguese-and-german": ("""\
## Problemas Críticos

- `src/pay.ts:10` — o valor é arredondado duas vezes.

## Kritische Probleme

- `src/lock.ts:3` — die Sperre wird nie freigegeben.
""", ["critical", "critical"]),
    "korean-emoji-sections": ("""\
## 🔴 필수 수정

- `api/user.ts:21` 권한 확인이 없습니다.

## 🟡 권장 수정

- `api/list.ts:8` 페이지 크기 제한이 없습니다.

## 🟢 참고 사항

- `api/util.ts:2` 사용하지 않는 import가 있습니다.
""", ["critical", "medium", "minor"]),
    "french-priority-sections": ("""\
### Problèmes Haute Priorité

- `ws.rs:194` : le type de message inconnu est ignoré en silence.

### Problèmes Moyenne Priorité

- `auth.rs:32` : la vérification d'entropie est trop simple.
""", ["critical", "medium"]),
    "korean-adjective-heading": ("""\
### 치명적인 이슈

- `db/migrate.sql:4` 마이그레이션이 롤백되지 않습니다.
""", ["critical"]),
}


@pytest.mark.parametrize("name", sorted(SEVERITY_HEADINGS))
def test_a_heading_naming_a_severity_in_another_language_covers_its_section(name):
    text, expected = SEVERITY_HEADINGS[name]
    assert [s for _, _, s in where(text)] == expected


def test_a_label_heading_in_korean_over_fixed_items_is_no_finding():
    text = """\
**리뷰 결과**: Request Changes

## P0 — 머지 전 필수 수정 (Must Fix)

### [x] A-1. 설정 병합 순서 오류 (Critical)
- **파일**: `src/config/load.js:149`
- **문제**: 하위 레이어가 잘못되면 상위 레이어가 모두 버려집니다.

## P2 — 다음에 정리 (Nice to Have)

### [ ] A-2. 설정 파일을 두 번 읽음 (Medium)
- **파일**: `src/config/load.js:252`
- **문제**: 같은 파일을 두 번 읽습니다.
"""
    r = read(text)
    assert r.verdict == "REVISE"
    assert where(text) == [("src/config/load.js", 252, "medium")]


# --------------------------------------------------------------------------- #
# 3. Place and line keys in other languages
# --------------------------------------------------------------------------- #
PLACE_KEYS = {
    "french-localisation-with-lignes": ("""\
### Problèmes Moyenne Priorité

#### 3.6.1 Noms non validés

**Localisation :** `ws.rs` lignes 325, 370

Les noms d'utilisateur ne sont pas limités en longueur.
""", [("ws.rs", 325, "medium")]),
    "italian-files-involved-bare-name": ("""\
## Bug B — Il popup si riapre a ogni cambio

- **File coinvolti:** `sala.js` (gestore del popup).
- **Gravità:** bassa (UX).
""", [("sala.js", None, "minor")]),
    "chinese-location-field-that-gives-only-the-line": ("""\
#### **M1. 搜索没有防抖**

**文件：** `components/SearchBox.tsx`
**位置：** Line 28-31 (query state)
**严重性：** 中等

每次输入都会重新过滤整个列表。
""", [("components/SearchBox.tsx", 28, "medium")]),
    "japanese-location-field-with-line-counter": ("""\
### 指摘 2: 例外が握りつぶされる
- **ファイル**: `worker/run.py`
- **場所**: 第88行
- **重要度**: 高
""", [("worker/run.py", 88, "critical")]),
    "chinese-file-noun-before-a-bare-name": ("""\
## 🟢 轻微问题

### L4. 测试文件 `test_registry.py` — 绕过了注册方法直接改字典

测试没有走真正的注册流程，动态导入的路径因此从未被覆盖。
""", [("test_registry.py", None, "minor")]),
}


@pytest.mark.parametrize("name", sorted(PLACE_KEYS))
def test_a_place_key_in_another_language_gives_the_place(name):
    text, expected = PLACE_KEYS[name]
    assert where(text) == expected


# --------------------------------------------------------------------------- #
# 4. What is not a finding: items whose status says fixed, praise sections
# --------------------------------------------------------------------------- #
FIXED = {
    "korean-status-done": """\
### [BUG-1] 빌드가 산출물 없이 진행됨
**심각도**: 높음
**상태**: 완료
**위치**: `src/build.ts`

### [BUG-2] 로그가 누락됨
**심각도**: 중간
**상태**: 해결됨
**위치**: `src/log.ts`
""",
    "french-statut-corrige": """\
#### 2.2.1 Fichier de changements manquant

**Sévérité :** Critique
**Localisation :** `docs/release.md`
**Statut :** CORRIGÉ

- `docs/features.md` ligne 95 : le lien est cassé.
""",
    "german-spanish-portuguese-italian-russian": """\
#### BUG-1: Feld fehlt im Formular
- **Schweregrad:** Hoch
- **Status:** BEHOBEN in Commit d99c39b

#### BUG-2: Falta validar el identificador
- **Gravedad:** Baja
- **Estado:** Resuelto

#### BUG-3: Índice ausente
- **Severidade:** Média
- **Estado:** Corrigido

#### BUG-4: Token non ruotato
- **Gravità:** alta
- **Stato:** risolto

#### BUG-5: Нет тайм-аута
- **Серьёзность:** средняя
- **Статус:** исправлено
""",
}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_an_item_whose_status_says_fixed_in_another_language_is_no_finding(name):
    assert read(FIXED[name]).findings == []


def test_a_status_that_says_not_yet_fixed_keeps_the_finding():
    text = """\
#### BUG-3: Zeichenlimit wird nicht erzwungen
- **Schweregrad:** Niedrig
- **Status:** nicht behoben

#### BUG-6: 캐시가 만료되지 않음
- **심각도**: 낮음
- **상태**: 미완료
"""
    assert [s for _, _, s in where(text)] == ["minor", "minor"]


PRAISE = {
    "french-points-forts": "### 3.3 Points Forts\n\n1. **Modules bien délimités** dans "
                           "`src/ws.rs:10`\n2. **Limitation de débit** : 30 messages par seconde\n",
    "korean-well-done": "### 잘된 점\n\n- `src/err.ts:4` 에러 처리가 꼼꼼합니다\n"
                        "- 테스트가 충분합니다\n",
    "portuguese-positive-points": "## Pontos positivos\n\n- `src/layers.py:1` separa bem as "
                                  "camadas\n- Testes claros\n",
    "german-strengths": "## Stärken\n\n- `src/mod.go:7` trennt die Module sauber\n"
                        "- Gute Tests\n",
    "english-positive-observations": "## POSITIVE OBSERVATIONS\n\n1. `pkg/names.go:2` all "
                                     "names match the manifest\n2. **Ordering**: sensible\n",
}


@pytest.mark.parametrize("name", sorted(PRAISE))
def test_a_praise_section_in_another_language_holds_no_finding(name):
    text = "## Findings\n\n- `src/b.py:3` the loop never ends.\n\n" + PRAISE[name]
    assert where(text) == [("src/b.py", 3, None)]


# --------------------------------------------------------------------------- #
# 5. Verdict keys and words in other languages
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("line, expected", [
    ("**리뷰 결과**: Request Changes", "REVISE"),
    ("**최종 판정**: 승인", "APPROVE"),
    ("결론: 수정 요청", "REVISE"),
    ("Veredito: Aprovado com ressalvas", "REVISE"),
    ("Veredito: Aprovado", "APPROVE"),
    ("**Fazit:** Freigegeben", "APPROVE"),
    ("**Empfehlung:** Nacharbeit erforderlich", "REVISE"),
    ("Décision : Modifications requises", "REVISE"),
    ("Décision : Rejeté", "REJECT"),
    ("Veredicto: Requiere cambios", "REVISE"),
    ("Esito: Approvato", "APPROVE"),
    ("Вердикт: Требуются доработки", "REVISE"),
    ("Вердикт: Одобрено", "APPROVE"),
    ("**审查结论**：修改后合并", "REVISE"),
    ("**判定**: マージ可", "APPROVE"),
])
def test_a_verdict_key_and_word_in_another_language_are_read(line, expected):
    assert read(line + "\n\nNo findings.\n").verdict == expected


def test_the_choices_of_a_template_in_another_language_are_no_verdict():
    assert words.vote_of("Aprovado | Requer alterações | Rejeitado") is None
    assert read("Veredito: Aprovado / Reprovado\n").verdict == "UNKNOWN"


# --------------------------------------------------------------------------- #
# 6. A per-file review: an item that is only a file over its verdict and labelled groups
# --------------------------------------------------------------------------- #
PER_FILE = {
    "japanese-per-file-verdicts": ("""\
**判定**: **CHANGES_REQUESTED**

**ファイル別レビュー**

- `app/Http/Share.php`
  - **判定**: OK
  - **良い点**: 権限チェックの位置が適切。
  - **指摘**: なし

- `ui/Menu.svelte`
  - **判定**: 要修正
  - **Critical**
    - Escape キーで閉じたあとフォーカスがボタンに戻らない。
  - **Warning**
    - 設計では共通の Button を使うはずが、素の `<button>` になっている。
  - **Suggestion**
    - `onkeydown={close}` を document ではなくメニューに付けると意図が明確。
""", "REVISE", [("ui/Menu.svelte", None, "critical"), ("ui/Menu.svelte", None, "medium"),
                ("ui/Menu.svelte", None, "minor")]),
    "english-per-file-verdicts": ("""\
**Verdict**: REQUEST CHANGES

- `lib/cache.rb`
  - **Verdict**: OK
  - **Notes**: nothing to add.

- `lib/queue.rb`
  - **Verdict**: needs fixes
  - **Critical**
    - A failed job is acknowledged before it is retried, so it is lost on a crash.
""", "REVISE", [("lib/queue.rb", None, "critical")]),
    "korean-tagged-fields": ("""\
**리뷰 결과**: 수정 요청

- `src/auth/session.ts`
  - **판정**: 수정 필요
  - **Critical**: 만료된 세션이 갱신 시 그대로 재사용됩니다.
  - **Warning**: 로그에 토큰 앞부분이 남습니다.
""", "REVISE", [("src/auth/session.ts", None, "critical"),
                ("src/auth/session.ts", None, "medium")]),
}


@pytest.mark.parametrize("name", sorted(PER_FILE))
def test_a_per_file_review_places_its_groups_at_the_file_and_its_verdicts_stay_local(name):
    text, verdict, expected = PER_FILE[name]
    r = read(text)
    assert r.verdict == verdict
    assert where(text) == expected


def test_a_tagged_heading_over_sub_headings_that_are_all_fixed_is_their_group():
    text = """\
## P1 — 다음 작업 전에 권장 (Should Fix)

### [x] A-6. lock 파일 커밋 (Medium)
- **파일**: `package-lock.json`, `.gitignore`
- **문제**: lock 파일이 추적되지 않습니다.

### [x] A-7. 중복 오류 제거 (Medium)
- **파일**: `src/config/load.js:187`
"""
    assert read(text).findings == []


@pytest.mark.parametrize("none", ["Nenhum.", "Keine", "Aucun", "Ninguna", "Nessuno", "Нет"])
def test_none_in_another_language_is_no_finding(none):
    text = f"## Problemas\n\n- {none}\n\n## Sugestões\n\n- `src/app.py:4` renomear a função.\n"
    assert where(text) == [("src/app.py", 4, "minor")]


def test_a_heading_numbering_a_finding_in_another_language_is_a_finding():
    text = """\
## 确认的问题

### 问题 1：回滚失败被吞掉

### 問題 2：タイムアウトがない

### 문제 3: 로그에 토큰이 남음

### Problema 4 — o cache nunca expira
"""
    assert [f.get("summary") for f in read(text).findings] == [
        "问题 1：回滚失败被吞掉", "問題 2：タイムアウトがない", "문제 3: 로그에 토큰이 남음",
        "Problema 4 — o cache nunca expira"]


def test_a_severity_tag_in_another_language_opens_a_finding():
    text = """\
## 指摘

- [重大] `src/a.ts:10` 認可チェックがない。
- 【中】`src/b.ts:4` リトライに上限がない。
- **Crítico:** `src/c.py:7` a senha é registrada no log.
- 낮음 — `src/d.go:2` 주석 오타.
- Media: `src/e.py:9` uploads fail silently.
"""
    assert where(text) == [("src/a.ts", 10, "critical"), ("src/b.ts", 4, "medium"),
                           ("src/c.py", 7, "critical"), ("src/d.go", 2, "minor"),
                           ("src/e.py", 9, None)]  # "Media" is also an English word


def test_a_suggestion_field_is_no_severity_tag():
    text = """\
## 🔴 严重问题

### S1. `api/sse.py:262` — 换行符被转义

**问题**：事件之间没有真正的换行。

**建议**：改用真正的换行符。

- **建议：** 同时补一个解析测试。
"""
    assert where(text) == [("api/sse.py", 262, "critical")]
