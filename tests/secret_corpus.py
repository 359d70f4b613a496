"""Generated corpora for the extended rules: secrets in many shapes, keys, benign text.

Everything is built from a seed at test time (no fixtures with credentials in
the repository).  Three generators:

* :func:`secret_lines`: provider credentials × the shapes reviewers and logs
  produce (assignments, JSON, YAML, env, URLs, headers, quoted, markdown
  tables, diffs, log lines, numbered, coloured, ...); each item carries the
  secret so a test can check it does not survive;
* :func:`pem_cases`: real private keys (RSA, EC, Ed25519, OpenSSH, encrypted)
  in every shape of body line and marker, with decoy END markers; each
  output line is tagged as body or not;
* :func:`benign_lines`: ordinary text: source, diffs, lockfiles, prose, git
  SHAs, UUIDs, integrity strings, base64 images, documentation placeholders.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
B32 = string.ascii_uppercase + "234567"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"


def rand(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _mixed(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    """A random token with at least one digit, one upper and one lower letter."""
    while True:
        s = rand(rng, n, alphabet)
        if (
            any(c.isdigit() for c in s)
            and any(c.isupper() for c in s)
            and any(c.islower() for c in s)
        ):
            return s


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _jwt(rng: random.Random) -> str:
    header = {"alg": rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    payload = {
        "sub": str(rng.randrange(10**9)),
        "name": rand(rng, 8, string.ascii_letters),
        "iat": 1700000000 + rng.randrange(10**6),
    }
    sig = bytes(rng.randrange(256) for _ in range(32))
    return ".".join(
        [_b64url(json.dumps(header).encode()), _b64url(json.dumps(payload).encode()), _b64url(sig)]
    )


def _password(rng: random.Random) -> str:
    words = [
        "Tr0ub4dor",
        "hunter",
        "correct",
        "horse",
        "Summer",
        "dragon",
        "Passw0rd",
        "letmein",
        "monkey",
        "S3cure",
        "Winter",
        "qwerty",
        "battery",
        "staple",
    ]
    return rng.choice(
        [
            lambda: rng.choice(words) + str(rng.randrange(10, 9999)) + rng.choice("!@#$%&*"),
            lambda: rand(rng, rng.randint(10, 24), ALNUM + "!@#%^&*-_+"),
            lambda: rng.choice(words) + str(rng.randrange(2, 99)),
            lambda: _mixed(rng, 16),
        ]
    )()


# --------------------------------------------------------------------------- #
# Providers: (name, make secret, key names it is stored under, bare-able).
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class Provider:
    name: str
    make: Callable[[random.Random], str]
    keys: tuple[str, ...]
    bare: bool = True  # the shape alone is evidence (may appear without a key)
    urls: bool = False  # a URL that carries the secret (no key/value wrapping)


PROVIDERS: tuple[Provider, ...] = (
    Provider(
        "aws-access-key-id",
        lambda r: rng_choice(r, ["AKIA", "ASIA"]) + rand(r, 16, B32),
        ("AWS_ACCESS_KEY_ID", "aws_access_key_id", "AccessKeyId", "accessKeyId"),
    ),
    Provider(
        "aws-temporary",
        lambda r: "ASIA" + rand(r, 16, B32),
        ("AWS_ACCESS_KEY_ID", "aws_access_key_id", "AccessKeyId"),
    ),
    Provider(
        "aws-secret",
        lambda r: _mixed(r, 40, B64),
        (
            "AWS_SECRET_ACCESS_KEY",
            "aws_secret_access_key",
            "SecretAccessKey",
            "secretAccessKey",
            "aws-secret-access-key",
        ),
        bare=False,
    ),
    Provider("github-ghp", lambda r: "ghp_" + _mixed(r, 36), ("GITHUB_TOKEN", "GH_TOKEN", "token")),
    Provider("github-ghr", lambda r: "ghr_" + _mixed(r, 36), ("GITHUB_REFRESH_TOKEN", "refresh")),
    Provider("github-ghs", lambda r: "ghs_" + _mixed(r, 36), ("GITHUB_TOKEN", "installation")),
    Provider(
        "github-fine-grained",
        lambda r: "github_pat_" + _mixed(r, 22) + "_" + _mixed(r, 59),
        ("GITHUB_PAT", "gh_pat", "token"),
    ),
    Provider(
        "gitlab",
        lambda r: "glpat-" + _mixed(r, 20, URLSAFE),
        ("GITLAB_TOKEN", "CI_JOB_TOKEN", "private-token"),
    ),
    Provider(
        "slack-bot",
        lambda r: (
            f"xoxb-{r.randrange(10**11, 10**12)}-{r.randrange(10**12, 10**13)}-{_mixed(r, 24)}"
        ),
        ("SLACK_BOT_TOKEN", "slack_token"),
    ),
    Provider(
        "slack-user",
        lambda r: (
            f"xoxp-{r.randrange(10**11, 10**12)}-"
            f"{r.randrange(10**11, 10**12)}-{r.randrange(10**12, 10**13)}-{rand(r, 32, HEX)}"
        ),
        ("SLACK_USER_TOKEN", "token"),
    ),
    Provider(
        "slack-webhook",
        lambda r: (
            "https://hooks.slack.com/services/T"
            + rand(r, 8, UPPER_DIGITS)
            + "/B"
            + rand(r, 10, UPPER_DIGITS)
            + "/"
            + _mixed(r, 24)
        ),
        ("SLACK_WEBHOOK_URL", "webhook"),
        urls=True,
    ),
    Provider(
        "stripe-live",
        lambda r: rng_choice(r, ["sk_live_", "rk_live_"]) + _mixed(r, 99),
        ("STRIPE_SECRET_KEY", "stripe_key", "apiKey"),
    ),
    Provider("stripe-short", lambda r: "sk_live_" + _mixed(r, 24), ("STRIPE_API_KEY",)),
    Provider(
        "openai-svcacct",
        lambda r: "sk-svcacct-" + _mixed(r, 58, URLSAFE) + "T3BlbkFJ" + _mixed(r, 58, URLSAFE),
        ("OPENAI_API_KEY", "openai_key"),
    ),
    Provider(
        "openai-admin",
        lambda r: "sk-admin-" + _mixed(r, 58, URLSAFE) + "T3BlbkFJ" + _mixed(r, 58, URLSAFE),
        ("OPENAI_ADMIN_KEY",),
    ),
    Provider("openai-project", lambda r: "sk-proj-" + _mixed(r, 100, URLSAFE), ("OPENAI_API_KEY",)),
    Provider(
        "anthropic",
        lambda r: "sk-ant-api03-" + _mixed(r, 93, URLSAFE) + "AA",
        ("ANTHROPIC_API_KEY", "x-api-key"),
    ),
    Provider(
        "google-oauth",
        lambda r: "ya29." + _mixed(r, 120, URLSAFE),
        ("access_token", "GOOGLE_OAUTH_TOKEN"),
    ),
    Provider(
        "google-client-secret",
        lambda r: "GOCSPX-" + _mixed(r, 28, URLSAFE),
        ("client_secret", "GOOGLE_CLIENT_SECRET"),
    ),
    Provider("google-api", lambda r: "AIza" + _mixed(r, 35, URLSAFE), ("GOOGLE_API_KEY", "key")),
    Provider("jwt", _jwt, ("id_token", "JWT", "session")),
    Provider(
        "npm", lambda r: "npm_" + _mixed(r, 36), ("NPM_TOKEN", "//registry.npmjs.org/:_authToken")
    ),
    Provider(
        "pypi",
        lambda r: "pypi-AgEIcHlwaS5vcmc" + _mixed(r, 150, URLSAFE),
        ("PYPI_TOKEN", "password", "TWINE_PASSWORD"),
    ),
    Provider(
        "sendgrid",
        lambda r: "SG." + _mixed(r, 22, URLSAFE) + "." + _mixed(r, 43, URLSAFE),
        ("SENDGRID_API_KEY",),
    ),
    Provider("twilio-api-key", lambda r: "SK" + rand(r, 32, HEX), ("TWILIO_API_KEY",)),
    Provider(
        "twilio-auth-token",
        lambda r: rand(r, 32, HEX),
        ("TWILIO_AUTH_TOKEN", "twilio_auth_token", "authToken"),
        bare=False,
    ),
    Provider(
        "azure-storage",
        lambda r: (
            "DefaultEndpointsProtocol=https;AccountName=acct"
            + rand(r, 6, HEX)
            + ";AccountKey="
            + base64.b64encode(bytes(r.randrange(256) for _ in range(64))).decode()
            + ";EndpointSuffix=core.windows.net"
        ),
        ("AZURE_STORAGE_CONNECTION_STRING", "connectionString"),
        urls=True,
    ),
    Provider(
        "url-postgres",
        lambda r: f"postgres://admin:{_password(r)}@db.internal:5432/app",
        ("DATABASE_URL",),
        urls=True,
    ),
    Provider(
        "url-any-scheme",
        lambda r: (
            rng_choice(r, ["mysql", "redis", "amqp", "mongodb+srv", "https", "ftp", "smtp", "ldap"])
            + f"://{rand(r, 6, string.ascii_lowercase)}:"
            f"{_password(r)}@{rand(r, 8, string.ascii_lowercase)}.example.net/x"
        ),
        ("URL", "broker_url"),
        urls=True,
    ),
    Provider(
        "password",
        _password,
        (
            "password",
            "PASSWORD",
            "DB_PASSWORD",
            "db_password",
            "dbPassword",
            "passwd",
            "MYSQL_ROOT_PASSWORD",
            "admin_pass",
            "pwd",
        ),
        bare=False,
    ),
    Provider(
        "generic-secret",
        lambda r: _mixed(r, 32),
        (
            "secret",
            "SECRET_KEY",
            "client_secret",
            "api_key",
            "apiKey",
            "API_KEY",
            "auth_token",
            "access_token",
            "private_key",
            "x-api-key",
            "encryption_key",
        ),
        bare=False,
    ),
    Provider(
        "bearer",
        lambda r: rng_choice(r, ["bearer ", "Bearer ", "BEARER "]) + _mixed(r, 40, URLSAFE + "."),
        ("Authorization",),
        bare=True,
    ),
    Provider(
        "basic-auth",
        lambda r: (
            "Basic "
            + base64.b64encode(
                f"{rand(r, 6, string.ascii_lowercase)}:{_password(r)}".encode()
            ).decode()
        ),
        ("Authorization", "authorization", "Proxy-Authorization"),
        bare=False,
    ),
)


def rng_choice(rng: random.Random, items: list[str]) -> str:
    return rng.choice(items)


# --------------------------------------------------------------------------- #
# Shapes: (key, secret) -> one line.
# --------------------------------------------------------------------------- #
def _shapes(rng: random.Random) -> list[tuple[str, Callable[[str, str], str]]]:
    ts = "2025-03-04T05:06:07Z"
    return [
        ("env", lambda k, v: f"{k}={v}"),
        ("export", lambda k, v: f'export {k}="{v}"'),
        ("assign-py", lambda k, v: f'{k} = "{v}"'),
        ("assign-js", lambda k, v: f"const {k.replace('-', '_')} = '{v}';"),
        ("json", lambda k, v: json.dumps({k: v})),
        ("json-indented", lambda k, v: f'    "{k}": "{v}",'),
        ("yaml", lambda k, v: f"  {k}: {v}"),
        ("yaml-quoted", lambda k, v: f'{k}: "{v}"'),
        ("toml", lambda k, v: f'{k} = "{v}"'),
        ("ini", lambda k, v: f"{k} = {v}"),
        ("header", lambda k, v: f"{k}: {v}"),
        ("curl-header", lambda k, v: f"curl -H '{k}: {v}' https://api.example.com/v1"),
        ("url-query", lambda k, v: f"GET https://api.example.com/v1/items?{k}={v}&page=2"),
        ("md-table", lambda k, v: f"| `{k}` | `{v}` | rotated |"),
        ("diff-add", lambda k, v: f"+{k}={v}"),
        ("diff-remove", lambda k, v: f'-    {k}: "{v}"'),
        ("log", lambda k, v: f"{ts} INFO  app.config loaded {k}={v} region=eu-west-1"),
        ("log-json", lambda k, v: json.dumps({"ts": ts, "level": "debug", k: v})),
        ("quote", lambda k, v: f"> {k}={v}"),
        ("list", lambda k, v: f"- {k}: {v}"),
        ("numbered", lambda k, v: f"{rng.randint(1, 999):6d}\t{k}={v}"),
        ("grep-n", lambda k, v: f"config/settings.py:{rng.randint(1, 999)}:{k} = '{v}'"),
        ("ansi", lambda k, v: f"\x1b[32m{k}\x1b[0m=\x1b[33m{v}\x1b[0m"),
        ("docker", lambda k, v: f"docker run -e {k}={v} app:latest"),
        ("k8s", lambda k, v: f'        - name: {k}\n          value: "{v}"'),
    ]


def _bare_shapes(rng: random.Random) -> list[tuple[str, Callable[[str], str]]]:
    return [
        ("prose", lambda v: f"The reviewer pasted {v} into the issue by mistake."),
        ("backticks", lambda v: f"Found `{v}` in the build log."),
        ("quoted", lambda v: f'"{v}"'),
        ("alone", lambda v: v),
        ("table", lambda v: f"| token | {v} |"),
        ("log", lambda v: f"2025-01-01 12:00:00,123 DEBUG using credential {v} for upload"),
        ("diff", lambda v: f"+        {v}"),
    ]


@dataclass(frozen=True)
class SecretCase:
    provider: str
    shape: str
    text: str  # one or more lines
    secret: str


def secret_lines(seed: int = 13, per_pair: int = 1) -> Iterator[SecretCase]:
    """Every provider in every shape (``per_pair`` fresh secrets each)."""
    rng = random.Random(seed)
    shapes = _shapes(rng)
    bare = _bare_shapes(rng)
    for p in PROVIDERS:
        for _ in range(per_pair):
            for shape, fn in shapes:
                key = rng.choice(p.keys)
                secret = p.make(rng)
                if shape == "url-query" and p.urls:
                    continue  # a URL inside a query string is another shape
                yield SecretCase(p.name, shape, fn(key, secret), _core(p, secret))
            if p.bare or p.urls:
                for shape, bfn in bare:
                    secret = p.make(rng)
                    yield SecretCase(p.name, "bare-" + shape, bfn(secret), _core(p, secret))


def _core(p: Provider, secret: str) -> str:
    """The part of a generated value that must not survive."""
    if p.name == "azure-storage":
        return secret.split("AccountKey=")[1].split(";")[0]
    if p.urls and "://" in secret and "@" in secret:
        return secret.split("://", 1)[1].rsplit("@", 1)[0].split(":", 1)[1]
    if p.name == "basic-auth":
        return secret.split(" ", 1)[1]
    if p.name == "bearer":
        return secret.split(" ", 1)[1]
    return secret


# --------------------------------------------------------------------------- #
# Private keys.
# --------------------------------------------------------------------------- #
def generate_keys() -> dict[str, list[str]]:
    """Real private keys (PEM text lines), generated now."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

    enc = serialization.Encoding.PEM
    pkcs8 = serialization.PrivateFormat.PKCS8
    trad = serialization.PrivateFormat.TraditionalOpenSSL
    ossh = serialization.PrivateFormat.OpenSSH
    none = serialization.NoEncryption()
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    ed_key = ed25519.Ed25519PrivateKey.generate()
    keys = {
        "rsa-pkcs1": rsa_key.private_bytes(enc, trad, none),
        "rsa-pkcs8": rsa_key.private_bytes(enc, pkcs8, none),
        "rsa-openssh": rsa_key.private_bytes(enc, ossh, none),
        "ec-sec1": ec_key.private_bytes(enc, trad, none),
        "ec-pkcs8": ec_key.private_bytes(enc, pkcs8, none),
        "ec-openssh": ec_key.private_bytes(enc, ossh, none),
        "ed25519-pkcs8": ed_key.private_bytes(enc, pkcs8, none),
        "ed25519-openssh": ed_key.private_bytes(enc, ossh, none),
        "rsa-pkcs8-encrypted": rsa_key.private_bytes(
            enc, pkcs8, serialization.BestAvailableEncryption(b"correct horse")
        ),
    }
    return {name: pem.decode().splitlines() for name, pem in keys.items()}


