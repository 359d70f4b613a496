"""Finding-level agreement: which findings from different reviewers name the same problem.

Two findings belong to one group when they are in the same file, their lines
are at most ``WINDOW`` apart, *and* their texts describe the same problem.  A
finding cited at several places (its ``related`` places) is near another
finding when any of its places is: one reviewer's "the lock leaks at a.py:10,
also b.py:22" and another's "b.py:22 never releases the lock" are one problem.
"Same problem" is decided by a TF-IDF cosine over normalised words: words are
lower-cased, identifiers are kept whole and also split into their parts
(``getUserById`` -> ``getuserbyid get user by id``), a small stemmer folds
inflections (``injected``/``injection``/``injectable`` -> ``inject``), a short
thesaurus folds the words reviewers use interchangeably for one idea (``nil``,
``none``, ``null``), and common words are dropped.  The inverse document
frequency is computed over the findings of the run itself, so a word every
finding uses counts for little.  Nothing is downloaded; nothing needs the
network.  The threshold (``THRESHOLD``) and its measured precision and recall
are in docs/benchmarks.md.

Grouping is not quadratic: a finding is compared only with findings of the
same file whose line is within the window, at most ``MAX_NEIGHBOURS`` of them
(the nearest by line), so the work is linear in the number of findings for
any input.  Pairs above the threshold are merged greedily, most similar
first, and two groups merge only when their average similarity (over up to
``LINKAGE_SAMPLE`` members each) also reaches the threshold, so one shared
identifier cannot chain two problems together; a group never holds two
findings of the same reviewer unless their texts are identical (a reviewer
does not name one problem twice, so two of its findings are two problems).
Every decision depends on content only, never on input order, provided the
caller passes the items in a content order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

WINDOW = 3
THRESHOLD = 0.12
MAX_NEIGHBOURS = 64
LINKAGE_SAMPLE = 8

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

STOPWORDS = frozenset((
    "a", "about", "above", "after", "again", "against", "all", "also", "an", "and", "any", "are",
    "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but",
    "by", "can", "code", "consider", "could", "currently", "did", "do", "does", "doing", "down",
    "during", "e", "each", "eg", "even", "few", "file", "files", "finding", "findings", "for",
    "from", "further", "g", "had", "has", "have", "having", "here", "how", "however", "i", "i.e",
    "ie", "if", "in", "instead", "into", "is", "issue", "issues", "it", "its", "itself", "just",
    "line", "lines", "made", "make", "makes", "may", "might", "more", "most", "must", "my",
    "need", "needed", "needs", "new", "no", "nor", "not", "note", "now", "of", "off", "old", "on",
    "once", "one", "only", "or", "other", "our", "out", "over", "own", "per", "please", "problem",
    "problems", "same", "should", "so", "some", "still", "such", "than", "that", "the", "their",
    "them", "then", "there", "these", "they", "this", "those", "three", "through", "to", "too",
    "two", "under", "until", "up", "use", "used", "uses", "using", "very", "via", "was", "we",
    "well", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
    "with", "would", "yet", "you", "your",
))

# Words reviewers use interchangeably for one idea, folded onto one concept.
# Each concept lists word stems (after the light stemmer) and phrases (matched
# on the lower-cased text before it is split into words).
CONCEPTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "c:inject": (("sqli", "inject", "interpolat", "concatenat", "unparameteris",
                  "unparameteriz", "parameteris", "parameteriz", "fstring", "unsanitis",
                  "unsanitiz", "sanitis", "sanitiz", "prepar"),
                 ("sql injection", "f-string", "string format", "raw sql", "bind param",
                  "bound param", "placeholder", "string concatenation", "string building")),
    "c:xss": (("xss", "unescap", "escap", "markup", "html", "innerhtml", "dangerouslysetinnerhtml"),
              ("cross-site scripting", "cross site scripting", "without escaping",
               "into the page", "into the template", "into the dom")),
    "c:null": (("null", "none", "nil", "undefin", "nullabl", "nullptr", "nonetyp", "derefer",
                "dereferenc", "attributeerror", "optional"),
               ("null check", "none check", "can be none", "may be none", "is not set",
                "always set", "lookup miss")),
    "c:leak": (("leak", "unclos", "close", "clos", "releas", "dispos", "descriptor"),
               ("context manager", "never closed", "not closed", "file descriptor",
                "wrap it in `with`", "with statement", "file handle", "handle opened",
                "opens")),
    "c:race": (("race", "raci", "racy", "concurr", "thread", "lock", "mutex", "atomic",
                "synchronis", "synchroniz", "toctou", "simultaneous"),
               ("check-then-act", "check then act", "shared state", "two requests",
                "data race")),
    "c:secret": (("secret", "credential", "password", "passwd", "apikey", "hardcod"),
                 ("hard-coded", "hard coded", "api key", "private key", "in source",
                  "secret store", "from the environment")),
    "c:travers": (("travers", "dotdot", "directori", "basedir", "symlink"),
                  ("path traversal", "`..`", "../", "base directory", "upload dir",
                   "file path", "escape the base", "outside the")),
    "c:offbyone": (("boundari", "boundary", "fencepost", "exclusiv", "inclusiv"),
                   ("off-by-one", "off by one", "skips the last", "last item", "last element",
                    "final element", "one element early", "one early", "len(", "- 1)")),
    "c:error": (("swallow", "except", "exception", "catch", "unhandl", "silent", "silently",
                 "ignor", "rais", "throw"),
                ("bare except", "error handling", "errors are", "all exceptions",
                 "at least log")),
    "c:perf": (("quadrat", "ineffici", "slow", "batch", "perform", "n+1", "roundtrip"),
               ("n+1", "per item", "per element", "per row", "inside the loop", "round trip",
                "one query per", "in a loop")),
    "c:timeout": (("timeout", "millisecond", "ms"),
                  ("time out", "1000x", "in seconds", "takes seconds", "expects seconds",
                   "units mismatch", "unit mismatch", "wrong unit")),
    "c:mutable": (("mutabl",), ("default argument", "default value", "list literal",
                                "shared between calls", "across calls", "=[]", "={}")),
    "c:naming": (("name", "naming", "renam", "vagu", "unclear", "descriptiv", "misleading"),
                 ()),
    "c:test": (("test", "tests", "coverag", "untest", "unittest", "pytest", "assert"),
               ("unit test", "no test", "missing test")),
    "c:valid": (("validat", "unchecked", "unvalidat", "verif"),
                ("input check", "bounds check", "not checked")),
    "c:log": (("log", "logg", "logged", "print"), ()),
    "c:crypto": (("md5", "sha1", "crypto", "cipher", "hash", "ecb", "random", "entropy"),
                 ("weak hash", "insecure random")),
    "c:auth": (("auth", "authoris", "authoriz", "authent", "permission", "privileg", "csrf",
                ), ("access control",)),
    "c:shell": (("shell", "subprocess", "popen", "eval", "exec", "command"),
                ("shell=true", "command injection", "os.system")),
    "c:deserial": (("pickl", "deserializ", "deserialis", "unpickl", "yaml"),
                   ("yaml.load",)),
    "c:ssrf": (("ssrf",), ("server-side request", "arbitrary url", "internal network")),
    "c:overflow": (("overflow", "underflow", "truncat", "precision"), ("integer overflow",)),
    "c:deadcode": (("unused", "unreachabl", "dead", "redundant", "duplicat"), ("dead code",)),
    "c:docs": (("docstring", "comment", "typo", "documentation", "readme"), ()),
    "c:encoding": (("encod", "decod", "unicod", "utf"), ()),
    "c:regex": (("regex", "regexp", "redos", "backtrack"), ("regular expression",)),
    "c:magic": (("magic", "hardcod"), ("magic number",)),
    "c:deprecat": (("deprecat", "obsolet", "legacy"), ()),
}
SYNONYMS: dict[str, str] = {w: c for c, (words, _) in CONCEPTS.items() for w in words}
_PHRASES: tuple[tuple[str, str], ...] = tuple(sorted(
    ((p, c) for c, (_, phrases) in CONCEPTS.items() for p in phrases),
    key=lambda pc: -len(pc[0]),
))
CONCEPT_WEIGHT = 2.0

_SUFFIXES = (
    "ations", "ation", "ution", "ments", "ment", "ities", "ity", "ness", "ables", "able",
    "ibles", "ible", "ings", "ing", "ions", "ion", "ized", "ised", "izes", "ises", "ize",
    "ise", "ers", "er", "ies", "ied", "ed", "es", "ly", "s",
)


SEVERITY_WORDS = frozenset((
    "p0", "p1", "p2", "p3", "p4", "critical", "blocker", "blocking", "high", "severe", "major",
    "medium", "moderate", "warning", "minor", "low", "nit", "nitpick", "trivial", "info",
    "suggestion", "important", "possible", "potential", "likely",
))


def stem(word: str) -> str:
    """A light suffix-stripping stem (keeps at least four letters), then the thesaurus."""
    w = word
    if w in SYNONYMS:
        return SYNONYMS[w]
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            w = w[: -len(suf)]
            break
    if w in SYNONYMS:
        return SYNONYMS[w]
    for root, concept in _PREFIX_SYNONYMS:
        if w.startswith(root):
            return concept
    return w


_PREFIX_SYNONYMS: tuple[tuple[str, str], ...] = tuple(
    (k, v) for k, v in sorted(SYNONYMS.items(), key=lambda kv: -len(kv[0])) if len(k) >= 5
)


def terms(text: str) -> set[str]:
    """The normalised word set of a finding's text (see the module docstring)."""
    out: set[str] = set()
    low_text = text.lower()
    for phrase, concept in _PHRASES:
        if phrase in low_text:
            out.add(concept)
    for m in _WORD.finditer(text):
        tok = m.group(0)
        parts = [p for chunk in tok.split("_") for p in _CAMEL.findall(chunk)]
        low = tok.lower().strip("_")
        if len(parts) > 1 and len(low) > 2:
            out.add("id:" + low)  # an identifier counts once, whole
            continue
        for p in parts or [tok]:
            p = p.lower()
            if p in STOPWORDS or p in SEVERITY_WORDS or len(p) < 2 or p.isdigit():
                continue
            out.add(stem(p))
    return out


