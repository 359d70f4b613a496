"""The extended built-in rule set (``--rules extended``).

Every rule is a bytes regex over one line, an id, and the gates that keep it
quiet on ordinary text.  Two families:

* provider tokens with a distinctive prefix (``ghr_``, ``glpat-``, ``xoxb-``,
  ``sk_live_``, ``ya29.``, ``SG.``, JWTs, ...): the shape alone is evidence,
  only documentation placeholders (``sk_live_xxxxxxxx``) are let through;
* key/value shapes (``password=...``, ``"client_secret": "..."``,
  ``Authorization: Basic ...``, ``scheme://user:password@host``): the key
  names the secret, and a validator looks at the value: variables,
  templates, code expressions, type names and prose are not credentials;
  token-like keys also need an entropy gate.

:data:`SCANS` lists the few literal-led searches that find every line a rule
can fire on, so a stream is searched a handful of times per buffer and the
rules run only on the lines found.
"""

from __future__ import annotations

import re
from typing import Any

from council_filters.secrets.rules import Rule, is_placeholder, shannon_entropy

# --------------------------------------------------------------------------- #
# Validators.
# --------------------------------------------------------------------------- #


def _has_digit(s: str) -> bool:
    return any(c.isdigit() for c in s)


def _token_shape(secret: str, _m: Any = None) -> bool:
    """A random-looking token: a digit, and not a dictionary word run."""
    return _has_digit(secret) and shannon_entropy(secret) > 2.5


def _digit_in(secret: str, _m: Any = None) -> bool:
    return _has_digit(secret)


def _stripe_ok(secret: str, _m: Any = None) -> bool:
    return not secret.startswith("pk_") and _has_digit(secret)  # pk_ keys are public


def _twilio_ok(secret: str, _m: Any = None) -> bool:
    return _has_digit(secret) and shannon_entropy(secret[2:]) > 3.0


def _sas_ok(secret: str, _m: Any = None) -> bool:
    return shannon_entropy(secret) > 3.5


def _jwt_shape(secret: str, _m: Any = None) -> bool:
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
)
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
_ROW_START = re.compile(rb"[ \t>+-]*\|")
_TYPE_NAME = re.compile(r"(?:[A-Z]{1,6}[0-9]?)?(?:[A-Z][a-z]{2,}){1,6}[A-Z]{0,4}\Z")
_WIN_VAR = re.compile(r"%[A-Z_][A-Z0-9_]*%\Z")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+(?:\(\)?)?\Z")
_CAMEL = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+\Z")


#: What may follow the short words "pass" and "pw" in a key.
_SHORT_OK = ("", "s", "_value", "value", "_str", "_string", "_plain", "_text")


def _key_kind(key: str) -> str | None:
    """``"password"``, ``"secret"`` or None for a key that names no secret.

    The key word must sit at a boundary of the key: its start, after
    ``_``/``-``/``.``/a space, at a lower-to-upper case change, or anywhere in
    an all-upper key (``PGPASSWORD``); and only a known suffix may follow it.
    """
    k = key.strip("\"'`[]{}<> \t$@:")
    if not k or len(k) > 80:
        return None
    low = k.lower()
    upper_key = k.upper() == k
    for kind, words in (("password", _PASSWORD_WORDS), ("secret", _SECRET_WORDS)):
        for w in words:
            start = low.rfind(w)
            while start >= 0:
                rest = low[start + len(w) :]
                suffix_ok = rest in _KEY_SUFFIXES or rest.lstrip("_-.") in _KEY_SUFFIXES
                boundary = (
                    start == 0
                    or low[start - 1] in "_-. /"
                    or upper_key
                    or (k[start].isupper() and k[start - 1].islower())
                )
                if suffix_ok and boundary:
                    if kind == "password" and w in ("pass", "pw") and rest not in _SHORT_OK:
                        break  # "passthrough", "pw_hash": not a password
                    return kind
                start = low.rfind(w, 0, start)
    return None


