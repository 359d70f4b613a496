"""The validators of the extended rules: what makes a match a credential.

A validator takes the secret (str) and the match, and says whether it is a
credential: provider tokens need a plausible shape; key/value matches need a
key that names a secret and a value that is not a variable, a template, a code
expression, a type name or prose (token-like keys also need entropy).
"""

from __future__ import annotations

from council_filters.base.memo import lru_cache
from council_filters.redaction.lazy import LazyRegex
from council_filters.redaction.secrets.rules import (
    REFERENCE_WHOLE,
    is_placeholder,
    shannon_entropy,
)

_ASCII_DIGIT = LazyRegex(r"[0-9]")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _has_digit(s: str) -> bool:
    """Whether ``s`` holds a character ``str.isdigit`` accepts (in ASCII: 0-9)."""
    if s.isascii():
        return _ASCII_DIGIT.search(s) is not None
    return any(c.isdigit() for c in s)


def token_shape(secret: str, _m: Any = None) -> bool:
    """A random-looking token: a digit, and not a dictionary word run."""
    return _has_digit(secret) and shannon_entropy(secret) > 2.5


def digit_in(secret: str, _m: Any = None) -> bool:
    return _has_digit(secret)


def stripe_ok(secret: str, _m: Any = None) -> bool:
    return not secret.startswith("pk_") and _has_digit(secret)  # pk_ keys are public


def twilio_ok(secret: str, _m: Any = None) -> bool:
    return _has_digit(secret) and shannon_entropy(secret[2:]) > 3.0


def sas_ok(secret: str, _m: Any = None) -> bool:
    return shannon_entropy(secret) > 3.5


def jwt_shape(secret: str, _m: Any = None) -> bool:
    """The header of a JWT decodes to JSON with an ``alg`` (or ``typ``) member."""
    import base64

    head = secret.split(".", 1)[0]
    try:
        raw = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4))
    except ValueError:
        return False
    return b'"alg"' in raw or b'"typ"' in raw or b"'alg'" in raw


#: Key words (lower case) that name a secret in a key/value pair, and the
#: minimum length and entropy of the value each kind needs.
_PASSWORD_WORDS = ("password", "passwd", "passphrase", "passcode", "pass", "pwd", "pw")
_SECRET_WORDS = (
    "secret",
    "token",
    "apikey",
    "api_key",
    "api-key",
    "accesskey",
    "access_key",
    "access-key",
    "secretkey",
    "secret_key",
    "privatekey",
    "private_key",
    "authkey",
    "auth_key",
    "authtoken",
    "auth_token",
    "credential",
    "credentials",
    "auth",
    "clientsecret",
    "client_secret",
    "sessionkey",
    "session_key",
    "signingkey",
    "signing_key",
    "encryptionkey",
    "encryption_key",
    "masterkey",
    "master_key",
    "sas",
    "connectionstring",
    "connection_string",
    "authorization",
)
PASSWORD_WORDS, SECRET_WORDS = _PASSWORD_WORDS, _SECRET_WORDS

