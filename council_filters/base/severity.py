"""One severity ladder for every filter, with the documented aliases.

The canonical set is pr-workflow's: ``critical`` > ``medium`` > ``minor``.
Every other spelling found in the seeds maps onto it; anything else is
unknown (``normalize`` returns ``None``) and the caller decides what to do
(parse-verdict warns and keeps the finding without a severity).
Security and performance are categories, not severities.
"""

from __future__ import annotations

import re

LADDER: tuple[str, ...] = ("critical", "medium", "minor")

RANK: dict[str, int] = {name: i for i, name in enumerate(LADDER)}  # 0 is most severe

ALIASES: dict[str, str] = {
    # canonical
    "critical": "critical",
    "medium": "medium",
    "minor": "minor",
    # yellow-council finding priorities
    "p1": "critical",
    "p2": "medium",
    "p3": "minor",
    # pr-workflow aliases
    "required": "critical",
    "blocking": "critical",
    "high": "critical",
    "non-blocking": "minor",
    "nice-to-have": "minor",
    "info": "minor",
    "low": "minor",
    # code-review groups (Critical / Warning / Suggestion)
    "warning": "medium",
    "suggestion": "minor",
}


# Spellings read only from free text (council-parse-verdict's tolerant reading of
# what models write): critical / major / minor scales, blocker, nit and friends.
TEXT_ALIASES: dict[str, str] = {
    **ALIASES,
    "p0": "critical",
    "crit": "critical",
    "blocker": "critical",
    "severe": "critical",
    "major": "medium",
    "moderate": "medium",
    "important": "medium",
    "warn": "medium",
    "nit": "minor",
    "nitpick": "minor",
    "trivial": "minor",
    "style": "minor",
    "optional": "minor",
    "informational": "minor",
    # a course review's scale: "core" above "major"
    "core": "critical",
    # the groups a review's own scale names ("MUST_FIX", "should-fix", "NICE_TO_HAVE")
    "must_fix": "critical", "must-fix": "critical", "must fix": "critical",
    "should_fix": "medium", "should-fix": "medium", "should fix": "medium",
    "nice_to_have": "minor",
}


# The same ladder in the words reviewers use in other languages (read from free text only,
# where a field, a table column or a heading says it is a severity).  One table, reproduced
# in docs/parse-verdict.md.  A word written in Chinese, Japanese or Korean counts also when
# more follows it ("高优先级", "치명적인"); any other only as a whole word ("Alta (70%)").
INTL_ALIASES: dict[str, str] = {
    # Chinese (simplified and traditional)
    "致命": "critical", "严重": "critical", "嚴重": "critical", "阻塞": "critical",
    "紧急": "critical", "緊急": "critical", "高危": "critical", "高": "critical",
    "必须修复": "critical", "必須修復": "critical",
    "中等": "medium", "中危": "medium", "中": "medium", "一般": "medium",
    "轻微": "minor", "輕微": "minor", "低危": "minor", "低": "minor", "建议": "minor",
    "建議": "minor", "提示": "minor", "可选": "minor", "可選": "minor",
    # Japanese
    "致命的": "critical", "重大": "critical", "深刻": "critical", "要修正": "critical",
    "中程度": "medium", "中度": "medium", "軽微": "minor", "軽度": "minor", "参考": "minor",
    "提案": "minor", "情報": "minor", "必須": "critical",
    # Korean
    "치명": "critical", "심각": "critical", "긴급": "critical", "높음": "critical",
    "필수": "critical", "중간": "medium", "보통": "medium", "중요": "medium", "권장": "medium",
    "낮음": "minor", "경미": "minor", "사소": "minor", "참고": "minor", "선택": "minor",
    "정보": "minor", "제안": "minor",
    # Portuguese and Spanish
    "crítico": "critical", "crítica": "critical", "critico": "critical", "critica": "critical",
    "alto": "critical", "alta": "critical", "bloqueante": "critical", "grave": "critical",
    "médio": "medium", "média": "medium", "medio": "medium", "media": "medium",
    "moderado": "medium", "moderada": "medium", "importante": "medium", "aviso": "medium",
    "avisos": "medium", "advertencia": "medium", "advertencias": "medium",
    "baixo": "minor", "baixa": "minor", "bajo": "minor", "baja": "minor", "menor": "minor",
    "leve": "minor", "sugestão": "minor", "sugestões": "minor", "sugerencia": "minor",
    "opcional": "minor",
    # German
    "kritisch": "critical", "hoch": "critical", "blockierend": "critical",
    "schwerwiegend": "critical", "mittel": "medium", "wichtig": "medium",
    "warnung": "medium", "warnungen": "medium",
    "niedrig": "minor", "gering": "minor", "geringfügig": "minor", "hinweis": "minor",
    "vorschlag": "minor", "vorschläge": "minor",
    # French
    "critique": "critical", "bloquant": "critical", "bloquante": "critical",
    "haute": "critical", "élevée": "critical", "élevé": "critical", "majeur": "medium",
    "avertissement": "medium", "avertissements": "medium",
    "majeure": "medium", "moyenne": "medium", "moyen": "medium", "modérée": "medium",
    "modéré": "medium", "basse": "minor", "faible": "minor", "mineur": "minor",
    "mineure": "minor",
    # Italian
    "bloccante": "critical", "avviso": "medium", "avvisi": "medium", "bassa": "minor",
    "basso": "minor",
    "minore": "minor", "lieve": "minor", "suggerimento": "minor", "suggerimenti": "minor",
    # Russian
    "критично": "critical", "критичный": "critical", "критическая": "critical",
    "критический": "critical", "блокирующий": "critical", "высокий": "critical",
    "высокая": "critical", "высокое": "critical", "средний": "medium", "средняя": "medium",
    "среднее": "medium", "низкий": "minor", "низкая": "minor", "низкое": "minor",
    "незначительный": "minor", "предложение": "minor", "предложения": "minor",
    # Vietnamese
    "nghiêm trọng": "critical", "cao": "critical", "trung bình": "medium", "thấp": "minor",
}
# A linter's scale (reviewdog's ERROR / WARNING / INFO, SARIF's error / warning / note):
# severities only as the value of a severity field or a JSON severity key ("error" in prose
# is no severity); warning and info are in ALIASES already
LINT_ALIASES: dict[str, str] = {"error": "critical", "fatal": "critical", "note": "minor",
                                "notice": "minor"}
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
CJK_LEAD = re.compile(
    "^(?:" + "|".join(sorted((re.escape(w) for w in INTL_ALIASES
                              if re.match("[" + _CJK + "]", w)), key=len, reverse=True)) + ")")
