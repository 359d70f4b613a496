"""The credential families the extended set closes, from generated shapes.

Each family (tests/secret_families.py) crosses random secrets with the
formats they are written in; every line of every shape must be redacted, on
every prefilter engine, while ordinary text stays untouched.  Private keys
whose body goes on after a decoy END line are generated with the
cryptography package (OpenSSH, PKCS#1 and PKCS#8 encodings, several widths).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import secret_families as sf

from council_filters.redaction import prefilter
from council_filters.redaction.secrets import load_rules, redact_value

EXT = load_rules("extended")


@pytest.fixture(params=["re", "hyperscan"])
def engine(request: pytest.FixtureRequest):
    if request.param == "hyperscan":
        pytest.importorskip("hyperscan")
    before = prefilter.WANT
    prefilter.use(request.param)
    yield request.param
    prefilter.use(before)


@pytest.mark.parametrize("family", sf.FAMILIES)
@pytest.mark.parametrize("seed", [3, 41])
def test_every_shape_of_the_family_is_redacted(family: str, seed: int, engine: str) -> None:
    leaked = []
    lines = list(sf.family_lines(family, seed=seed))
    doc = "".join(f"note {i}: nothing here\n{line}\n" for i, (_, line) in enumerate(lines))
    out, redacted = redact_value(doc.encode(), EXT)
    wanted = {2 * i + 2 for i in range(len(lines))}
    for i, (shape, line) in enumerate(lines):
        if 2 * i + 2 not in redacted:
            leaked.append((shape, line[:60]))
    assert leaked == [], leaked[:50]

    assert set(redacted) == wanted  # the prose lines between pass


def test_family_lines_one_at_a_time() -> None:
    """Alone (start of the stream, no line before), each shape still redacts."""
    for family in sf.FAMILIES:
        for shape, line in sf.family_lines(family, seed=8, per_shape=1):
            _, red = redact_value(line.encode() + b"\n", EXT)
            assert red == [1], (family, shape)


@pytest.mark.parametrize(
    "line",
    [
        b"PWD=/home/app/project",
        b'    "OLDPWD": "/srv/build/src",',
        b"the session token is refreshed every hour",
        b"SessionToken: string  # the STS token, see below",
        b"AUTH failed, retrying",
        b"requirepass is set in redis.conf",
        b"<password>${DB_PASSWORD}</password>",
        b'<add key="Password" value="" />',
        b"machine api.example.net login deploy password $NETRC_PASSWORD",
        b"redis://localhost:6379/0",
        b"redis://:@localhost:6379",
        b"mysql -u root -p appdb",
        b'"SecretAccessKey": "<your secret access key>",',
        b"secret_key = settings.SECRET_KEY",
        b'{\\"password\\": \\"${PASSWORD}\\"}',
        b"x = *ptr;",
        b"password = *args",
        # Near misses of the blank-separated, enclosed, said and encoded forms.
        b"ENV PASSWORD_FILE /run/secrets/db",
        b"password    required",
        b"token\tstring",
        b"DB_PASSWORD    optional",
        b"[password=self.password]",
        b"(token=args.token)",
        b"{secret: config.secret}",
        b"the password is stored in vault",
        b"the token is 32 bytes long",
        b"The password will be emailed.",
        b"secret_key is a 50-character random string",
        b"password%3D%24%7BPW%7D",
        b"-Dpassword=${DB_PASS}",
        b"-Dtoken.ttl=3600",
        b"docker run -u 1000 -p 8080:80 img",
        b"docker run -u app -p 127.0.0.1:8080:80 img",
        b"psql -U app -p 5432 -h db",
        b'<entry key="password">${env.PW}</entry>',
        b"key: !!binary |",
        b'the password is "password"',
        b'password was "changeme"',
        b"set -x PATH $PATH /usr/local/bin",
        b"export TOKEN_TTL 3600",
        b"password\t${PASSWORD}",
        b"Password    Your password",
        b"[token=<your-token>]",
        b"DB_PASSWORD=config.password",
        b"password = settings.db.password",
        b"token=abc",
        b"secret=Settings1",
        # the rules for wrapped values (sf "wrapped-values") leave these alone
        b"define('DB_PASSWORD', getenv('DB_PASSWORD'));",
        b'password = os.getenv("PASSWORD", "postgres")',
        b'                          "tokens", "symbol2label"):',
        b'label = t("password", "Passwort")',
        b'fields = ("password", "password_confirmation")',
        b'getattr(settings, "SECRET_KEY", "dev")',
        b"public string Password { get; set; } = string.Empty;",
        b'public string Token { get; set; } = "";',
        b"https://user@example.com/path",
        b"redis://cache@localhost:6379/0",
        b"git+https://git@github.com/org/repo.git",
        b"ssh://deploy-bot@build.internal:22/srv",
        b"ACL SETUSER app on nopass ~* +@all",
        b"user default on nopass ~* &* +@all",
        b"sentinel auth-pass mymaster $SENTINEL_PASSWORD",
        b"./run --db-pass $DB_PASS --verbose",
        b"./run --no-password --user ci",
        b"redirect=https%3A%2F%2Fexample.com%2Flogin%3Fnext%3D%252Fhome",
        b"state=redis%3A%2F%2Flocalhost%3A6379%2F0",
        b"state=redis%3A%2F%2F%3A%24%7BREDIS_PASSWORD%7D%40cache%3A6379",
        b"password: &default_pw changeme",
        b"<password><![CDATA[${DB_PASSWORD}]]></password>",
        b'{"ParameterKey": "DBPassword", "ParameterValue": "{{resolve:secretsmanager:db}}"}',
        b'{"Key": "Environment", "Value": "production"}',
        b"Token: <paste the session token here>",
        b'"integrity": "sha512-Qx7Lk2Pz9Rf4Ts1Vw8Yb3Nc6Md0Ge5Hj2Ka7Lo9Pq1Rs3Tu5Vw7Xy9Za2Bc4De6'
        b'Fg8Hi0Jk2Lm4No6Pq8Rs0Tu2Vw4Xy6Za8Bc0=",',
        b"token_hash: Qx7Lk2Pz9Rf4Ts1Vw8Yb3Nc6Md0Ge5Hj2Ka7Lo9Pq1Rs3Tu5Vw7Xy9Za2Bc4De6Fg8Hi0"
        b"Jk2Lm4No6",
        b"password: required (see the admin guide)",
        b"The password: Passw0rd is a bad example",
        b'setx DB_PASSWORD "%DB_PASSWORD%" /M',
        b"- **password**: the account password",
        b"- **token**: `<your token>`",
        b"SECRET_KEY_BASE=${SECRET_KEY_BASE}",
        b'"AWSSecretKey": "",',
        b"Rootpassword=",
        b"password = get(Config1)",
        b"token = data[Index2Key]",
        b"secret: {{ .Values.Sec1ret }}",
        b"token = $(cat /run/Secret1s/AbcDef)",
        b"password: List<Str1ng>",
        b"PASSWORD=${DbPass1word}",
        # base64 of lines whose assignment the rules refuse, or of no assignment
        b"CONFIG_B64=UEFTU1dPUkQ9JHtEQl9QQVNTV09SRH0=",  # PASSWORD=${DB_PASSWORD}
        b"data: c2VjcmV0X2tleSA9IHNldHRpbmdzLlNFQ1JFVF9LRVk=",  # secret_key = settings.SECRET_KEY
        b"aGVyZSBpcyB0aGUga2V5IHRvIHRoZSBwYXNzd29yZCB2YXVsdA==",  # prose, no assignment
        b"password\xef\xbc\x9a see below",
        b"TOKEN\xef\xbc\x9d$API_TOKEN",
        # Redis URLs whose user part is a name, a variable or a host and port
        b"redis://ops-team2@cache.internal:6379",
        b"REDIS_URL=redis://${REDIS_PASSWORD}@cache:6379",
        b"redis://<password>@localhost:6379",
        b"rediss://app_user@cache.internal:6380",
        b"unix://redis@/run/redis.sock",
        b"state=redis%3A%2F%2Fcache%40localhost%3A6379%2F0",
        b"next=redis%253A%252F%252F%2524%257BREDIS_PASSWORD%257D%2540cache%253A6379",
        b"redis://[worker]@cache:6379",
        # values with , ; | that are lists, pipes or type names, not drawn
        b"PASSWORD_RULES=upper,lower,digit,Symbol1",
        b"token=abc|def|ghi",
        b"secret_key=Settings,Config1",
        b"private_key: PKCS7PrivateKeyTypes,",
        # SQL bind variables, directives and pairs with no literal value
        b"ALTER USER app IDENTIFIED BY :new_password;",
        b"CREATE USER app IDENTIFIED BY &pw;",
        b"SetEnv APP_ENV production",
        b"    fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;",
        b"    fastcgi_param DB_PASSWORD $db_password;",
        b'read -r TOKEN <<< "$(vault read -field=token secret/ci)"',
        b"**password:** see the vault entry",
        b"password = '''${DB_PASSWORD}'''",
        # short values that read as names, not as drawn
        b"token: getToken2",
        b"SECRET=MyService1",
        b"api_key: HTTPClient2",
        # where a secret is kept, not the secret
        b'password: "ENC[AES256_GCM,data:Tr7o9QmZ,iv:Xk2,tag:Pq1,type:str]"',
        b"DB_PASSWORD=vault:secret/data/db#password",
        b"  api_token: '!Ref ApiToken2'",
        b"client_secret = file:///run/secrets/Client1",
        b"**password:** `var.db_password`",
        b"    fastcgi_param PASSWORD secretKeyRef;",
        b"export SECRET_KEY='arn:aws:secretsmanager:eu-west-1:123456789012:secret:app'",
        # long base64 that is a file, a public key or text, not a drawn token
        b"![chart](data:image/png;base64,q8Rt2VbXk9LmPz3Wc7Ny1Hd5Jf0Gs4Ka6Ue8Qi2Yo+Tr/Vw5Xz7Ab9Cd1"
        b"Ef3Gh5Ij7Kl9Mn1Op3Qr5St7Uv9Wx1Yz3Ab5Cd7Ef9Gh1Ij3Kl5Mn7Op9Qr1St3Uv5Wx7Yz9Ab1Cd3Ef5Gh7Ij9Kl1Mn3"
        b"Op5Qr7St9Uv1Wx3Yz5Ab7Cd9Ef1Gh3Ij5Kl7Mn9)",
        b"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDq8Rt2VbXk9LmPz3Wc7Ny1Hd5Jf0Gs4Ka6Ue8Qi2YoTrVw5X"
        b"z7Ab9Cd1Ef3Gh5Ij7Kl9Mn1Op3Qr5St7Uv9Wx1Yz3Ab5Cd7Ef9Gh1Ij3Kl5Mn7Op9Qr1St3Uv5Wx7Yz9Ab1Cd3Ef5"
        b"Gh7Ij9Kl1Mn3 deploy@build",
        b"  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJrVENCK3dJSkFKVjFrN2xHK0VmTU1B"
        b"b0dDQ3FHU000OUJBTUNNQTh4RFRBTEJnTlZCQU1NQkhSbGMzUXdIaGNOTWpRd05qQXhNVEl3TURBd1doY05N"
        b"alV3Tmpr",
        b"sha256-" + b"9f2c4e" * 30,
        # dotted names with a number, widths, samples, masks and patterns: no drawn value
        b"    token_key = self.session42",
        b"API_TOKEN=settings.TOKEN_V22",
        b"signing_key = hashlib.sha256",
        b"secret_key: torch.float16",
        b"password = dummy-tk42",
        b"client_secret=%2A%2A%2A%2A%2A%2A%2A%2A&limit=50",
        b"password_pattern: ^(?=.*[A-Z])(?=.*[0-9]).{12,}$",
        b"token: <Your-Token-42>",
        # markup inside an element or an attribute: a tag, a placeholder, prose
        b'  <add key="password" value="<your-password>" />',
        b"<secret>see <b>the vault</b> docs</secret>",
        b"<token>if count > 3 then retry</token>",
        # table cells and pipes: words split by signs, code, a shell pipe
        b"| token | see;docs,here |",
        b"| api_key | settings;config;loader |",
        b"x = token | cut -d;Ab3,Cd4Ef",
        # led by "{" or "<": templates, placeholders, literals, patterns
        b"API_TOKEN={{api_token_v2}}",
        b"password=<Db-Password-42>",
        b"secret_key: {A:[1,2],b:3}",
        b"token_regex={[A-Z]{2,}[0-9]+}",
    ],
)
def test_near_misses_pass(line: bytes) -> None:
    out, red = redact_value(line + b"\n", EXT)
    assert red == [] and out == line + b"\n"


@pytest.mark.parametrize(
    "line",
    [
        # values led by a sign that are variables, options, calls or templates
        "WEBHOOK_SECRET=$WEBHOOK_SECRET_V2", "password: $DB_PASSWORD", "token=$apiToken2",
        "API_KEY=${API_KEY}", "client_secret: $(cat /run/secrets/client_secret)",
        "  auth_token: $this->authToken", "--password -p --verbose", "token = -1",
        "redis-server --requirepass --appendonly yes", 'secret_key: (getSecretKey1)',
        '[ "$SECRET_KEY" == "$OTHER_KEY" ]', "password = [pw0, pw1, pw2]",
        "$env:API_TOKEN = $env:FALLBACK_TOKEN",
        # typed assignments, prefixes and calls with no literal secret
        'let token: &str = "TOKEN_NAME";', 'val password: String = ""',
        'String pw = props.getPassword("db.password");', 'checkToken("abc123XYZ789")',
        'ds.setPassword("${DB_PASSWORD}");', 'ds.setPassword("changeme");',
        'string password = @"C:\\Users\\app";',
        # braces that are format fields
        'conn = f"Driver={{x}};Uid={user};Pwd={password};"', "password={self.password}",
        "Pwd={0};Uid={1}", "PWD={{db_pwd}}",
        # colon-separated lines that are no .pgpass
        "hostname:port:database:username:password", "localhost:5432:*:postgres:*",
        "db:5432:app:app:$PGPASS", "main.go:42:7:warn:unused", "12:30:45:00:ok",
        "jdbc:oracle:thin:@//ora.internal:1521/ORCL", "jdbc:oracle:thin:scott/tiger@db:1521:x",
        # hashes that are no credential file line, and locked accounts
        'password_hash: "$2b$12$KIXQJHf9Q2yQvJY5lZ1mUeGq7wG5rN6hYtT3cF8dS1aB4eD7gH0iK"',
        "# deploy:$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/", "root:*:19000:0:99999:7:::",
        "root:!:19000:0:99999:7:::",
        # WordPress samples and references
        "define( 'AUTH_KEY', 'put your unique phrase here' );",
        "define( 'NONCE_SALT', getenv('NONCE_SALT') );",
        # PowerShell secure strings from variables
        "$sec = ConvertTo-SecureString $plain -AsPlainText -Force",
        '$sec = ConvertTo-SecureString "$env:PW" -AsPlainText -Force',
        "$sec = ConvertTo-SecureString '<password>' -AsPlainText -Force",
        "aws configure set aws_secret_access_key $AWS_SECRET_ACCESS_KEY",
        "aws configure set region eu-north-1",
        # lower-case words that are prose, names, code or drawn letters
        "token: expire rotate setting", 'auth_token: "read-only-access"',
        "client_secret: github-actions-runner", "password = config.db.password",
        'secret_key: "settings.secret.key"', "api_token: com.example.mobile",
        'AUTH_TOKEN: "must be set before start"', "pwd := ffzrdiz.loh.gxkpwtvf",
        "password: pebble orbit walnut cascade and more",
        # unquoted words apart by blanks that are a sentence, or do not end the line
        "token: generated during setup", "API_TOKEN: rotated weekly by ops",
        "client_secret: marble falcon juniper cobalt meadow pepper thistle",
        "password: marble falcon juniper see notes", "secret_key: lives in the vault",
        "Forgot password link looks broken", "Password reset flow explained",
        "the password expires after some hours", "password manager ready before",
        "api_key value comes from marble falcon juniper",
        "deploy --token generated during setup", "sentinel monitor mymaster cache one two",
        "AUTH is done before every command here",
        # a reference to an environment variable, and a shell expansion's message
        'db_password = "env:DB_PASSWORD"',
        "      - POSTGRES_PASSWORD=${POSTGRES_PASSWORD:?missing}",
        'token: "${API_TOKEN:?set API_TOKEN first}"',
        # a file's relative path under a password key
        "kubectl create secret generic app --from-file=password=./pw.txt",
        "DB_PASSWORD=../secrets/db_password",
        # a YAML anchor or tag before a variable or a sentence
        "password: &pw $DB_PASSWORD", "token: !!str generated during setup",
        "secret_key: &sk ${SECRET_KEY}",
        "sentinel auth-pass primary-a $SentinelPass", "AUTH app $redisPassword2",
        # wrappers and builder methods that hold no literal secret
        '    password: String::from("Password"),', "    token: String::from(TOKEN_NAME),",
        '    password = Field("password", required=True)', '    api_token = Env("API_TOKEN")',
        '    .password(request.form["password"])', '    .getPassword("db.password")',
        '    .verifyToken("abc123XYZ789abc")', '    .token("TOKEN_NAME")', '    .password("")',
        '    token = Token("${API_TOKEN}")', "    pw = new String(chars)",
        '    .clientSecret(System.getenv("CLIENT_SECRET"))', '    secret = Some("<your-secret>")',
        # whole references where a Redis or npm password goes, and files read
        "AUTH default $REDIS_PASSWORD", "sentinel auth-pass primary-a ${SENTINEL_PASS}",
        "127.0.0.1:6379> AUTH app $(cat /run/secrets/redis)", 'requirepass "{{ .Values.pw }}"',
        "redis-cli -a %(redis_password)s ping",
        'redis-server --requirepass "$REDIS_PASSWORD"', 'deploy --password "@/run/secrets/pw"',
        'deploy --token "API token to use"', "sign --key-passphrase '<passphrase>'",
        "requirepass <password>", "unix://redis@/run/redis.sock",
        "unix://:${REDIS_PASSWORD}@/tmp/redis.sock", "unix://worker01@/var/run/redis/main.sock",
        "next=redis%3A%2F%2Fcache%40localhost%3A6379%2F0%23ops%40example.com",
        "password: /etc/app/secrets/db_pw",
        'set(PASSWORD "${DB_PASSWORD}")', 'set(TOKEN_FILE "token.txt")', "set(PASSWORD_MIN 12)",
        "set(SECRET_KEY $ENV{SECRET_KEY})", 'set(AUTH_TOKEN "<token>")',
        "_auth=${NPM_AUTH}", "//registry.example.org/:_password=${NPM_PASS}",
        "_auth = <base64 of user:password>", 'password: "${DB_PASSWORD}"',
        # netrc lines whose words after "password" are prose or a variable
        "machine host login me password is not set here", "default login me password $PW",
        "machine h login u password see the docs", "  password pebble orbit walnut cascade",
        "src/x.c:10:3:error:expected identifier before", "lib.rs:7:12:warning:unused import here",
    ],
)
def test_near_misses_of_sign_led_typed_and_file_shapes_pass(line: str) -> None:
    data = line.encode() + b"\n"
    out, red = redact_value(data, EXT)
    assert red == [] and out == data


# --------------------------------------------------------------------------- #
# Key bodies after a decoy END.
# --------------------------------------------------------------------------- #
def _keys() -> list[tuple[str, list[str]]]:
    crypto = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    out = []
    for i, (key, fmt) in enumerate(
        [
            (rsa.generate_private_key(public_exponent=65537, key_size=2048), "openssh"),
            (rsa.generate_private_key(public_exponent=65537, key_size=3072), "openssh"),
            (rsa.generate_private_key(public_exponent=65537, key_size=2048), "pkcs1"),
            (ec.generate_private_key(ec.SECP256R1()), "pkcs8"),
        ]
    ):
        form = {
            "openssh": crypto.PrivateFormat.OpenSSH,
            "pkcs1": crypto.PrivateFormat.TraditionalOpenSSL,
            "pkcs8": crypto.PrivateFormat.PKCS8,
        }[fmt]
        pem = key.private_bytes(crypto.Encoding.PEM, form, crypto.NoEncryption()).decode()
        out.append((f"{fmt}-{i}", pem.splitlines()))
    return out


def _rewrap(body: list[str], width: int) -> list[str]:
    s = "".join(body)
    return [s[i : i + width] for i in range(0, len(s), width)]


DECORATIONS = {
    "plain": lambda s: s,
    "quote": lambda s: "> " + s,
    "indent": lambda s: "    " + s,
    "diff": lambda s: "+" + s,
    "numbered": lambda s: "  12 | " + s,
}


def test_body_after_a_decoy_end_never_leaks() -> None:
    rng = random.Random(28)
    leaked = []
    for name, lines in _keys():
        begin, end = lines[0], lines[-1]
        for width in (70, 64, 40, 24, 16):
            body = _rewrap(lines[1:-1], width)
            inner = rng.sample(range(1, len(body)), min(4, len(body) - 1))
            cuts = sorted({1, len(body) - 1, *inner})
            for deco_name, deco in DECORATIONS.items():
                for at in cuts:
                    for sep in ([], [""], ["```"]):
                        doc = [begin, *body[:at], end, *sep, *body[at:], end]
                        text = "Key below:\n" + "\n".join(deco(x) for x in doc) + "\nVerdict: ok\n"
                        out, _ = redact_value(text.encode(), EXT)
                        kept = set(out.decode().splitlines())
                        # (a last line of one character carries six bits: not counted)
                        leaked += [
                            (name, width, deco_name, at, b)
                            for b in body if len(b) > 1 and deco(b) in kept
                        ]
                        assert "Verdict: ok" in kept
    assert leaked == [], leaked[:50]


# --------------------------------------------------------------------------- #
# Rules from a file keep RE2's linear time.
# --------------------------------------------------------------------------- #
def _time_line(rules: object, n: int, unit: bytes = b"a") -> float:
    import time

    data = unit * n + b"\n"
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        redact_value(data, rules)  # type: ignore[arg-type]
        best = min(best, time.perf_counter() - t0)
    return best


@pytest.mark.parametrize(
    "pattern", ["(a+)+b", "(a|aa)+c", "(?:a*)*b", "(\\w+\\s?)+$", "(a+)+(b+)+c"]
)
def test_rules_from_a_file_run_in_linear_time(tmp_path, pattern: str) -> None:
    pytest.importorskip("re2")
    path = tmp_path / "rules.toml"
    path.write_text(f"[[rules]]\nid = \"evil\"\nregex = '''{pattern}'''\n")
    rules = load_rules(str(path))
    assert rules is not None
    small, large = _time_line(rules, 2400), _time_line(rules, 9600)
    # A backtracking engine takes seconds here (and 16x or more for 4x the input).
    assert large < 0.5
    assert large < 8 * small + 0.01


def test_without_re2_a_repeat_inside_a_repeat_is_refused(monkeypatch, tmp_path) -> None:
    from council_filters.base.errors import UsageError
    from council_filters.redaction.secrets import gitleaks

    monkeypatch.setattr(gitleaks, "_re2", lambda: None)
    path = tmp_path / "rules.toml"
    path.write_text("[[rules]]\nid = \"evil\"\nregex = '''x(a+)+b'''\n")
    with pytest.raises(UsageError, match="repeat inside a repeat"):
        gitleaks.load_file(str(path))
    path.write_text("[[rules]]\nid = \"fine\"\nregex = '''key_[a-z0-9]{16}(?:x{2})?'''\n")
    got, _ = gitleaks.load_file(str(path))
    assert [r.id for r in got] == ["fine"]


# --------------------------------------------------------------------------- #
# Adversarial lines: linear in the line.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    ("unit", "tail"),
    [
        (b"mysql x ", b" -p"),
        (b"redis-cli x ", b" -a"),
        (b"curl x ", b" -u ab:cdefgh"),
        (b"AUTH x ", b" AUTH"),
        (b'key="password" ', b"value="),
        (b"session_token=", b""),
        (b'\\"password\\":', b""),
        (b"| password | ", b""),
        (b"login x password ", b""),
        (b"IQoJb3JpZ2lu", b""),
        (b"[password=", b""),
        (b"ENV PASSWORD ", b"x"),
        (b"password is ", b"Xy7#abc9"),
        (b"password%3D", b""),
        (b"-u x ", b" -p Xy7#abc9"),
        (b'<entry key="password">', b""),
        (b"token: !!str ", b""),
        (b"-Dpassword=", b""),
        (b"token: ", b""),
        (b"Token ::", b"Ab3+"),
        (b"A1b2C3d4/+", b""),
        (b"token: &a ", b""),
        (b"x://", b"Ab3x@h"),
        (b"redis%3A%2F%2F", b"%40h"),
        (b"%3A", b"%40h"),
        (b"ACL SETUSER x ", b" >"),
        (b"user x ", b" >"),
        (b"sentinel auth-pass x ", b""),
        (b"'password', ", b""),
        (b"Password { get; ", b""),
        (b'Token { get; } = "', b""),
        (b"--db-pass ", b""),
        (b"<password><![CDATA[", b""),
        (b"password%2526", b""),
        (b'{"ParameterKey": "password", ', b'"ParameterValue": "x"'),
        (b"password=Ab1<", b""),
        # base64 runs holding a key word's base64 (decoded: PASSWORD=, a secret key)
        (b"UEFTU1dPUkQ9", b""),
        (b"UEFTU1dPUkQ9YWJj ", b""),
        (b"c2VjcmV0X2tleT1Y=", b""),
        # Redis URLs: a user part full of @ (each could end it) and hosts
        (b"redis://Ab1#@", b""),
        (b"unix://a.b@a.b", b"x"),
        (b"valkey://x@[::1]:6379", b"-"),
        # runs of base64 just short of a bare token, or long and refused
        (b"Ab3+" * 31 + b"A ", b""),
        (b"aB3/", b"-"),
        # SQL, directives, bold keys and triple quotes with no end
        (b"IDENTIFIED WITH x BY ", b""),
        (b"SET PASSWORD FOR a = ", b""),
        (b"**password:** ", b"x"),
        (b"password = '''x", b""),
        (b"SetEnv TOKEN ", b"x"),
    ],
)
def test_extended_rules_are_linear_on_adversarial_lines(unit: bytes, tail: bytes) -> None:
    import time

    def run(k: int) -> float:
        data = unit * k + tail + b"\n"
        best = float("inf")
        for _ in range(3):
            # (the process's CPU time: on a loaded machine the clock on the
            # wall also counts the time others ran, and read 20x for 4x)
            t0 = time.process_time()
            redact_value(data, EXT)
            best = min(best, time.process_time() - t0)
        return best

    small, large = run(1500), run(6000)
    assert large < 10 * small + 0.02  # quadratic would be 16x


# --------------------------------------------------------------------------- #
# The spans other filters build placeholders from.
# --------------------------------------------------------------------------- #
def test_match_spans_name_each_secret_on_each_redacted_line() -> None:
    from council_filters.redaction.secrets import match_spans, scan

    rng = random.Random(9)
    session = sf.aws_session_token(rng)
    pw = sf.password(rng)
    data = (
        f"plain text\nexport AWS_SESSION_TOKEN={session}\n"
        f"  <password>{pw}</password>\nREDIS_URL=redis://:{pw}@cache:6379/0\n"
    ).encode()
    got = list(match_spans(data, EXT))
    assert [n for n, _ in got] == [f.line for f in scan(data, EXT)] == [2, 3, 4]
    lines = data.split(b"\n")
    for n, spans in got:
        secrets = {lines[n - 1][a:b] for a, b, _ in spans}
        assert session.encode() in secrets or pw.encode() in secrets
    assert {rid for _, spans in got for *_, rid in spans} >= {"aws-session-token", "secret-xml"}


def _der_body(rng: random.Random, width: int, tail: int) -> list[str]:
    """A base64 DER body (SEQUENCE header, random content) wrapped at ``width``
    whose last line has ``tail`` characters and reads as a plain word."""
    import base64
    import re as _re

    word = _re.compile(r"[A-Z]?[a-z]+\Z|[A-Z]+\Z")
    # 1190 base64 characters is about a 2048-bit PKCS#1 key; pick the byte
    # count whose encoding leaves ``tail`` characters on the last line.
    for n in range(880, 1000):
        total = 4 + n
        b64 = 4 * -(-total // 3)
        if total % 3 == 0 and b64 % width == tail:
            break
    else:  # pragma: no cover - the range always holds one
        raise AssertionError((width, tail))
    for _ in range(200_000):
        der = bytes([0x30, 0x82, n >> 8, n & 0xFF]) + rng.randbytes(n)
        s = base64.b64encode(der).decode()
        if word.match(s[-tail:]):
            return [s[i : i + width] for i in range(0, len(s), width)]
    raise AssertionError("no word-like tail found")  # pragma: no cover


@pytest.mark.parametrize(
    ("width", "tail"), [(64, 4), (64, 8), (24, 4), (16, 8), (70, 2), (76, 8)]
)
def test_a_word_like_last_line_after_a_decoy_end_is_redacted(width: int, tail: int) -> None:
    # The last line of a body that a decoy END cut off may read as a word
    # ("Spdw"); the body's DER header says how much is still owed.
    rng = random.Random(width * 100 + tail)
    body = _der_body(rng, width, tail)
    begin, end = "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----"
    for deco in DECORATIONS.values():
        for sep in ([], [""], ["```"]):
            doc = [begin, *body[:-1], end, *sep, body[-1], end]
            text = "Key below:\n" + "\n".join(deco(x) for x in doc) + "\nThanks\nVerdict: ok\n"
            kept = set(redact_value(text.encode(), EXT)[0].decode().splitlines())
            assert deco(body[-1]) not in kept
            # After the body's full length a lone word is prose again.
            assert {"Thanks", "Verdict: ok"} <= kept


def test_a_lone_word_after_a_whole_key_is_kept() -> None:
    rng = random.Random(5)
    body = _der_body(rng, 64, 4)
    text = "\n".join(
        ["-----BEGIN RSA PRIVATE KEY-----", *body, "-----END RSA PRIVATE KEY-----", "Done", "LGTM"]
    ) + "\n"
    kept = redact_value(text.encode(), EXT)[0].decode().splitlines()
    assert kept[-2:] == ["Done", "LGTM"]


# --------------------------------------------------------------------------- #
# Rules from a file: one pass over a buffer's candidate lines, per rule.
# --------------------------------------------------------------------------- #
GITLEAKS_DEFAULT = Path(__file__).parent / "data" / "gitleaks-default.toml"


def _rand(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                   for _ in range(n))


def _keyword_dense_lines(rng: random.Random) -> list[bytes]:
    """Lines holding the default file's keywords: most are not secrets, some are,
    some are anchored shapes, some span what a joined search could read across."""
    hexs = "0123456789abcdef"
    out = []
    for i in range(600):
        kind = i % 12
        if kind == 0:
            out.append(f'api_key = "{_rand(rng, 32)}"'.encode())
        elif kind == 1:
            out.append(f"token_count = len(tokens)  # {i}".encode())
        elif kind == 2:
            out.append(f"SK{''.join(rng.choice(hexs) for _ in range(32))}".encode())
        elif kind == 3:
            out.append(b"s. the key is read from config and never logged")
        elif kind == 4:
            out.append(f"export GITHUB_TOKEN=ghp_{_rand(rng, 36)}".encode())
        elif kind == 5:
            out.append(f"auth: {_rand(rng, 6)}".encode())  # may continue on the next line
        elif kind == 6:
            out.append(f"{_rand(rng, 20)}'".encode())
        elif kind == 7:
            out.append("clé secrète: \u00e9t\u00e9 \xff".encode("utf-8", "surrogateescape")
                       + b"\xff\xfe key")
        elif kind == 8:
            out.append(f"password={_rand(rng, 14)}".encode())
        else:
            out.append(f"the {rng.choice(['key', 'api', 'auth', 'secret'])} of line {i}".encode())
    rng.shuffle(out)
    return out


def test_one_pass_per_rule_redacts_as_line_by_line() -> None:
    """A buffer fed whole (rules with many candidate lines are searched once
    over them all) redacts exactly the lines that feeding it one line at a time
    (each rule run on each line) does."""
    rules = load_rules(str(GITLEAKS_DEFAULT))
    rng = random.Random(28)
    data = b"\n".join(_keyword_dense_lines(rng)) + b"\n"
    whole, got = redact_value(data, rules)
    from council_filters.redaction.secrets.engine import make_redactor

    r = make_redactor(rules, record_lines=True)
    pieces = [r.feed(line + b"\n") for line in data.split(b"\n")[:-1]]
    one_by_one = b"".join(pieces) + r.finish()
    assert got, "the sample holds secrets"
    assert whole == one_by_one
    assert got == list(r.redacted)


def test_clean_lines_never_hides_a_match() -> None:
    """For every rule of the default file: the lines a joined search calls clean
    are lines on which the rule's regex finds nothing, line by line."""
    from council_filters.redaction.secrets.engine import clean_lines

    rules = load_rules(str(GITLEAKS_DEFAULT))
    rng = random.Random(7)
    lines = _keyword_dense_lines(rng)
    served = 0
    for rule in rules.rules:
        clean = clean_lines(rule, lines)
        served += bool(clean)
        for ln in clean:
            assert rule.regex.search(ln.decode("utf-8", "replace")) is None, rule.id
    assert served > 50