#: What may follow the key word inside the key and still name the secret
#: (``DB_PASSWORD``, ``api_key_value``, ``tokens``); anything else
#: (``token_count``, ``password_min_length``, ``secret_name``) does not.
_KEY_SUFFIXES = (
    "",
    "s",
    "_value",
    "value",
    "_str",
    "_string",
    "_b64",
    "_base64",
    "_key",
    "key",
    "_token",
    "token",
    "_secret",
    "_plain",
    "_text",
    "_base",
    "_key_base",
    "key_base",
    "keybase",
)
KEY_SUFFIXES = _KEY_SUFFIXES
_CODE_WORDS = frozenset(
    [
        "none",
        "null",
        "nil",
        "true",
        "false",
        "undefined",
        "required",
        "optional",
        "str",
        "string",
        "int",
        "bool",
        "bytes",
        "any",
        "object",
        "secret",
        "secrets",
        "password",
        "passwords",
        "token",
        "tokens",
        "auth",
        "string?",
        "env",
        "var",
        "default",
        "missing",
        "empty",
        "unset",
        "hidden",
        "masked",
        "redacted",
        "omitted",
        "todo",
        "tbd",
        "n/a",
        "na",
        "secretstr",
        "sensitive",
        "str|",
        "boolean",
        "number",
        "list",
        "dict",
        "map",
        "array",
        "type",
    ]
)
CODE_WORDS = _CODE_WORDS
_ROW_START = LazyRegex(rb"[ \t>+-]*\|")
_TYPE_NAME = LazyRegex(r"(?:[A-Z]{1,6}[0-9]?)?(?:[A-Z][a-z]{2,}){1,6}[A-Z]{0,4}\Z")
_WIN_VAR = LazyRegex(r"%[A-Z_][A-Z0-9_]*%\Z")
_IDENT = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_DOTTED = LazyRegex(r"[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+(?:\(\)?)?\Z")
_PATH = LazyRegex(r"(?:~|[A-Za-z]:)?[/\\][\w.-]+(?:[/\\][\w.-]*)+\Z")
_RELATIVE_PATH = LazyRegex(r"\.{1,2}[/\\][\w.-]+(?:[/\\][\w.-]+)*\Z")  # ./pw.txt, ../secrets/db
_CAMEL = LazyRegex(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+\Z")


#: A word glued before a key word that makes one name of both (``Apitoken``,
#: ``accesstoken``, ``Clientsecret``, ``rootpassword``).
_GLUED = LazyRegex(
    r"(?:^|[_.\-])(?:api|access|auth|bot|refresh|session|client|app|private|master|admin"
    r"|root|db|user|webhook|jwt|signing|shared|service)\Z"
)
#: An acronym before a capitalised key word (``AWSSecretKey``, ``APIToken``).
_ACRONYM_END = LazyRegex(r"[A-Z]{3}[a-z]\Z")
#: What may follow the short words "pass" and "pw" in a key.
_SHORT_OK = ("", "s", "_value", "value", "_str", "_string", "_plain", "_text")


@lru_cache(maxsize=4096)
def _key_kind(key: str) -> str | None:
    """``"password"``, ``"secret"`` or None for a key that names no secret.

    The key word must sit at a boundary of the key: its start, after
    ``_``/``-``/``.``/a space, at a lower-to-upper case change, or anywhere in
    an all-upper key (``PGPASSWORD``); and only a known suffix may follow it.
    """
    k = key.strip("\"'`[]{}<> \t$@:*")
    if not k or len(k) > 80:
        return None
    low = k.lower()
    last = k.rsplit(".", 1)[-1]  # (process.env.APITOKEN: the name after the dots)
    upper_key = k.upper() == k or (last.upper() == last and any(c.isalpha() for c in last))
    for kind, words in (("password", _PASSWORD_WORDS), ("secret", _SECRET_WORDS)):
        for w in words:
            start = low.rfind(w)
            while start >= 0:
                rest = low[start + len(w) :].replace("-", "_")  # (X-Secret-Key-Base)
                suffix_ok = rest in _KEY_SUFFIXES or rest.lstrip("_-.") in _KEY_SUFFIXES
                boundary = (
                    start == 0
                    or low[start - 1] in "_-. /"
                    or upper_key
                    or _GLUED.search(low, 0, start) is not None
                    or (k[start].isupper() and k[start - 1].islower())
                    or (kind == "password" and len(w) >= 6 and k[start - 1].isalpha())
                    or (start >= 2 and _ACRONYM_END.match(k[start - 2 : start + 2]) is not None)
                )
                if suffix_ok and boundary:
                    if kind == "password" and w in ("pass", "pw") and rest not in _SHORT_OK:
                        break  # "passthrough", "pw_hash": not a password
                    return kind
                start = low.rfind(w, 0, start)
    return None


#: A value that says where the secret is kept, not the secret: a SOPS
#: ciphertext, a vault, secret-manager or 1Password reference, a CloudFormation
#: tag, a file URL, an ARN, a Spring ``@Value``, a Kubernetes ``secretKeyRef``,
#: a Terraform reference (``var.db_password``).
_REFERENCE = LazyRegex(
    r"(?:ENC\[[A-Z0-9_]+,|(?i:vault|op|awssm|awsssm|gcpsm|azurekv|sm|ref\+[a-z]+|secretsmanager"
    r"|ssm|keyvault|env):(?://)?[A-Za-z]|![A-Z][A-Za-z]+(?:::[A-Za-z]+)?\s|file://|arn:aws[a-z-]*:"
    r"|@Value\(|(?:secretKeyRef|valueFrom)[;,]?\Z|(?:var|local|data|module)\.[a-z_][\w.]*\Z)"
)


# The full-width colon and equals sign (UTF-8, read as latin-1) as the ASCII ones.
_FULL_WIDTH_OPS = {"\xef\xbc\x9a": ":", "\xef\xbc\x9d": "="}
_FOLLOW_OK = LazyRegex(r"[ \t]*(?:\Z|[,;&)\]}|\"'`]|#|//|/\*|<!--|--\s|\\[nr]|[A-Za-z_][\w.-]*=)")
_SCHEME = LazyRegex(r"(?i)(?:basic|bearer|token|digest|apikey|key)\s+(?=\S)")


def assignment_ok(secret: str, m: Any) -> bool:
    """The value of a ``key = value`` pair is a literal credential."""
    key = m.group("key").decode("latin-1")
    kind = _key_kind(key)
    if kind is None:
        return False
    op = m.group("op").decode("latin-1")
    op = _FULL_WIDTH_OPS.get(op, op)  # a full-width colon reads as a colon
    quoted = m.group("q") is not None and m.group("q") != b""
    env_key = key.strip("\"'`[]{}<> \t$@:*")
    env_style = env_key.upper() == env_key and any(c.isalpha() for c in env_key)
    value = secret
    scheme = _SCHEME.match(value)
    if scheme and quoted:
        value = value[scheme.end() :]  # "Basic dXNl...", "Bearer abc..."
        kind = "password"
    low = value.lower()
    if _REFERENCE.match(value):
        return False  # ENC[...], vault:..., !Ref X, file:///..., @Value(...): where it is kept
    stripped = _unclosed_closer(value)
    if (drawn_value(value) or (stripped != value and drawn_value(stripped))) and (
        op != "|" or _ROW_START.match(m.string) is not None
    ):
        return True  # signs drawn at random, words and a number, a digest: whatever follows
    if (
        value[:1] in "$<{"
        or templated(value)
        or "#{" in value
        or (_WIN_VAR.match(value))
    ):
        return False  # $VAR, ${VAR}, <placeholder>, {{ template }}, %VAR%
    if not quoted and not env_style and value[:1] in "@&*[(" and (
        value[:1] in "[(" or (_IDENT.match(value[1:].rstrip(",;")) and not _has_digit(value))
    ):
        return False  # @instance_var, *pointer, [index], (expression)
    if low in _CODE_WORDS or low.rstrip(",;") in _CODE_WORDS:
        return False
    if not quoted:
        tail = m.string[m.end() : m.end() + 64].decode("latin-1")  # bounded: linear lines
        if (op in (":", "|") and not env_style and not _FOLLOW_OK.match(tail)
                and not _chosen(value)):
            return False  # a sentence or an expression goes on after the "value"
        if any(c in value for c in "()[]{}") or value.endswith((".", ":")):
            return False  # calls, indexing, literals: code
        if not env_style and _TYPE_NAME.match(value):
            return False  # an annotation: password: SecretStr, key: PKCS7PrivateKeyTypes
        if _DOTTED.match(value) and not _random_part(value):
            return False  # self.password, os.environ.get, args.token
        bare = key.strip("\"'`[]{}<> \t$@:*").lower()
        if _IDENT.match(value):
            vlow = value.lower()
            if (
                vlow in bare
                or not _has_digit(value)
                and any(w in vlow for w in _PASSWORD_WORDS + _SECRET_WORDS if len(w) >= 4)
            ):
                return False  # password=password, token=self_token, secret=SECRET_NAME
            if not (env_style or op in (":", "|")) and not _has_digit(value):
                return False  # f(password=pw), auth=basic_auth
            if _CAMEL.match(value) and not _has_digit(value):
                return False
    if (
        quoted
        and not _has_digit(value)
        and _IDENT.match(value)
        and any(w in low for w in _PASSWORD_WORDS + _SECRET_WORDS if len(w) >= 4)
    ):
        return False  # "challengePassword", "api_token": a field name, not a value
    if op == "|" and _ROW_START.match(m.string) is None:
        return False  # a table row starts with a bar; "a|b|c" in code does not
    if kind == "password":
        if ((_PATH.match(value) or _RELATIVE_PATH.match(value))
                and not _random_part(_SLASHES.sub(".", value))):
            return False  # PWD=/home/app, OLDPWD: a directory, not a password
        if len(value) < 6 or len(set(value)) < 4:
            return False
        if value.isdigit() and len(value) < 8:
            return False
        return not is_placeholder(value)
    # token-like keys: long, random-looking values only (or shorter ones that
    # mix letters of both cases, digits and signs, as a chosen secret does)
    if len(value) < 8 or is_placeholder(value):
        return False
    if _human(value):
        return True  # a person's password under a token key: Summer2024#
    if len(value) < 12:
        if " " in value or len(set(value)) < 6:
            return False
        return _classes(value) == 4 or _drawn_short(value)
    if value.isalpha() and (value.islower() or value.isupper()):
        return False  # a word
    if " " in value.strip():
        return False
    return shannon_entropy(value) > 3.0 and (
        _has_digit(value) or sum(c.isupper() for c in value) >= 2
    )


def enclosed_ok(secret: str, m: Any) -> bool:
    """An enclosed pair's value as an assignment's, where the braces are no
    shell expansion's: ``${DB_PASSWORD:?missing}`` gives the message printed
    when the variable is unset, not a value."""
    at = m.start()
    if (m.string[at : at + 1] == b"{" and m.string[at - 1 : at] == b"$"
            and m.group("op").strip(b" \t") == b":" and secret.startswith("?")):
        return False
    return assignment_ok(secret, m)


def _drawn_short(value: str) -> bool:
    """Eight to eleven letters and digits drawn at random (``i1MfOkkz``,
    ``H3duTsx7s2``): both cases, a digit, two changes of case, and not the
    shape of a name (``getToken2``, ``MyService1``, ``HTTPClient2``)."""
    if _classes(value) != 3 or not _has_digit(value):
        return False
    core = value.rstrip("0123456789")
    if _has_digit(core):  # digits inside the letters: drawn, not a name
        return case_changes(value) >= 1
    return case_changes(value) >= 2 and not (
        _CAMEL.match(core) or _TYPE_NAME.match(core) or _TITLE_WORDS.match(core)
    )


#: Words in title case run together, digits after (``AppVersion``, ``MyApp``).
_TITLE_WORDS = LazyRegex(r"(?:[A-Z]?[a-z]+|[A-Z]+)(?:[A-Z][a-z]+)*\Z")


#: Words joined (by - _ . or a change of case, or run together) and a number
#: after them, a sign maybe last: how people make passwords (``Harbor.cobalt816``,
#: ``pepper_Zephyr94$``, ``NimbusNimbus229``).  The
#: letters ``l`` (two to four words, each ``[A-Z]?[a-z]{2,23}`` or
#: ``[A-Z]{3,24}``, one of ``-_.`` at most between two), then 1-6 digits and
#: one sign at most.  The tail is matched here; whether the letters split into
#: such words is decided by :func:`_splits_into_words` in one pass over their
#: runs (a regex of the words backtracks through every split of a long run of
#: letters that fails at its end: milliseconds a value).
_WORDS_NUMBER = LazyRegex(
    r"(?P<l>[A-Za-z._-]{4,99})(?P<n>[0-9]{1,6})(?P<sign>[!#$%&*?@^~+=]?)\Z"
)
_RUNS = LazyRegex(r"[A-Z]+|[a-z]+")


def _counts(low: int, high: int, size: int) -> range:
    """How many pieces of ``low``..``high`` letters make ``size`` letters."""
    if size == 0:
        return range(0, 1)
    return range(-(-size // high), size // low + 1)


def _chunks(letters: str) -> list[str]:
    """``letters`` cut at each ``-``, ``_`` or ``.`` (an empty part: a sign at an end,
    or two together)."""
    return letters.replace("-", ".").replace("_", ".").split(".")


def _splits_into_words(letters: str) -> bool:
    """``letters`` is two to four words (``[A-Z]?[a-z]{2,23}`` or
    ``[A-Z]{3,24}``) with one of ``-_.`` at most between two."""
    totals = {0}
    for chunk in _chunks(letters):
        if not chunk or not chunk.isalpha():
            return False  # a sign at an end, or two together
        runs = _RUNS.findall(chunk)
        i = 0
        while i < len(runs) and totals:
            run = runs[i]
            lower = run.islower()
            nxt = runs[i + 1] if i + 1 < len(runs) else None
            if lower:  # lower case with no capital before it
                options = set(_counts(2, 23, len(run)))
                i += 1
            elif nxt is None:  # capitals that end the chunk
                options = set(_counts(3, 24, len(run))) - {0}
                i += 1
            else:  # capitals, then lower case: the last capital may lead a word
                words = set(_counts(2, 23, len(nxt))) - {0}
                shorter = len(run) - 1
                led = {0} if shorter == 0 else set(_counts(3, 24, shorter)) - {0}
                alone = set(_counts(3, 24, len(run))) - {0}
                options = {a + w for a in led | alone for w in words}
                i += 2
            totals = {t + o for t in totals for o in options if t + o <= 4}
        if not totals:
            return False
    return bool(totals & {2, 3, 4})


#: What code reads a value from (``self.x``, ``args.x``, ``cfg.x``): a
#: receiver or a short lower-case name, and a dot.
_RECEIVER = LazyRegex(
    r"(?:self|this|args|argv|settings|config|conf|cfg|opts|options|params|env|environ|os"
    r"|process|ctx|context|request|req|res|response|app|props|vars|data|obj|secrets|values"
    r"|local|var|module|user|[a-z]{1,4})\.",
)
#: Bit and byte widths, which end names of types and digests (``np.float64``,
#: ``hashlib.sha256``), not passwords.
_WIDTHS = frozenset(("8", "16", "32", "64", "128", "160", "224", "256", "384", "512", "1024",
                     "2048", "4096"))
_LONG_HEX = LazyRegex(r"(?=[0-9a-f-]*[a-f])(?=[0-9a-f-]*[0-9])(?:[0-9a-f]{32,}|[0-9a-f]{8}"
                      r"(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})\Z|(?=[0-9A-F]*[A-F])(?=[0-9A-F]*[0-9])"
                      r"[0-9A-F]{32,}\Z")
_OPENS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _paired(value: str) -> bool:
    """Every bracket of ``value`` closes one opened before it, and one pair at
    least: code or a template (``f(x)[0]``), not a drawn run of signs."""
    stack: list[str] = []
    pairs = 0
    for c in value:
        if c in "([{<":
            stack.append(c)
        elif c in _OPENS:
            if not stack or stack.pop() != _OPENS[c]:
                return False
            pairs += 1
    return not stack and pairs > 0


def drawn_value(value: str, bracket_led_ok: bool = False) -> bool:
    """A value that reads as a credential whatever holds it, once a key names a
    secret: a run of signs mixed with letters of both cases and digits
    (``A[o]Hl]8$G:*[O)A[``, ``{?C(;)<9-b-?+``: a quarter of it signs, three
    kinds at least, brackets that do not pair up as code's do), words and a
    number as people make passwords (``Harbor.cobalt816$``; not a type's
    width, ``torch.float16``), or a long hex digest or a UUID.  Never a
    variable, a template, a URL or a placeholder, nor led by ``$``, ``<`` or
    ``{`` (secret-sign-led-value reads those); with ``bracket_led_ok``, a
    value led by ``<`` or ``{`` that is such a run of signs (``{:!q3h?x#PK8@``)."""
    n = len(value)
    # (how variables and placeholders start: the sign-led rule reads $; a
    # value led by < or { is taken only as a run of signs, below)
    bracket_led = value[:1] in "<{"
    if n < 10 or value[:1] == "$" or (bracket_led and not bracket_led_ok) or " " in value \
            or not value.isascii():
        return False
    if not value.isprintable():
        return False
    if _LONG_HEX.match(value):
        return True
    words = _WORDS_NUMBER.match(value)
    if words is not None and not _splits_into_words(words.group("l")):
        words = None
    if words is None and not _four_classes(value):
        return False  # (most values stop here: the checks below cost more)
    if templated(value) or _REFERENCE.match(value) or "://" in value:
        return False
    low = value.lower()
    if any(w in low for w in ("example", "placeholder", "changeme", "redacted", "your")):
        return False
    if words is not None and not bracket_led:
        if not words.group("sign") and (
            len(words.group("n")) < 2 or words.group("n") in _WIDTHS
        ):
            return False
        if _RECEIVER.match(value) or is_placeholder(value):
            return False  # self.token42, settings.KEY2, dummy-ab12: code, a sample
        return not any(w in low for w in _PASSWORD_WORDS + _SECRET_WORDS if len(w) >= 4)
    if _NOT_DRAWN.search(value) or _SHELL_VAR.match(value):
        return False
    signs = [c for c in value if not c.isalnum()]
    if len(signs) * 4 >= n and len(set(signs)) >= 3:
        return not _paired(value)
    if bracket_led:
        return False  # <T>, {name}: a run of signs alone is drawn there
    # fewer signs: letters that change case twice, a digit with a letter after
    # it, and no bracket that closes one opened before it, no path of code
    # (``QtN7lsE)vfN3``, ``3XOzhB(g]AwRtUI]g``; not ``Foo::Bar2Baz``, ``f(x2Y)``)
    return (case_changes(value) >= 2 and _DIGIT_THEN_LETTER.search(value) is not None
            and not _closes_a_pair(value) and _CODE_PATH.search(value) is None
            and not any(w in low for w in _PASSWORD_WORDS + _SECRET_WORDS if len(w) >= 4))


_DIGIT_THEN_LETTER = LazyRegex(r"[0-9][^\s]*[A-Za-z]")
#: What code's names are joined by, and an address (``a::b``, ``a->b``, ``u@host.com``).
_CODE_PATH = LazyRegex(r"::|->|=>|@[A-Za-z0-9-]+\.[A-Za-z]{2,}\Z")


def _four_classes(value: str) -> bool:
    """An ASCII ``value`` mixes lower and upper case, digits and signs (_classes, faster)."""
    return (value != value.upper() and value != value.lower() and not value.isalnum()
            and _ASCII_DIGIT.search(value) is not None)


def _unclosed_closer(value: str) -> str:
    """``value`` without a last bracket that closes nothing in it: the end of a
    parenthesis or a brace around the pair (``(url=..., password=VALUE)``)."""
    if value[-1:] in (")", "]", "}") and _OPENS[value[-1]] not in value:
        return value[:-1]
    return value


def _closes_a_pair(value: str) -> bool:
    """Whether a bracket of ``value`` closes the last one opened before it
    (``f(x)``, ``a[0]``, ``<T>``): code's pairs, not a drawn bracket alone.
    A ``<`` that another closer comes to first is a comparison or a sign, not
    an opener (``(a<b)`` pairs its parentheses; ``P<)k9>Q`` pairs nothing)."""
    stack: list[str] = []
    for c in value:
        if c in "([{<":
            stack.append(c)
        elif c in _OPENS:
            while c != ">" and stack[-1:] == ["<"]:
                stack.pop()
            if stack and stack[-1] == _OPENS[c]:
                return True
    return False


#: What no drawn run of signs holds: a placeholder's bracketed word
#: (``<token>``, ``{password}``), a run of one mask sign (``****``), escapes
#: of a URL (``%2A%2A``: the value is encoded, its own rules read it) or the
#: next pair of a query (``&limit=50``).
_NOT_DRAWN = LazyRegex(
    r"<[A-Za-z][A-Za-z0-9 _.-]{2,80}>|\{[A-Za-z][A-Za-z0-9 _.-]{2,80}\}"
    r"|\[[A-Za-z][A-Za-z0-9 _.-]{2,80}\]|([*.#x_-])\1{3,}|%[0-9A-Fa-f]{2}.*%[0-9A-Fa-f]{2}"
    r"|(?<=[A-Za-z0-9])&[A-Za-z_][A-Za-z0-9_.-]+="
)


def _chosen(value: str) -> bool:
    """A value no prose word is: eight bytes mixing letters of both cases and
    digits, or a password as people make them (``river-velvet414!``)."""
    return (
        len(value) >= 8 and _classes(value) >= 3 and _has_digit(value) and case_changes(value) >= 2
    ) or _human(value)


#: A password as people make them: words (joined by - _ . or not), two digits
#: and more, a sign to end (``Falcon.copper6284!``, ``Summer2024#``): one to
#: four words, the first of 3-24 letters, the others of 2-24, one of ``-_.`` at
#: most between two.  The tail is matched here, the words are counted by
#: :func:`_human` (a regex of the words backtracks through every split of a
#: long run of letters that fails at its end).
_HUMAN_TAIL = LazyRegex(r"(?P<l>[A-Za-z._-]{3,99})[0-9]{2,8}[!#$%&*?@^~+=]\Z")


def _human(value: str) -> bool:
    """``value`` is a password as people make them (see ``_HUMAN_TAIL``)."""
    m = _HUMAN_TAIL.match(value)
    if m is None:
        return False
    fewest = 0
    for i, chunk in enumerate(_chunks(m.group("l"))):
        if len(chunk) < (3 if i == 0 else 2):
            return False  # a sign at an end, two together, or a word too short
        fewest += -(-len(chunk) // 24)
    return fewest <= 4


#: A value shaped as code: a name opening a call or an index that closes, or
#: one wrapped whole.
_CODE_SHAPE = LazyRegex(r"[A-Za-z_][\w.$]*[(\[].*[)\]]|\$[A-Za-z_{(]|[(\[{].*[)\]}]\Z")
#: The signs that make secret-assignment read a value as code or a variable.
_CODE_SIGNS = frozenset("()[]{}<>$*@&")


def scrambled_ok(secret: str, m: Any) -> bool:
    """A value secret-assignment reads as code or a variable for a bracket or a
    sign in it (``ewZO8Y<(3.P6bka``, ``$79(!Sx9PcnW``), that reads as random:
    ten bytes and more, no blank, all four classes, two changes of case, and
    no code shape or template."""
    if not _CODE_SIGNS.intersection(secret) or _key_kind(m.group("key").decode("latin-1")) is None:
        return False
    if drawn_value(secret, bracket_led_ok=True):
        return True
    if (len(secret) < 10 or any(c.isspace() for c in secret) or _classes(secret) < 4
            or case_changes(secret) < 2 or _CODE_SHAPE.match(secret)):
        return False
    return not templated(secret) and not is_placeholder(secret)


def cut_value_ok(secret: str, m: Any) -> bool:
    """A value that holds a sign that ends an unquoted value elsewhere
    (``, ; |``: ``PASSWD=P-,qbx4W=0Zyf``), read whole: a key naming a secret,
    and a drawn value (ten bytes, all four classes, two changes of case)."""
    inner = secret.rstrip(",;|")  # (a separator after the value is not in it)
    if not any(c in ",;|" for c in inner) or _key_kind(m.group("key").decode("latin-1")) is None:
        return False
    if m.group("op") == b"|" and _ROW_START.match(m.string) is None:
        return False  # a table row starts with a bar; "key | a;b" in code does not
    if drawn_value(inner):
        return True
    if len(secret) < 10 or _classes(secret) < 4 or case_changes(secret) < 2:
        return False
    if _CODE_SHAPE.match(secret) or ", " in secret:
        return False
    parts = inner.replace(";", ",").replace("|", ",").split(",")
    if all(_IDENT.match(p) for p in parts):
        return False  # a list of names (Settings,Config1), a pipe of words
    return not templated(secret) and not is_placeholder(secret)


def _classes(value: str) -> int:
    """How many of lower case, upper case, digits and other signs ``value`` mixes."""
    return (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + any(not c.isalnum() for c in value)
    )


def _random_part(value: str) -> bool:
    """A part of a dotted value reads as random, not as a name: digits, both
    cases and at least five changes of case (``hzCu.eQpBenQtYh5X``)."""
    for part in _PARTS.split(value):
        if len(part) >= 6 and _has_digit(part) and case_changes(part) >= 5:
            return True
    return False


def case_changes(s: str) -> int:
    """How often the letters of ``s`` change between upper and lower case."""
    letters = [c.isupper() for c in s if c.isalpha()]
    return sum(a != b for a, b in zip(letters, letters[1:], strict=False))


_PARTS = LazyRegex(r"\.|::|->")
_SLASHES = LazyRegex(r"[/\\]")


def _plain_word(value: str) -> bool:
    """A word or a snake/kebab run of words with no digit: prose, not a secret."""
    core = value.strip(".,;:!?")
    if _has_digit(core):
        return False
    words = [w for w in core.replace("-", "_").split("_") if w]
    return bool(words) and all(
        w.isalpha() and (w.islower() or w.isupper() or w.istitle()) for w in words
    )


#: What marks an unquoted value apart by blanks as no word: a digit, a sign, a
#: byte beyond ASCII, or a lower-case letter before an upper-case one (the
#: rule's search asks the same).
_MARKED = LazyRegex(r"[^ \t\n\"'`$<{][^ \t\n\"'`]*(?:[0-9!#%^*+~@&$\x80-\xff]|[a-z][A-Z])")


def spaced_pair_ok(secret: str, m: Any) -> bool:
    """``KEY value`` on a line of its own: an assignment's value that is not a word."""
    quoted = m.group("q") is not None and m.group("q") != b""
    if not quoted and (not _MARKED.match(secret) or not _SPACED_SEEN.match(secret)):
        return False
    return not _plain_word(secret) and assignment_ok(secret, m)


_DIGIT_LIKE = LazyRegex(r"[0-9\x80-\xff]")  # (what the rule's search asks of the value)


def said_ok(secret: str, m: Any) -> bool:
    """Prose giving a value (``the password is ...``): quoted, or letters and digits."""
    quoted = m.group("q") is not None and m.group("q") != b""
    if not quoted and not (_DIGIT_LIKE.search(secret) and any(c.isalpha() for c in secret)):
        return False
    if not quoted and _SAID_SEEN.match(secret) is None:
        return False  # a bracket before the first digit: code (the rule's search asks so)
    return not _plain_word(secret) and assignment_ok(secret, m)


#: What the searches of secret-said and secret-spaced-pair ask of an unquoted
#: value (builtin._KEY_APART): no bracket before a digit (said), or before a
#: digit, a sign or a change of case (apart by blanks).
_SAID_SEEN = LazyRegex(r"[^\s\"'`()\[\]{}]*[0-9\x80-\xff]")
_SPACED_SEEN = LazyRegex(
    r"[^\s\"'`$<{()\[\]}][^\s\"'`()\[\]{}]*(?:[0-9!#%^*+~@&$\x80-\xff]|[a-z][A-Z])"
)


def url_encoded_ok(secret: str, m: Any) -> bool:
    """The value of ``password%3D...`` (or ``%253D``, encoded twice), judged as
    the value it encodes."""
    twice = m.group("op").startswith(b"%25")
    return assignment_ok(unquote(unquote(secret)) if twice else unquote(secret), m)


def pair_argument_ok(secret: str, m: Any) -> bool:
    """``("PASSWORD", "value")`` as arguments: a value that is no word, and no
    name either (``("tokens", "symbol2label")``, ``("pw", "SECRET_TOKEN_B64")``)."""
    if not _MARKED.match(secret) or _plain_word(secret):
        return False
    low = secret.lower()
    if any(w in low for w in _PASSWORD_WORDS + _SECRET_WORDS if len(w) >= 6) and (
        _IDENT.match(secret) or not _has_digit(secret)
    ):
        return False  # a field name, or words about a password
    if _IDENT.match(secret) and _classes(secret) < 3 and not (
        len(secret) >= 16 and shannon_entropy(secret) > 3.3
    ):
        return False  # an identifier
    return assignment_ok(secret, m)


#: Schemes whose user part alone is a password (``redis://PASSWORD@host``).
_PASSWORD_USER_SCHEMES = LazyRegex(r"(?i)(?:redis|rediss|valkey|valkeys|unix)(?:\+[a-z]+)?\Z")


def url_token_ok(secret: str, m: Any) -> bool:
    """``scheme://TOKEN@host``: a user part that reads as a token, not a name
    (twelve bytes; eight for the Redis schemes, where it is the password)."""
    least = 8 if _PASSWORD_USER_SCHEMES.match(m.group(1).decode("latin-1")) else 12
    if len(secret) < least or is_placeholder(secret) or not _has_digit(secret):
        return False
    if shannon_entropy(secret) <= 3.0 and len(secret) >= 12:
        return False
    hex_run = len(secret) >= 24 and all(c in "0123456789abcdefABCDEF" for c in secret)
    return hex_run or (_classes(secret) >= 3 and case_changes(secret) >= 3)


_HOST_PORT = LazyRegex(r"[A-Za-z0-9.-]*:[0-9]{1,5}(?:[/?#]|\Z)")
_URL_SIGNS = frozenset("!#$%&()*+,/;<=>?@[]^{|}~")


def redis_userinfo_ok(secret: str, m: Any = None) -> bool:
    """The user part of a Redis URL (``redis://PASSWORD@host``, or
    ``user:PASSWORD``), raw signs and all: a password, not a name, a
    variable, a placeholder or a host and port."""
    if _HOST_PORT.match(secret) or ("@" in secret and _HOST_PORT.match(secret.rsplit("@", 1)[1])):
        return False  # redis://host:6379/0#ops@example.com, u@host:6379/0#x@y: no user part
    password = secret.split(":", 1)[1] if ":" in secret else secret
    if len(password) < 8 or not _has_digit(password) or not url_password_ok(password, m):
        return False
    if "$(" in password or password.lower().startswith("%2") or _LED_BY_VARIABLE.match(password):
        return False
    if any(c in _URL_SIGNS for c in password):
        return _classes(password) >= 3
    return url_token_ok(password, m) or (len(password) >= 10 and _classes(password) >= 3
                                         and case_changes(password) >= 2) or _drawn_short(password)


def encoded_redis_user_ok(secret: str, m: Any) -> bool:
    """The user part of a Redis URL encoded once or twice (its password), judged decoded."""
    return redis_userinfo_ok(unquote(unquote(secret)), m)


def encoded_url_password_ok(secret: str, m: Any) -> bool:
    """The password of a URL encoded once or twice, judged decoded."""
    return url_password_ok(unquote(unquote(secret)), m)


def long_value_ok(secret: str, m: Any) -> bool:
    """A long token under a key that names a secret, whatever wraps it."""
    if _key_kind(m.group("key").decode("latin-1")) is None:
        return False
    core = secret.replace("\\/", "/")
    return (
        _has_digit(core)
        and _classes(core) >= 3
        and case_changes(core) >= 8
        and shannon_entropy(core) > 4.0
        and not is_placeholder(core)
    )


#: A template or a variable as written in configuration and code, closed
#: (``${NAME}``, ``{{ x }}``, ``#{x}``, ``<%= x %>``, ``$(cmd)``, ``%(name)s``):
#: an opener alone inside a drawn password (``r7j.]],cO${R)[YE``) is one of its signs.
_TEMPLATE = LazyRegex(
    REFERENCE_WHOLE + r"|#\{[^{}]{0,200}\}|<%.{0,200}?%>|\$\([^()]{0,200}\)"
)


def templated(value: str) -> bool:
    """Whether ``value`` holds a closed template or variable (see ``_TEMPLATE``)."""
    return _TEMPLATE.search(value) is not None


#: How a base64 run starts when it encodes a file format or a public key, not
#: a drawn token: PNG, JPEG, GIF, PDF, gzip, zip, RIFF (WebP, WAV), BMP, Ogg,
#: MP3, WebM, WOFF and WOFF2, TrueType, an SSH public key or a length-prefixed
#: blob (``AAAA``), DER certificates and keys (``MII``, ``MI``), protobuf text.
_FILE_MAGIC = (
    "iVBOR", "/9j/", "R0lGOD", "JVBER", "H4sI", "UEsDB", "UEsFB", "UklGR", "Qk", "T2dnU",
    "SUQz", "//u", "//s", "GkXf", "d09G", "AAEAAA", "AAAA", "MI", "eNp", "KLUv", "N3q8",
    "AGFzbQ", "f0VMR", "TVqQ", "yv66", "PD94", "PHN2", "PCFET",
)


def bare_token_ok(secret: str, m: Any = None) -> bool:
    """A long base64 run with no key and no known preamble that reads as a
    drawn token (an STS session token's body): both cases and digits spread
    over it, many changes of case, near six bits of entropy per character,
    and neither a file format's or a key's start nor text once decoded."""
    core = secret.rstrip("=")
    n = len(core)
    if n < 128 or core.startswith(_FILE_MAGIC):
        return False
    if m is not None and m.string[max(0, m.start(1) - 7) : m.start(1)] in (b"base64,", "base64,"):
        return False  # a data: URL's content (an image, a font, a file)
    upper = sum(c.isupper() for c in core)
    lower = sum(c.islower() for c in core)
    digits = sum(c.isdigit() for c in core)
    if min(upper, lower) < n // 6 or digits < n // 40 or case_changes(core) < n // 6:
        return False
    if shannon_entropy(core) < 5.2:
        return False
    import base64

    head = core[:128]
    try:
        raw = base64.b64decode(head + "=" * (-len(head) % 4))
    except ValueError:
        return False
    printable = sum(32 <= b < 127 or b in (9, 10, 13) for b in raw)
    return printable < len(raw) * 3 // 4  # (text in base64, an env file or JSON, is not)


_ASCII_RUN = LazyRegex(r"[\x00-\x7f]+")
_ESCAPE = LazyRegex(rb"%([0-9A-Fa-f]{2})")


def unquote(text: str) -> str:
    """``urllib.parse.unquote`` (UTF-8, bad bytes replaced), without importing
    ``urllib.parse`` (2 ms, with ``ipaddress``): each run of ASCII characters
    has its ``%XX`` escapes decoded, other characters stay."""
    if "%" not in text:
        return text
    decoded: str = _ASCII_RUN.sub(_unquoted_run, text)
    return decoded


def _unquoted_run(run: Any) -> str:
    raw: bytes = _ESCAPE.sub(_escaped_byte, run.group().encode("ascii"))
    return raw.decode("utf-8", "replace")


def _escaped_byte(m: Any) -> bytes:
    return bytes((int(m.group(1), 16),))


_NETWORK_ONLY = LazyRegex(r"[0-9.:/\[\]-]+\Z")


def login_password_ok(secret: str, m: Any = None) -> bool:
    """``-u user -p X``: X is a password, not a port or an address."""
    return not _NETWORK_ONLY.match(secret) and flag_ok(secret, m)


_URL_PLACEHOLDERS = frozenset(
    [
        "password",
        "pass",
        "passwd",
        "pwd",
        "secret",
        "token",
        "pw",
        "p",
        "changeme",
        "x",
        "xx",
        "xxx",
        "user",
        "username",
        "login",
        "redacted",
        "hidden",
        "mask",
        "masked",
    ]
)


#: How a variable, a placeholder or a list starts a URL's password: ``$NAME``,
#: ``${``, ``$(``, ``<...>``, ``{...}``, ``[...]`` (closed); ``$2K[Od``,
#: ``<dgH84p5D#NOz`` are drawn passwords that start with a sign.
_LED_BY_VARIABLE = LazyRegex(r"\$[A-Za-z_{(]|<[^<>]*>|\{[^{}]*\}|\[[^\[\]]*\]")


def url_password_ok(secret: str, m: Any) -> bool:
    low = secret.lower()
    if low in _URL_PLACEHOLDERS or low.strip("*x.") == "":
        return False
    if _LED_BY_VARIABLE.match(secret) or secret[:2] in ("%(", "%{") or templated(secret):
        return False
    return not (secret.startswith(":") or is_placeholder(secret))


#: ``@`` and a name or a path: a file the tool reads the value from
#: (``--password @/run/secrets/pw``); ``@^bCF...`` is a drawn value's sign.
_FILE_REF = LazyRegex(r"@(?:[\w./~-]|\Z)")
#: A shell variable written whole (``$REDIS_PASSWORD``, ``${PW}``, ``$(cat f)``).
_SHELL_VAR = LazyRegex(r"\$(?:[A-Za-z_]\w*|\{[^{}]*\}|\([^()]*\))\Z")


def flag_ok(secret: str, _m: Any = None) -> bool:
    """The value of ``--password X``: not another option, a variable or a placeholder.
    A quoted value given to ``--requirepass`` or ``--masterauth`` is no file
    (Redis reads none): ``"@st8..."`` is the password."""
    files = not (_m is not None and _m.lastindex in _FLAG_QUOTED
                 and _REDIS_FLAG.search(_m.group(0)) is not None)
    return _flag_value_ok(secret, ("-", "$", "<", "{", "%("), files=files)


#: flag-credentials' groups of a quoted value, and the options of Redis among its keys.
_FLAG_QUOTED = (1, 2)
_REDIS_FLAG = LazyRegex(rb"(?i)requirepass|masterauth")


#: The groups of redis-credentials where the password's place is fixed:
#: ``AUTH [user] <password>`` and ``sentinel auth-pass <master> <password>``.
_REDIS_POSITIONAL = (2, 5)


def redis_ok(secret: str, m: Any = None) -> bool:
    """flag_ok without its files (no Redis password is read from ``@file``),
    and where the password's place is fixed (AUTH, sentinel auth-pass) no
    option can stand: a value led by ``-`` or ``$`` is the password there,
    unless it is a variable written whole."""
    if _CLOSED_ANGLE.match(secret):
        return False  # <password>, <your-redis-pass>: a placeholder; <soB&71s... is drawn
    if m is not None and m.lastindex in _REDIS_POSITIONAL:
        if _SHELL_VAR.match(secret.rstrip(".,:;)")) and not sign_led_drawn(secret):
            return False  # $REDIS_PASSWORD; $UjetxKci7bMZzwLlBI reads as drawn
        return _flag_value_ok(secret, ("{", "%("), files=False)
    return _flag_value_ok(secret, ("-", "$", "{", "%("), files=False)


#: A value led by ``<`` that a ``>`` closes: a placeholder (the proof asks the same).
_CLOSED_ANGLE = LazyRegex(r"<[^\s\"'>]*>")


def _flag_value_ok(secret: str, leads: tuple[str, ...], *, files: bool = True) -> bool:
    secret = secret.rstrip(".,:;)")  # prose punctuation after a word
    if secret.startswith(leads) or (files and _FILE_REF.match(secret)) or templated(secret):
        return False
    low = secret.lower()
    if low in _CODE_WORDS or low in _URL_PLACEHOLDERS or is_placeholder(secret):
        return False
    if _IDENT.match(secret) and not _has_digit(secret):
        return False  # --password prompt, --token file: a word, not a secret
    return len(set(secret)) >= 4


def bearer_ok(secret: str, _m: Any = None) -> bool:
    if secret.lower() in _CODE_WORDS or secret.startswith(("$", "<", "{")):
        return False
    return _has_digit(secret) and shannon_entropy(secret) > 3.0


def basic_ok(secret: str, _m: Any = None) -> bool:
    """Base64 of ``user:password``: mixed case or digits, not a word."""
    if secret.startswith(("$", "<", "{")) or len(set(secret)) <= 4:
        return False
    core = secret.rstrip("=")
    return not (core.isalpha() and (core.islower() or core.isupper() or core.istitle()))


#: Keys that name a Redis password with no key word at a boundary
#: (``requirepass``, ``--masterauth``).
_REDIS_KEY = LazyRegex(r"(?i)-{0,2}(?:requirepass|masterauth)\Z")
#: A value wrapped whole in one pair of brackets (``(a, b)``, ``[0]``): code;
#: ``(|^4&*<mpp}7HD%)v.=OO]`` opens one kind and closes another: drawn.
_WRAPPED = LazyRegex(r"\(.*\)\Z|\[.*\]\Z|\{.*\}\Z|<.*>\Z")
_CALL_SHAPE = LazyRegex(r"[A-Za-z_][\w.$]*[(\[].*[)\]]")


def _names_secret(key: str) -> bool:
    return _key_kind(key) is not None or _REDIS_KEY.match(key.strip("\"'`[]")) is not None


#: The start the rule asks (builtin._SIGN_LEAD): ``$``, a name and a digit or
#: a sign after it; ``=`` or ``-`` and no second one (nor ``=>``, ``->``); ``(``
#: or ``[`` and a sign.
_SIGN_LEAD = LazyRegex(
    r"\$[A-Za-z][A-Za-z_]*[^A-Za-z_:\s\"'`]|[=-][^\s\"'`=>-]|[(\[][^A-Za-z0-9\s\"'`(\[<{$]"
)
#: A variable's name (one case; two capitals, three small letters and more) and a sign
#: after it.
_VARIABLE_THEN = LazyRegex(r"(?:[A-Z][A-Z0-9_]{1,}|[a-z][a-z0-9_]{2,})[-/.:@]")


def sign_led_drawn(value: str) -> bool:
    """A value led by a sign (``$``, ``-``, ``=``, a bracket) that reads as drawn,
    not as a variable, an option, an expression or a template: ten bytes and
    more, no blank, a digit, letters of both cases that change case twice, and
    after the sign no name with digits after it (``$DB_PASSWORD_2``,
    ``$secretKey12``), no call, no wrapped expression, no closed template."""
    value = value[1:] if value[:1] == "`" else value  # (PowerShell escapes $ with `)
    if _SIGN_LEAD.match(value) is None:
        return False
    rest = value[1:]
    if len(rest) < 9 or any(c.isspace() for c in value) or not _has_digit(rest):
        return False
    changes = case_changes(rest)
    if _classes(rest) < 3 or changes < 1 or (changes < 2 and _classes(rest) < 4):
        return False
    if _VARIABLE_THEN.match(rest):
        return False  # $HOME-backup-2024, $PWD/keys2: a variable, then more
    if templated(value) or _WRAPPED.match(value) or _CALL_SHAPE.match(rest):
        return False
    if "->" in rest or "::" in rest or rest[:1] == "-":  # $this->pw, $Foo::X, --option
        return False
    core = rest.rstrip("0123456789")
    if _IDENT.match(rest) and (
        not _has_digit(core) or (changes <= 4 and (_CAMEL.match(core) or _TYPE_NAME.match(core)))
    ):
        return False  # a name, digits after or inside: $apiToken2, $DB_PASS_1, $oauth2Token
    return not is_placeholder(rest)


def sign_led_ok(secret: str, m: Any) -> bool:
    """``KEY=$Kx9#...``, ``KEY==jg3A...``, ``--requirepass '-GFv...'``: a key that
    names a secret, and a value led by a sign that reads as drawn."""
    if secret[:1] == "=" and not m.group("op").strip(b" \t"):
        return False  # KEY =x: blanks and an operator, not a value led by "="
    return _names_secret(m.group("key").decode("latin-1")) and sign_led_drawn(secret)


_SETTER = LazyRegex(r"(?:[Ss]et|[Ww]ith|[Pp]ut)_?[A-Z]")


#: Verbs that make a method named for a secret a look-up or a check.
_LOOKUP_VERB = LazyRegex(
    r"(?:get|check|verify|validate|has|is|find|load|read|fetch|lookup|require|parse|hash|compare"
    r"|match|expect|assert|should|remove|delete|clear|mask|decrypt|decode)(?![a-z])"
)


def _builder_method(key: str, m: Any) -> bool:
    """A builder's method named for the secret, called after a dot
    (``.password("...")``, ``.clientSecret("...")``), not a look-up or a check
    (``.getPassword("name")``, ``.verifyToken(x)``)."""
    at = m.start("key")
    return (at > 0 and m.string[at - 1 : at] == b"." and _names_secret(key)
            and _LOOKUP_VERB.match(key) is None)


def typed_ok(secret: str, m: Any) -> bool:
    """A string given to a key that names a secret through a type annotation
    (``password: String = "..."``, ``API_TOKEN: &str = "..."``), a string prefix
    (``@"..."``, ``r#"..."#``) or a setter (``setPassword("...")``,
    ``withPassword("...")``): judged as an assignment's quoted value."""
    key = m.group("key").decode("latin-1")
    if m.group("op") == b"(" and _SETTER.match(key) is None and not _builder_method(key, m):
        return False  # getPassword("name"), checkToken(x): not given, looked up
    return assignment_ok(secret, m) or (_names_secret(key) and sign_led_drawn(secret))


def braced_password_ok(secret: str, _m: Any = None) -> bool:
    """``Pwd={...}``: an ODBC value in braces that is no format field
    (``{password}``, ``{self.pw}``, ``{0}``) and no placeholder."""
    if len(secret) < 6 or templated(secret) or is_placeholder(secret):
        return False
    if _DOTTED.match(secret) or (_IDENT.match(secret) and not _has_digit(secret)):
        return False
    if any(c in secret for c in "(){}"):
        return False
    return _classes(secret) >= 2 and secret.lower() not in _URL_PLACEHOLDERS


_PGPASS_PHRASE = 2  # credential-file-line's group of a .pgpass passphrase
_REPORT_LEVELS = frozenset(("error", "warning", "warn", "note", "info", "fatal", "debug",
                            "hint", "notice", "critical", "trace"))


def file_password_ok(secret: str, _m: Any = None) -> bool:
    """The password field of a credential file line (``.pgpass``,
    ``jdbc:oracle:thin:user/PASSWORD@``): not a wildcard, a variable, a
    template or a placeholder; six bytes and more, not digits alone.  A
    ``.pgpass`` password of words apart by blanks is read as a passphrase."""
    if _m is not None and _m.lastindex == _PGPASS_PHRASE:
        # (not a report's file:line:column:level:message, which has this shape)
        database, user = _m.group(0).decode("latin-1").split(":")[-3:-1]
        return (not database.isdigit() and user.lower() not in _REPORT_LEVELS
                and _phrase_ok(secret))
    secret = secret.strip('"')
    if len(secret) < 6 or secret.isdigit() or len(set(secret)) < 4 or _plain_word(secret):
        return False  # (a word: the message of a file:line:col:level:word report)
    if secret[:1] in "$%<{=-":
        return sign_led_drawn(secret)
    return url_password_ok(secret, _m) and secret.lower() not in _CODE_WORDS


def npmrc_auth_ok(secret: str, m: Any) -> bool:
    """An .npmrc ``_auth`` or ``_password``: base64 of text (``user:password``
    for ``_auth``, both parts there), whose password is no placeholder, no
    variable and not a word people write for one (``password``, ``secret``)."""
    import base64

    core = secret.rstrip("=")
    try:
        password = base64.b64decode(core + "=" * (-len(core) % 4), validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    if not password.isprintable():
        return False
    if m.group("key") == b"auth":
        user, sep, password = password.partition(":")
        if not (user and sep):
            return False
    low = password.lower()
    if len(password) < 4 or len(set(password)) < 3 or password[:1] in "$<{%":
        return False
    return not (low in _PASSWORD_WORDS + _SECRET_WORDS or low in _CODE_WORDS
                or is_placeholder(password) or templated(password))


def plaintext_secure_string_ok(secret: str, _m: Any = None) -> bool:
    """``ConvertTo-SecureString 'X' -AsPlainText``: X a literal, not a variable
    (``"$pw"`` in double quotes is one) or a placeholder."""
    if secret[:1] in "$-=":
        return sign_led_drawn(secret)
    return flag_ok(secret, _m)


#: The password hashes of credential files (htpasswd, shadow): the scheme's
#: mark and a salt and digest of the scheme's length.
def hash_line_ok(secret: str, _m: Any = None) -> bool:
    """A password hash's digest that is not a mask or a placeholder (``*``, ``!``, ``x``)."""
    return len(set(secret)) > 8 and not is_placeholder(secret)


def wordpress_salt_ok(secret: str, _m: Any = None) -> bool:
    """A WordPress key or salt: 32 bytes and more, drawn (not the sample text
    ``put your unique phrase here``).  A drawn salt holds any sign, ``<N>``
    and ``${`` too, so the placeholder words are not asked."""
    return " " not in secret.strip() and _classes(secret) >= 3 and len(set(secret)) >= 16


#: Words that make a run of lower-case words prose, a name or code, not a
#: passphrase (``must-be-set``, ``config.db.password``, ``read-only-access``).
_NOT_PASSPHRASE = frozenset((
    "a", "an", "the", "and", "but", "for", "nor", "not", "yet", "all", "any", "each", "every",
    "some", "more", "most", "less", "only", "also", "just", "must", "should", "will", "would",
    "can", "could", "may", "might", "shall", "use", "used", "uses", "using", "see", "set", "get",
    "put", "new", "old", "with", "from", "into", "onto", "over", "under", "that", "this", "then",
    "than", "when", "where", "which", "what", "who", "how", "why", "there", "here", "your", "you",
    "our", "are", "was", "were", "has", "have", "had", "been", "being", "its", "his", "her",
    "their", "them", "they", "none", "null", "true", "false", "default", "example", "sample",
    "demo", "test", "testing", "foo", "bar", "baz", "qux", "dummy", "fake", "placeholder",
    "change", "changeme", "replace", "enter", "keep", "kept", "stored", "store", "read", "write",
    "access", "admin", "root", "user", "users", "name", "names", "type", "file", "path", "url",
    "uri", "host", "port", "service", "server", "client", "bearer", "basic", "header", "headers",
    "cluster", "system", "kube", "github", "actions", "runner", "config", "configs", "settings",
    "env", "environ", "environment", "process", "request", "response", "params", "args",
    "options", "props", "self", "this", "secret", "secrets", "password", "passwords", "pass",
    "passwd", "token", "tokens", "key", "keys", "auth", "api", "value", "values", "data", "meta",
    "metadata", "spec", "vault", "session", "context", "state", "local", "global", "prod",
    "production", "dev", "development", "staging", "app", "apps", "com", "org", "net", "www",
    "http", "https", "json", "yaml", "xml", "html", "text", "string", "str", "int", "bool",
    "list", "dict", "map", "array", "object", "function", "method", "class", "module", "package",
    "import", "export", "return", "main", "index", "node", "npm", "pip", "docker", "image",
    "build", "release", "version", "expire", "expires", "expired", "rotate", "rotated", "setting",
    "field", "fields", "never", "start", "stop", "login", "logout", "cache", "account",
    "accounts", "enable", "enabled", "disable", "disabled", "required", "optional",
))
_PASSPHRASE_SEP = LazyRegex(r"[ .-]")


def passphrase_ok(secret: str, m: Any) -> bool:
    """Three to six lower-case words joined by one blank, dot or dash
    (``amber.lattice.crimson``, ``"glacier orbit walnut ember"``) under a key
    that names a secret: each word of three to ten letters, none twice, none
    a word of prose, configuration or code."""
    if not _names_secret(m.group("key").decode("latin-1")):
        return False
    if m.group("q") is None and " " in secret:
        return False  # unquoted words apart by blanks: prose
    return _phrase_ok(secret)


#: What may stand before a key whose value follows after blanks alone: the
#: line's indentation and a command that sets it (``ENV``, ``export``, ``set
#: -gx``, ``SetEnv``, ``fastcgi_param``).
_KEY_OPENS_LINE = LazyRegex(
    rb"[ \t]*(?:(?i:env|arg|export|setenv|setx|set(?:[ \t]+-[A-Za-z]{1,3}){0,2}"
    rb"|[a-z]{1,12}_param|sentinel)[ \t]+)?\Z"
)
#: Redis lines whose password follows a user or a master's name: ``AUTH
#: default ...``, ``sentinel auth-pass mymaster ...`` (a prompt may lead).
_REDIS_NAMED_BEFORE = LazyRegex(
    rb"[ \t]*(?:[^\s>]{1,64}>[ \t]*)?(?:AUTH|(?i:sentinel[ \t]+auth-pass))[ \t]+\Z"
)
_PROSE_ENDINGS = ("ed", "ing", "ly", "tion")


def spoken_phrase_ok(secret: str, m: Any) -> bool:
    """Three to six lower-case words apart by blanks, unquoted, that run to the
    end of the line or to the next pair (``client_secret: lattice marble
    falcon``, ``ENV KEYSTORE_PASSWORD sorrel glacier mosaic``): words as
    passphrase_ok reads them.  After blanks alone the key must open the line
    (after a command that sets it) and be no word of prose: a name in capitals
    or with a separator in it, or a Redis directive (not a wrapped line of
    prose, ``password manager ready before``, ``Password reset flow``), unless
    it is an option (``--requirepass ... --port``) or Redis names the place
    (``AUTH default ...``, ``sentinel auth-pass mymaster ...``).  No word ends
    as a sentence's words do (-ed, -ing, -ly, -tion)."""
    key = m.group("key").decode("latin-1")
    blanks = not m.group("op").strip(b" \t")
    if blanks and _REDIS_NAMED_BEFORE.fullmatch(m.string, 0, m.start("key")) is not None:
        pass  # AUTH default ..., sentinel auth-pass mymaster ...: the place names it
    elif not _names_secret(key):
        return False
    elif blanks and not key.startswith("-"):  # (an option: --requirepass ... --port 6380)
        if _KEY_OPENS_LINE.fullmatch(m.string, 0, m.start("key")) is None:
            return False
        if not (key.isupper() or any(c in key for c in "_.-")
                or _REDIS_KEY.match(key) is not None):
            return False
    return _spoken(secret)


def _spoken(secret: str) -> bool:
    """Words apart by blanks that read as a passphrase, not as a sentence:
    none ends as a sentence's words do (``generated during setup``)."""
    if any(w.endswith(_PROSE_ENDINGS) for w in secret.split(" ")):
        return False
    return _phrase_ok(secret)


def tagged_ok(secret: str, m: Any) -> bool:
    """A value after a YAML tag or anchor (``db_password: &db ...``): an
    assignment's value, a value led by a sign that reads as drawn
    (``$TuSTtgpu**3``), or unquoted words to the end of the line read as
    spoken_phrase_ok reads them."""
    key = m.group("key").decode("latin-1")
    if m.group("q") is None and " " in secret:
        return _names_secret(key) and _spoken(secret)
    return assignment_ok(secret, m) or (_names_secret(key) and sign_led_drawn(secret))


def netrc_phrase_ok(secret: str, _m: Any = None) -> bool:
    """The words after ``password`` on a whole netrc line (``machine HOST
    login USER password ...``): a passphrase as passphrase_ok reads one
    (the line's shape names the secret, so blanks may part the words)."""
    return _phrase_ok(secret)


def _phrase_ok(secret: str) -> bool:
    words = _PASSPHRASE_SEP.split(secret)
    if not 3 <= len(words) <= 6 or len(set(words)) != len(words) or len(secret) < 14:
        return False
    return all(3 <= len(w) <= 10 and w.isalpha() and w.islower() and w.isascii()
               and w not in _NOT_PASSPHRASE and _SPOKEN.fullmatch(w) is not None
               for w in words)


#: A word that can be said: a vowel, and no more than four consonants in a row
#: (``walnut``, ``strength``; not ``gxkpwtvf``, a drawn run of letters).
_SPOKEN = LazyRegex(r"(?=[a-z]*[aeiouy])(?:[^aeiouy]{0,4}[aeiouy]+)*[^aeiouy]{0,4}")