_LEAD_WORD = re.compile(r"^(?P<w>[^\W\d_]+(?:[\s-]to[\s-]have|[\s-]blocking)?|p\d)(?![^\W_])",
                        re.I)
_LEAD_DECOR = re.compile(r"^[\W_]+")


def from_text(value: object) -> str | None:
    """Like :func:`normalize`, plus the spellings only free-text answers use (``P0``) and
    the words of other languages (:data:`INTL_ALIASES`)."""
    if not isinstance(value, str):
        return None
    v = value.strip().lower()
    return TEXT_ALIASES.get(v) or INTL_ALIASES.get(v)


def lead_severity(value: object) -> str | None:
    """The severity the leading word of a severity field or cell names, in English or
    another language ("High (data loss)", "🔴 **高**", "Alta — perda de dados", "높음",
    "重大（要修正）") or a linter's (``error``, :data:`LINT_ALIASES`), after emphasis,
    brackets and emoji; None when it names none."""
    if not isinstance(value, str):
        return None
    v = _LEAD_DECOR.sub("", value[:200]).lower()
    m = CJK_LEAD.match(v)
    if m:
        return INTL_ALIASES[m.group(0)]
    m = _LEAD_WORD.match(v)
    return from_text(m["w"]) or LINT_ALIASES.get(m["w"]) if m else None


def normalize(value: object) -> str | None:
    """The canonical severity for ``value`` (case- and space-insensitive), or None."""
    if not isinstance(value, str):
        return None
    return ALIASES.get(value.strip().lower())


def gate_level(value: str | None, option: str = "--fail-level") -> str | None:
    """A gate option's canonical severity (None when not given), read through the one
    alias table (case-insensitive: ``high``, ``CRITICAL``, ``p1`` ...); anything else
    is a usage error naming the accepted spellings (never the value given)."""
    if value is None:
        return None
    level = normalize(value)
    if level is None:
        from council_filters.base.errors import UsageError

        others = ", ".join(k for k in ALIASES if k not in LADDER)
        raise UsageError(
            f"{option} must be {', '.join(LADDER)} or an alias ({others}); case does not matter"
        )
    return level


def rank(severity: str) -> int:
    """Sort key: 0 for critical, larger for less severe; unknown sorts last."""
    return RANK.get(severity, len(LADDER))


def at_or_above(severity: str | None, level: str) -> bool:
    """True when ``severity`` is at least as severe as canonical ``level``."""
    if severity is None:
        return False
    return rank(severity) <= rank(level)