def test_the_searches_are_the_same_in_every_process() -> None:
    """The combined scan's patterns and the proof patterns do not depend on hash
    order (the compiled database and programs are cached by their patterns: a
    different order compiles them again)."""
    import os
    import subprocess
    import sys

    code = (
        "import hashlib, sys\n"
        "from council_filters.redaction.secrets import load_rules\n"
        "for name in sys.argv[1:]:\n"
        "    pairs = load_rules(name).fresh().prefilter\n"
        "    print(hashlib.sha256(repr(pairs).encode()).hexdigest())\n"
        "from council_filters.redaction.secrets import builtin, proof\n"
        "proofs = [proof.proof_sources(r) for r in builtin.RULES if proof.servable(r)]\n"
        "print(hashlib.sha256(repr(proofs).encode()).hexdigest())\n"
    )
    seen = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code, "extended", str(GITLEAKS_DEFAULT)],
            env=env, capture_output=True, check=True, text=True,
        ).stdout
        seen.add(out)
    assert len(seen) == 1


def test_the_url_encoded_value_is_decoded_as_urllib_decodes_it() -> None:
    """validators.unquote (the URL-encoded rule's decoder, without importing
    urllib) gives what urllib.parse.unquote gives, escapes, stray percent
    signs, bad UTF-8 and non-ASCII characters included."""
    from urllib.parse import unquote as reference

    from council_filters.redaction.secrets.validators import unquote

    rng = random.Random(52)
    pieces = ["%", "%4", "%41", "%e9", "%C3%A9", "%c3%28", "%E2%82%AC", "%zz", "%%", "a",
              "Z", "9", "+", "\x7f", "\x80", "é", "ÿ", "€", " ", "%3D", "%2f"]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert unquote(text) == reference(text), text


