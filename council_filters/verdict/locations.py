"""Locations and severity tags as reviewers cite them (part of the tolerant
reading, see ``reading``): the spellings listed in docs/parse-verdict.md.

Nothing here raises on any input.
"""

from __future__ import annotations

import contextvars
import re
from dataclasses import dataclass
from typing import Any

from council_filters.base import severity

# --------------------------------------------------------------------------- #
# Severity tags
# --------------------------------------------------------------------------- #
SEVERITY_WORD = (
    r"p[0-4]|critical|crit|blocker|blocking|high|severe|major|medium|moderate|warning|warn|"
    r"minor|low|nit|nitpick|trivial|info|informational|suggestion|optional|style|important"
)
_SEV_ONLY = re.compile(
    r"^[^\w]*(?:severity\s*[:\-]?\s*)?(?P<w>" + SEVERITY_WORD + r")"
    r"(?:\s+(?:severity|priority|issues?|findings?|problems?|concerns?))?[^\w]*$", re.I,
)
# the words of another language's severity scale (base.severity.INTL_ALIASES), longest first
_INTL_SEV_WORD = "|".join(sorted((re.escape(w) for w in severity.INTL_ALIASES), key=len,
                                 reverse=True))

_SEV_LEAD = re.compile(r"^(?P<w>" + SEVERITY_WORD + r")\s*(?::|\u2014|\u2013|-)\s+", re.I)
_SEV_EMOJI = {"\U0001f534": "critical", "\U0001f7e0": "medium", "\U0001f7e1": "minor",
              "\U0001f7e2": "minor", "\u26aa": "minor", "\u2757": "critical"}
# 🟡 is the middle of a traffic light (🔴 / 🟡 / 🟢: medium) but the lowest colour of the
# four-colour scale (🔴 / 🟠 / 🟡: minor).  The document reader sets which one an answer
# uses: a traffic light when it has 🟡 and no 🟠.
TRAFFIC_LIGHT: contextvars.ContextVar[bool] = contextvars.ContextVar("traffic_light",
                                                                     default=False)


def emoji_severity(emoji: str) -> str | None:
    """The severity of a coloured-circle (or ❗) severity mark, on the answer's scale."""
    if emoji == "\U0001f7e1" and TRAFFIC_LIGHT.get():
        return "medium"
    return _SEV_EMOJI.get(emoji)


# --------------------------------------------------------------------------- #
# Locations
# --------------------------------------------------------------------------- #
# A path starts where no path character precedes it, and its runs never give characters
# back (possessive), so a scan over a long unbroken word stays linear.
# A glob's star inside a name is part of the path ("migrations/2026_*.sql", "src/*.ts"): a
# star right after a name character or a slash and before a name character or a dot (an
# emphasis mark, "**a.py**" or "*a.py*", is never followed by one); no path starts inside
# such a run, so a long "a*a*a*…" is scanned once.
_STAR = r"(?<=[\w/\\])\*(?=[\w.])"
_P = (r"(?<![\w@~+.\-\\/:])(?<![\w/\\]\*)(?:[A-Za-z]:[\\/]|~?/(?=[\w.])|\.{1,2}[\\/])*+\.?[\w@~+\-]"
      r"(?:[\w@~+.\-]|" + _STAR + r")*+(?:[\\/](?:[\w@~+.\-]|" + _STAR + r")++)*+")