_FOLLOW_OK = re.compile(r"[ \t]*(?:\Z|[,;&)\]}|\"'`]|#|//|/\*|<!--|--\s|\\[nr]|[A-Za-z_][\w.-]*=)")
_SCHEME = re.compile(r"(?i)(?:basic|bearer|token|digest|apikey|key)\s+(?=\S)")


def _assignment_ok(secret: str, m: Any) -> bool:
    """The value of a ``key = value`` pair is a literal credential."""
    key = m.group("key").decode("latin-1")
    kind = _key_kind(key)
    if kind is None:
        return False
    op = m.group("op").decode("latin-1")
    quoted = m.group("q") is not None and m.group("q") != b""
    env_key = key.strip("\"'`[]{}<> \t$@:")
    env_style = env_key.upper() == env_key and any(c.isalpha() for c in env_key)
    value = secret
    scheme = _SCHEME.match(value)
    if scheme and quoted:
        value = value[scheme.end() :]  # "Basic dXNl...", "Bearer abc..."
        kind = "password"
    low = value.lower()
    if (
        value[:1] in "$<{"
        or "${" in value
        or "{{" in value
        or "#{" in value
        or (_WIN_VAR.match(value))
    ):
        return False  # $VAR, ${VAR}, <placeholder>, {{ template }}, %VAR%
    if not quoted and not env_style and value[:1] in "@&*[(":
        return False  # @instance_var, *pointer, [index], (expression)
    if low in _CODE_WORDS or low.rstrip(",;") in _CODE_WORDS:
        return False
    if not quoted:
        tail = m.string[m.end() : m.end() + 64].decode("latin-1")  # bounded: linear lines
        if op in (":", "|") and not env_style and not _FOLLOW_OK.match(tail):
            return False  # a sentence or an expression goes on after the "value"
        if any(c in value for c in "()[]{}") or value.endswith((".", ":")):
            return False  # calls, indexing, literals: code
        if not env_style and _TYPE_NAME.match(value):
            return False  # an annotation: password: SecretStr, key: PKCS7PrivateKeyTypes
        if _DOTTED.match(value):
            return False  # self.password, os.environ.get, args.token
        bare = key.strip("\"'`[]{}<> \t$@:").lower()
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
        if len(value) < 6 or len(set(value)) < 4:
            return False
        if value.isdigit() and len(value) < 8:
            return False
        return not is_placeholder(value)
    # token-like keys: long, random-looking values only
    if len(value) < 12 or is_placeholder(value):
        return False
    if value.isalpha() and (value.islower() or value.isupper()):
        return False  # a word
    if " " in value.strip():
        return False
    return shannon_entropy(value) > 3.0 and (
        _has_digit(value) or sum(c.isupper() for c in value) >= 2
    )


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


def _url_password_ok(secret: str, m: Any) -> bool:
    low = secret.lower()
    if low in _URL_PLACEHOLDERS or low.strip("*x.") == "":
        return False
    if secret[:1] in "$<{[" or secret[:2] in ("%(", "%{") or "${" in secret or "{{" in secret:
        return False
    return not (secret.startswith(":") or is_placeholder(secret))


def _flag_ok(secret: str, _m: Any = None) -> bool:
    """The value of ``--password X``: not another option, a variable or a placeholder."""
    secret = secret.rstrip(".,:;)")  # prose punctuation after a word
    if secret.startswith(("-", "$", "<", "{", "%(", "@")) or "${" in secret or "{{" in secret:
        return False
    low = secret.lower()
    if low in _CODE_WORDS or low in _URL_PLACEHOLDERS or is_placeholder(secret):
        return False
    if _IDENT.match(secret) and not _has_digit(secret):
        return False  # --password prompt, --token file: a word, not a secret
    return len(set(secret)) >= 4


def _bearer_ok(secret: str, _m: Any = None) -> bool:
    if secret.lower() in _CODE_WORDS or secret.startswith(("$", "<", "{")):
        return False
    return _has_digit(secret) and shannon_entropy(secret) > 3.0


def _basic_ok(secret: str, _m: Any = None) -> bool:
    """Base64 of ``user:password``: mixed case or digits, not a word."""
    if secret.startswith(("$", "<", "{")) or len(set(secret)) <= 4:
        return False
    core = secret.rstrip("=")
    return not (core.isalpha() and (core.islower() or core.isupper() or core.istitle()))