@pytest.mark.parametrize("seed", [5, 29])
def test_values_on_the_lines_after_their_key_are_redacted(seed: int, engine: str) -> None:
    """A secret on the line(s) after its key (a YAML block scalar, a backslash,
    an HCL default, a token cut at a fixed width) is redacted, and the lines
    around it (the key line, siblings, prose between records) are not."""
    lines: list[tuple[str, str, bool]] = []
    for shape, record in sf.multiline_records(seed):
        lines += [(shape, text, secret) for text, secret in record]
        lines.append(("prose", "the next record follows here", False))
    doc = "".join(text + "\n" for _, text, _ in lines).encode()
    _, redacted = redact_value(doc, EXT)
    leaked = [(s, t[:40]) for n, (s, t, secret) in enumerate(lines, 1)
              if secret and n not in redacted]
    assert leaked == [], leaked[:20]
    # (a short, letters-only or final piece of a wrapped token may pass; none
    # of the record's other lines is redacted)
    wrong = [(s, t[:40]) for n, (s, t, secret) in enumerate(lines, 1)
             if n in redacted and not secret and not s.startswith("wrapped/")]
    assert wrong == [], wrong[:20]


def test_the_lines_after_a_key_with_no_secret_stay() -> None:
    lines = sf.multiline_near_misses()
    doc = "".join(line + "\n" for line in lines).encode()
    out, redacted = redact_value(doc, EXT)
    assert redacted == [] and out == doc