# wrappers of a path or a line ("「a.py」" too): at most 16, so a search through a long run of
# marks ("****…", "**_**_…", where a path may start at every "_") reads a bounded stretch
# from each place it tries, not the rest of the run
_W = r"[`*_'\"\u300c\u300d\u300e\u300f]{0,16}"
_NUM = r"\d{1,9})(?!\d)"  # closes a group: a line or column; a longer digit run is no number
_DASH = r"\s*(?:-|\u2013|\u2014|to|\.\.)\s*"
_PW = _W + r"(?P<p>" + _P + r")"
_LOC_PATTERNS = (
    # a file citation of Codex's cloud answers: "【F:src/a.py†L12-L20】" (path, dagger, lines)
    re.compile(r"\u3010F:(?P<p>[^\s\u2020\u3010\u3011]{1,400})\u2020L(?P<l>" + _NUM
               + r"(?:-L?(?P<e>" + _NUM + r")?\u3011"),
    re.compile(_PW + r"#L(?P<l>" + _NUM + r"(?:-L?(?P<e>" + _NUM + r")?" + _W),
    # `path`:12 too (the wrappers closed before the colon), and a full-width colon
    # and "path: L12-L20" (a space only before an explicit L)
    re.compile(_PW + _W + r"[:\uff1a](?:[ \t]{0,2}L(?=\d)|L?)(?P<l>" + _NUM + r"(?:" + _DASH
               + r"L?(?P<e>" + _NUM + r")?(?::(?P<c>" + _NUM + r")?" + _W),
    # "path, line 12", "path (lines 12-15)", "path (~L24)", "`path` — L19:", "path - line 3"
    re.compile(_PW + _W + r"\s*+(?:,|[\u2014\u2013]|-(?=\s))?\s*+\(?\s*+~?\s*+(?:at\s++)?(?:lines?|"
               r"ln|l\.|L(?=\d)|zeilen?|lignes?|l[i\u00ed]neas?|linhas?|righe|riga|\u884c)\s*+~?\s*+"
               r"(?P<l>" + _NUM
               + r"(?:" + _DASH + r"L?(?P<e>" + _NUM + r")?\s*\)?", re.I),
    re.compile(_PW + _W + r"\s+L(?P<l>" + _NUM + r"(?:-L?(?P<e>" + _NUM + r")?\b"),
    re.compile(_PW + _W + r"\s*@\s*L?(?P<l>" + _NUM + r"\b"),
    # Korean: "path 42번째 줄", "path 42행", "path (42-45줄)", "path 라인 42"
    re.compile(_PW + _W + r"\s*+[,\uff0c(\uff08]?\s*+(?P<l>" + _NUM
               + r"(?:\s*+[-~\uff5e\u2013]\s*+(?P<e>" + _NUM + r")?\s*+"
               r"(?:\ubc88\uc9f8\s*+\uc904|\ubc88\s*+\uc904|\ud589|\uc904|\ub77c\uc778)"),
    re.compile(_PW + _W + r"\s*+[,\uff0c(\uff08]?\s*+(?:\ub77c\uc778|\uc904)\s*+(?P<l>" + _NUM
               + r"(?:" + _DASH + r"(?P<e>" + _NUM + r")?"),
    # Chinese and Japanese: "path 第42行", "path 42行目", "path（第42-45行）", "path の42行目",
    # "path 的第42行"
    re.compile(_PW + _W + r"\s*+[,\uff0c(\uff08]?\s*+(?:\u306e|\u7684)?\s*+\u7b2c?\s*+(?P<l>" + _NUM
               + r"(?:\s*+[-~\uff5e\u2013]\s*+(?P<e>" + _NUM + r")?\s*+\u884c"),
    # a line, then its file after a comma or in brackets, in any language of the tables:
    # "行 12，`a.go`", "Line 40 (`a.go`)", "Zeile 3, `a.go`", and "第 40 行（`a.go`）"
    re.compile(r"(?<!\w)(?:lines?|l[i\u00ed]neas?|zeilen?|lignes?|linhas?|righe|riga|"
               r"\u0441\u0442\u0440\u043e\u043a[\u0430\u0435\u0438\u0443]|\u884c(?:\u53f7)?)"
               r"\s*[:\uff1a]?\s*(?P<l>" + _NUM + r"(?:" + _DASH + r"(?P<e>" + _NUM + r")?\s*"
               r"(?:[,\uff0c\u3001]|[(\uff08])\s*" + _W + r"(?P<p>" + _P + r")" + _W
               + r"(?:\s*[)\uff09])?", re.I),
    re.compile(r"\u7b2c\s*(?P<l>" + _NUM + r"(?:\s*[-~\uff5e\u2013]\s*(?P<e>" + _NUM + r")?"
               r"\s*\u884c\s*(?:[,\uff0c\u3001]|[(\uff08])?\s*" + _W + r"(?P<p>" + _P + r")" + _W),
    # a line before its file, in any language of the tables: "line 12 of path", "línea 12
    # de path", "Zeile 12 in path", "ligne 12 du fichier path", "строке 12 файла path",
    # "L12 of path"
    re.compile(r"(?<!\w)(?:(?:lines?|l[i\u00ed]neas?|zeilen?|lignes?|linhas?|righe|riga|"
               r"\u0441\u0442\u0440\u043e\u043a[\u0430\u0435\u0438\u0443])\s+|L(?=\d))(?P<l>" + _NUM
               + r"(?:" + _DASH + r"(?P<e>" + _NUM + r")?\s+(?:of|in|de|del|do|da|du|von|im|en|"
               r"di|della|\u0432|\u0444\u0430\u0439\u043b\u0430)\s+(?:(?:the|la|le|el|der|die|"
               r"das|dem|o|a)\s+)?(?:(?:file|archivo|fichier|arquivo|datei|"
               r"\u0444\u0430\u0439\u043b\u0430?)\s+)?" + _W + r"(?P<p>" + _P + r")" + _W, re.I),
)
_FILE_ONLY = re.compile(r"^[`*_'\"]+(?P<p>" + _P + r")[`*_'\"]+")
_EXT = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,9}$")
_NAMES = frozenset(("makefile", "dockerfile", "jenkinsfile", "gemfile", "rakefile", "procfile",
                    "readme", "license", "vagrantfile", "justfile"))