@dataclass(frozen=True)
class Item:
    """What grouping needs to know about one finding."""

    file: str | None
    line: int | None
    origin: str
    text: str
    also: tuple[tuple[str, int], ...] = ()  # the other places it cites, with a line


class Similarity:
    """TF-IDF cosine between findings, the IDF taken over the given texts."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.terms = [terms(t) for t in texts]
        df: dict[str, int] = {}
        for ts in self.terms:
            for t in ts:
                df[t] = df.get(t, 0) + 1
        n = len(texts)
        self.idf = {
            t: (math.log((1 + n) / (1 + c)) + 1.0) * (CONCEPT_WEIGHT if t[:2] == "c:" else 1.0)
            for t, c in df.items()
        }
        self.norm = [math.sqrt(sum(self.idf[t] ** 2 for t in ts)) for ts in self.terms]

    def __call__(self, i: int, j: int) -> float:
        a, b = self.terms[i], self.terms[j]
        if not a or not b:
            return 0.0
        if len(a) > len(b):
            a, b = b, a
        dot = sum(self.idf[t] ** 2 for t in a if t in b)
        return dot / (self.norm[i] * self.norm[j])


def similarity(a: str, b: str) -> float:
    """The cosine of two texts on their own (IDF over just the two)."""
    return Similarity([a, b])(0, 1)


def _fold(text: str) -> str:
    return " ".join(text.lower().split())


def group(
    items: Sequence[Item], *, window: int = WINDOW, threshold: float = THRESHOLD,
    max_neighbours: int = MAX_NEIGHBOURS,
) -> list[list[int]]:
    """Indices of ``items`` in groups; every index in exactly one group.

    Groups come out in the order of their first member; members in index
    order.  Items without a file or a line are groups of their own.
    """
    sim = Similarity([it.text for it in items])
    folded = [_fold(it.text) for it in items]
    by_file: dict[str, list[tuple[int, int]]] = {}  # file -> (line, item) for every place
    for i, it in enumerate(items):
        if it.file and it.line:
            by_file.setdefault(it.file, []).append((it.line, i))
            for f, ln in it.also:
                by_file.setdefault(f, []).append((ln, i))
    pairs: list[tuple[float, int, int]] = []
    tried: set[tuple[int, int]] = set()
    for places in by_file.values():
        places.sort()
        for a, (line_a, i) in enumerate(places):
            b = a + 1
            seen = 0
            while b < len(places) and places[b][0] - line_a <= window and seen < max_neighbours:
                j = places[b][1]
                b += 1
                seen += 1
                key = (min(i, j), max(i, j))
                if i == j or key in tried:
                    continue
                tried.add(key)
                same_origin = items[i].origin == items[j].origin
                if same_origin and folded[i] != folded[j]:
                    continue
                s = 1.0 if folded[i] == folded[j] else sim(i, j)
                if s >= threshold:
                    pairs.append((s, *key))
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    parent = list(range(len(items)))
    origins: dict[int, set[str]] = {}
    texts: dict[int, set[str]] = {}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    members: dict[int, list[int]] = {}

    def linked(a: list[int], b: list[int]) -> bool:
        """Average linkage: the two groups' mean similarity reaches the threshold."""
        a, b = a[:LINKAGE_SAMPLE], b[:LINKAGE_SAMPLE]
        total = sum(1.0 if folded[x] == folded[y] else sim(x, y) for x in a for y in b)
        return total / (len(a) * len(b)) >= threshold

    for _, i, j in pairs:
        ri, rj = find(i), find(j)
        if ri == rj:
            continue
        mi, mj = members.get(ri) or [ri], members.get(rj) or [rj]
        if (len(mi) > 1 or len(mj) > 1) and not linked(mi, mj):
            continue
        oi = origins.get(ri) or {items[ri].origin}
        oj = origins.get(rj) or {items[rj].origin}
        ti = texts.get(ri) or {folded[ri]}
        tj = texts.get(rj) or {folded[rj]}
        if oi & oj and not (len(ti) == 1 and ti == tj):
            continue  # would put two different findings of one reviewer together
        root, other = (ri, rj) if ri < rj else (rj, ri)
        parent[other] = root
        origins[root] = oi | oj
        texts[root] = ti | tj
        members[root] = mi + mj if root == ri else mj + mi
        origins.pop(other, None)
        texts.pop(other, None)
        members.pop(other, None)
    groups: dict[int, list[int]] = {}
    for i in range(len(items)):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])