ZWSP = "\u200b"
NBSP = "\u00a0"


def marker_variants() -> dict[str, Callable[[str], str]]:
    """Ways the BEGIN/END markers get mangled."""

    def dashes(n: int, ch: str = "-") -> Callable[[str], str]:
        return lambda m: m.replace("-----", ch * n)

    return {
        "plain": lambda m: m,
        "lower": str.lower,
        "four-dashes": dashes(4),
        "three-dashes": dashes(3),
        "many-dashes": dashes(9),
        "zwsp": lambda m: (
            m.replace("BEGIN", "BE" + ZWSP + "GIN")
            .replace("END", "E" + ZWSP + "ND")
            .replace(" ", ZWSP + " ")
        ),
        "nbsp": lambda m: m.replace(" ", NBSP),
        "tab": lambda m: m.replace(" ", "\t"),
        "fullwidth-dashes": dashes(5, "\uff0d"),
        "em-dashes": dashes(5, "\u2014"),
        "en-dashes": dashes(3, "\u2013"),
        "minus-signs": dashes(5, "\u2212"),
        "bom-and-spaces": lambda m: "\ufeff" + m.replace(" ", "\u2002"),
        "soft-hyphen": lambda m: m.replace("PRIVATE", "PRI\u00adVATE"),
        "mixed-case": lambda m: "".join(c.lower() if i % 2 else c for i, c in enumerate(m)),
    }