_BLOB_PATH = re.compile(r"^https?://[^/\s]{1,200}/[^\s]{0,300}?/(?:-/)?blob/[^/\s]{1,100}/"
                        r"([^\s?]{1,400})")
_BARE_BLOB = re.compile(r"https?://[^/\s]{1,200}/[^\s#]{0,300}?/(?:-/)?blob/[^/\s]{1,100}/"
                        r"(?P<p>[^\s?#]{1,400})#L(?P<l>\d{1,9})(?:-L?(?P<e>\d{1,9}))?")
_LINK = re.compile(r"\[(?P<t>[^\]\n]{1,400})\]\((?P<u>[^)\s]{1,400})\)")


# "Location" and "Line" as reviewers write the key in other languages (Chinese, Japanese,
# Korean, German, French, Spanish, Portuguese, Italian, Russian); the files a finding
# involves count as its location ("File coinvolti", "涉及文件", "관련 파일")
PLACE_KEYS = (
    # any key that ends with the noun "file" names the place ("文件", "测试文件", "涉及的文件",
    # "対象ファイル", "テストファイル", "관련 파일", "테스트 파일")
    r"\u4f4d\u7f6e|[\u3040-\u30ff\u3400-\u9fff]{0,4}(?:\u6587\u4ef6|\u6a94\u6848|"
    r"\u30d5\u30a1\u30a4\u30eb)(?:\u8def\u5f84)?|\u8def\u5f84|\u4ee3\u7801\u4f4d\u7f6e|"
    r"\u5834\u6240|\u8a72\u5f53(?:\u7b87\u6240|\u884c|\u90e8\u5206)?|\u5bfe\u8c61\u7b87\u6240|"
    r"\u7b87\u6240|\uc704\uce58|"
    r"(?:[\uac00-\ud7af]{1,4}\s?)?\ud30c\uc77c|"
    r"ort|datei(?:en)?|betroffene\s+dateien?|fundstelle|fichiers?(?:\s+concern[\u00e9e]s?)?|"
    r"emplacement|localisation|archivos?(?:\s+afectados?)?|ubicaci[o\u00f3]n|"
    r"localiza[c\u00e7][a\u00e3]o|arquivos?(?:\s+afetados?)?|posizione|"
    r"files?\s+(?:coinvolt[io]|interessat[io])|"
    r"\u0444\u0430\u0439\u043b[\u044b]?|\u043c\u0435\u0441\u0442\u043e(?:\u043f\u043e"
    r"\u043b\u043e\u0436\u0435\u043d\u0438\u0435)?|"
    # Vietnamese: "Tệp", "Tập tin", "Vị trí"
    r"t\u1ec7p|t\u1eadp\s+tin|v\u1ecb\s+tr\u00ed")
