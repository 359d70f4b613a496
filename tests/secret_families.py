"""Generated credential lines for the families the extended set must close.

Each family crosses a secret (random, from a seed) with the contexts it is
written in: quoting, separators, key casing, and the file formats around it
(JSON, escaped JSON, YAML, env files, INI, shell, PowerShell, XML, URLs,
command lines).  The tests draw from these crossings, never from a fixed
list of lines, so a shape fixed for one secret holds for all.
"""

from __future__ import annotations

import base64
import random
import re
import string
from collections.abc import Callable, Iterator
from urllib.parse import quote

from council_filters.redaction.secrets.validators import case_changes

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"


def _rand(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    need = [t for t in (str.isdigit, str.isupper, str.islower) if any(t(c) for c in alphabet)]
    while True:
        s = "".join(rng.choice(alphabet) for _ in range(n))
        if all(any(t(c) for c in s) for t in need):
            return s


def aws_secret_key(rng: random.Random) -> str:
    return _rand(rng, 40, B64)


def aws_session_token(rng: random.Random) -> str:
    """An STS session token: a fixed binary preamble, then random bytes, base64."""
    head = rng.choice([b"\x21\x0a\x09origin_ec\x10", b"\x17\x0a\x06\x65r/aws\x10", b"\x15\x0a\x06"
                       b"er/aws\x10", b"\x01\x0a\x03aws\x10"])
    n = rng.choice([200, 300, 420, 600, 800])
    raw = head + bytes(rng.randrange(256) for _ in range(n))
    return base64.b64encode(raw).decode()


def password(rng: random.Random) -> str:
    core = _rand(rng, rng.randrange(8, 20))
    punct = rng.choice(["", "!", "#", "%", "^", "*", "-", "_", "+", "~"])
    pos = rng.randrange(len(core))
    return core[:pos] + punct + core[pos:]


def _case(rng: random.Random, word: str) -> str:
    return rng.choice([word.lower(), word.upper(), word.title(), word])


# --------------------------------------------------------------------------- #
# Contexts: a key (already cased) and a value, written in one format.
# --------------------------------------------------------------------------- #
Context = Callable[[str, str], str]


def _json_escape(s: str) -> str:
    return s.replace("/", "\\/") if "/" in s and s.count("/") == 1 else s


def contexts() -> dict[str, Context]:
    return {
        "env": lambda k, v: f"{k.upper()}={v}",
        "env-dq": lambda k, v: f'{k.upper()}="{v}"',
        "env-sq": lambda k, v: f"{k.upper()}='{v}'",
        "export": lambda k, v: f'export {k.upper()}="{v}"',
        "dotenv-spaces": lambda k, v: f"{k.upper()} = {v}",
        "ini": lambda k, v: f"{k.lower()} = {v}",
        "ini-colon": lambda k, v: f"{k.lower()}: {v}",
        "yaml": lambda k, v: f"  {k}: {v}",
        "yaml-dq": lambda k, v: f'  {k}: "{v}"',
        "yaml-list": lambda k, v: f"  - {k.upper()}={v}",
        "json": lambda k, v: f'  "{k}": "{v}",',
        "json-compact": lambda k, v: f'{{"{k}":"{v}"}}',
        "json-escaped": lambda k, v: f'"body": "{{\\"{k}\\": \\"{v}\\"}}"',
        "json-escaped-compact": lambda k, v: f'{{\\"{k}\\":\\"{v}\\"}}',
        "python-kw": lambda k, v: f'client = connect(host="db", {k.lower()}="{v}")',
        "python-dict": lambda k, v: f"CONFIG = {{'{k.lower()}': '{v}'}}",
        "js-object": lambda k, v: f"const cfg = {{ {k}: '{v}' }};",
        "go": lambda k, v: f'\t{k} := "{v}"',
        "ruby-hash": lambda k, v: f"  :{k.lower()} => '{v}',",
        "toml": lambda k, v: f'{k.lower()} = "{v}"',
        "terraform": lambda k, v: f'  {k.lower()}   = "{v}"',
        "powershell": lambda k, v: f'$env:{k.upper()} = "{v}"',
        "cmd-set": lambda k, v: f"set {k.upper()}={v}",
        "docker-env": lambda k, v: f"docker run -e {k.upper()}={v} app",
        "xml-element": lambda k, v: f"  <{k}>{v}</{k}>",
        "xml-attr": lambda k, v: f'  <add key="{k}" value="{v}" />',
        "properties": lambda k, v: f"app.{k.lower()}={v}",
        "query": lambda k, v: f"GET /login?user=ops&{k.lower()}={v}&next=/",
        "table": lambda k, v: f"| {k} | {v} |",
        "log-kv": lambda k, v: f"2024-05-01T10:00:00Z INFO request {k.lower()}={v} status=200",
    }


def _aws_secret_keys(rng: random.Random) -> list[str]:
    return [
        "aws_secret_access_key", "SecretAccessKey", "secretAccessKey", "AWS_SECRET_ACCESS_KEY",
        "aws-secret-access-key", "secret_key", "SecretKey", "aws_secret_key",
    ]


def _session_keys(rng: random.Random) -> list[str]:
    return [
        "aws_session_token", "SessionToken", "sessionToken", "AWS_SESSION_TOKEN",
        "aws_security_token", "SecurityToken", "X-Amz-Security-Token", "session_token",
    ]


def _password_keys(rng: random.Random) -> list[str]:
    return ["password", "db_password", "Password", "PASSWORD", "passwd", "pwd", "admin_pass",
            "secret", "client_secret", "api_secret", "token", "auth_token", "access_token",
            "api_token"]


def family_lines(family: str, seed: int = 7, per_shape: int = 2) -> Iterator[tuple[str, str]]:
    """``(shape, line)`` pairs of one family, every context crossed with its keys."""
    rng = random.Random(f"{family}:{seed}")
    ctx = contexts()
    if family == "aws-secret-json":
        for k in _aws_secret_keys(rng):
            for name in ("json", "json-compact", "json-escaped", "json-escaped-compact",
                         "yaml", "yaml-dq", "ini", "env", "python-dict", "js-object",
                         "xml-element", "powershell", "toml"):
                for _ in range(per_shape):
                    yield f"{name}/{k}", ctx[name](k, aws_secret_key(rng))
        for _ in range(per_shape):
            secret = aws_secret_key(rng)
            yield "sts-json", f'        "SecretAccessKey": "{secret}",'
            yield "cli-configure", f"AWS Secret Access Key [None]: {secret}"
            key_id = "AKIA" + _rand(rng, 16, string.ascii_uppercase + "234567")
            yield "credentials-csv", f"ops,{key_id},{secret}"
    elif family == "aws-session-token":
        for k in _session_keys(rng):
            for name in ("json", "json-compact", "json-escaped", "yaml", "yaml-dq", "ini",
                         "env", "env-dq", "export", "powershell", "cmd-set", "docker-env",
                         "xml-element", "query", "python-kw", "toml"):
                for _ in range(per_shape):
                    yield f"{name}/{k}", ctx[name](k, aws_session_token(rng))
        for _ in range(per_shape):
            tok = aws_session_token(rng)
            yield "header", f"X-Amz-Security-Token: {tok}"
            yield "cli-flag", f"aws configure set aws_session_token {tok}"
            yield "url-encoded", ("https://b.s3.amazonaws.com/o?X-Amz-Security-Token="
                                  + tok.replace("/", "%2F").replace("+", "%2B").replace("=", "%3D")
                                  + "&X-Amz-Signature=abc")
            yield "bare", f"token was {tok}"
            yield "wrapped-json", f'"Credentials": {{"SessionToken": "{tok}", "Expiration": "x"}}'
    elif family == "redis-url":
        for _ in range(per_shape):
            pw = password(rng)
            host = rng.choice(["localhost", "cache.internal", "10.0.0.5", "redis-master.prod.svc",
                               "[::1]"])
            port = rng.choice([":6379", ":6380", "", ":16379"])
            db = rng.choice(["", "/0", "/3"])
            for scheme in ("redis", "rediss", "redis+sentinel", "valkey", "redis-socket"):
                for user in ("", "default", "app_user"):
                    url = f"{scheme}://{user}:{pw}@{host}{port}{db}"
                    yield f"{scheme}/user={bool(user)}", url
                    yield f"{scheme}/env", f"REDIS_URL={url}"
                    yield f"{scheme}/json", f'"cache": {{"url": "{url}"}}'
                    yield f"{scheme}/code", f'r = redis.from_url("{url}")'
            yield "redis-conf", f"requirepass {pw}"
            yield "redis-conf-master", f"masterauth {pw}"
            yield "redis-cli-a", f"redis-cli -h {host.strip('[]')} -p 6379 -a {pw} ping"
            yield "redis-cli-pass", f"redis-cli --pass {pw} --no-auth-warning"
            yield "redis-server-flag", f"redis-server --requirepass {pw}"
            yield "redis-auth-cmd", f"127.0.0.1:6379> AUTH {pw}"
            yield "redis-auth-user-cmd", f"127.0.0.1:6379> AUTH default {pw}"
            yield "redis-password-env", f"REDIS_PASSWORD={pw}"
    elif family == "assignment":
        for k in _password_keys(rng):
            for name, c in ctx.items():
                for _ in range(per_shape):
                    v = password(rng) if "pass" in k.lower() or "pwd" in k.lower() else _rand(
                        rng, rng.randrange(20, 40))
                    yield f"{name}/{k}", c(k, v)
        for _ in range(per_shape):
            pw = password(rng)
            yield "netrc", f"machine api.example.net login deploy password {pw}"
            yield "sql-identified", f"CREATE USER 'app'@'%' IDENTIFIED BY '{pw}';"
            yield "sql-password", f"ALTER ROLE app WITH LOGIN PASSWORD '{pw}';"
            yield "argv-list", f'cmd = ["mysql", "-u", "root", "--password", "{pw}"]'
            yield "mysql-p", f"mysql -u root -p{pw} appdb"
            yield "html-input", f'<input type="password" name="password" value="{pw}">'
            yield "spring-prop", f'<property name="password" value="{pw}"/>'
            yield "conn-string", f"Server=db;Database=app;User Id=sa;Password={pw};"
            yield "kubectl", f"kubectl create secret generic db --from-literal=password={pw}"
    elif family == "assignment-contexts":
        # Where the key and the value are apart by blanks, enclosed, said in
        # prose, tagged, encoded once more, or given to a command.
        for k in _password_keys(rng):
            for name, c in more_contexts().items():
                for _ in range(per_shape):
                    yield f"{name}/{k}", c(k, _value_for(rng, k))
        for _ in range(per_shape):
            user = rng.choice(["admin", "svc-deploy", "ci@corp.example"])
            pw = password(rng)
            yield "az-login", f"az login -u {user} -p {pw}"
            yield "docker-login", f"docker login registry.example.io -u {user} -p '{pw}'"
            yield "sqlcmd", f'sqlcmd -S db01 -U {user} -P "{pw}" -Q "select 1"'
            yield "oc-login", f"oc login https://api.cluster:6443 -u {user} -p {pw}"
    elif family == "assignment-values":
        # Values a chosen secret has: a dot inside, or eight to eleven mixed signs.
        for k in _password_keys(rng):
            for name in ("env", "env-dq", "yaml-dq", "json", "json-compact", "toml", "export",
                         "docker-env", "cmd-set", "log-kv", "query"):
                for _ in range(per_shape):
                    yield f"{name}/{k}/dotted", contexts()[name](k, dotted_password(rng))
                    yield f"{name}/{k}/short", contexts()[name](k, short_secret(rng))
    elif family == "assignment-fullwidth":
        # CJK text writes the separator full width: a colon or an equals sign.
        seps = {"fullwidth-colon": "\uff1a", "fullwidth-equals": "\uff1d"}
        for name, sep in seps.items():
            for k in _password_keys(rng):
                for _ in range(per_shape):
                    yield f"{name}/{k}", f"{k}{sep}{_value_for(rng, k)}"
            for k in _session_keys(rng):
                yield f"{name}/{k}", f"{k.upper()}{sep} {aws_session_token(rng)}"
    elif family == "assignment-base64":
        # A whole KEY=value line (or a file of them) stored as base64: an env
        # variable, a Kubernetes Secret's data, a JSON field, a line alone.
        def b64(text: str) -> str:
            return base64.b64encode(text.encode()).decode()

        forms: dict[str, Context] = {
            "env": lambda k, v: f"CONFIG_B64={b64(f'{k.upper()}={v}')}",
            "k8s-data": lambda k, v: f"  app.env: {b64(f'{k.upper()}={v}')}",
            "json": lambda k, v: f'{{"settings": "{b64(f"{k}: {v}")}"}}',
            "bare": lambda k, v: b64(f'export {k.upper()}="{v}"'),
            "two-lines": lambda k, v: f"blob {b64('HOST=db.internal' + chr(10) + f'{k}={v}')} end",
        }
        for name, c in forms.items():
            for k in _password_keys(rng):
                for _ in range(per_shape):
                    yield f"b64-{name}/{k}", c(k, _value_for(rng, k))
    elif family == "redis-userinfo":
        # A Redis URL whose user part alone is the password, drawn with the
        # signs a URL should have encoded and did not (# ? @ / % < [ ! ...).
        for _ in range(per_shape * 3):
            core = _rand(rng, rng.randrange(8, 16))
            cut = rng.randrange(1, len(core))
            sign = rng.choice(list("#?@/%<[]{}()!$;^*&~"))
            pw = core[:cut] + sign + core[cut:]
            scheme = rng.choice(["redis", "rediss", "valkey", "valkeys", "redis+sentinel",
                                 "redis+socket", "unix"])
            host = rng.choice(["localhost", "cache.internal:6380", "[::1]:6379", "10.0.0.5"])
            url = f"{scheme}://{pw}@{host}"
            yield f"{scheme}/bare", url
            yield f"{scheme}/env", f"REDIS_URL={url}/0"
            yield f"{scheme}/json", f'{{"cache": {{"url": "{url}"}}}}'
            yield f"{scheme}/prose", f"Connect with `{url}`."
            yield f"{scheme}/user", f"{scheme}://default:{pw}@{host}"
    elif family == "assignment-cut":
        # A drawn value holding a sign that ends an unquoted value elsewhere.
        for name in ("env", "export", "ini", "log-kv", "docker-env", "properties", "cmd-set"):
            for k in _password_keys(rng):
                for _ in range(per_shape):
                    v = ""
                    while case_changes(v) < 2:  # drawn: the case changes (documented)
                        core = _rand(rng, rng.randrange(10, 18))
                        cut = rng.randrange(2, len(core) - 1)
                        v = core[:cut] + rng.choice(",;|") + core[cut:] + rng.choice("!#~*")
                    yield f"cut-{name}/{k}", ctx[name](k, v)
    elif family == "wrapped-values":
        yield from _wrapped_values(rng, per_shape)
    else:
        yield from more_lines(family, rng, per_shape)


def _encoded(s: str, times: int) -> str:
    from urllib.parse import quote

    for _ in range(times):
        s = quote(s, safe="")
    return s


def _wrapped_values(rng: random.Random, per_shape: int) -> Iterator[tuple[str, str]]:
    """Secrets behind what kept them from a key/value rule: a value longer than
    a pair's value may be, a URL encoded as a whole, a token as a URL's user,
    Redis ACL and sentinel lines, a key and value as two string arguments, a
    C# property, a YAML anchor, CDATA, a form encoded twice, escaped slashes."""
    for _ in range(per_shape):
        pw = password(rng)
        hexpw = "".join(rng.choice("0123456789abcdef") for _ in range(32))
        long_tok = _rand(rng, rng.choice([90, 180, 333, 610]), B64)
        sts = aws_session_token(rng)
        for key in ("Token", "token", "AccessToken", "api_secret", "SecretKey"):
            yield f"long/{key}/yaml", f"  {key}: {long_tok}"
            yield f"long/{key}/json", f'{{"{key}": "{long_tok}", "ttl": 900}}'
            yield f"long/{key}/sq", f"{key} = '{long_tok}'"
            yield f"long/{key}/props", f"cloud.{key}: {long_tok}"
            yield f"long/{key}/cdata", f"<{key}><![CDATA[{long_tok}]]></{key}>"
            yield f"long/{key}/anchor", f"{key}: &tok {long_tok}"
            yield f"long/{key}/env-pair", f'{{"name": "{key.upper()}", "value": "{long_tok}"}}'
        yield "sts/escaped-slash", '{"SessionToken":"' + sts.replace("/", "\\/") + '"}'
        yield "sts/twice", "next=" + _encoded(f"/sts?AWS_SESSION_TOKEN={sts}", 2)
        yield "sts/twice-plain-key", "back=" + _encoded(f"/cb?Token={sts}", 2)
        for times in (1, 2):
            for scheme in ("redis", "rediss", "redis+sentinel", "amqp"):
                for user in ("", "worker"):
                    url = f"{scheme}://{user}:{_encoded(pw, 1)}@cache.local:6379/0"
                    yield f"encoded-url/{times}/{scheme}", "state=" + _encoded(url, times)
        for scheme in ("redis", "rediss", "https", "git+https"):
            yield f"token-user/{scheme}/hex", f"url: {scheme}://{hexpw}@cache.internal:6380"
            yield f"token-user/{scheme}/mixed", f'"{scheme}://{_rand(rng, 28)}@host.example/x"'
        yield "socket-user", f"CACHE=unix://:{_rand(rng, 14)}@/run/redis/redis.sock?db=2"
        yield "acl-setuser", f"ACL SETUSER jobs on >{pw} ~queue:* +@list"
        yield "acl-file", f"user reporter on #{hexpw[:8]} >{pw} ~* -@dangerous"
        yield "sentinel-auth-pass", f"sentinel auth-pass primary-cache {pw}"
        yield "sentinel-pass", f"sentinel sentinel-pass {pw}"
        tok = _rand(rng, 30)
        yield "php-define", f"define('DB_PASSWORD', '{pw}');"
        yield "py-setdefault", f'os.environ.setdefault("API_TOKEN", "{tok}")'
        yield "pwsh-setenv", (
            f'[Environment]::SetEnvironmentVariable("CLIENT_SECRET", "{tok}", "Machine")'
        )
        yield "getenv-default", f'secret = os.getenv("APP_SECRET", "{tok}")'
        yield "csharp-init", f'    public string ApiToken {{ get; init; }} = "{tok}";'
        yield "csharp-init-pw", f'public static string AdminPassword {{ get; set; }} = "{pw}";'
        yield "csharp-init-long", f'public string SessionToken {{ get; set; }} = "{long_tok}";'
        yield "yaml-anchor", f"  password: &shared_pw '{pw}'"
        yield "cdata", f"<password><![CDATA[{pw}]]></password>"
        yield "form-twice", "q=" + _encoded(f"user=ci&password={pw}", 2)
        yield "cfn-parameter", f'{{"ParameterKey": "DbPassword", "ParameterValue": "{pw}"}}'
        yield "key-value-tag", f'{{"Key": "api_token", "Value": "{tok}"}}'
        yield "flag-prefixed", f"./run --db-pass {pw} --verbose"
        yield "flag-glued", f"tool --rootPassword '{pw}'"
        yield "acronym-key", f'  "AWSSecretKey": "{tok}",'
        yield "glued-key", f"Rootpassword={pw}"
        yield "md-bold-key", f"- **db_password**: `{pw}`"
        yield "secret-key-base", f"SECRET_KEY_BASE={hexpw}{hexpw}"
        yield "setx-machine", f'setx DB_PASSWORD "{pw}" /M'
        yield "said-aside", f"password: {_rand(rng, 12)} (rotated monthly)"
        for name in ("env", "yaml", "yaml-dq", "json", "toml", "export", "log-kv", "ini"):
            yield f"scrambled/{name}", contexts()[name]("db_password", scrambled(rng))


def scrambled(rng: random.Random) -> str:
    """A password drawn with brackets, angle brackets and the like among its signs."""
    while True:
        core = list(_rand(rng, rng.randrange(10, 18)))
        for _ in range(rng.randrange(1, 3)):
            core.insert(rng.randrange(1, len(core)), rng.choice("()[]{}<>$*@&"))
        s = "".join(core)
        # (a name then an opening bracket reads as a call or an index: not drawn)
        if case_changes(s) >= 2 and not re.match(r"[A-Za-z_][\w.$]*[(\[]", s):
            return s


def _value_for(rng: random.Random, key: str) -> str:
    if "pass" in key.lower() or "pwd" in key.lower():
        return password(rng)
    return _rand(rng, rng.randrange(16, 40))


def dotted_password(rng: random.Random) -> str:
    """A password with a dot in it, the part after it random (``hzCu.eQpBe7QtY``)."""
    def part(n: int) -> str:
        while True:
            s = _rand(rng, n)
            if case_changes(s) >= 5:
                return s
    return _rand(rng, rng.randrange(4, 8)) + "." + part(rng.randrange(9, 14))


def short_secret(rng: random.Random) -> str:
    """Eight to eleven characters mixing both cases, digits and a sign."""
    core = _rand(rng, rng.randrange(7, 11))
    pos = rng.randrange(1, len(core))
    return core[:pos] + rng.choice("!#%^*_-+~@&") + core[pos:]


def more_contexts() -> dict[str, Context]:
    return {
        "dockerfile-env": lambda k, v: f"ENV {k.upper()} {v}",
        "dockerfile-arg": lambda k, v: f"ARG {k.upper()}={v}",
        "fish-set": lambda k, v: f"set -gx {k.upper()} {v}",
        "setx": lambda k, v: f'setx {k.upper()} "{v}"',
        "tab-separated": lambda k, v: f"{k.lower()}\t{v}",
        "space-aligned": lambda k, v: f"{k.lower()}      {v}",
        "bracketed": lambda k, v: f"[{k.lower()}={v}]",
        "braced": lambda k, v: f"{{{k}: {v}}}",
        "parenthesised": lambda k, v: f"login failed ({k.lower()}={v})",
        "prose-quoted": lambda k, v: f'The {k.lower()} is "{v}" for now.',
        "prose-backticks": lambda k, v: f"- the {k.lower()} was `{v}`",
        "prose-bare": lambda k, v: f"{k} is {v}",
        "yaml-tag": lambda k, v: f"  {k}: !!str {v}",
        "form-encoded-twice": lambda k, v: "body=user%3Dops%26" + k.lower() + "%3D"
        + v.replace("%", "%25").replace("#", "%23").replace("&", "%26").replace("+", "%2B"),
        "json-url-encoded": lambda k, v: "q=%7B%22" + k + "%22%3A%22"
        + v.replace("%", "%25").replace("#", "%23").replace("&", "%26") + "%22%7D",
        "jvm-property": lambda k, v: f"java -D{k.lower()}={v} -jar app.jar",
        "xml-entry": lambda k, v: f'  <entry key="{k}">{v}</entry>',
        "xml-named": lambda k, v: f'<parameter name="{k.lower()}">{v}</parameter>',
    }


def session_body(rng: random.Random) -> str:
    """The base64 body of a session token with no preamble a rule knows."""
    raw = bytes(rng.randrange(256) for _ in range(rng.choice([150, 240, 400])))
    return base64.b64encode(raw).decode()


def drawn_short(rng: random.Random) -> str:
    """Eight to eleven letters and digits drawn at random (no sign): both cases,
    a digit among the letters."""
    while True:
        s = _rand(rng, rng.randrange(8, 12))
        if any(c.isdigit() for c in s.rstrip(string.digits)) and case_changes(s) >= 1:
            return s


def sign_led(rng: random.Random) -> str:
    """The rest of a value led by a sign: ten to sixteen drawn bytes, a letter
    first (``$8...`` is a shell's argument), a sign among them, both cases
    changing at least twice, a digit among the letters."""
    while True:
        core = rng.choice(string.ascii_letters) + _rand(rng, rng.randrange(9, 15))
        v = core[:3] + rng.choice("#%*_!") + core[3:]
        if case_changes(v) >= 2 and any(c.isdigit() for c in v.rstrip(string.digits)):
            return v


def more_lines(family: str, rng: random.Random, per_shape: int) -> Iterator[tuple[str, str]]:
    """Bare session tokens, SQL passwords, directive pairs and short drawn values."""
    triple = "'" * 3, '"' * 3
    if family == "bare-session-token":
        for _ in range(per_shape):
            body = session_body(rng)
            yield "line", body
            yield "indented", "      " + body
            yield "list", f"- {body}"
            yield "quoted", f'"{body}",'
            yield "blockquote", f"> {body}"
            yield "backticks", f"Paste `{body}` when asked."
            yield "echo", f"echo '{body}' > ~/.aws/token"
            yield "mask", f"::add-mask::{body}"
    elif family == "sql-password":
        for _ in range(per_shape):
            pw, tok = password(rng), _rand(rng, 24)
            yield "identified-dq", f'ALTER USER "svc"@"%" IDENTIFIED BY "{pw}";'
            yield "identified-with", (
                f"CREATE USER 'svc'@'%' IDENTIFIED WITH caching_sha2_password BY '{pw}';")
            yield "identified-bare", f"ALTER USER reporting IDENTIFIED BY {tok} ACCOUNT UNLOCK;"
            yield "with-password", f"CREATE LOGIN svc WITH PASSWORD = '{pw}', CHECK_POLICY = OFF;"
            yield "with-password-n", f"ALTER LOGIN svc WITH PASSWORD = N'{pw}';"
            yield "set-password-for", f"SET PASSWORD FOR 'svc'@'%' = '{pw}';"
            yield "set-password-fn", f"SET PASSWORD = PASSWORD('{pw}');"
            yield "mysql-p-quoted", f"mysql -u root -p'{pw}' -h db shop < seed.sql"
    elif family == "directive-pair":
        for _ in range(per_shape):
            pw, tok = password(rng), _rand(rng, 28)
            for key, value in (("DB_PASSWORD", pw), ("API_TOKEN", tok)):
                yield "apache-setenv", f"SetEnv {key} {value}"
                yield "nginx-param", f"    fastcgi_param {key} {value};"
                yield "uwsgi-param", f"uwsgi_param {key} {value};"
                yield "here-string", f"read -r {key} <<< '{value}'"
                yield "bold-key", f"**{key.lower()}:** `{value}`"
                for quotes in triple:
                    yield f"triple/{quotes[0]}", f"{key.lower()} = {quotes}{value}{quotes}"
    elif family == "short-drawn":
        for _ in range(per_shape):
            for key in ("SECRET", "api_key", "jwt_secret", "client_secret", "auth_token"):
                for name in ("env", "export", "yaml", "json", "ini", "toml", "log-kv"):
                    yield f"{name}/{key}", contexts()[name](key, drawn_short(rng))
    elif family == "assignment-shapes":
        for _ in range(per_shape):
            tok, hexpw = _rand(rng, 32), "".join(rng.choice("0123456789abcdef") for _ in range(40))
            human = (rng.choice(["Harbor", "maple", "Quartz", "lantern"])
                     + rng.choice(["-", "_", ".", ""]) + rng.choice(["orbit", "Nimbus", "cobalt"])
                     + str(rng.randrange(10, 9999)) + rng.choice("!#$%?"))
            drawn = _rand(rng, 6) + rng.choice("[(<") + _rand(rng, 9)
            signs = _rand(rng, 5) + "<" + rng.choice("^~*=&") + _rand(rng, 4) + ")>" + _rand(rng, 3)
            sts = aws_session_token(rng)
            # keys glued to a word before them, or written with dashes
            yield "glued/go", f'\t\tApitoken: "{hexpw}",'
            yield "glued/csharp", f'    public string Accesstoken {{ get; set; }} = "{tok}";'
            yield "glued/process-env", f"process.env.APITOKEN = '{tok}';"
            yield "dashed/header", f"X-Secret-Key-Base: {tok}"
            yield "dashed/flag", f"./deploy --secret-key '{tok}'"
            yield "dashed/flag-eq", f"./deploy --SECRET-KEY-BASE={hexpw} --verbose"
            # a password as people make them, prose after it or under a token key
            yield "human/prose-after", f"pwd: {human} (keep it safe)"
            yield "human/token-key", f'{{"webhook_secret": "{human}"}}'
            yield "human/header", f"X-Api-Token: {human}"
            # an index or a call that never closes, angle brackets round signs
            yield "unclosed/yaml", f"    adminPassword: {drawn}"
            yield "unclosed/env", f"DB_PASSWORD={drawn}"
            yield "angle-signs/sql", f"CREATE USER app WITH PASSWORD '{signs}';"
            yield "angle-signs/json", f'{{"password": "{signs}"}}'
            # a Kubernetes Secret's data: an env file holding a session token
            env = base64.b64encode(f"AWS_SESSION_TOKEN={sts}\n".encode()).decode()
            yield "b64-env-session", f"  app.env: {env}"
    elif family == "redis-led-by-sign":
        for _ in range(per_shape):
            core = _rand(rng, rng.randrange(9, 16))
            pw = core[:4] + rng.choice("#!*~") + core[4:]
            for scheme in ("redis", "rediss", "valkeys", "unix", "redis+sentinel"):
                url = f"{scheme}://{pw}@10.0.0.7:6379"
                yield f"encoded-user/{scheme}", "state=" + _encoded(url, 1)
                yield f"encoded-user-twice/{scheme}", "next=" + _encoded(url, 2)
            yield "led-by-angle", f"rediss://:<{core}#x@cache.internal:6380/0"
            yield "led-by-dollar-digit", f"--broker=redis://${rng.randrange(10)}{core}@cache:6379"
            yield "led-by-bracket", f'"url": "redis://:[{core})@cache:6379/1"'
    elif family == "sign-led-value":
        for _ in range(per_shape):
            for lead in ("$", "-", "=", "("):
                v = lead + sign_led(rng)
                if lead == "(":  # a sign after it; opens one bracket, closes another
                    v = lead + rng.choice("|^&*") + sign_led(rng) + "]"
                yield f"env/{lead}", f"WEBHOOK_SECRET={v}"
                yield f"yaml/{lead}", f"  client_secret: {v}"
                yield f"json/{lead}", f'  "apiToken": "{v}",'
                yield f"php-array/{lead}", f"    'db_password' => '{v}',"
                yield f"define/{lead}", f"define( 'DB_PASSWORD', '{v}' );"
                yield f"makefile/{lead}", f"SIGNING_KEY ?= {v}"
                yield f"netrc/{lead}", f"machine ci.example.net login bot password {v}"
                yield f"redis-conf/{lead}", f"requirepass {v}"
                yield f"redis-flag/{lead}", f"redis-server --port 7000 --requirepass '{v}'"
                yield f"typed/{lead}", f'const DB_PASSWORD: &str = "{v}";'
            yield "powershell-escaped", f'$env:API_TOKEN = "`${sign_led(rng)}"'
    elif family == "passphrase":
        words = ("copper", "heron", "basalt", "quill", "mango", "tinder", "prism", "gravel",
                 "otter", "lichen", "fennel", "sparrow")
        for _ in range(per_shape):
            for sep in (".", "-", " "):
                phrase = sep.join(rng.sample(words, rng.randrange(3, 6)))
                yield f"json/{sep}", f'  "signing_secret": "{phrase}",'
                yield f"go/{sep}", f'\tvaultToken := "{phrase}"'
                yield f"php/{sep}", f"$db_password = '{phrase}';"
                yield f"kotlin-typed/{sep}", f'    val keyPassphrase: String = "{phrase}"'
                if sep != " ":
                    yield f"env/{sep}", f"ADMIN_PASSWORD={phrase}"
                    yield f"yaml/{sep}", f"  webhook_secret: {phrase}"
    elif family == "typed-assignment":
        for _ in range(per_shape):
            pw, tok = password(rng), _rand(rng, 30)
            yield "rust-const", f'pub const ADMIN_PASSWORD: &str = "{pw}";'
            yield "rust-static", f"static SIGNING_SECRET: &'static str = \"{tok}\";"
            yield "rust-raw", f'    let db_password = r#"{pw}"#;'
            yield "kotlin-typed", f'    private val apiToken: String = "{tok}"'
            yield "swift-typed", f'    static let clientSecret: String = "{tok}"'
            yield "scala-typed", f'  val dbPassword: String = "{pw}"'
            yield "typescript-typed", f"  private readonly authToken: string = '{tok}';"
            yield "csharp-verbatim", f'        string smtpPassword = @"{pw}";'
            yield "java-setter", f'        ds.setPassword("{pw}");'
            yield "builder-with", f'    .withClientSecret("{tok}")'
            yield "go-setter", f'\tcfg.SetAuthToken("{tok}")'
    elif family == "credential-files":
        for _ in range(per_shape):
            pw = password(rng)
            salt = _rand(rng, 64, ALNUM + "!#%&()*+,-./:;<=>?@[]^_{|}~")
            bc = _rand(rng, 53, ALNUM + "./")
            yield "pgpass", f"replica.db.internal:5433:ledger:auditor:{pw}"
            yield "pgpass-any", f"*:*:*:backup:{pw}"
            yield "oracle-thin", f"jdbc:oracle:thin:hr/{pw}@//ora.internal:1521/XEPDB1"
            yield "odbc-braces", f"Driver={{ODBC Driver 17 for SQL Server}};Uid=etl;Pwd={{{pw}}};"
            yield "sqlserver-braces", f"jdbc:sqlserver://sql:1433;user=sa;password={{{pw}}};"
            yield "htpasswd-bcrypt", f"deploy:$2y$05${bc}"
            yield "htpasswd-apr1", f"ops:$apr1${_rand(rng, 8)}${_rand(rng, 22, ALNUM + './')}"
            yield "htpasswd-sha", "admin:{SHA}" + base64.b64encode(
                bytes(rng.randrange(256) for _ in range(20))).decode()
            digest = _rand(rng, 86, ALNUM + "./")
            yield "shadow", f"svc:$6${_rand(rng, 16)}${digest}:19700:0:99999:7:::"
            yield "wp-salt", f"define( 'NONCE_SALT', '{salt}' );"
            yield "wp-logged-in-key", f"define('LOGGED_IN_KEY', '{salt[::-1]}');"
            yield "securestring", (
                f"$cred = ConvertTo-SecureString '{pw}' -AsPlainText -Force")
            yield "aws-configure-set", (
                f"aws configure set aws_secret_access_key {aws_secret_key(rng)} --profile ci")
    elif family == "opener-in-value":
        # a drawn value holding "${" or "{{" that nothing closes: a sign, not a template
        for _ in range(per_shape):
            core = _rand(rng, rng.randrange(12, 20), ALNUM + "!#%^*~")
            cut = rng.randrange(2, len(core) - 2)
            v = core[:cut] + rng.choice(("${", "{{")) + core[cut:]
            yield "redis-conf", f"requirepass {v}"
            yield "redis-cli", f"redis-cli -h cache -a '{v}' ping"
            yield "redis-auth-user", f"AUTH worker {v}"
            yield "redis-acl", f"ACL SETUSER worker on >{v} ~jobs:* +@read"
            yield "json", f'  "db_password": "{v}",'
            yield "yaml", f"  smtp_password: {v}"
            yield "xml-attr", f"<server id='a' api_token='{v}'/>"
            yield "python-kw", f"client = Redis(host='cache', password='{v}')"
    elif family == "redis-placed":
        # where AUTH and sentinel auth-pass put the password, a leading sign is its own
        for _ in range(per_shape):
            v = sign_led(rng).replace("_", "%")  # ($ and a name alone is a variable)
            for lead in ("-", "$", "@"):
                yield f"auth-user/{lead}", f"AUTH default {lead}{v}"
                yield f"auth-prompt/{lead}", f"cache:6379> AUTH ops {lead}{v}"
                yield f"sentinel/{lead}", f"sentinel auth-pass primary-a {lead}{v}"
            yield "conf-at", f"requirepass @{v}"
            yield "cli-at", f"redis-cli -a @{v} --no-auth-warning"
    elif family == "npmrc":
        # base64 that happens to be letters alone reads as a name to the assignment rules
        def b64_letters(text: Callable[[], str]) -> str:
            while True:
                enc = base64.b64encode(text().encode()).decode()
                if enc.isalpha():
                    return enc

        for _ in range(per_shape):
            enc = b64_letters(lambda: password(rng))
            user = rng.choice(["ci", "deploy", "build-bot"])
            both = base64.b64encode(f"{user}:{password(rng)}".encode()).decode()
            yield "password-scoped", f"//npm.internal.example/repo/npm-all/:_password={enc}"
            yield "password", f"_password={enc}"
            yield "password-quoted", f'//registry.example.org/:_password="{enc}"'
            yield "auth", f"_auth={both}"
            yield "auth-scoped", f"//npm.pkg.example.com/:_auth = {both}"
    elif family == "file-passphrase":
        words = ("tundra", "pillow", "garnet", "ripple", "cobble", "meadow", "falcon", "ember",
                 "willow", "saffron", "hazel", "quarry")
        for _ in range(per_shape):
            phrase = " ".join(rng.sample(words, rng.randrange(3, 7)))
            host = rng.choice(["git.example.net", "ftp.internal", "api.example.com"])
            yield "machine", f"machine {host} login deploy password {phrase}"
            yield "indented", f"  machine {host} login ci-bot password {phrase}"
            yield "default", f"default login anonymous password {phrase}"
            yield "pgpass", f"{host}:5432:ledger:auditor:{phrase}"
            yield "pgpass-any", f"*:*:*:replica:{phrase}"
    elif family == "drawn-values":
        # values that read as drawn whatever follows them or wherever they sit:
        # runs of signs, words and a number, digests under a key that names a secret
        shapes = {"signs": sign_heavy, "words-number": words_number, "digest": hex_digest,
                  "lone-bracket": lone_bracket}
        places = {
            "env": lambda k, v: f"{k.upper()}={v}",
            "export": lambda k, v: f"export {k.upper()}={v}",
            "yaml": lambda k, v: f"    {k}: {v}",
            "ini-spaced": lambda k, v: f"{k.lower()} = {v}",
            "toml": lambda k, v: f'{k.lower()} = "{v}"',
            "xml-element": lambda k, v: f"  <{k}>{v}</{k}>",
            "compose-list": lambda k, v: f'      - "{k.upper()}={v}"',
            "log-kv": lambda k, v: f"ts=2026-02-03T04:05:06Z lvl=warn {k.lower()}={v} retry=2",
            "aside": lambda k, v: f"\U0001f512 {k}: {v} \u2014 rotate in May",
            "trace": lambda k, v: f"Caused by: x.DbError: refused (url=jdbc:pg://db/app, {k}={v})",
            "cmake": lambda k, v: f'set({k.upper()} "{v}")',
        }
        for _ in range(per_shape):
            for shape, draw in shapes.items():
                for place, put in places.items():
                    key = rng.choice(["db_password", "WebhookSecret", "api_token", "signing_key",
                                      "smtp_pass"])
                    yield f"{shape}/{place}", put(key, draw(rng))
                value = draw(rng)
                yield (f"{shape}/requirepass-quoted",
                       f'redis-server --requirepass "{value}" --port 7001')
                yield f"{shape}/requirepass-at", f'redis-server --masterauth "@{value}"'
                yield (f"{shape}/requirepass-list",
                       f'  cmd: ["redis-server", "--requirepass", "{value}"]')
                yield f"{shape}/passphrase-option", f"./sign.sh --key-passphrase '{value}' out.bin"
    elif family == "redis-more":
        # Redis passwords in the places the URL and directive rules used to miss
        for _ in range(per_shape):
            pw = short_secret(rng).replace("@", "#")
            drawn = drawn_short(rng)
            once = quote(f"{pw}@{drawn[:4]}", safe="")
            sock = rng.choice(["/tmp/redis.sock", "/run/redis/redis-server.sock",
                               "/var/run/cache-7.sock"])
            yield "unix-socket", f"unix://:{pw}@{sock}?db=2"
            yield "unix-socket-json", f'{{"redis": "unix://:{pw}@{sock}"}}'
            yield "user-part-drawn", f"CACHE_URL=rediss://{drawn}@cache-2.internal:6380/1"
            yield "encoded-at-inside", f"next=valkey%3A%2F%2F{once}%40cache.internal%3A6379"
            yield "encoded-twice-at", "r=redis%3A%2F%2F%3A" + quote(quote("@" + pw, safe=""),
                                                                 safe="") + "%40cache%3A6379"
            yield "encoded-user-at", ("state=redis%3A%2F%2Fops%2540corp%3A" + quote(drawn, safe="")
                                      + "%40redis%3A26379")
            yield "requirepass-angle", f"requirepass <{pw}"
            yield "acl-angle", f"user jobs on ><{pw} ~queue:* +@read"
    elif family == "spoken-phrase":
        # words apart by blanks, unquoted, to the end of the line or the next pair
        words = ("marble", "falcon", "juniper", "cobalt", "meadow", "pepper", "thistle", "harbor",
                 "walnut", "saffron", "quartz", "bramble", "lantern", "orchid")
        for _ in range(per_shape):
            for n in (3, 4, 5):
                p = " ".join(rng.sample(words, n))
                yield f"yaml/{n}", f"    client_secret: {p}"
                yield f"ini/{n}", f"password = {p}"
                yield f"properties/{n}", f"private.key.passphrase={p}"
                yield f"env/{n}", f"SMTP_PASS={p}"
                yield f"compose-list/{n}", f"      - POSTGRES_PASSWORD={p}"
                yield f"dockerfile/{n}", f"ENV KEYSTORE_PASSWORD {p}"
                yield f"fish/{n}", f"set -gx API_TOKEN {p}"
                yield f"apache/{n}", f"    SetEnv DB_PASSWORD {p}"
                yield f"redis-conf/{n}", f"requirepass {p}"
                yield f"systemd/{n}", f"Environment=PORT=8080 SMTP_PASS={p} MODE=prod"
                yield f"ado-net/{n}", f"Server=db1;User Id=sa;Password={p};Encrypt=true"
                yield f"stackexchange/{n}", f'"Redis": "cache:6380,password={p},ssl=True"'
                yield f"semicolon-end/{n}", f"  master_password: {p};"
                yield f"quoted-end/{n}", f'dotnet user-secrets set "Db" "User Id=sa;Password={p};"'
                yield f"redis-auth-user/{n}", f"AUTH default {p}"
                yield f"redis-auth-prompt/{n}", f"127.0.0.1:6379> AUTH worker {p}"
                yield f"redis-auth/{n}", f"AUTH {p}"
                yield f"sentinel-auth-pass/{n}", f"sentinel auth-pass mymaster {p}"
                yield f"sentinel-pass/{n}", f"sentinel sentinel-pass {p}"
                yield f"option-then-option/{n}", f"redis-server --requirepass {p} --port 6380"
    elif family == "wrapped-literal":
        # a literal given through a constructor, a conversion or a builder's method
        for _ in range(per_shape):
            pw, tok = password(rng), _rand(rng, 30)
            yield "rust-string-from", f'    db_password: String::from("{pw}"),'
            yield "rust-string-from-token", f'        auth_token: String::from("{tok}"),'
            yield "rust-secret-new-into", f'    client_secret: SecretString::new("{tok}".into()),'
            yield "rust-some", f'    smtp_password = Some("{pw}");'
            yield "kotlin-wrapper", f'    val signingSecret = Secret("{tok}")'
            yield "go-conversion", f'	adminPassword := Password("{pw}")'
            yield "java-new-string", f'    String keystorePassword = new String("{pw}");'
            yield "builder-bare", f'    .password("{pw}")'
            yield "builder-camel", f'        .clientSecret("{tok}")'
            yield "builder-lower", f'    .dbpassword("{pw}")'
            yield "builder-chained", f'Client.builder().apiToken("{tok}").build();'
    elif family == "tagged-value":
        # a YAML anchor or tag between the key and a drawn value or a passphrase
        words = ("marble", "falcon", "juniper", "cobalt", "meadow", "pepper", "thistle", "harbor")
        for _ in range(per_shape):
            phrase = " ".join(rng.sample(words, rng.randrange(3, 6)))
            yield "anchor-sign-led", f"db_password: &db ${_rand(rng, 10)}**3"
            yield "anchor-words", f"private_key_passphrase: &private {phrase}"
            yield "tag-words", f"  smtp_password: !!str {phrase}"
            yield "anchor-drawn", f"  api_token: &tok {_rand(rng, 24)}"
    elif family == "redis-positional-drawn":
        # a drawn password led by "$" where Redis fixes its place (no variable there)
        for _ in range(per_shape):
            while True:
                v = "$" + rng.choice(string.ascii_letters) + _rand(rng, rng.randrange(12, 20))
                if case_changes(v) >= 3:
                    break
            yield "auth-user", f"AUTH default {v}"
            yield "auth-prompt", f"127.0.0.1:6379> AUTH worker {v}"
            yield "sentinel-auth-pass", f"sentinel auth-pass mymaster {v}"
    elif family == "markup-angle":
        # a drawn value with a raw "<" or ">" in it, as markup holds it: element
        # text (the end tag alone ends it), CDATA, a quoted attribute
        for _ in range(per_shape):
            for key in ("db_password", "adminPassword", "webhook_secret", "api_token"):
                v = angle_inside(rng)
                yield "element", f"    <{key}>{v}</{key}>"
                yield "cdata", f"<{key}><![CDATA[{v}]]></{key}>"
                yield "attribute", f'  <add key="{key}" value="{v}" />'
                yield "property", f'  <property name="{key.lower()}" value="{v}"/>'
    elif family == "table-cell-signs":
        # a markdown table's key cell and a drawn value cell that holds a ";"
        # or "," (where an unquoted value is cut elsewhere), or a "<" that a
        # ")" comes to before its ">" (brackets that cross, as code's never do)
        for _ in range(per_shape):
            for key in ("APP_SECRET", "DB_PASSWORD", "`api_token`", "client_secret"):
                for shape, v in (("separator", separator_inside(rng)),
                                 ("crossed", crossed_brackets(rng))):
                    yield f"{shape}/plain", f"| {key} | {v} |"
                    yield f"{shape}/three-cells", f"| {key} | {v} | rotated monthly |"
                    yield f"{shape}/quoted-block", f"> | {key} | {v} |"
    elif family == "bracket-led-drawn":
        # a drawn run of signs led by "{" or "<" (how a placeholder or a
        # template opens), unquoted after a key naming a secret
        places = {
            "env": lambda k, v: f"{k.upper()}={v}",
            "yaml": lambda k, v: f"    {k}: {v}",
            "log-kv": lambda k, v: f"ts=2026-03-01T10:00:00Z level=info {k}={v}, attempt=2",
            "tostring": lambda k, v: f"Settings{{host=db, user=app, {k}={v}, pool=4}}",
        }
        for _ in range(per_shape):
            for place, put in places.items():
                key = rng.choice(["master_key", "db_password", "encryption_key", "api_token"])
                yield place, put(key, bracket_led(rng))
    else:  # pragma: no cover - a test names a family that does not exist
        raise KeyError(family)


def sign_heavy(rng: random.Random) -> str:
    """Twelve to twenty bytes, near half of them signs in any place (first too),
    letters of both cases and a digit among them, brackets that do not pair up."""
    signs = "!#%&*+-./:;=?@[]^_{}~"  # (no < or >: XML text escapes them)
    while True:
        s = "".join(rng.choice(ALNUM + signs + signs) for _ in range(rng.randrange(12, 21)))
        marks = [c for c in s if c in signs]
        if (len(marks) * 3 >= len(s) and len(set(marks)) >= 3 and "--" not in s
                and s[0] != "{"  # (how a placeholder opens: the sign-led rule's)
                and any(c.isdigit() for c in s) and any(c.islower() for c in s)
                and any(c.isupper() for c in s) and s.count("[") != s.count("]")):
            return s


def lone_bracket(rng: random.Random) -> str:
    """Ten to sixteen letters and digits with one bracket or sign that closes
    nothing (``Tq8mLw)vR2kPz``), both cases changing twice, a letter after a digit."""
    while True:
        core = _rand(rng, rng.randrange(9, 16))
        pos = rng.randrange(1, len(core))
        s = core[:pos] + rng.choice(")]}#~^") + core[pos:]
        if case_changes(s) >= 2 and re.search(r"[0-9].*[A-Za-z]", s):
            return s


def angle_inside(rng: random.Random) -> str:
    """Ten to sixteen letters and digits with a raw ``<`` or ``>`` inside (not
    first, never before a ``/``), both cases changing twice, a letter after a digit."""
    while True:
        core = _rand(rng, rng.randrange(9, 16))
        pos = rng.randrange(1, len(core))
        s = core[:pos] + rng.choice("<>") + core[pos:]
        if case_changes(s) >= 2 and re.search(r"[0-9].*[A-Za-z]", s):
            return s


def separator_inside(rng: random.Random) -> str:
    """Ten to sixteen letters and digits with a ``;`` or ``,`` inside, both
    cases changing twice, a letter after a digit."""
    while True:
        core = _rand(rng, rng.randrange(10, 16))
        pos = rng.randrange(2, len(core) - 1)
        s = core[:pos] + rng.choice(";,") + core[pos:]
        if case_changes(s) >= 2 and re.search(r"[0-9].*[A-Za-z]", s):
            return s


def crossed_brackets(rng: random.Random) -> str:
    """Letters and digits with ``<`` then ``)`` then ``>`` among them
    (``kQ3<)mT8w>Lp2``): both cases changing twice, a letter after a digit."""
    while True:
        core = _rand(rng, rng.randrange(11, 17))
        a = rng.randrange(1, len(core) - 4)
        b = rng.randrange(a + 1, len(core) - 1)
        s = core[:a] + "<)" + core[a:b] + ">" + core[b:]
        if case_changes(s) >= 2 and re.search(r"[0-9].*[A-Za-z]", s):
            return s


def bracket_led(rng: random.Random) -> str:
    """A drawn value led by ``{`` or ``<``: a quarter of it signs (three kinds
    at least, brackets unpaired), small letters then capitals (one change of
    case, ``{:!q3h?x#PK8@``), no ``,`` ``;`` or ``|`` (an unquoted value ends there)."""
    signs = "!#%&*+-./:=?@[]^_~"
    low = string.ascii_lowercase + string.digits + signs
    high = string.ascii_uppercase + string.digits + signs
    while True:
        s = (rng.choice("{<") + "".join(rng.choice(low) for _ in range(rng.randrange(6, 10)))
             + "".join(rng.choice(high) for _ in range(rng.randrange(3, 7))))
        marks = [c for c in s if c in signs + "{<"]
        if (len(marks) * 3 >= len(s) and len(set(marks)) >= 3 and "--" not in s
                and s[1] not in "{<#%" and any(c.isdigit() for c in s)
                and any(c.islower() for c in s) and any(c.isupper() for c in s)
                and s.count("[") != s.count("]")):
            return s


def words_number(rng: random.Random) -> str:
    """Two dictionary words joined (or not) and a number, a sign maybe last."""
    words = ("Marble", "tundra", "Copper", "willow", "Falcon", "quarry", "Saffron", "ember")
    first, second = rng.sample(words, 2)
    number = rng.choice([n for n in range(17, 998) if n not in (32, 64, 128, 160, 224, 256, 384,
                                                                 512)])  # (no type's width)
    return (first + rng.choice(["", ".", "-", "_"]) + second + str(number)
            + rng.choice(["", "!", "#", "$"]))


def hex_digest(rng: random.Random) -> str:
    """A hex digest of 32, 40 or 64 digits, or a UUID."""
    h = "".join(rng.choice("0123456789abcdef") for _ in range(64))
    return rng.choice([h[:32], h[:40], h, f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"])


FAMILIES = (
    "aws-secret-json", "aws-session-token", "redis-url", "assignment", "assignment-contexts",
    "assignment-values", "wrapped-values", "assignment-fullwidth", "assignment-base64",
    "redis-userinfo", "assignment-cut", "bare-session-token", "sql-password", "directive-pair",
    "short-drawn", "assignment-shapes", "redis-led-by-sign", "sign-led-value",
    "passphrase", "typed-assignment", "credential-files", "opener-in-value", "redis-placed",
    "npmrc", "file-passphrase", "drawn-values", "redis-more", "spoken-phrase",
    "wrapped-literal", "tagged-value", "redis-positional-drawn", "markup-angle",
    "table-cell-signs", "bracket-led-drawn",
)


# --------------------------------------------------------------------------- #
# Values written on the lines after their key.
# --------------------------------------------------------------------------- #
Record = list[tuple[str, bool]]  # the lines of one record, each with "holds a secret"


def _cut(token: str, width: int) -> list[str]:
    return [token[i : i + width] for i in range(0, len(token), width)]


def _piece(part: str) -> bool:
    """Whether a piece of a wrapped token is worth keeping from a reader: a short
    tail (seven bytes or fewer, or letters only) is left to pass."""
    return len(part) >= 8 and any(c.isdigit() for c in part) and any(c.isalpha() for c in part)


def multiline_records(seed: int = 7, per_shape: int = 2) -> Iterator[tuple[str, Record]]:
    """Records whose secret sits on the line(s) after the one that names it:
    YAML block scalars, a value after a backslash, an HCL variable's default,
    and session tokens cut at 64 or 76 columns (with a key or a preamble on
    the first line, or no key at all after a backslash)."""
    rng = random.Random(seed)
    for _ in range(per_shape):
        for key in ("db_password", "client_secret", "api_token", "aws_session_token", "Passwd"):
            value = aws_session_token(rng) if "session" in key else _value_for(rng, key)
            for mark in ("|", ">", "|-", ">-", "|+"):
                for lead in ("", "  ", "  - "):
                    inner = " " * (len(lead) + 2)
                    yield f"yaml-block/{mark}", [(f"{lead}{key}: {mark}", False),
                                                 (f"{inner}{value}", True)]
            yield "yaml-block/then-sibling", [
                ("creds:", False), (f"  {key}: >-", False), (f"    {value}", True),
                ("  region: eu-west-3", False)]
            yield "backslash", [(f"{key} = \\", False), (value, True)]
            yield "hcl-heredoc", [(f"  {key} = <<EOT", False), (value, True), ("EOT", False)]
            yield "hcl-heredoc-indented", [(f"  {key} = <<-EOT", False), (f"    {value}", True),
                                           ("  EOT", False)]
            yield "hcl-default", [(f'variable "{key}" {{', False), ("  type = string", False),
                                  (f'  default = "{value}"', True), ("  sensitive = true", False),
                                  ("}", False)]
        token = aws_session_token(rng)
        for width in (64, 76):
            pieces = _cut(token, width)
            yield f"wrapped/{width}/bare", [(p, _piece(p)) for p in pieces]
            yield f"wrapped/{width}/indented", [("    " + p, _piece(p)) for p in pieces]
            yield f"wrapped/{width}/backslash", [("aws_session_token = \\", False)] + [
                (p, _piece(p)) for p in _cut(_rand(rng, 300, B64), width)]
            lead = "AWS_SESSION_TOKEN="
            first, rest = token[: width - len(lead)], token[width - len(lead):]
            yield f"wrapped/{width}/keyed", [(lead + first, True)] + [
                (p, _piece(p)) for p in _cut(rest, width)]
            yield f"wrapped/{width}/yaml-block", [("aws_session_token: >", False)] + [
                ("  " + p, _piece(p)) for p in pieces]


def multiline_near_misses() -> list[str]:
    """Lines around the two-line shapes that hold no secret: empty, variable or
    placeholder values under a block, HCL variables without a literal default,
    and short words or hashes after a redacted token line."""
    return [
        "password: |", "  ${DB_PASSWORD}", "next: 1",
        "client_secret: >-", "  {{ .Values.clientSecret }}", "next: 2",
        "api_token: |", "  <your token here>", "next: 3",
        "db_password: |", "  changeme", "next: 4",
        "token: |", "", "name: web",
        'variable "db_password" {', "  type      = string", "  sensitive = true",
        '  default   = ""', "}",
        'variable "api_token" {', "  default = var.fallback_token", "}",
        'variable "region" {', '  default = "us-east-1"', "}",
        "password = \\", "  $(cat /run/secrets/db)",
        "  db_password = <<EOT", "${var.db_password}", "EOT",
        "secret = \\", "  os.environ['APP_SECRET']",
        "checksums: |", "  3f786850e387550fdab836ed7e6dc881de23001b",
        "  89e6c98d92887913cadf06b2adb97f26cde4849b",
        "description: >", "  The token is read from the vault at start up and",
        "  rotated every day by the token service.",
    ]