# --------------------------------------------------------------------------- #
# The rules.
# --------------------------------------------------------------------------- #
def _r(
    rule_id: str,
    pattern: bytes,
    prefilter: bytes,
    *,
    group: int = 0,
    validator: Any = None,
    description: str = "",
    placeholders: bool = True,
) -> Rule:
    return Rule(
        id=rule_id,
        regex=re.compile(pattern),
        secret_group=group,
        validator=validator,
        prefilter=prefilter,
        description=description,
        placeholders=placeholders,
    )


_TAIL = rb"(?![A-Za-z0-9_-])"
_B64END = rb"(?![A-Za-z0-9+/=])"

# Key/value: KEY (quoted or not) OP VALUE (quoted or not).
_KEY = rb"""(?<![A-Za-z0-9_.$@-])(?P<key>["'`]?[A-Za-z0-9_.$@-]{1,80}?["'`]?\]?)"""
_OP = rb"""[ \t]*(?P<op>:=|=>|\?=|\|\|=|:|=(?!=)|<-)[ \t]*"""
_VALUE = rb"""(?P<q>["'`])?(?P<v>(?(q)[^"'`\s][^"'`]{0,300}?|[^\s"'`,;|]{1,300}))(?(q)(?P=q))"""

RULES: tuple[Rule, ...] = (
    _r(
        "aws-access-key-id",
        rb"\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)"
        rb"[A-Z2-7]{16})(?![A-Z0-9])",
        rb"A(?:3T|KIA|SIA|BIA|CCA|GPA|IDA|ROA|IPA|NPA|NVA|PKA)",
        description="AWS access key ids, long-term (AKIA) and temporary (ASIA) and the rest",
    ),
    _r(
        "aws-secret-access-key",
        rb"(?i)(?:aws)?[_.-]?(?:secret)[_.-]?(?:access)?[_.-]?key[\"'`\]]?[ \t]*(?:[:=]|=>|:=)"
        rb"[ \t]*[\"'`]?([A-Za-z0-9/+]{40})" + _B64END,
        rb"(?i)secret",
        description="AWS secret access keys in assignments and key/value shapes",
    ),
    _r(
        "github-token",
        rb"\b(gh[rsuop]_[A-Za-z0-9]{36,251})" + _TAIL,
        rb"gh[rsuop]_",
        description="GitHub tokens, refresh (ghr_) and the rest",
    ),
    _r("github-fine-grained-pat", rb"\b(github_pat_[A-Za-z0-9_]{36,255})", rb"github_pat_"),
    _r(
        "gitlab-token",
        rb"\b(gl(?:pat|ptt|dt|rt|cbt|soat|ft|imt|agent|oas|wt)-[A-Za-z0-9_-]{20,})"
        rb"|\b(GR1348941[A-Za-z0-9_-]{20,})",
        rb"gl(?:pat|ptt|dt|rt|cbt|soat|ft|imt|agent|oas|wt)-|GR1348941",
        description="GitLab personal, pipeline, deploy, runner and other tokens",
    ),
    _r(
        "slack-token",
        rb"\b(xox[abposre]-(?:[0-9]{6,}-)*[A-Za-z0-9-]{10,})"
        rb"|\b(xapp-[0-9]-[A-Z0-9]{6,}-[0-9]{6,}-[A-Za-z0-9]{16,})"
        rb"|\b(xoxe\.xox[bp]-[0-9]-[A-Za-z0-9]{40,})",
        rb"xox[abposre]-|xapp-|xoxe\.",
        validator=_digit_in,
        description="Slack bot, user, app, refresh and config tokens",
    ),
    _r(
        "slack-webhook",
        rb"(hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{20,})",
        rb"hooks\.slack\.com/",
    ),
    _r(
        "stripe-key",
        rb"\b((?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,247})"
        + _TAIL
        + rb"|\b(whsec_[A-Za-z0-9+/]{24,})",
        rb"[srp]k_(?:live|test|prod)_|whsec_",
        validator=_stripe_ok,
        description="Stripe secret and restricted keys, webhook secrets",
    ),
    _r(
        "openai-key",
        rb"\b(sk-(?:svcacct|admin|proj|None|or-v1|ant-[a-z]{3,6}[0-9]{0,3})-[A-Za-z0-9_-]{20,})",
        rb"sk-(?:svcacct|admin|proj|None|or-v1|ant-)",
        validator=_token_shape,
        description="OpenAI service-account, admin and project keys (and alike)",
    ),
    _r("google-oauth-token", rb"\b(ya29\.[0-9A-Za-z_-]{20,})", rb"ya29\."),
    _r("google-oauth-client-secret", rb"\b(GOCSPX-[A-Za-z0-9_-]{20,})", rb"GOCSPX-"),
    _r(
        "jwt",
        rb"\b(eyJ[A-Za-z0-9_-]{8,}={0,2}\.(?:eyJ[A-Za-z0-9_-]{4,}={0,2}\.[A-Za-z0-9_-]*"
        rb"|[A-Za-z0-9_-]{8,}={0,2}\.[A-Za-z0-9_-]{8,}))",
        rb"eyJ[A-Za-z0-9_-]{8}",
        validator=_jwt_shape,
        description="JSON Web Tokens (signed or not)",
    ),
    _r("npm-token", rb"\b(npm_[A-Za-z0-9]{36})" + _TAIL, rb"npm_", validator=_token_shape),
    _r("pypi-token", rb"\b(pypi-AgE[A-Za-z0-9_-]{16,})", rb"pypi-AgE"),
    _r("sendgrid-api-key", rb"\b(SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})", rb"SG\."),
    _r(
        "twilio-key",
        rb"\b((?:SK|AC)[0-9a-f]{32})(?![0-9A-Za-z])",
        rb"SK|AC",
        validator=_twilio_ok,
        description="Twilio API key SIDs and account SIDs",
    ),
    _r(
        "azure-storage-key",
        rb"(?i)(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*([A-Za-z0-9+/]{30,}={0,2})",
        rb"(?i)(?:accountkey|sharedaccesskey)",
    ),
    _r(
        "azure-sas-token",
        rb"[?&]sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})",
        rb"sig=",
        validator=_sas_ok,
    ),
    _r("huggingface-token", rb"\b(hf_[A-Za-z0-9]{34,40})" + _TAIL, rb"hf_", validator=_token_shape),
    _r(
        "provider-token",
        rb"\b((?:gsk_[A-Za-z0-9]{48,}|xai-[A-Za-z0-9]{70,}|pplx-[A-Za-z0-9]{40,}"
        rb"|r8_[A-Za-z0-9]{36,}|dop_v1_[a-f0-9]{64}|doo_v1_[a-f0-9]{64}|shp(?:at|ca|pa|ss)_"
        rb"[a-fA-F0-9]{32}|lin_api_[A-Za-z0-9]{40}|dckr_pat_[A-Za-z0-9_-]{27,}"
        rb"|hvs\.[A-Za-z0-9_-]{24,}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|NRAK-[A-Z0-9]{27}"
        rb"|sntrys_[A-Za-z0-9+/=_-]{40,}|glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}"
        rb"|tskey-[a-z]+-[A-Za-z0-9]{10,}-[A-Za-z0-9]{20,}|sbp_[a-f0-9]{40}"
        rb"|pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}"
        rb"|figd_[A-Za-z0-9_-]{40}|AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"
        rb"|ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43}))" + _TAIL,
        rb"gsk_|xai-|pplx-|r8_|do[op]_v1_|shp(?:at|ca|pa|ss)_|lin_api_|dckr_pat_|hvs\.|PMAK-"
        rb"|NRAK-|sntrys_|glsa_|tskey-|sbp_|pscale_|figd_|AGE-SECRET-KEY-1|ntn_|secret_",
        validator=_token_shape,
        description="other provider tokens with a fixed prefix (Groq, xAI, Perplexity, "
        "Replicate, DigitalOcean, Shopify, Linear, Docker Hub, Vault, Postman, New Relic, "
        "Sentry, Grafana, Tailscale, Supabase, PlanetScale, Figma, age, Notion)",
    ),
    _r("telegram-bot-token", rb"\b([0-9]{8,10}:AA[A-Za-z0-9_-]{33})" + _TAIL, rb":AA"),
    _r(
        "cli-credentials",
        rb"(?:^|[\s;|&(`])(?:curl|wget|http|httpie|xh|svn|ftp|lftp|smbclient)\b[^\n]*?[ \t]"
        rb"(?:-u|--user|--http-user|--password|--http-password)[ =][\"']?"
        rb"(?:[^\s:\"']{1,128}:)?([^\s\"']{4,256})",
        rb"(?:curl|wget|http|svn|ftp|smbclient)",
        validator=_url_password_ok,
        placeholders=False,
        description="user:password (or a password) given to curl, wget and alike",
    ),
    _r(
        "flag-credentials",
        rb"(?i)(?:^|[\s;|&(`'\"])--?(?:password|passwd|pass|pwd|token|api-?key|secret|"
        rb"client-secret|auth-token|access-token|private-key-?password|db-password)"
        rb"(?:=|[ \t]+)[\"']?([^\s\"'`;|&]{6,256})",
        rb"(?i)-(?:pass|pwd|token|api|secret|client|auth|access|private|db)",
        validator=_flag_ok,
        placeholders=False,
        description="a password or token given as a command-line option (--password X)",
    ),
    _r(
        "url-credentials",
        rb"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/?#@\"'<>]{1,256}:([^\s\"'<>`]{1,256})@"
        rb"[A-Za-z0-9\[_]",
        rb"://",
        validator=_url_password_ok,
        placeholders=False,
        description="scheme://user:password@host, any scheme",
    ),
    _r(
        "bearer-token",
        rb"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{12,}=*)",
        rb"(?i)bearer",
        validator=_bearer_ok,
        description="bearer tokens, any case",
    ),
    _r(
        "authorization-basic",
        rb"(?i)\b(?:proxy-)?authorization[\"'`]?[ \t]*[:=][ \t]*[\"'`]?basic[ \t]+"
        rb"([A-Za-z0-9+/]{6,}={0,2})",
        rb"(?i)authorization",
        validator=_basic_ok,
        description="Authorization: Basic credentials",
    ),
    _r(
        "authorization-header",
        rb"(?i)\b(?:proxy-)?authorization[\"'`]?[ \t]*[:=][ \t]*[\"'`]?"
        rb"(?:token|digest|negotiate|ntlm|apikey|sso-key|key|bot|sharedkey|splunk|gitlab|"
        rb"[a-z0-9-]*-hmac-sha256)?[ \t]*([A-Za-z0-9._~+/=:-]{16,})",
        rb"(?i)authorization",
        validator=_bearer_ok,
        description="Authorization headers with other schemes, or none",
    ),
    _r(
        "secret-name-value",
        rb"(?i)\bname[\"']?[ \t]*[:=][ \t]*[\"']?(?P<key>[A-Za-z0-9_.-]{1,80})[\"']?[ \t]*,"
        rb"[ \t]*[\"']?value[\"']?[ \t]*(?P<op>[:=])[ \t]*" + _VALUE,
        rb"(?i)value",
        group=4,
        validator=_assignment_ok,
        placeholders=False,
        description="{name: DB_PASSWORD, value: ...} pairs on one line",
    ),
    _r(
        "secret-table-cell",
        rb"(?i)\|[ \t]*(?P<key>`?[A-Za-z0-9_.$@-]{1,80}`?)[ \t]*(?P<op>\|)[ \t]*" + _VALUE,
        rb"\|",
        group=4,
        validator=_assignment_ok,
        placeholders=False,
        description="a secret-named key and its value in a markdown table row",
    ),
    _r(
        "secret-assignment",
        rb"(?i)" + _KEY + _OP + _VALUE,
        rb"(?i)(?:pass|pwd|pw|secret|token|key|auth|credential|sas|connection)",
        group=4,
        validator=_assignment_ok,
        placeholders=False,
        description="password/secret/token/api_key-style assignments (key names the "
        "secret; the value is a literal, and token-like values pass an entropy gate)",
    ),
)