LINE_KEYS = (
    r"\u884c(?:\u53f7|\u756a\u53f7)?|\uc904|\ub77c\uc778|\ud589|zeilen?|lignes?|l[i\u00ed]neas?|"
    r"linhas?|righe|riga|\u0441\u0442\u0440\u043e\u043a[\u0430\u0438]|d\u00f2ng")
# "Severity" and "Priority" as reviewers write the key in other languages
SEVERITY_KEYS = (
    r"\u4e25\u91cd(?:\u7a0b\u5ea6|\u6027|\u5ea6|\u7ea7\u522b|\u7b49\u7ea7)|"
    r"\u56b4\u91cd(?:\u7a0b\u5ea6|\u6027|\u5ea6)|\u7ea7\u522b|\u7b49\u7ea7|"
    r"\u4f18\u5148\u7ea7|\u512a\u5148\u7d1a|\u98ce\u9669\u7b49\u7ea7|"
    r"\u91cd\u8981\u5ea6|\u6df1\u523b\u5ea6|\u91cd\u5927\u5ea6|\u512a\u5148\u5ea6|"
    r"\u512a\u5148\u9806\u4f4d|\uc2ec\uac01\ub3c4|\uc911\uc694\ub3c4|\uc6b0\uc120\uc21c\uc704|"
    r"\ub4f1\uae09|schweregrad|priorit\u00e4t|kritikalit\u00e4t|s\u00e9v\u00e9rit\u00e9|"
    r"gravit\u00e9|priorit\u00e9|criticit\u00e9|gravedad|severidad|prioridad|criticidad|"
    r"severidade|gravidade|prioridade|criticidade|gravit\u00e0|severit\u00e0|priorit\u00e0|"
    r"criticit\u00e0|\u0441\u0435\u0440\u044c[\u0435\u0451]\u0437\u043d\u043e\u0441\u0442\u044c|"
    r"\u043a\u0440\u0438\u0442\u0438\u0447\u043d\u043e\u0441\u0442\u044c|"
    r"\u0432\u0430\u0436\u043d\u043e\u0441\u0442\u044c|"
    r"\u043f\u0440\u0438\u043e\u0440\u0438\u0442\u0435\u0442|"
    # Vietnamese: "Mức độ (nghiêm trọng)", "(Mức) độ ưu tiên"
    r"m\u1ee9c\s+\u0111\u1ed9(?:\s+nghi\u00eam\s+tr\u1ecdng)?|(?:m\u1ee9c\s+)?\u0111\u1ed9\s+\u01b0u\s+ti\u00ean")
# "Status" in other languages (an item's status field: "상태: 완료", "Statut : CORRIGÉ")
STATUS_KEYS = (
    r"\u72b6\u6001|\u72c0\u614b|\u72b6\u614b|\u72b6\u6cc1|\u5bfe\u5fdc\u72b6\u6cc1|"
    r"\u30b9\u30c6\u30fc\u30bf\u30b9|\uc0c1\ud0dc|\uc9c4\ud589\s?\uc0c1\ud0dc|statut|estado|"
    r"stato|\u0441\u0442\u0430\u0442\u0443\u0441|\u0441\u043e\u0441\u0442\u043e\u044f\u043d"
    r"\u0438\u0435")
