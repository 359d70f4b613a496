"""Putting untrusted reviewer text into a markdown report without letting it forge structure.

- :func:`escape_delimiters` — council-fence's hardened literal-delimiter
  escape, line by line: every begin/end delimiter of every label and the
  code-fence delimiters, anywhere in a line and in any letter case, lose
  their leading dashes to ``[ESCAPED] ``; a ``findings_block_begin|end``
  sentinel line is prefixed.  Redaction placeholders are left alone.
- :func:`inline` — one line of reviewer text for a bullet: whitespace folded,
  delimiters escaped, HTML comment openers/closers neutralised (so a quote
  can never forge a ``<!-- code-review:... -->`` marker).
- :func:`appendix_body` — a block of reviewer output for an appendix:
  delimiters escaped, level-1/2 ATX headings prefixed (so a reviewer cannot
  forge another reviewer's ``## <Name> Output`` section), and a code fence left
  open at the end closed by escaping its opener.

Code blocks use ``council_filters.base.bytesops.code_fence``.
"""

from __future__ import annotations

import re

from council_filters import fence
from council_filters.base import vocab

ESCAPED = vocab.ESCAPED.decode()

# Container starts (blockquote markers, list items) a heading or a structure line
# may sit behind: "> ## x" and "- ## x" are headings too.
_CONTAINERS = r"(?:[ \t]*+(?:>|[-+*](?=[ \t]|$)|[0-9]{1,9}[.)](?=[ \t]|$)))*+[ \t]*+"
_HEADING = re.compile(_CONTAINERS + r"#{1,6}(?:[ \t]|$)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_WS = re.compile(r"\s+")
# Every line separator a renderer (or a reader) may honour, folded to LF before
# anything else, so no lone CR can start a heading the escapes never saw.
_SEPARATORS = re.compile("\r\n|[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
# Lines that would turn into structure: a setext underline (or thematic break),
# a link reference definition, a table's delimiter row.
_STRUCTURE_TAIL = (
    r"(?:=+[ \t]*$|-[ \t-]*$|_[ \t_]*$|\*[ \t*]*$|\[[^\]]*+\]:"
    r"|\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*+\|?[ \t]*$)"
)
# Tried bare (so "- - -" is a thematic break, not list markers) and behind containers.
_STRUCTURE_BARE = re.compile(r" {0,3}" + _STRUCTURE_TAIL)
_STRUCTURE = re.compile(_CONTAINERS + _STRUCTURE_TAIL)


def normalise_lines(text: str) -> str:
    """Every line separator (CR, CRLF, VT, FF, NEL, U+2028/2029, U+001C-1E) as LF."""
    return _SEPARATORS.sub("\n", text)


def _inert_html(line: str) -> str:
    """``<`` as ``&lt;``: no HTML block, comment or raw tag can start in this line."""
    return line.replace("<", "&lt;")


def escape_line(line: str) -> str:
    """One line through council-fence's hardened escape (the one rule for both)."""
    raw = line.encode("utf-8", "surrogateescape")
    return fence.escape_hardened(raw).decode("utf-8", "surrogateescape")


def escape_delimiters(text: str) -> str:
    return "\n".join(escape_line(line) for line in text.split("\n"))


def _flat(text: str) -> str:
    return escape_line(_WS.sub(" ", normalise_lines(text)).strip())


# Markup a renderer turns live: link and image brackets, a scheme's "://" and "www." (GFM
# autolinks), "@name" (a mention that notifies, an e-mail autolink).
_LINK = re.compile(r"\](?=\()")
_SCHEME = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{0,31}):(?=//)")
_WWW = re.compile(r"(?i)\bwww\.")
_MENTION = re.compile(r"@(?=[A-Za-z0-9_])")
ZWSP = "\u200b"


def inert_markup(text: str) -> str:
    """No link, image, autolink or mention can form: the ``(`` after a ``]`` backslash-
    escaped (no inline link or image destination; reference definitions are escaped as
    structure), and a zero-width space after a scheme's colon, inside ``www.`` and after
    ``@`` (the text reads the same)."""
    text = _LINK.sub("]\\\\", text)
    text = _SCHEME.sub(lambda m: m[1] + ":" + ZWSP, text)
    text = _WWW.sub(lambda m: m[0][:3] + ZWSP + ".", text)
    return _MENTION.sub("@" + ZWSP, text)


def inline(text: str, *, markup: bool = True) -> str:
    """Reviewer text as one safe markdown line: no raw HTML, no comment, no marker, and
    (``markup``) no live link, image or mention."""
    flat = _inert_html(_flat(text)).replace("-->", "--&gt;")
    return inert_markup(flat) if markup else flat


def _unclosed_openers(lines: list[str]) -> list[int]:
    """Indexes of the code-fence openers that are never closed (CommonMark, simplified).

    One pass: outside a block, an opener whose closer exists jumps past that
    closer; an opener with none is recorded (it will be escaped, so it opens
    nothing) and the walk goes on at the next line.  Whether a closer exists
    is answered from suffix maxima of closer lengths per fence character, and
    the forward search for a closer that does exist is consumed by the jump,
    so every line is looked at a bounded number of times whatever the nesting.
    """
    n = len(lines)
    # One small integer per line (no match objects kept alive): 0 for a line
    # that is no fence, else length << 3 | tilde << 2 | blank info << 1 | tick in info.
    codes = [0] * n
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if m:
            run, info = m.group(1), m.group(2)
            codes[i] = (len(run) << 3 | (run[0] == "~") << 2 | (not info.strip()) << 1
                        | ("`" in info))
    # longest[t][i]: the longest closer (blank info) of fence kind t at index >= i.
    longest = ([0] * (n + 1), [0] * (n + 1))
    ticks, tildes = longest
    for i in range(n - 1, -1, -1):
        ticks[i], tildes[i] = ticks[i + 1], tildes[i + 1]
        code = codes[i]
        if code & 2:
            table = longest[code >> 2 & 1]
            table[i] = max(table[i], code >> 3)
    unclosed: list[int] = []
    i = 0
    while i < n:
        code = codes[i]
        i += 1
        if not code:
            continue
        kind, size = code >> 2 & 1, code >> 3
        if not kind and code & 1:
            continue  # a backtick fence's info string may not contain backticks
        if longest[kind][i] < size:
            unclosed.append(i - 1)
            continue
        while True:  # a closer exists at or after i: find it and jump past it
            close = codes[i]
            i += 1
            if close & 2 and close >> 2 & 1 == kind and close >> 3 >= size:
                break
    return unclosed


def appendix_body(text: str) -> str:
    """A reviewer's output block, escaped for the report appendix.

    Line separators are folded to LF first.  Outside code blocks no line can
    become structure: ATX headings of any level, setext underlines and
    thematic breaks, link reference definitions and table delimiter rows are
    prefixed, and every ``<`` is ``&lt;`` (no HTML block, comment, ``<pre>``,
    ``<details>`` or forged marker).  A code fence left open is escaped.
    """
    lines = [escape_line(line) for line in normalise_lines(text).split("\n")]
    for idx in _unclosed_openers(lines):
        lines[idx] = ESCAPED + lines[idx]
    out: list[str] = []
    fence: tuple[str, int] | None = None
    for line in lines:
        m = _FENCE.match(line)
        if fence is not None:  # inside a balanced code block: inert already
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= fence[1] \
                    and not m.group(2).strip():
                fence = None
            out.append(line)
            continue
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = (m.group(1)[0], len(m.group(1)))
            out.append(line)
            continue
        if _HEADING.match(line) or _STRUCTURE.match(line) or _STRUCTURE_BARE.match(line):
            line = ESCAPED + line
        out.append(inert_markup(_inert_html(line)))
    return "\n".join(out)


def blockquote(text: str) -> str:
    """Multi-line reviewer text as a markdown blockquote (delimiters escaped)."""
    body = appendix_body(text.strip("\n"))
    return "\n".join(("> " + line).rstrip() for line in body.split("\n"))


def code_span(text: str) -> str:
    """Inline code that its own backticks cannot close."""
    flat = inline(text, markup=False)  # "<" escaped even here: raw HTML outranks code spans
    longest = max((len(m) for m in re.findall(r"`+", flat)), default=0)
    tick = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{tick}{pad}{flat}{pad}{tick}"
