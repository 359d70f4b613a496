"""The built-in rules proven silent in bulk (secrets/proof.py) redact exactly as line by line.

A proof pattern must match every line its rule fires on; the redactor then
runs the rule only where the proof matched, and drops the other candidate
lines.  Checked on provider tokens in every shape, the credential families,
near misses (two generators: repeating shapes and fresh random lines),
ordinary text, and lines built to sit on each validator's edges (lengths,
digits and capitals as the validators count them, templates, placeholders,
code words, scheme words, non-ASCII bytes).
"""

from __future__ import annotations

import contextlib
import random
import re
import string
from collections.abc import Iterator

import near_misses
import pytest
import secret_corpus
import secret_families as sf

from council_filters.redaction.secrets import builtin, load_rules, proof, redact_value
from council_filters.redaction.secrets.engine import RuleCheck
from council_filters.redaction.secrets.rules import _ESCAPED_QUOTE

EXT = load_rules("extended")

_KEYS = ("password", "db_password", "PGPASSWORD", "userPassword", "pass", "pw", "pwd",
         "passphrase", "secret", "client_secret", "apiKey", "API_KEY", "api_key_value",
         "authToken", "auth", "access_key", "token", "tokens", "Authorization", "sas",
         "connection_string", "master_key", "secret_key$", "$password", "key", "token_count",
         "secret_name", "passthrough", "pw_hash", "x.password.", "SECRET_TOKEN_B64")
_VALUES = ("hunter2", "hunter22", "Hunter2024", "s3cr3t!", "abcdef", "abcde", "aBcDeFgHiJkL",
           "abcdefghijkl", "ABCDEFGHIJKLM", "abc123def456", "abcd1234efgh5", "Ab²cdefghijk",
           "ÀbcdÉfghijkl", "%DB_PASSWORD%", "%db_pass%", "${DB_PASSWORD}", "$DB_PASSWORD",
           "<your-password>", "{{ .Values.pw }}", "#{secret}", "self.password", "os.getenv",
           "config.db.pw", "get_pw()", "pw[0]", "value.", "value:", "None", "null", "str",
           "required", "Optional[str]", "SecretStr", "myPassword", "myPass", "dbPassword",
           "tokenValue", "xxxxxxxx", "XXXXXXXXXXXXXXXX", "********", "changeme", "EXAMPLEKEY1",
           "your_api_key", "dummy123456", "0000000000", "12345678", "1234567", "aaaaaa",
           "Bearer abc123def456", "Basic dXNlcjpwYXNz", "token 1234567890ab", "Bearer ",
           "Basic ", "key abcdefgh", "digest", "pa ss word1", "a,b;c", "p@ss:w0rd.", "/home/app",
           "C:\\Users\\app", "~/.ssh/id", "ctx->pw", "a::b", "é€ßçñ12345", "x" * 320,
           "a1" * 160, "Ab1" + "c" * 299 + "(", "naïveCafé", "hunter2,", "hunter2;")


def _quoted(rng: random.Random, v: str) -> str:
    q = rng.choice(("", "", '"', "'", "`"))
    return f"{q}{v}{q}"


def validator_lines(rng: random.Random, n: int) -> Iterator[bytes]:
    """Lines on the edges of the key/value validators, in every context they read."""
    for _ in range(n):
        k, v = rng.choice(_KEYS), rng.choice(_VALUES)
        if rng.random() < 0.2:
            v = "".join(rng.choice(string.ascii_letters + string.digits + "._-/+=:@$%()")
                        for _ in range(rng.randint(3, 20)))
        op = rng.choice(("=", ": ", " = ", ":=", " => ", "?=", "||=", " <- ", "="))
        form = rng.randrange(9)
        if form == 0:
            line = f"{k}{op}{_quoted(rng, v)}"
        elif form == 1:
            end = rng.choice(("", ",", ";", " # x", " and more"))
            line = f"  {_quoted(rng, k)}{op}{_quoted(rng, v)}{end}"
        elif form == 2:
            line = f"<{k}>{v}</{k}>"
        elif form == 3:
            line = f'<add key="{k}" value="{v}" />'
        elif form == 4:
            line = f"| {k} | {v} |"
        elif form == 5:
            line = f'{{name: "{k}", value: {_quoted(rng, v)}}}'
        elif form == 6:
            line = f"--{rng.choice(('password', 'token', 'secret', 'api-key'))} {v}"
        elif form == 7:
            line = rng.choice((f"requirepass {v}", f"AUTH {v}", f"AUTH default {v}",
                               f"redis-cli -a {v}", f"$ redis-cli -h h -a {v}",
                               f"127.0.0.1:6379> AUTH {v}", f"x; MasterAuth {v}",
                               f"mysql -u root -p{v}",
                               f"machine h login u password {v}", f"IDENTIFIED BY '{v}'"))
        else:
            line = rng.choice((f"Authorization: Bearer {v}", f"Authorization: {v}",
                               f"authorization: token {v}", f"bearer {v}"))
        enc = rng.choice(("utf-8", "latin-1")) if not line.isascii() else "ascii"
        try:
            yield line.encode(enc)
        except UnicodeEncodeError:
            yield line.encode("utf-8")