#: The rule objects by id.
BY_ID = {r.id: r for r in RULES}

#: The searches that find candidate lines for the built-in rules:
#: ``(kind, pattern, verify, rule ids)``.  ``kind`` "re" is a regex search over
#: the buffer that starts with a literal byte, so the regex engine skips
#: through ordinary text quickly; "lit" is a plain substring search (faster
#: still) whose hits are confirmed by ``verify`` matched at the hit.
#: Together they match every line on which a built-in rule can fire (the
#: tests check it on the secret corpus).  ``PEM`` in the ids marks searches
#: whose lines the PEM machine also looks at.
PEM = "@pem"
_TOKEN_RULES = (
    "github-token",
    "github-fine-grained-pat",
    "stripe-key",
    "npm-token",
    "huggingface-token",
    "provider-token",
    "gitlab-token",
    "slack-token",
    "google-oauth-client-secret",
    "pypi-token",
    "openai-key",
    "google-oauth-token",
    "sendgrid-api-key",
    "jwt",
    "aws-access-key-id",
    "bearer-token",
    "authorization-header",
)
_PAIR_RULES = (
    "flag-credentials",
    "secret-name-value",
    "cli-credentials",
    "aws-secret-access-key",
    "azure-storage-key",
    "azure-sas-token",
    "secret-assignment",
    "authorization-basic",
    "authorization-header",
    "bearer-token",
    "url-credentials",
    "slack-webhook",
    "telegram-bot-token",
    "twilio-key",
    "jwt",
)
_TABLE_RULES = ("secret-table-cell",)
SCANS: tuple[tuple[str, bytes, bytes, tuple[str, ...]], ...] = (
    # Tokens with a prefix ending in '_' (ghr_, npm_, sk_live_, hf_, dckr_pat_, ...).
    ("re", rb"_[A-Za-z0-9+/-]{8}", b"", _TOKEN_RULES),
    # Prefixes ending in '-' (glpat-, xoxb-, GOCSPX-, pypi-AgE, sk-svcacct-, ...), and
    # the dash runs of PEM markers.
    ("re", rb"-(?:[A-Za-z0-9_]{5}|[ \t]*-[ \t]*-|[Aa][Pp][Ii]-)", b"", _TOKEN_RULES + (
        "flag-credentials", PEM)),
    # Prefixes ending in '.' (ya29., SG., hvs., xoxe.) and the parts of a JWT.
    ("re", rb"\.[A-Za-z0-9_-]{12}", b"", _TOKEN_RULES),
    # Key/value pairs: an operator, then a value of five or more bytes (the value
    # may be a scheme word: Basic, Bearer, Token).
    ("re", rb"=>?[ \t]*[\"'`]?[^\s\n\"'`]{5}", b"", _PAIR_RULES),
    ("re", rb":[ \t]*[\"'`]?[^\s\n\"'`]{5}", b"", _PAIR_RULES),
    # Markdown table rows: a cell then a value of five or more bytes.
    ("re", rb"\|[ \t]*`?[^\s\n|`]{5}", b"", _TABLE_RULES),
    # Bare tokens without '_', '-' or '.' in reach.
    ("lit", b"SIA", rb"SIA[A-Z2-7]{16}", ("aws-access-key-id",)),
    ("lit", b"AC", rb"AC[0-9a-f]{32}", ("twilio-key",)),
    ("lit", b"SK", rb"SK[0-9a-f]{32}", ("twilio-key",)),
    ("lit", b"earer", rb"earer[ \t]+[A-Za-z0-9._~+/-]{12}", ("bearer-token",)),
    ("lit", b"EARER", rb"EARER[ \t]+[A-Za-z0-9._~+/-]{12}", ("bearer-token",)),
)

#: Non-ASCII candidates for the PEM machine (only searched when a buffer is
#: not pure ASCII): the UTF-8 lead bytes of the Unicode dash-likes, spaces and
#: format characters.
PEM_NON_ASCII = rb"[\xc2\xcb\xd6\xd7\xe1\xe2\xe3\xef\xf0]"