def _rewrap(body: list[str], width: int) -> list[str]:
    text = "".join(body)
    return [text[i : i + width] for i in range(0, len(text), width)]


def body_shapes() -> dict[str, Callable[[int, str], str]]:
    """Decorations of a body line (index, text) -> line."""
    esc = "\x1b"
    return {
        "plain": lambda i, s: s,
        "table": lambda i, s: f"| {i + 1} | {s} |",
        "table-one-cell": lambda i, s: f"|{s}|",
        "cat-n": lambda i, s: f"{i + 1:6d}\t{s}",
        "grep-n": lambda i, s: f"{i + 1}:{s}",
        "grep-n-space": lambda i, s: f"{i + 1}: {s}",
        "grep-file": lambda i, s: f"secrets/deploy.pem:{i + 1}:{s}",
        "ansi": lambda i, s: f"{esc}[31m{s}{esc}[0m",
        "ansi-numbered": lambda i, s: f"{esc}[2m{i + 1:4d}{esc}[0m {esc}[1;33m{s}{esc}[0m",
        "comment-hash": lambda i, s: f"{s}  # line {i + 1} of the key",
        "comment-slash": lambda i, s: f"{s} // do not commit",
        "quoted": lambda i, s: f'"{s}"',
        "quoted-concat": lambda i, s: f'    "{s}\\n" +',
        "json-list": lambda i, s: f'  "{s}",',
        "single-quoted": lambda i, s: f"'{s}'",
        "list-dash": lambda i, s: f"- {s}",
        "list-star": lambda i, s: f"* {s}",
        "list-number": lambda i, s: f"{i + 1}. {s}",
        "blockquote": lambda i, s: f"> {s}",
        "blockquote-2": lambda i, s: f"> > {s}",
        "diff-add": lambda i, s: f"+{s}",
        "diff-remove": lambda i, s: f"-{s}",
        "diff-context": lambda i, s: f" {s}",
        "indent-4": lambda i, s: f"    {s}",
        "indent-tab": lambda i, s: f"\t\t{s}",
        "yaml-block": lambda i, s: f"      {s}",
        "html": lambda i, s: f"<code>{s}</code><br>",
        "trailing-spaces": lambda i, s: s + "   \r",
    }