PLACE_KEY_RE = re.compile(r"(?:" + PLACE_KEYS + r")$", re.I)
STATUS_KEY_RE = re.compile(r"(?:" + STATUS_KEYS + r")$", re.I)
LINE_KEY_RE = re.compile(r"(?:" + LINE_KEYS + r")$", re.I)
SEVERITY_KEY_RE = re.compile(r"(?:" + SEVERITY_KEYS + r")$", re.I)
_SEV_TAG = re.compile(
    r"(?:\*\*|__)?[\[(]\s*(?:severity\s*[:=]\s*)?(?P<a>" + SEVERITY_WORD + r")\s*[\])](?:\*\*|__)?"
    r"|(?:\*\*|__)(?P<b>" + SEVERITY_WORD + r")(?:\*\*|__)"
    r"|(?:severity|priority)\s*[:=]\s*\**(?P<c>" + SEVERITY_WORD + r")\**"
    # the key in another language, its value in English or in that language ("深刻度: high",
    # "严重程度：高", "Schweregrad: hoch")
    r"|(?:" + SEVERITY_KEYS + r")[*_]*\s*[:=\uff1a]\s*[*_`]*(?P<d>" + SEVERITY_WORD + r"|"
    + _INTL_SEV_WORD + r")(?![^\W\d_])[*_`]*", re.I,
)


def clean_path(raw: str) -> str:
    """A cited path in its repository spelling: slashes, no ``./``, no ``a/``/``b/`` prefix."""
    p = raw.strip().strip("`*_'\"").replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    if (p.startswith("a/") or p.startswith("b/")) and len(p) > 2:
        p = p[2:]
    return p


# the checkout directory of a CI runner or a development container, where a reviewer that
# ran there saw the repository: GitHub Actions (/home/runner/work/<repo>/<repo>/ and
# /github/workspace/), GitLab (/builds/<group>/<project>/), Codespaces and dev containers
# (/workspaces/<repo>/, /workspace/)
_CHECKOUT = re.compile(r"^(?:/home/runner/work/[^/]+/[^/]+|/github/workspace|/builds/[^/]+/[^/]+|"
                       r"/workspaces/[^/]+|/workspace)/(?=[^/])")


def checkout_relative(path: str) -> str:
    """An absolute path under a CI runner's or a dev container's checkout, relative to it
    (``/home/runner/work/app/app/src/a.py`` is ``src/a.py``); any other path as it is."""
    m = _CHECKOUT.match(path)
    return path[m.end():] if m else path


# pairs of words a writer joins with a slash ("try/catch (line 2841)", "read/write"): prose,
# never a file
_WORD_PAIRS = frozenset((
    "try/catch", "and/or", "async/await", "read/write", "if/else", "input/output",
    "get/set", "true/false", "yes/no", "on/off", "either/or", "open/close", "push/pull",
    "start/stop", "load/save", "before/after", "client/server", "encode/decode", "i/o",
))


def _pathlike(p: str) -> bool:
    base = p.replace("\\", "/").rsplit("/", 1)[-1]
    if not base or base.startswith(".") and len(base) == 1:
        return False
    if p.lower() in _WORD_PAIRS:
        return False
    if "/" in p.replace("\\", "/") and any(c.isalpha() for c in base):
        return True
    return bool(_EXT.search(base)) or base.lower() in _NAMES


@dataclass
class Location:
    file: str
    line: int | None = None
    end_line: int | None = None
    column: int | None = None
    start: int = 0
    end: int = 0


