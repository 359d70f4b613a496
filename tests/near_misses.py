"""Generated near misses for the extended rules: lines that look like credentials and are not.

Every line is drawn fresh (random names, values, spacing, quoting and
languages), so a corpus of them does not repeat its lines: what the rules
see is the family, not a few shapes.  The families: assignments to code
expressions, placeholders and environment references; prose about tokens
and passwords; Redis URLs without a password; certificate and key headers;
diff headers; Authorization headers with variables; short or example
provider tokens; command lines without a secret; XML and table rows with
empty or templated values.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Iterator

_LOWER = string.ascii_lowercase
_WORDS = (
    "the", "value", "is", "read", "from", "config", "at", "start", "and", "never", "user",
    "service", "request", "cache", "client", "server", "default", "field", "setting", "store",
    "rotate", "expire", "session", "login", "account", "header", "used", "when", "set", "file",
)
_SECRET_NAMES = (
    "password", "passwd", "pwd", "pass", "secret", "token", "api_key", "apiKey", "access_key",
    "auth_token", "client_secret", "secret_key", "private_key", "credentials", "auth",
    "session_key", "signing_key", "master_key", "passphrase", "connection_string", "sas",
)


def _ident(rng: random.Random, lo: int = 3, hi: int = 10) -> str:
    return rng.choice(_LOWER + "_") + "".join(
        rng.choice(_LOWER + "_" + string.digits) for _ in range(rng.randint(lo, hi) - 1))


def _upper(rng: random.Random) -> str:
    return "_".join(_ident(rng, 2, 6).strip("_").upper() or "X" for _ in range(rng.randint(1, 3)))


def _key(rng: random.Random) -> str:
    name = rng.choice(_SECRET_NAMES)
    style = rng.randrange(5)
    prefix = _ident(rng, 2, 6).strip("_") or "db"
    if style == 0:
        return name
    if style == 1:
        return f"{prefix}_{name}"
    if style == 2:
        return f"{prefix}_{name}".upper()
    if style == 3:
        parts = f"{prefix}_{name}".split("_")
        return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])
    return f"{prefix}.{name}"


def _sp(rng: random.Random) -> str:
    return rng.choice(("", " ", " ", "  ", "\t"))


def _expr(rng: random.Random) -> str:
    i, j, u = _ident(rng), _ident(rng), _upper(rng)
    return rng.choice((
        f"self.{i}", f"os.environ['{u}']", f'os.getenv("{u}")', f"config.get('{i}')",
        f"{i}({j}, {_ident(rng)})", f"args.{i}", f"{i}.{j}.{_ident(rng)}", f"this.{i}",
        f"process.env.{u}", f"await {i}.{j}()", f"{i}[{rng.randint(0, 99)}]", f"{i}[\"{j}\"]",
        f"settings.{u}", f"{i} or {j}", f"get_{i}()", f"{i}::{j}", f"ctx->{i}", f"@{i}",
        "None", "null", "nil", "undefined", "true", "false", "str", "Optional[str]",
        "string", "SecretStr", "bytes", '""', "''", "[]", "{}", f"{i}.{j}({_ident(rng)})",
    ))


def _reference(rng: random.Random) -> str:
    u = _upper(rng)
    return rng.choice((
        f"${u}", f"${{{u}}}", f"%{u}%", f"$env:{u}", f"{{{{ .Values.{_ident(rng)} }}}}",
        f"{{{{ {_ident(rng)} }}}}", f"#{{{_ident(rng)}}}", f"${{{{ secrets.{u} }}}}",
        f"<{_ident(rng)}>", f"<your-{rng.choice(_SECRET_NAMES)}>", f"$({_ident(rng)})",
    ))


def _placeholder(rng: random.Random) -> str:
    n = rng.randint(6, 24)
    return rng.choice((
        "x" * n, "X" * n, "*" * n, "#" * n, "." * n, "changeme", "CHANGEME", "example",
        f"your_{rng.choice(('api_key', 'token', 'secret', 'password'))}_here",
        f"<{rng.choice(_SECRET_NAMES)}>", f"dummy-{_ident(rng)}", f"REPLACE_ME_{_upper(rng)}",
        "redacted", "placeholder", f"EXAMPLE{_upper(rng)}", "0" * rng.randint(8, 16),
    ))


def _assignment(rng: random.Random) -> str:
    key = _key(rng)
    value = rng.choice((_expr, _reference, _placeholder))(rng)
    quote = rng.choice(("", "", '"', "'")) if not value.startswith(("'", '"')) else ""
    if value in ("None", "null", "str") or "(" in value or "." in value:
        quote = rng.choice(("", "", quote))
    val = f"{quote}{value}{quote}"
    form = rng.randrange(9)
    s1, s2 = _sp(rng), _sp(rng)
    if form == 0:
        return f"{key}{s1}={s2}{val}"
    if form == 1:
        return f"{'  ' * rng.randint(0, 3)}{key}:{s2 or ' '}{val}"
    if form == 2:
        return f'  "{key}":{s2}{val if quote else chr(34) + value + chr(34)},'
    if form == 3:
        return f"export {key.upper()}={val}"
    if form == 4:
        return f"const {key} = {val};"
    if form == 5:
        return f"{key} := {val}"
    if form == 6:
        return f":{key} => {val},"
    if form == 7:
        return f"    {key}{s1}={s2}{val}  # {' '.join(rng.choice(_WORDS) for _ in range(3))}"
    return f"{_ident(rng)}({key}={val})"


def _prose(rng: random.Random) -> str:
    w = lambda k: " ".join(rng.choice(_WORDS) for _ in range(k))  # noqa: E731
    name = rng.choice(_SECRET_NAMES)
    return rng.choice((
        f"The {name} is {w(rng.randint(2, 6))}.",
        f"{name.capitalize()}: {w(rng.randint(3, 8))}",
        f"Set the {name} in the {rng.choice(_WORDS)} before running {_ident(rng)}.",
        f"# {name} must be at least {rng.randint(8, 32)} characters",
        f"- `{_key(rng)}`: the {name} used by {w(2)}",
        f"If the {name} expires, {w(rng.randint(3, 7))}.",
        f"{name} rotation: {w(rng.randint(2, 5))} every {rng.randint(1, 90)} days",
        f"| {_key(rng)} | {w(rng.randint(2, 6))} |",
        f"| `{_key(rng)}` | string | {w(rng.randint(2, 5))} |",
        f"AUTH is {rng.choice(('required', 'optional', 'disabled', 'enabled'))} for {w(2)}",
        f"requirepass is {w(rng.randint(2, 5))}",
    ))


def _redis_url(rng: random.Random) -> str:
    host = rng.choice(("localhost", "127.0.0.1", f"{_ident(rng)}.internal", f"{_ident(rng)}"))
    user = _ident(rng)
    return rng.choice((
        f"redis://{host}:{rng.randint(1000, 65000)}/{rng.randint(0, 15)}",
        f"rediss://{host}:{rng.randint(1000, 65000)}",
        f"REDIS_URL=redis://{host}:6379/{rng.randint(0, 15)}",
        f'url: "redis://{user}@{host}:6379"',
        f"redis://{host}", f"broker_url = 'redis://{host}:6379/{rng.randint(0, 9)}'",
    ))


def _header(rng: random.Random) -> str:
    kind = rng.choice(("CERTIFICATE", "PUBLIC KEY", "CERTIFICATE REQUEST", "X509 CRL",
                       "PGP SIGNATURE", "PGP PUBLIC KEY BLOCK", "TRUSTED CERTIFICATE"))
    return rng.choice((f"-----BEGIN {kind}-----", f"-----END {kind}-----",
                       f'"-----BEGIN {kind}-----\\n"'))


def _diff(rng: random.Random) -> str:
    path = "/".join(_ident(rng) for _ in range(rng.randint(1, 4))) + rng.choice(
        (".py", ".go", ".ts", ".md", ".yaml"))
    return rng.choice((
        f"--- a/{path}", f"+++ b/{path}", f"diff --git a/{path} b/{path}",
        f"@@ -{rng.randint(1, 900)},{rng.randint(1, 40)} +{rng.randint(1, 900)},"
        f"{rng.randint(1, 40)} @@ def {_ident(rng)}(",
        f"index {rng.getrandbits(28):07x}..{rng.getrandbits(28):07x} 100644",
        f"-{' ' * rng.randint(0, 8)}{_ident(rng)} = {_ident(rng)}",
    ))


def _authorization(rng: random.Random) -> str:
    ref = rng.choice((f"${_upper(rng)}", f"${{{_upper(rng)}}}", f"{{{_ident(rng)}}}",
                      f"<{_ident(rng)}>", "$(cat token)"))
    scheme = rng.choice(("Bearer", "Basic", "token", "Token", "Bot"))
    return rng.choice((
        f"Authorization: {scheme} {ref}",
        f'-H "Authorization: {scheme} {ref}"',
        f"headers['Authorization'] = f'{scheme} {{{_ident(rng)}}}'",
        f'"Authorization": "{scheme} " + {_ident(rng)},',
        f"authorization: {scheme.lower()} {ref}",
        f'req.Header.Set("Authorization", "{scheme} "+{_ident(rng)})',
    ))


def _provider(rng: random.Random) -> str:
    n = rng.randint(4, 12)
    return rng.choice((
        "ghp_EXAMPLE", f"ghp_{'x' * rng.randint(8, 36)}", f"sk_live_{'x' * rng.randint(10, 30)}",
        f"sk_test_{_ident(rng).replace('_', '')}", f"xoxb-your-{_ident(rng)}",
        f"glpat-{'x' * rng.randint(20, 26)}", f"AKIA{'X' * 16}", "AKIAIOSFODNN7EXAMPLE",
        f"sk-proj-{'.' * n}", f"npm_{'0' * n}", f"hf_{_ident(rng)}", f"token = ghp_{'*' * n}",
        f"ya29.{'x' * rng.randint(20, 30)}", f"SG.{'x' * 16}.{'x' * 16}",
    ))


def _command(rng: random.Random) -> str:
    user, db, host = _ident(rng), _ident(rng), f"{_ident(rng)}.local"
    return rng.choice((
        f"mysql -u {user} -p {db}", f"mysql -h {host} -u {user} -p",
        f"--password-file /run/secrets/{_ident(rng)}", f"curl -u {user} https://{host}/",
        f"redis-cli -h {host} -p {rng.randint(1000, 9999)}", f"psql -U {user} -W {db}",
        f"machine {host} login {user} password ${_upper(rng)}",
        f"docker login -u {user} --password-stdin", f"{_ident(rng)} --token-file ~/.{user}",
        f"git config --global credential.helper {_ident(rng)}",
    ))


def _markup(rng: random.Random) -> str:
    tag = rng.choice(("password", "Password", "secret", "apiKey", "token", "dbPassword"))
    return rng.choice((
        f"<{tag}>${{{_upper(rng)}}}</{tag}>", f"<{tag}></{tag}>",
        f"<{tag}>{{{{ {_ident(rng)} }}}}</{tag}>",
        f'<add key="{_key(rng)}" value="" />', f'<add key="{_key(rng)}" value="${_upper(rng)}" />',
        f'<input type="password" name="{_ident(rng)}" value="">',
        f"<{tag}>{_placeholder(rng)}</{tag}>",
        f'- name: {_upper(rng)}_PASSWORD', f"  value: {_reference(rng)}",
        f'{{name: "{_key(rng)}", value: {_expr(rng)}}}',
    ))


_FAMILIES: tuple[Callable[[random.Random], str], ...] = (
    _assignment, _assignment, _assignment, _prose, _redis_url, _header, _diff,
    _authorization, _provider, _command, _markup,
)


def near_miss_lines(seed: int = 41, n: int = 10_000, share: float = 0.6) -> Iterator[str]:
    """``n`` lines, ``share`` of them near misses (the rest prose), none a credential."""
    rng = random.Random(seed)
    for _ in range(n):
        if rng.random() < share:
            yield rng.choice(_FAMILIES)(rng)
        else:
            yield " ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 14)))