@dataclass(frozen=True)
class PemCase:
    name: str
    lines: tuple[tuple[str, bool], ...]  # (line, is a body line)


def pem_cases(keys: dict[str, list[str]], seed: int = 17) -> Iterator[PemCase]:
    """Keys × body shapes × marker variants, rewrapped, one-line JSON, decoys."""
    rng = random.Random(seed)
    shapes = body_shapes()
    markers = marker_variants()
    for kname, lines in keys.items():
        begin, body, end = lines[0], lines[1:-1], lines[-1]
        header = [ln for ln in body if ":" in ln or not ln]
        core = [ln for ln in body if ln and ":" not in ln]
        for sname, shape in shapes.items():
            mname = rng.choice(list(markers))
            mk = markers[mname]
            out = [(shape(0, mk(begin)), False)]
            out += [(shape(i + 1, h), False) for i, h in enumerate(header)]
            out += [(shape(i + 1, s), True) for i, s in enumerate(core)]
            out.append((shape(len(body) + 1, mk(end)), False))
            yield PemCase(f"{kname}/{sname}/{mname}", tuple(out))
        for mname, mk in markers.items():
            out = [(mk(begin), False)] + [(s, True) for s in core] + [(mk(end), False)]
            yield PemCase(f"{kname}/markers/{mname}", tuple(header_first(out, header)))
        for width in (4, 8, 16, 33, 48, 64, 76, 100, 1000):
            wrapped = _rewrap(core, width)
            shape = shapes[rng.choice(list(shapes))]
            out = [(shape(0, begin), False)] + [(shape(i, s), True) for i, s in enumerate(wrapped)]
            out.append((shape(0, end), False))
            yield PemCase(f"{kname}/rewrap-{width}", tuple(out))
        pem_text = "\n".join(lines) + "\n"
        yield PemCase(
            f"{kname}/json-one-line",
            ((json.dumps({"type": "service_account", "private_key": pem_text}), True),),
        )
        yield PemCase(f"{kname}/json-field", ((f'  "private_key": {json.dumps(pem_text)},', True),))
        # Decoys: an END in the middle, then separators, then the rest of the body.
        for seps in (1, 6, 25):
            if len(core) < 2:
                continue
            cut = max(1, len(core) // 2)
            sep_lines = [
                rng.choice(["", "---", "```", "|---|---|", "   ", "...", "* * *"])
                for _ in range(seps)
            ]
            mk = markers[rng.choice(list(markers))]
            out = [(mk(begin), False)] + [(s, True) for s in core[:cut]]
            out.append((mk(end), False))
            out += [(s, False) for s in sep_lines]
            shape = shapes[rng.choice(["plain", "table", "cat-n", "blockquote", "indent-4"])]
            out += [(shape(i, s), True) for i, s in enumerate(core[cut:])]
            out.append((mk(end), False))
            yield PemCase(f"{kname}/decoy-end-{seps}", tuple(out))


def header_first(out: list[tuple[str, bool]], header: list[str]) -> list[tuple[str, bool]]:
    if not header:
        return out
    return [out[0]] + [(h, False) for h in header] + out[1:]


# --------------------------------------------------------------------------- #
# Ordinary text.
# --------------------------------------------------------------------------- #
_WORDS = [
    "the",
    "a",
    "of",
    "to",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "with",
    "on",
    "this",
    "be",
    "are",
    "by",
    "not",
    "or",
    "from",
    "at",
    "an",
    "will",
    "function",
    "return",
    "value",
    "error",
    "check",
    "test",
    "file",
    "line",
    "change",
    "should",
    "could",
    "would",
    "must",
    "handler",
    "request",
    "response",
    "config",
    "parse",
    "buffer",
    "stream",
    "record",
    "field",
    "index",
    "cache",
    "risk",
    "token",
    "key",
    "secret",
    "password",
    "auth",
    "session",
    "header",
    "private",
    "public",
    "bearer",
    "begin",
    "end",
    "null",
    "timeout",
    "retry",
    "review",
]

_CODE = [
    "def check_password(password: str) -> bool:",
    "    return bcrypt.checkpw(password.encode(), self.password_hash)",
    "password = getpass.getpass('Password: ')",
    "token = request.headers.get('Authorization', '').removeprefix('Bearer ')",
    "self.token = token",
    "api_key = os.environ['API_KEY']",
    "const apiKey = process.env.API_KEY;",
    'secret := os.Getenv("CLIENT_SECRET")',
    "if err := validateToken(ctx, token); err != nil {",
    "max_tokens: int = 4096",
    "token_count = len(tokens)",
    "password_min_length = 12",
    "SECRET_KEY = env('DJANGO_SECRET_KEY')",
    "auth = HTTPBasicAuth(username, password)",
    "client_secret: Optional[str] = None",
    "export GITHUB_TOKEN=$(gh auth token)",
    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    "password: ${DB_PASSWORD}",
    'password: "{{ vault_db_password }}"',
    '    "password": "<your-password>",',
    "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",
    "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
    "STRIPE_KEY=sk_live_xxxxxxxx",
    'stripe.api_key = "sk_test_xxxxxxxxxxxxxxxxxxxxxxxx"',
    "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "Authorization: Bearer <token>",
    "Authorization: Bearer $TOKEN",
    'curl -H "Authorization: Bearer ${GITHUB_TOKEN}" https://api.github.com/user',
    "DATABASE_URL=postgres://user:password@localhost:5432/app",
    "redis://:${REDIS_PASSWORD}@cache:6379/0",
    "password: ********",
    'token: "REDACTED"',
    "Use `ghp_` prefixed tokens for classic PATs.",
    "assert response.status_code == 401, 'missing bearer token'",
    "for (let i = 0; i < tokens.length; i++) { total += tokens[i].length; }",
    '    private static final String TOKEN_HEADER = "X-Auth-Token";',
    "key: value",
    "timeout: 30s",
    "image: ghcr.io/example/app:1.4.2",
    "  - name: Checkout",
    "    uses: actions/checkout@v4",
]


def _integrity(rng: random.Random) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(rand(rng, 12).encode()).digest()).decode()