def provider_lines() -> Iterator[bytes]:
    for case in secret_corpus.secret_lines(seed=5, per_pair=2):
        for line in case.text.split("\n"):
            yield line.encode()
            yield line.replace(case.secret, "x" * len(case.secret)).encode()
            yield line.replace(case.secret, case.secret[: len(case.secret) // 2]).encode()


def all_lines() -> list[bytes]:
    rng = random.Random(11)
    lines = list(provider_lines())
    for fam in sf.FAMILIES:
        lines += [line.encode() for _, line in sf.family_lines(fam, seed=19)]
    lines += [ln.encode() for ln in secret_corpus.benign_lines(seed=3, n=3000)]
    lines += [ln.encode() for ln in near_misses.near_miss_lines(seed=9, n=6000)]
    lines += list(validator_lines(rng, 12000))
    # the same lines cut, upper-cased, with bytes that are no UTF-8 around, and
    # with their quotes escaped (JSON inside a string)
    more = []
    for ln in rng.sample(lines, 4000):
        cut = rng.randrange(len(ln) + 1)
        esc = b"\\" * rng.randint(1, 5)
        more += [ln[:cut], ln.upper(), b"\xff" + ln + b"\xc3", b"x" + ln,
                 ln.replace(b'"', esc + b'"').replace(b"'", esc + b"'")]
    return lines + more


LINES = all_lines()


def _missed(rule_id: str, rx: re.Pattern[bytes] | None = None) -> list[bytes]:
    """Lines the rule fires on that its proof (or ``rx``) does not send on (must be none)."""
    rule = builtin.BY_ID[rule_id]
    lines = list(LINES)
    random.Random(rule_id).shuffle(lines)
    found = proof.maybe_lines(rule, lines) if rx is None else proof.lines_matching(rx, lines)
    assert found is not None
    return [ln for ln in lines if ln not in found and rule.fires(ln)]


@pytest.mark.parametrize("rule_id", [r.id for r in builtin.RULES])
def test_a_proof_finds_every_line_its_rule_fires_on(rule_id: str) -> None:
    rule = builtin.BY_ID[rule_id]
    assert proof.proof_regexes(rule) is not None  # every rule is served
    for source in proof.proof_sources(rule):  # each stage on its own, then all
        assert proof.newline_safe(source) and proof.takes_a_byte(source)
        missed = _missed(rule_id, re.compile(source, re.M))
        assert missed == [], missed[:10]
    missed = _missed(rule_id)
    assert missed == [], missed[:10]


@pytest.mark.parametrize("rule_id", [r.id for r in builtin.RULES])
def test_a_rules_search_finds_every_line_it_fires_on(rule_id: str) -> None:
    """The candidate search of each rule (builtin.SCANS, as the ``re`` engine runs
    it) hits every line the rule fires on, read as it is or with its escaped
    quotes read unescaped (terminal escapes send a line to every rule)."""
    rule = builtin.BY_ID[rule_id]
    search = re.compile(rule.prefilter)
    missed = [
        ln for ln in LINES
        if not search.search(ln)
        and (rule.fires(ln) or rule.fires(_ESCAPED_QUOTE.sub(rb"\1", ln)))
    ]
    assert missed == [], missed[:10]


def _search_hits() -> list[bytes]:
    """Lines the searches that have wider automaton forms hit, in many shapes."""
    rng = random.Random(41)
    out = []
    for _ in range(3000):
        key = rng.choice(_KEYS)
        run = "".join(rng.choice(string.ascii_letters + string.digits + "+/_-")
                      for _ in range(rng.randint(60, 90)))
        sep = rng.choice((": ", "=", " = ", '": "', "'] = '", " := ", "\t", " is: ", " -> "))
        lead = rng.choice(("", "  ", "x ", "public string "))
        out.append(f"{lead}{key}{sep}{run}".encode())
        out.append(f"{lead}{key}{rng.choice(('', ' ', chr(9)))}{{{rng.choice(('', ' '))}get; "
                   "set; }}".encode())
    return out


@pytest.mark.parametrize("rule_id", ["secret-property-initializer", "secret-long-value"])
def test_an_automaton_form_finds_every_line_its_search_finds(rule_id: str) -> None:
    """The wider form the automaton runs for a search (prefilter.widen) hits
    every line the exact search hits."""
    exact = builtin.BY_ID[rule_id].prefilter
    wide = re.compile(builtin.AUTOMATON_FORMS[exact])
    search = re.compile(exact)
    hit = [ln for ln in LINES + _search_hits() if search.search(ln)]
    assert len(hit) > 100  # (lines the exact search finds, in numbers)
    assert [ln for ln in hit if not wide.search(ln)] == []
    narrower = re.compile(builtin.AUTOMATON_FORMS[exact].replace(b"[^\\n]*", b"[ \\t]*")
                          .replace(b"{[ \\t]*", b"{"))
    assert [ln for ln in hit if not narrower.search(ln)]  # (the check can fail)


def test_quoted_values_with_blanks_the_validator_strips_are_found() -> None:
    """A quoted value under a token key may hold no space inside, as the
    validator strips it: blanks that str.isspace knows in latin-1 (no-break
    space, NEL, the separators) before or after the value are stripped, and a
    value that holds a space between other bytes is refused."""
    rule = builtin.BY_ID["secret-assignment"]
    blanks = (b" ", b"\t", b"\xa0", b"\x85", b"\x1c", b"\x1f", b"\x0b", b"")
    rng = random.Random(7)
    lines = []
    for _ in range(3000):
        lead, mid, tail = (b"".join(rng.choice(blanks) for _ in range(rng.randint(0, 3)))
                           for _ in range(3))
        body = bytes(rng.choice(b"Ab3dEf9hIjKlMn+/") for _ in range(rng.randint(4, 14)))
        value = rng.choice((b"Z", b"")) + lead + body + mid + body[::-1] + tail
        key = rng.choice((b"token", b"api_key", b"SECRET", b"authToken"))
        lines.append(key + rng.choice((b" = ", b": ", b"=")) + b'"' + value + b'"')
    fired = [ln for ln in lines if rule.fires(ln)]
    assert 100 < len(fired) < len(lines)  # (both kinds are there)
    found = proof.maybe_lines(rule, lines)
    assert found is not None
    assert [ln for ln in fired if ln not in found] == []
    assert len(found) < len(lines)  # (and the proof refuses some)


def test_the_check_catches_a_proof_that_asks_too_much() -> None:
    """A proof one condition too strict (values of seven bytes) is caught."""
    rule = builtin.BY_ID["secret-assignment"]
    wrong = proof._proof_source(rule).replace(rb"(?=" + proof._RUN + rb"{6})",
                                              rb"(?=" + proof._RUN + rb"{7})")
    assert wrong != proof._proof_source(rule)
    assert _missed("secret-assignment", re.compile(wrong, re.M))


def test_proofs_refuse_what_reads_otherwise_over_joined_lines() -> None:
    safe = proof.newline_safe
    assert safe(rb"(?<![A-Za-z])x[^a]*y") and safe(rb"(?:^|[\s;])AUTH x$")
    for bad in (rb"(?<![\s])x", rb"\Ax", rb"[^a]++b", rb"(?!\n)x", rb"a\Z", rb"(?s)a.b",
                rb"(?>[^ ]+)", rb"(?=a\s)x"):
        assert not safe(bad), bad
    assert proof.joinable(rb"a\Z|b\\Z") == rb"a$|b\\Z"
    assert not proof.takes_a_byte(rb"x?") and proof.takes_a_byte(rb"(?=a)b?c")


def _exact(data: bytes) -> bytes:
    """The redaction with no bulk proof at all (every candidate line checked)."""
    saved = RuleCheck.prepare
    RuleCheck.prepare = lambda self, buf, cands: None  # type: ignore[method-assign]
    try:
        return redact_value(data, EXT)[0]
    finally:
        RuleCheck.prepare = saved  # type: ignore[method-assign]


def _documents() -> Iterator[tuple[str, bytes]]:
    rng = random.Random(23)
    mixed = list(LINES)
    rng.shuffle(mixed)
    yield "mixed", b"\n".join(mixed) + b"\n"
    yield "near misses", "".join(
        ln + "\n" for ln in near_misses.near_miss_lines(seed=31, n=20000)).encode()
    # name/value pairs on two lines, key blocks among near misses
    pairs = []
    for ln in near_misses.near_miss_lines(seed=5, n=3000):
        pairs.append(ln)
        if rng.random() < 0.1:
            pairs += [f"- name: {rng.choice(_KEYS)}", f"  value: {rng.choice(_VALUES)}"]
    keys = secret_corpus.generate_keys()
    for case in list(secret_corpus.pem_cases(keys, seed=3))[:40]:
        pairs.insert(rng.randrange(len(pairs)), "\n".join(line for line, _ in case.lines))
    yield "pairs and keys", ("\n".join(pairs) + "\n").encode()


@contextlib.contextmanager
def _rule_runs() -> Iterator[list[bytes]]:
    """The lines that reach a rule's own check while the block runs."""
    ran: list[bytes] = []
    saved = RuleCheck.check

    def check(self: RuleCheck, line: bytes, hits: object, prev: bytes | None = None) -> object:
        ran.append(line)
        return saved(self, line, hits, prev)  # type: ignore[arg-type]

    RuleCheck.check = check  # type: ignore[method-assign]
    try:
        yield ran
    finally:
        RuleCheck.check = saved  # type: ignore[method-assign]


@pytest.mark.parametrize("name", ["mixed", "near misses", "pairs and keys"])
def test_bulk_proof_redacts_exactly_as_line_by_line(name: str) -> None:
    data = dict(_documents())[name]
    assert redact_value(data, EXT)[0] == _exact(data)


def test_most_near_misses_never_reach_a_rule() -> None:
    """On fresh near misses the rules run on few lines (the point of the proofs)."""
    data = "".join(ln + "\n" for ln in near_misses.near_miss_lines(seed=77, n=20000)).encode()
    with _rule_runs() as ran:
        redact_value(data, EXT)
    assert len(ran) < 20000 * 0.15, len(ran)


def test_values_and_escapes_that_hid_a_line_from_its_search() -> None:
    """Lines the rules fire on that their searches used to miss: a ``$`` inside a
    value (only a leading one marks a variable), and quotes escaped more than
    three times deep (JSON in a string in a string) or in an XML attribute."""
    rng = random.Random(3)
    alnum = string.ascii_letters + string.digits
    lines = []
    for _ in range(40):
        core = "".join(rng.choice(alnum) for _ in range(rng.randint(14, 30)))
        at = rng.randint(1, 5)
        value = core[:at] + "$" + core[at:] + "9Z"
        key = rng.choice(("password", "DB_PASSWORD", "api_key", "client_secret", "authToken"))
        lines.append(rng.choice((f"{key}={value}", f"{key}: {value}", f"export {key}={value}")))
        esc = "\\" * rng.randint(4, 9)
        lines.append(f'{{{esc}"{key}{esc}": {esc}"{core}9Z{esc}"}}')
        esc = "\\" * rng.randint(1, 6)
        lines.append(f'<add key={esc}"{key}{esc}" value={esc}"{core}9Z{esc}" />')
    doc = "".join(f"note {i}\n{line}\n" for i, line in enumerate(lines)).encode()
    _, redacted = redact_value(doc, EXT)
    assert redacted == [2 * i + 2 for i in range(len(lines))]


_HELD_PARTS = [b"value", b"Value", b"VALUE", b"vALUE", b"valu", b":", b" ", b"\t", b'"', b"'",
               b"\\", b"\x1b", b"\x9b", b"x", b"=", b"v", b"\\\\", b"-"]


def test_held_lines_are_those_of_the_anchored_search() -> None:
    """The lines kept whatever the proofs say (escaped quotes, terminal escapes,
    ``value:`` lines) are found by a search led by its first bytes: the same
    lines as the plain anchored search over the joined lines."""
    from bisect import bisect_right
    from itertools import accumulate

    from council_filters.redaction.secrets.engine import held_lines

    anchored = re.compile(
        rb"\\[\"']|[\x1b\x9b]|^[ \t]*[\"']?(?:value|Value|VALUE)[\"']?[ \t]*:[ \t]*\S", re.M)
    rng = random.Random(11)
    for _ in range(3000):
        lines = [b"".join(rng.choice(_HELD_PARTS) for _ in range(rng.randint(0, 9)))
                 for _ in range(rng.randint(1, 6))]
        joined = b"\n".join(lines)
        starts = list(accumulate([len(ln) + 1 for ln in lines], initial=0))
        want = {bisect_right(starts, m.start()) - 1 for m in anchored.finditer(joined)}
        assert held_lines(joined) == want, lines


def _first_bytes(pattern: bytes) -> set[int]:
    """Every byte a match of ``pattern`` (read under IGNORECASE, as the proofs
    are, and without) can start with, from the parsed pattern."""
    import re._constants as c
    import re._parser as p

    def of(seq: list, fold: bool) -> set[int]:  # type: ignore[type-arg]
        op, av = seq[0]
        if op is c.LITERAL:
            ch = bytes([av])
            return {av} | ({ch.swapcase()[0]} if fold else set())
        if op is c.IN:
            out: set[int] = set()
            for iop, iav in av:
                if iop is c.LITERAL:
                    out.add(iav)
                elif iop is c.RANGE:
                    out.update(range(iav[0], iav[1] + 1))
                else:
                    raise AssertionError(iop)
            return out | ({bytes([b]).swapcase()[0] for b in out} if fold else set())
        if op is c.BRANCH:
            return set().union(*(of(list(b), fold) for b in av[1]))
        if op is c.SUBPATTERN:
            _, add, dele, sub = av
            return of(list(sub), (fold or bool(add & re.I)) and not dele & re.I)
        if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1:
            return of(list(av[2]), fold)
        raise AssertionError(op)

    return of(list(p.parse(pattern)), True)


def test_the_first_byte_gates_hold_every_first_byte_of_what_they_gate() -> None:
    """The lookaheads that let the lazy scans skip to a possible placeholder,
    template or bracket admit every byte one can start with (so no match is lost)."""
    for gate, body in ((proof._PLACEHOLDER_FIRST, rb"(?:#\{|" + proof._PLACEHOLDER + rb")"),
                       (proof._CODE_FIRST, rb"(?:[()\[\]{}]|#\{|" + proof._PLACEHOLDER + rb")")):
        cls = re.compile(gate[len(b"(?="):-1])
        admitted = {b for b in range(256) if cls.match(bytes([b]))}
        assert _first_bytes(body) <= admitted
        assert (gate + body) in (proof._PLACEHOLDER_OR_TEMPLATE, proof._CODE_OR_PLACEHOLDER)


def test_joined_hits_tell_each_matchs_line_as_a_table_of_line_starts_would() -> None:
    """The lines a search over joined lines names, each match's line told by
    counting newlines, are those a table of line starts gives (the reading
    before), with and without matches that start at a line's newline."""
    from bisect import bisect_right
    from itertools import accumulate

    from council_filters.redaction.secrets.rules import joined_hits

    def by_table(rx: re.Pattern[bytes], lines: list[bytes], byte_long: bool) -> set[int]:
        joined = b"\n".join(lines)
        starts = list(accumulate([len(ln) + 1 for ln in lines], initial=0))
        hits: set[int] = set()
        m = rx.search(joined)
        while m is not None:
            i = bisect_right(starts, m.start()) - 1
            if not (byte_long and i + 1 < len(lines) and m.start() == starts[i + 1] - 1):
                hits.add(i)
            if i + 1 >= len(lines):
                break
            m = rx.search(joined, starts[i + 1])
        return hits

    rng = random.Random(4)
    patterns = [re.compile(p, re.M) for p in (rb"ab", rb"[\s;]x", rb"b\s*\na", rb"^a|b$", rb"x?")]
    for _ in range(2000):
        lines = [bytes(rng.choice(b"ab x;") for _ in range(rng.randint(0, 6)))
                 for _ in range(rng.randint(1, 6))]
        if rng.random() < 0.1:  # (a line that holds a newline of its own)
            lines[0] += b"\na"
        for rx in patterns:
            for byte_long in (False, True):
                assert joined_hits(rx, lines, byte_long=byte_long) == by_table(
                    rx, lines, byte_long), (rx.pattern, lines, byte_long)


def _base64_lines(rng: random.Random, n: int) -> list[bytes]:
    """Runs of the base64 alphabet at the lengths the rule's bounds turn on, a key
    word's base64 in some, with "=" and other bytes after them; and assignments
    written in base64, some of them cut."""
    import base64

    alphabet = (string.ascii_letters + string.digits + "+/").encode()
    least, most = builtin.B64_LEAST, builtin.B64_MAX
    lines = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(1, 3)):
            k = rng.choice([0, 3, least - 2, least - 1, least, least + 1, 60, most - 1, most,
                            most + 1])
            run = bytes(rng.choice(alphabet) for _ in range(k))
            if rng.random() < 0.7:
                at = rng.randint(0, len(run))
                run = run[:at] + rng.choice(builtin.B64_WORDS) + run[at:]
            tail = rng.choice([b"", b" ", b"x", b"-", b"_", b'"', b"=x", b"\xff"])
            parts.append(run + b"=" * rng.choice([0, 0, 1, 2, 3]) + tail)
        lines.append(b"".join(parts))
        key = rng.choice(["PASSWORD", "db_pass", "SECRET_KEY", "api_token", "pwd", "Auth"])
        value = "".join(rng.choice("abcXYZ0189!@#") for _ in range(rng.randint(4, 40)))
        text = base64.b64encode(f"{key}={value}{rng.choice(['', chr(10), chr(10) + 'A=1'])}"
                                .encode())
        text = text[: rng.randint(least - 1, len(text))] if rng.random() < 0.2 else text
        lines.append(rng.choice([b"", b"ENV_B64=", b"x ", b'"']) + text + rng.choice([b"", b'"']))
    return lines


def test_the_compiled_base64_proof_is_between_the_rule_and_its_pattern() -> None:
    """secret-base64-assignment's proof runs compiled when the module is built:
    every line the rule fires on, and only lines its proof pattern matches
    (the run that holds a key word's base64 must also decode to text, as the
    validator asks), on every line of the corpora and on runs at the lengths
    and tails its bounds turn on."""
    from council_filters.redaction import native

    compiled = getattr(native.compiled(), "base64_words", None)
    if compiled is None:
        pytest.skip("the compiled module is not built")
    rule = builtin.BY_ID["secret-base64-assignment"]
    (rx,) = proof.proof_regexes(rule) or ()
    lines = LINES + _base64_lines(random.Random(8), 3000)
    found = proof.maybe_lines(rule, lines)
    assert found is not None
    fired = {ln for ln in lines if rule.fires(ln)}
    matched = proof.lines_matching(rx, lines)
    assert fired <= found <= matched
    assert len(fired) > 1000  # (lines it fires on, not only ones it does not)
    assert len(matched - found) > 1000  # (runs that decode to bytes that are no text)
    with pytest.raises(TypeError):
        compiled(["text"], builtin.B64_WORDS, 12, 4096)


def test_a_compiled_proof_serves_a_few_lines_too() -> None:
    """A rule whose proof is compiled is proven on any number of candidate lines
    (a pass costs next to nothing), not only from _PROOF_MIN lines on: a word's
    base64 in a run of letters that is no text never reaches the rule; one
    that decodes to an assignment does, and is redacted."""
    from council_filters.redaction.secrets import engine

    rule = builtin.BY_ID["secret-base64-assignment"]
    if not proof.compiled(rule):
        pytest.skip("the compiled module is not built")
    near = [b"call getQXV0aHandlerForTheWidget(x)", b"BXRandomish"]
    real = b"ENV_B64=" + __import__("base64").b64encode(b"PASSWORD=Zq8#vK2m!pL")
    data = b"\n".join(near + [real]) + b"\n"
    assert len(near) + 1 < engine._PROOF_MIN
    with _rule_runs() as ran:
        out, redacted = redact_value(data, EXT)
    assert redacted == [3] and ran == [real]
    assert out.split(b"\n")[:2] == near


def _gate_values(rng: random.Random) -> list[str]:
    """Values on the edges of each condition the compiled value gate reads."""
    letters, signs = string.ascii_letters, "!#$%&*?@^~+=-_./:()[]{}<>"
    parts = ("self", "cfg", "A1b2C", "Ab1cD2", "x_y", "$el", "_p", "ENV", "abc123", "AB12CD",
             "aB3", "9ab", "ab", "")
    values = list(_VALUES)
    for _ in range(1500):
        kind = rng.randrange(8)
        if kind == 0:  # dotted names, their separators and ends
            n = rng.randint(1, 4)
            v = "".join(rng.choice(parts) + rng.choice((".", "::", "->", ":", "-", ""))
                        for _ in range(n)) + rng.choice(parts)
            v += rng.choice(("", "(", "()", "(x", ")", "."))
        elif kind == 1:  # words and a number, whole or not
            v = (rng.choice(letters) + "".join(rng.choice(letters + "_.-")
                                               for _ in range(rng.choice((2, 3, 4, 98, 99, 100))))
                 + "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 8)))
                 + rng.choice(("", "!", "+", "=", "!!", ")", "]", "!)", "x", "1", ":")))
        elif kind == 2:  # Windows variables, code words and name words alone or not
            v = rng.choice(("%A%", "%AB_1%", "%a%", "%_%", "%1A%", "%AB", "%AB%x")) \
                if rng.random() < 0.5 else rng.choice(
                    ("none", "None;", "str|", "n/a", "string?", "Optional", "secretstr",
                     "myTokenHere", "the_password_is", "passwordx", "Passphrase", "tok"))
            v += rng.choice(("", ",", ";", ",;", "x", "1", " "))
        elif kind == 3:  # placeholders at offsets the windows turn on
            word = rng.choice(("xxxx", "XXXX", "xXxX", "******", "######", "......", "______",
                               "------", "00000000", "0000000", "$ABC", "$AB", "$ABCd", "$ABC_",
                               "example", "EXAMPLE", "placeholder", "Redacted", "changeme",
                               "change_me", "dummy", "replaceme", "replace-me", "Replace_Me",
                               "insert_", "insert-", "your_key", "your-own-api-token",
                               "yourapisecret", "your_pass", "youre", "#{x}", "${A}", "{{a}}"))
            pad = rng.choice((0, 1, 5, 100, 294, 295, 296, 299, 300, 301))
            v = "".join(rng.choice(letters + "0123456789") for _ in range(pad)) + word
            v += "".join(rng.choice(letters) for _ in range(rng.choice((0, 1, 3))))
        elif kind == 4:  # digests, UUIDs and the four kinds of bytes
            v = rng.choice(("0123456789abcdefABCDEF0123456789", "0123456789abcdefABCDEF012345678",
                            "0123abcd-12ab-", "0123ABCD-12ab-", "0123abcd-12ab", "aB3$efghij",
                            "aB3efghijk", "ab3$efghij", "AB3$EFGHIJ", "aB3 $efghij"))
        elif kind == 5:  # runs about the windows' length
            n = rng.choice((5, 6, 9, 10, 299, 300, 301, 302))
            v = "".join(rng.choice(letters + "0123456789" + signs) for _ in range(n))
        elif kind == 6:  # leads and brackets
            v = rng.choice(("$", "<", "{", "(", "[", "")) + "".join(
                rng.choice(letters + "0123456789") for _ in range(rng.randint(4, 12)))
            v += rng.choice(("", ")", "]", "}", ".", ":", "x"))
        else:
            v = "".join(rng.choice(letters + "0123456789" + signs + " \t")
                        for _ in range(rng.randint(1, 40)))
        values.append(v)
    return values


def _gate_lines(rng: random.Random, n: int) -> list[bytes]:
    """Operators and values in every way the value gate reads them."""
    values = _gate_values(rng)
    lines = []
    for _ in range(n):
        v = rng.choice(values)
        q = rng.choice(("", "", '"', "'", "`"))
        close = rng.choice((q, q, "", '"'))
        op = rng.choice(("=", ":", ":=", "=>", "?=", "||=", "<-", "==", "|", " | ",
                         "\uff1a", "\uff1d", ": ", "=\t", ":  "))
        key = rng.choice(("password", "api_key", "PASSWORD", "token", "x", ":apiKey", "",
                          "db_password_value", "Secret-Key", "secret-key-base", "api.key",
                          "token_count", "passwd$", '"password"', "pw]", "password**",
                          "auth__key", "AUTH_TOKEN@", "'Pass' ", "my_pass_", "tokens\t",
                          "client_secret_b64", "Authorization", "keybase", "sas"))
        tail = rng.choice(("", ",", ";", " # x", "}", ")", " | x |", " and more"))
        line = f"{key}{op}{q}{v}{close}{tail}"
        if rng.random() < 0.2:
            line = f'{{name: "{key}", value{op}{q}{v}{close}}}'
        lines.append(line.encode(rng.choice(("utf-8", "latin-1")), "replace"))
    return lines


def test_the_compiled_value_gate_holds_every_line_of_the_first_stage() -> None:
    """The rules whose first proof stage reads an operator and a value are gated
    by the compiled module: every line that stage matches is kept (on every
    line of the corpora and on values at the edges of each condition the gate
    reads), most near misses are not, and the proofs find what they found."""
    from council_filters.redaction import native

    gate = getattr(native.compiled(), "value_gate", None)
    if gate is None:
        pytest.skip("the compiled module is not built")
    lines = LINES + _gate_lines(random.Random(28), 40000)
    words = proof._gate_words()
    for rule_id, mode in proof._VALUE_GATED.items():
        rule = builtin.BY_ID[rule_id]
        first, *rest = proof.proof_regexes(rule) or ()
        matched = proof.lines_matching(first, lines)
        # the values alone: every line of the first stage
        kept = {lines[i] for i in gate(lines, mode & 3, *words)}
        assert not matched - kept, sorted(matched - kept)[:10]
        assert len(matched) > 500 and len(kept - matched) < len(lines) - len(kept)
        # with the key before the operator: every line of all the stages
        for rx in rest:
            matched = proof.lines_matching(rx, [ln for ln in lines if ln in matched])
        keyed = {lines[i] for i in gate(lines, mode, *words)}
        assert not matched - keyed, sorted(matched - keyed)[:10]
        assert len(matched) > 100
        if mode & 4:
            assert len(keyed) < len(kept)
    near = [ln.encode() for ln in near_misses.near_miss_lines(seed=4, n=4000)]
    assert len(gate(near, 0, *words)) < len(near) / 2
    with pytest.raises(TypeError):
        gate(["text"], 0, *words)
    for mode in (3, 8):
        with pytest.raises(ValueError):
            gate([b"text"], mode, *words)


def test_the_compiled_value_gate_is_linear() -> None:
    """Operators and values repeated along one line cost the gate in proportion
    to the line (its looks are bounded by the patterns' windows)."""
    import time

    from council_filters.redaction import native

    gate = getattr(native.compiled(), "value_gate", None)
    if gate is None:
        pytest.skip("the compiled module is not built")
    words = proof._gate_words()
    for unit in (b"=", b"=a", b":xxxx", b"=yourkey", b"=$ABCDEFG", b"=a.b", b"|", b"='your",
                 b"token: Ab1$cdefghij ", b" \t*]$=", b"password_key | Zq8(vK2m!pL ",
                 b"pass_" * 3 + b"=Ab1$cdefghij"):
        costs = []
        for n in (20000, 80000):
            line = unit * (n // len(unit))
            t = time.process_time()
            for mode in (4, 5, 6):
                gate([line], mode, *words)
            costs.append(time.process_time() - t)
        assert costs[1] < 8 * costs[0] + 0.05, (unit, costs)