def find_location(text: str) -> Location | None:
    """The first cited location in ``text`` (a markdown link counts by its text or URL)."""
    best: Location | None = None
    for m in _LINK.finditer(text):
        url = re.sub(r"^file://(?:localhost)?(?=/)", "", m["u"])  # file:///home/x/a.py#L7
        blob = _BLOB_PATH.search(url)  # a GitHub/GitLab blob URL: the path after the ref
        inner = find_location(m["t"]) or find_location(
            (blob.group(1) if blob else url).replace("#L", ":").replace("-L", "-"))
        if inner is not None:
            best = Location(inner.file, inner.line, inner.end_line, inner.column,
                            m.start(), m.end())
            break
    for m in _BARE_BLOB.finditer(text):  # a blob URL written out: ".../blob/main/a.py#L7-L9"
        if best is not None and m.start() >= best.start:
            break
        path = clean_path(m["p"])
        if _pathlike(path) and 1 <= int(m["l"]) <= 10_000_000:
            end = int(m["e"]) if m["e"] and int(m["e"]) > int(m["l"]) else None
            best = Location(path, int(m["l"]), end, None, m.start(), m.end())
            break
    for rx in _LOC_PATTERNS:
        for m in rx.finditer(text):
            path = m["p"]
            if path.endswith(".") and not path.endswith(".."):
                path = path[:-1]  # "… line 77 in c.go.": the sentence's full stop
            if not path or not _pathlike(path):
                continue
            if best is not None and m.start() >= best.start:
                break
            line = int(m["l"])
            if line < 1 or line > 10_000_000:
                continue
            end = int(m["e"]) if m.groupdict().get("e") else None
            col = int(m["c"]) if m.groupdict().get("c") else None
            end = end if end is not None and end <= 10_000_000 else None
            col = col if col is not None and col <= 10_000_000 else None
            best = Location(clean_path(path), line,
                            end if end and end > line else None,
                            col if col and col >= 1 else None, m.start(), m.end())
            break
    return best

def severity_word(word: str) -> str | None:
    return severity.from_text(word)


def _put_severity(rec: dict[str, Any], word: str | None) -> None:
    """``priority`` for a ``Pn`` tag, ``severity`` (canonical) when the word is known."""
    if word is None:
        return
    word = word.strip()
    if re.fullmatch(r"p[0-9]", word, re.I):
        rec["priority"] = word.upper()
    canon = severity_word(word)
    if canon is not None:
        rec["severity"] = canon


def _put_location(rec: dict[str, Any], loc: Location | None) -> None:
    if loc is None:
        return
    rec["file"] = loc.file
    for key in ("line", "end_line", "column"):
        value = getattr(loc, key)
        if value:
            rec[key] = value


# the other places one finding cites, kept with it (``related``): at most this many
MAX_RELATED = 16


def place_entry(file: str, line: object = None, end_line: object = None) -> dict[str, Any]:
    """One ``related`` entry: ``{"file", "line"?, "end_line"?}`` (an end only past its line)."""
    out: dict[str, Any] = {"file": file}
    if isinstance(line, int) and not isinstance(line, bool) and line >= 1:
        out["line"] = line
        if isinstance(end_line, int) and not isinstance(end_line, bool) and end_line > line:
            out["end_line"] = end_line
    return out


def put_related(rec: dict[str, Any], loc: Location) -> bool:
    """Add ``loc`` to the other places the finding ``rec`` cites (its ``related`` list):
    not its own place, not one listed already, at most :data:`MAX_RELATED`.  True when
    it was added."""
    if not loc.file:
        return False
    entry = place_entry(loc.file, loc.line, loc.end_line)
    if entry["file"] == rec.get("file") and entry.get("line") == rec.get("line"):
        return False
    related = rec.get("related")
    if not isinstance(related, list):
        related = []
    if len(related) >= MAX_RELATED or any(
            r.get("file") == entry["file"] and r.get("line") == entry.get("line")
            for r in related if isinstance(r, dict)):
        return False
    related.append(entry)
    rec["related"] = related
    return True


def _sev_only(text: str) -> str | None:
    t = text.strip()
    if not t or len(t) > 60:
        return None
    for emoji in _SEV_EMOJI:
        if t.replace("*", "").strip() == emoji:
            return emoji_severity(emoji)
    m = _SEV_ONLY.match(t)
    return severity_word(m["w"]) if m else None