def benign_lines(seed: int = 29, n: int = 20000) -> list[str]:
    """About ``n`` lines of ordinary text that holds no credential."""
    rng = random.Random(seed)
    out: list[str] = []
    png = base64.b64encode(bytes(rng.randrange(256) for _ in range(300))).decode()
    while len(out) < n:
        k = rng.randrange(14)
        if k == 0:
            out.append(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(5, 18))) + ".")
        elif k == 1:
            out.append(rng.choice(_CODE))
        elif k == 2:
            sha = hashlib.sha1(rand(rng, 8).encode()).hexdigest()
            out.append(
                rng.choice(
                    [
                        f"commit {sha}",
                        f"{sha[:7]} fix: handle empty token list",
                        f"index {sha[:7]}..{sha[7:14]} 100644",
                        sha,
                    ]
                )
            )
        elif k == 3:
            out.append(
                rng.choice(
                    [
                        f"id: {uuid.UUID(int=rng.getrandbits(128))}",
                        f'"requestId": "{uuid.UUID(int=rng.getrandbits(128))}",',
                    ]
                )
            )
        elif k == 4:
            name = rand(rng, 6, string.ascii_lowercase)
            out += [
                f'    "node_modules/{name}": {{',
                f'      "version": "{rng.randint(0, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",',
                f'      "resolved": "https://registry.npmjs.org/{name}/-/{name}-1.0.0.tgz",',
                f'      "integrity": "{_integrity(rng)}",',
                "    },",
            ]
        elif k == 5:
            out.append(
                f"{rand(rng, 8, string.ascii_lowercase)}@^1.0.0:\n  integrity {_integrity(rng)}"
            )
        elif k == 6:
            digest = hashlib.sha256(rand(rng, 9).encode()).hexdigest()
            out.append(f'    {{file = "pkg-1.0.tar.gz", hash = "sha256:{digest}"}},')
        elif k == 7:
            out.append(f"![diagram](data:image/png;base64,{png})")
        elif k == 8:
            out.append(
                rng.choice(
                    [
                        "+    if not token:",
                        "-        raise ValueError('bad key')",
                        "@@ -12,7 +12,9 @@ def refresh_token(session):",
                        "diff --git a/auth/session.py b/auth/session.py",
                        "--- a/auth/session.py",
                        "+++ b/auth/session.py",
                    ]
                )
            )
        elif k == 9:
            out.append(
                f"- [P{rng.randint(1, 3)}] src/auth_{rng.randint(0, 99)}.py:{rng.randint(1, 999)} "
                + " ".join(rng.choice(_WORDS) for _ in range(rng.randint(5, 12)))
            )
        elif k == 10:
            out.append(
                rng.choice(
                    [
                        "| Field | Type | Notes |",
                        "|---|---|---|",
                        "| `token` | string | the session token |",
                        "| `password` | string | hashed with bcrypt |",
                    ]
                )
            )
        elif k == 11:
            out.append(
                f"2025-02-0{rng.randint(1, 9)}T10:00:00Z INFO request_id="
                f"{uuid.UUID(int=rng.getrandbits(128)).hex} status=200 "
                f"duration_ms={rng.randint(1, 999)}"
            )
        elif k == 12:
            out.append(
                rng.choice(
                    [
                        "---",
                        "------",
                        "* * *",
                        "-- ",
                        "---------- ----------",
                        "=====",
                        "Summary — the token cache is safe.",
                        "It’s a “small” change… mostly.",
                    ]
                )
            )
        else:
            out.append("")
    return out