def test_a_wrapped_token_ends_at_a_line_of_another_width() -> None:
    """After a token cut at 76 columns, a line of other bytes, of token bytes
    wider than the cut, or of another alphabet (URL-safe base64 after base64:
    a region name) is not read as a piece of it."""
    token = sf.aws_session_token(random.Random(3))
    cut = [token[i : i + 76] for i in range(0, 76 * 3, 76)]
    after = ["", "next: value", "x" * 80 + "9", "Z9" * 40, "us-east-1-prod", "db_replica_02"]
    for line in after:
        doc = "".join(p + "\n" for p in cut).encode() + line.encode() + b"\nok1 ok2\n"
        _, redacted = redact_value(doc, EXT)
        assert redacted == [1, 2, 3], (line, redacted)


def test_a_block_holds_a_few_lines_at_most() -> None:
    """The lines a block opener carries to are bounded: a value far below it
    (past the bound, indented as if inside) is read on its own line only."""
    from council_filters.redaction.secrets.follow import BLOCK_LINES

    body = [f"  filler line {i} of the block" for i in range(BLOCK_LINES)]
    doc = "\n".join(["password: |", *body, "  Xk29fj3Lq0Pz"]).encode() + b"\n"
    _, redacted = redact_value(doc, EXT)
    assert redacted == []
    doc = "\n".join(["password: |", *body[:2], "  Xk29fj3Lq0Pz"]).encode() + b"\n"
    _, redacted = redact_value(doc, EXT)
    assert redacted == [4]
