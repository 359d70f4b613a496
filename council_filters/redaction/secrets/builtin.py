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
rules run only on the lines found.  The validators live in
:mod:`council_filters.redaction.secrets.validators`.
"""

from __future__ import annotations

import binascii

from council_filters.base.memo import cache
from council_filters.redaction.lazy import LazyRegex, escape
from council_filters.redaction.secrets.rules import Rule
from council_filters.redaction.secrets.validators import (
    KEY_SUFFIXES,
    PASSWORD_WORDS,
    SECRET_WORDS,
    assignment_ok,
    bare_token_ok,
    basic_ok,
    bearer_ok,
    braced_password_ok,
    cut_value_ok,
    digit_in,
    enclosed_ok,
    encoded_redis_user_ok,
    encoded_url_password_ok,
    file_password_ok,
    flag_ok,
    hash_line_ok,
    jwt_shape,
    login_password_ok,
    long_value_ok,
    netrc_phrase_ok,
    npmrc_auth_ok,
    pair_argument_ok,
    passphrase_ok,
    plaintext_secure_string_ok,
    redis_ok,
    redis_userinfo_ok,
    said_ok,
    sas_ok,
    scrambled_ok,
    sign_led_ok,
    spaced_pair_ok,
    spoken_phrase_ok,
    stripe_ok,
    tagged_ok,
    token_shape,
    twilio_ok,
    typed_ok,
    url_encoded_ok,
    url_password_ok,
    url_token_ok,
    wordpress_salt_ok,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


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
        regex=LazyRegex(pattern),
        secret_group=group,
        validator=validator,
        prefilter=prefilter,
        description=description,
        placeholders=placeholders,
    )


_TAIL = rb"(?![A-Za-z0-9_-])"
# The start of a value led by a sign that is no variable, option or template
# opener: $, a name and then a digit or a sign ($PASSWORD alone, $env:X are
# variables); = or - and no second one (nor =>, ->); ( or [ and a sign.  Not
# "<" or "{": <your-api-key> and {token} are how placeholders start.
_SIGN_LEAD = (
    rb"(?:\x24[A-Za-z][A-Za-z_]*[^A-Za-z_: \t\n\r\x0b\x0c\"'`]|[=-][^ \t\n\r\x0b\x0c\"'`=>-]"
    rb"|[(\[][^A-Za-z0-9 \t\n\r\x0b\x0c\"'`(\[<{\x24])"
)
_B64END = rb"(?![A-Za-z0-9+/=])"

# Key/value: KEY (quoted or not) OP VALUE (quoted or not).
# The key's run of name characters is taken whole (possessive): what may follow
# a key (a quote, "]", a blank, an operator) is never a name character, so a
# shorter key could not match where the whole one does not, and the search does
# not retry every length at every position.
_KEY = rb"""(?<![A-Za-z0-9_.$@-])(?P<key>["'`]?[A-Za-z0-9_.$@-]{1,80}+["'`]?\]?\*{0,2})"""
# (a full-width colon or equals sign, as CJK text writes them, is one too)
_OP = rb"""[ \t]*(?P<op>:=|=>|\?=|\|\|=|:|=(?!=)|<-|\xef\xbc[\x9a\x9d])[ \t]*"""
# A constructor or conversion a literal is given through (String::from(,
# SecretString::new(, Secret(, new String(, Some().
# (the same, or the bar between a table's cells)
_CELL_OP = _OP.replace(b"(?P<op>", b"(?P<op>\\|(?!\\|)|", 1)
_WRAPPER = rb"(?-i:(?:new[ \t]+)?[A-Z][A-Za-z0-9_]{0,40}+(?:::(?:new|from))?)\("
_WRAPPER_SEARCH = _WRAPPER.replace(b"{0,40}+", b"{0,40}")  # (a search takes no possessive)
_VALUE = rb"""(?P<q>["'`])?(?P<v>(?(q)[^"'`\s][^"'`]{0,300}?|[^\s"'`,;|]{1,300}))(?(q)(?P=q))"""

# A value secret-scrambled-value looks at: ten bytes, no blank, a sign, a
# digit, both cases, no call, index or variable at its start.
_SCRAMBLED = (
    # (a name opening a call or an index that closes: code; one that never
    # closes, pmi7w[CAEC7hMIU7, is a drawn value)
    rb"(?P<q>[\"'`])?(?P<v>(?![A-Za-z_][\w.$]{0,300}+[(\[][^\s\"'`]{0,300}?[)\]]"
    rb"|\$[A-Za-z_{(])"
    rb"(?=[^\s\"'`]{0,300}?[()\[\]{}<>$*@&])(?-i:(?=[^\s\"'`]{0,300}?[0-9])"
    rb"(?=[^\s\"'`]{0,300}?[A-Z])(?=[^\s\"'`]{0,300}?[a-z]))"
    rb"(?(q)[^\"'`\s]{10,300}+|[^\s\"'`,;|]{10,300}+))(?(q)(?P=q))"
)

VALUE, OP, SCRAMBLED = _VALUE, _OP, _SCRAMBLED  # (for the proof patterns)

# A whole ``KEY=value`` line in base64 (``ENV_B64=UEFTU1dPUkQ9...``): the base64
# of a key word, at each of the three places a byte can start in a group of
# three, written in lower, upper and title case.  Each gives the characters
# that word alone decides (those of groups of six bits inside the word).
_B64_KEY_WORDS = ("pass", "pwd", "secret", "token", "key", "auth")


def _b64_fragments(words: tuple[str, ...]) -> tuple[str, ...]:
    out = set()
    for word in words:
        for cased in {word, word.upper(), word.title()}:
            raw = cased.encode()
            for shift in range(3):
                text = binascii.b2a_base64(b"\0" * shift + raw + b"\0\0", newline=False).decode()
                lo, hi = -(-8 * shift // 6), (8 * (shift + len(raw))) // 6
                out.add(text[lo:hi])
    return tuple(sorted(out))


B64_FRAGMENTS = _b64_fragments(_B64_KEY_WORDS)
B64_WORDS = tuple(f.encode() for f in B64_FRAGMENTS)  # (as the compiled proof takes them)
_B64_WORD = rb"(?:" + b"|".join(f.encode() for f in B64_FRAGMENTS) + rb")"
#: The longest base64 token decoded (3,072 bytes of text: an env line with a
#: session token in it).
B64_MAX = 4096
B64_LEAST = 12  # (and the shortest)
_B64_TEXT = LazyRegex(rb"[\t\n\r\x20-\x7e]{4,3072}")


def base64_assignment_ok(secret: str, _m: Any = None) -> bool:
    """A base64 token that decodes to text holding a credential assignment
    (``SECRET_KEY=...``, ``AWS_SESSION_TOKEN=...``): the key/value rules, run
    on the decoded text."""
    core = secret.rstrip("=")
    if len(core) % 4 == 1:
        return False
    try:
        # (base64.b64decode with validate=True, without importing base64)
        text = binascii.a2b_base64((core + "=" * (-len(core) % 4)).encode("ascii"),
                                   strict_mode=True)
    except ValueError:  # (binascii.Error, UnicodeEncodeError)
        return False
    if _B64_TEXT.fullmatch(text) is None:
        return False  # binary: a key, a hash, an image, not lines of text
    for line in text.splitlines():  # (an env file of a few lines too)
        for rule_id in ("secret-assignment", "secret-scrambled-value", "aws-session-token",
                        "secret-long-value"):
            rule = BY_ID[rule_id]
            check = rule.validator
            assert check is not None
            for m in rule.regex.finditer(line):
                value = m.group(rule.secret_group)
                if value and check(value.decode("latin-1"), m):
                    return True
    return False


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
        rb"(?i)(?:aws)?[ _.-]?secret[ _.-]?(?:access)?[ _.-]?key(?:[ _.-]?id)?"
        rb"(?:[\\\"'`\]]{0,4}[ \t]*(?:[:=]|=>|:=|,)[ \t]*|>|[ \t]*\[[A-Za-z]*\][ \t]*:[ \t]*"
        rb"|[ \t]+)"
        rb"[\\\"'`]{0,4}([A-Za-z0-9/+]{40})" + _B64END,
        rb"(?i)secret[ _.-]?(?:access)?[ _.-]?key",
        description="AWS secret access keys in assignments, JSON (escaped too), XML, prompts",
    ),
    _r(
        "aws-session-token",
        rb"(?:(?<![A-Za-z0-9+/])|(?<=%3[Dd])|(?<=%253[Dd]))"
        # (a preamble and 40 bytes: the first line of a token cut at 64 columns)
        rb"((?:IQoJb3JpZ2lu|FwoGZXIvYXdz|FQoGZXIvYXdz|AQoDYXdz)"
        rb"(?:[A-Za-z0-9+/]|\\/|%(?:25)?2[BbFf]){40,}(?:=|%(?:25)?3[Dd]){0,2})"
        rb"|(?i:(?:session|security)[ _.-]?token)(?:[\\\"'`\]]{0,4}[ \t]*(?:[:=]|=>|:=|,)[ \t]*"
        rb"|>|[ \t]+|%(?:25)?3[Dd])[\\\"'`]{0,4}((?:[A-Za-z0-9+/]|\\/|%(?:25)?2[BbFf]){60,}"
        rb"(?:=|%(?:25)?3[Dd]){0,2})",
        rb"IQoJb3JpZ2lu|FwoGZXIvYXdz|FQoGZXIvYXdz|AQoDYXdz|(?i:(?:session|security)[ _.-]?token)",
        validator=token_shape,
        description="AWS STS session tokens: by their fixed preamble, or named by the key",
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
        validator=digit_in,
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
        validator=stripe_ok,
        description="Stripe secret and restricted keys, webhook secrets",
    ),
    _r(
        "openai-key",
        rb"\b(sk-(?:svcacct|admin|proj|None|or-v1|ant-[a-z]{3,6}[0-9]{0,3})-[A-Za-z0-9_-]{20,})",
        rb"sk-(?:svcacct|admin|proj|None|or-v1|ant-)",
        validator=token_shape,
        description="OpenAI service-account, admin and project keys (and alike)",
    ),
    _r("google-oauth-token", rb"\b(ya29\.[0-9A-Za-z_-]{20,})", rb"ya29\."),
    _r("google-oauth-client-secret", rb"\b(GOCSPX-[A-Za-z0-9_-]{20,})", rb"GOCSPX-"),
    _r(
        "jwt",
        rb"\b(eyJ[A-Za-z0-9_-]{8,}={0,2}\.(?:eyJ[A-Za-z0-9_-]{4,}={0,2}\.[A-Za-z0-9_-]*"
        rb"|[A-Za-z0-9_-]{8,}={0,2}\.[A-Za-z0-9_-]{8,}))",
        rb"eyJ[A-Za-z0-9_-]{8}",
        validator=jwt_shape,
        description="JSON Web Tokens (signed or not)",
    ),
    _r("npm-token", rb"\b(npm_[A-Za-z0-9]{36})" + _TAIL, rb"npm_", validator=token_shape),
    _r("pypi-token", rb"\b(pypi-AgE[A-Za-z0-9_-]{16,})", rb"pypi-AgE"),
    _r("sendgrid-api-key", rb"\b(SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})", rb"SG\."),
    _r(
        "twilio-key",
        rb"\b((?:SK|AC)[0-9a-f]{32})(?![0-9A-Za-z])",
        rb"SK|AC",
        validator=twilio_ok,
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
        validator=sas_ok,
    ),
    _r("huggingface-token", rb"\b(hf_[A-Za-z0-9]{34,40})" + _TAIL, rb"hf_", validator=token_shape),
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
        validator=token_shape,
        description="other provider tokens with a fixed prefix (Groq, xAI, Perplexity, "
        "Replicate, DigitalOcean, Shopify, Linear, Docker Hub, Vault, Postman, New Relic, "
        "Sentry, Grafana, Tailscale, Supabase, PlanetScale, Figma, age, Notion)",
    ),
    _r("telegram-bot-token", rb"\b([0-9]{8,10}:AA[A-Za-z0-9_-]{33})" + _TAIL, rb":AA"),
    _r(
        "cli-credentials",
        rb"(?:^|[\s;|&(`])(?:curl|wget|http|httpie|xh|svn|ftp|lftp|smbclient)\b[^\n]{0,512}?[ \t]"
        rb"(?:-u|--user|--http-user|--password|--http-password)[ =][\"']?"
        rb"(?:[^\s:\"']{1,128}:)?([^\s\"']{4,256})",
        rb"(?:curl|wget|http|svn|ftp|smbclient)",
        validator=url_password_ok,
        placeholders=False,
        description="user:password (or a password) given to curl, wget and alike",
    ),
    _r(
        "flag-credentials",
        rb"(?i)(?:^|[\s;|&(`'\"])(?:--(?:[a-z0-9]{1,20}-){0,3}[a-z0-9]{0,20}?|-)(?:password|passwd|passphrase|pass|pwd|token|api-?key|secret|"
        rb"client-secret|auth-token|access-token|session-token|private-key-?password|db-password|"
        rb"requirepass|masterauth)(?:-(?:key|base|value|string|text))*"
        # (a quoted value is read to its closing quote: it may hold ; | and &)
        rb"(?:=|[ \t]+|[\"'`][ \t]*,[ \t]*)(?:\"([^\"\s]{6,256})\"|'([^'\s]{6,256})'"
        rb"|[\"']?([^\s\"'`;|&]{6,256}))",
        rb"(?i)-(?:pass|pwd|token|api|secret|client|auth|access|private|db)",
        validator=flag_ok,
        placeholders=False,
        description="a password or token given as a command-line option (--password X)",
    ),
    _r(
        "url-credentials",
        rb"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/?#@\"'<>]{0,256}:([^\s\"'<>`]{1,256})@"
        rb"(?:[A-Za-z0-9\[_]|/[A-Za-z0-9_.])",
        rb"://",
        validator=url_password_ok,
        placeholders=False,
        description="scheme://user:password@host, any scheme (a socket path for a host too)",
    ),
    _r(
        "url-token-userinfo",
        rb"\b([A-Za-z][A-Za-z0-9+.-]{1,30})://([^\s:/?#@\"'<>\[\]`]{8,256}+)@[A-Za-z0-9\[_]",
        rb"://",
        group=2,
        validator=url_token_ok,
        placeholders=False,
        description="scheme://TOKEN@host: a user part that reads as a token (redis://, https://)",
    ),
    _r(
        "redis-url-userinfo",
        # A Redis URL's user part is its password (or user:password), and a
        # drawn one holds raw signs a URL would encode (# ? @ / % < [): take
        # it up to the last @ that a host (and port) follows.
        rb"(?i)\b((?:redis|rediss|valkey|valkeys|unix)(?:\+[a-z]{1,12})?)://"
        rb"([^\s\"'`]{1,256})@(?:[A-Za-z0-9_-]{1,253}(?:\.[A-Za-z0-9_-]{1,63}){0,20}"
        # (a unix socket's path for a host: unix://:PASSWORD@/run/redis.sock)
        rb"|\[[0-9A-Fa-f:.]{2,45}\]|/(?:[A-Za-z0-9_.-]{1,64}+/){0,15}+[A-Za-z0-9_-]{1,64}+\.sock)"
        rb"(?::[0-9]{1,5})?(?![A-Za-z0-9_@:-]|\.[A-Za-z0-9_-])",
        rb"(?i)(?:redis|valkey|unix)",
        group=2,
        validator=redis_userinfo_ok,
        placeholders=False,
        description="redis://PASSWORD@host with raw signs in the user part",
    ),
    _r(
        "url-credentials-encoded",
        rb"(?i)\b[A-Za-z](?:[A-Za-z0-9+.-]|%(?:25)?2B){1,30}(?:%3A|%253A)(?:%2F|%252F){2}"
        # (a user part may hold an "@" encoded twice: user%2540corp)
        rb"(?:[A-Za-z0-9._~!*+,;=-]|%(?!3A|253A|40)[0-9A-F]{2}){0,256}+(?:%3A|%253A)"
        rb"((?:[A-Za-z0-9._~!*+,;=()\x24'-]|%(?!40|2540)[0-9A-F]{2}){1,256}+)(?:%40|%2540)"
        rb"[A-Za-z0-9_%]",
        rb"(?i)%3a%2f%2f|%253a%252f%252f",
        validator=encoded_url_password_ok,
        placeholders=False,
        description="scheme%3A%2F%2Fuser%3Apassword%40host: a URL encoded once or twice",
    ),
    _r(
        "redis-url-encoded",
        # A Redis URL encoded once or twice whose user part alone is its password
        # (state=valkeys%3A%2F%2FPASSWORD%40host)
        rb"(?i)\b((?:redis|rediss|valkey|valkeys|unix)(?:%(?:25)?2B[a-z]{1,12})?)(?:%3A|%253A)"
        # (an encoded "@" may be in it: up to the last one a host follows)
        rb"(?:%2F|%252F){2}((?:[A-Za-z0-9._~!*+,;=()\x24'-]|%(?!40|2540)[0-9A-F]{2}){1,256}+"
        rb"(?:(?:%40|%2540)(?:[A-Za-z0-9._~!*+,;=()\x24'-]|%(?!40|2540)[0-9A-F]{2}){1,256}+)*)"
        rb"(?:%40|%2540)[A-Za-z0-9_\[%]",
        rb"(?i)(?:redis|valkey|unix)[a-z]*(?:%(?:25)?2b[a-z]{1,12})?%(?:25)?3a%(?:25)?2f",
        group=2,
        validator=encoded_redis_user_ok,
        placeholders=False,
        description="redis%3A%2F%2FPASSWORD%40host: an encoded Redis URL, its user part the "
        "password",
    ),
    _r(
        "bearer-token",
        rb"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{12,}=*)",
        rb"(?i)bearer",
        validator=bearer_ok,
        description="bearer tokens, any case",
    ),
    _r(
        "authorization-basic",
        rb"(?i)\b(?:proxy-)?authorization[\"'`]?[ \t]*[:=][ \t]*[\"'`]?basic[ \t]+"
        rb"([A-Za-z0-9+/]{6,}={0,2})",
        rb"(?i)authorization",
        validator=basic_ok,
        description="Authorization: Basic credentials",
    ),
    _r(
        "authorization-header",
        rb"(?i)\b(?:proxy-)?authorization[\"'`]?[ \t]*[:=][ \t]*[\"'`]?"
        rb"(?:token|digest|negotiate|ntlm|apikey|sso-key|key|bot|sharedkey|splunk|gitlab|"
        rb"[a-z0-9-]*-hmac-sha256)?[ \t]*([A-Za-z0-9._~+/=:-]{16,})",
        rb"(?i)authorization",
        validator=bearer_ok,
        description="Authorization headers with other schemes, or none",
    ),
    _r(
        "redis-credentials",
        rb"(?i:(?:^|[\s;|&(`'\"]|--)(?:requirepass|masterauth))[ \t]+[\"']?([^\s\"']{4,256})"
        rb"|(?:^|[>\s])AUTH[ \t]+(?:[A-Za-z0-9_.@-]{1,64}[ \t]+)?[\"']?([^\s\"']{6,256})"
        rb"[\"']?[ \t]*\Z"
        rb"|\bredis-cli\b[^\n]{0,512}?[ \t](?:-a|--pass|--password)[ \t]+[\"']?([^\s\"']{4,256})"
        rb"|(?i:\bACL[ \t]+SETUSER|^[ \t]*user)[ \t]+[^\s]{1,128}(?:[ \t][^\n]{0,256}?)?[ \t]>"
        rb"([^\s\"']{4,256})"
        rb"|(?i:\bsentinel[ \t]+(?:auth-pass[ \t]+[^\s]{1,128}|sentinel-pass))[ \t]+[\"']?"
        rb"([^\s\"']{4,256})",
        rb"(?i:requirepass|masterauth)|AUTH[ \t]|redis-cli",
        validator=redis_ok,
        placeholders=False,
        description="Redis passwords given to requirepass, masterauth, AUTH, redis-cli -a, "
        "an ACL user (after >) and sentinel auth-pass",
    ),
    _r(
        "database-credentials",
        rb"(?i)\b(?:identified[ \t]+by|password)[ \t]+'([^'\s]{6,256})'"
        rb"|\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]{0,512}?[ \t]"
        rb"-p([^\s\"'-][^\s\"']{3,255})"
        rb"|\b(?:login|user)[ \t]+[^\s]{1,128}[ \t]+password[ \t]+([^\s]{4,256})"
        # IDENTIFIED [WITH plugin] BY, the value quoted either way or bare
        # (Oracle); WITH PASSWORD = N'...' (SQL Server); SET PASSWORD [FOR
        # user] = '...'; mysql -p'...'
        rb"|\bidentified[ \t]+(?:with[ \t]+[A-Za-z0-9_]{1,64}[ \t]+)?by[ \t]+"
        rb"(?:'([^'\s]{6,256})'|\"([^\"\s]{6,256})\"|([^\s'\";:&@$?][^\s'\";]{5,255}))"
        rb"|\b(?:with|set)[ \t]+password[ \t]*(?:for[ \t]+[^\n=]{1,128})?=[ \t]*"
        rb"(?:password[ \t]*\([ \t]*)?N?'([^'\s]{6,256})'"
        rb"|\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]{0,512}?[ \t]"
        rb"-p'([^'\s]{4,255})'",
        rb"(?i:identified[ \t]+by|password[ \t]+'|mysql|mariadb|"
        rb"(?:login|user)[ \t]+[^ \t\n]{1,128}[ \t]+password[ \t]+[^ \t\n])",
        validator=flag_ok,
        placeholders=False,
        description="SQL IDENTIFIED [WITH plugin] BY '...' (any quotes, or none), PASSWORD "
        "'...', WITH PASSWORD = N'...', SET PASSWORD = '...', mysql -pSECRET, netrc lines",
    ),
    _r(
        "secret-xml",
        rb"<(?P<key>[A-Za-z_][A-Za-z0-9_.:-]{0,80})(?P<op>>)(?P<q>)(?:<!\[CDATA\[)?"
        rb"(?P<v>[^<>\s](?:[^<]|<(?!/)){0,299}?)(?:\]\]>)?</(?P=key)>",
        rb"(?i)<[A-Za-z0-9_.:-]{0,80}(?:pass|pwd|pw|secret|token|key|auth|credential|sas|"
        rb"connection)[A-Za-z0-9_.:-]{0,80}>[^<>\n]{4}",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description="<password>...</password>: an element that names a secret, and its text",
    ),
    _r(
        "secret-xml-attribute",
        rb"(?i)\b(?:key|name)[ \t]*=[ \t]*[\"'](?P<key>[A-Za-z0-9_.:$@-]{1,80})[\"'][^<>]{0,200}?"
        rb"\bvalue[ \t]*(?P<op>=)[ \t]*(?P<q>[\"'])(?P<v>[^\"'<>][^\"']{0,299})(?P=q)",
        rb"(?i)(?:key|name)[ \t]*=[ \t]*[\"'][A-Za-z0-9_.:\x24@-]{0,80}(?:pass|pwd|pw|secret|token|"
        rb"key|auth|credential|sas|connection)",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description='<add key="Password" value="..."/>, <input name="password" value="...">',
    ),
    _r(
        "secret-name-value",
        rb"(?i)\b[A-Za-z]{0,20}?(?:name|key)[\"']?[ \t]*[:=][ \t]*[\"']?"
        rb"(?P<key>[A-Za-z0-9_.-]{1,80})[\"']?[ \t]*,[ \t]*[\"']?[A-Za-z]{0,20}?value[\"']?[ \t]*"
        rb"(?P<op>[:=])[ \t]*" + _VALUE,
        rb"(?i)value",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description="{name: DB_PASSWORD, value: ...} pairs on one line (ParameterKey and "
        "ParameterValue, Key and Value too)",
    ),
    _r(
        "secret-table-cell",
        rb"(?i)\|[ \t]*(?P<key>`?[A-Za-z0-9_.$@-]{1,80}`?)[ \t]*(?P<op>\|)[ \t]*" + _VALUE,
        rb"\|",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description="a secret-named key and its value in a markdown table row",
    ),
    _r(
        "secret-assignment",
        rb"(?i)" + _KEY + _OP + _VALUE,
        rb"(?i)(?:pass|pwd|pw|secret|token|key|auth|credential|sas|connection)",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description="password/secret/token/api_key-style assignments (key names the "
        "secret; the value is a literal, and token-like values pass an entropy gate)",
    ),
    _r(
        "secret-scrambled-value",
        # secret-assignment's key and operator; a value it refuses for a sign in
        # it that reads as random (a password drawn with every kind of sign)
        rb"(?i)" + _KEY + _OP + _SCRAMBLED,
        rb"", group=4, validator=scrambled_ok, placeholders=False,
        description="password/secret/token keys whose value has a bracket or a sign and reads "
        "as random",
    ),
    _r(
        "secret-cut-value",
        # secret-assignment's key and operator; an unquoted value it cuts at
        # , ; or | read whole to the next blank, when it reads as drawn
        # (or a markdown table's key cell and the cell after it: | KEY | a;b |)
        rb"(?i)" + _KEY + _CELL_OP + rb"(?P<q>)(?P<v>[^\s\"'`]{10,300}+)",
        rb"", group=4, validator=cut_value_ok, placeholders=False,
        description="password/secret/token keys whose unquoted value holds , ; or | and reads "
        "as random",
    ),
    _r(
        "secret-base64-assignment",
        # A run of base64 (from its start, up to B64_MAX) with a key word's
        # base64 in it; the validator decodes it and runs the key/value rules.
        rb"(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]{0,%d}?" % B64_MAX + _B64_WORD + rb")"
        rb"([A-Za-z0-9+/]{%d,%d}+={0,2})(?![A-Za-z0-9+/=])" % (B64_LEAST, B64_MAX),
        rb"",
        validator=base64_assignment_ok,
        placeholders=False,
        description="a base64 token that decodes to a secret assignment "
        "(ENV_B64=UEFTU1dPUkQ9...: PASSWORD=...)",
    ),
    _r(
        "secret-spaced-pair",
        # A line that is only a key and its value, apart by blanks: Dockerfile
        # ``ENV KEY value``, fish ``set -x``, Windows ``setx``, properties and
        # config files that take ``key value`` (``password\tS3cr3t!``), CMake's
        # ``set(KEY "value")``.
        rb"(?i)^[ \t]*(?:(?:env|arg|setx|export|set(?:[ \t]+-[a-z]{1,3}){0,2}|setenv"
        rb"|passenv|[a-z]{1,12}_param|read(?:[ \t]+-[a-z]{1,3}){0,3})[ \t]+|(?P<cm>set\()[ \t]*)?"
        rb"(?P<key>[A-Za-z0-9_.$@-]{1,80}+)(?P<op>[ \t]+(?:<<<[ \t]*)?)"
        rb"(?P<q>[\"'`])?(?P<v>(?(q)[^\"'`\s][^\"'`]{0,300}?|[^\s\"'`]{1,300}))(?(q)(?P=q))"
        rb"(?(cm)[ \t]*\))(?:[ \t]+/[A-Za-z]{1,2})?[ \t]*(?:[#;].*)?$",
        rb"",
        group=5,
        validator=spaced_pair_ok,
        placeholders=False,
        description="KEY value on a line of its own (ENV KEY value, setx KEY value, Apache "
        "SetEnv KEY value, nginx fastcgi_param KEY value;, read KEY <<< value, CMake "
        "set(KEY \"value\"))",
    ),
    _r(
        "secret-enclosed-pair",
        # A pair inside brackets or braces, the closer right after the value:
        # ``[password=...]``, ``{token: ...}``, ``(secret=...)``.
        rb"(?i)[\[({][ \t]*(?P<key>[\"'`]?[A-Za-z0-9_.$@-]{1,80}+[\"'`]?)"
        rb"(?P<op>[ \t]*(?:=|:)[ \t]*)"
        rb"(?P<q>[\"'`])?(?P<v>(?(q)[^\"'`\s][^\"'`]{0,300}?|[^\s\"'`,;|\[\](){}]{1,300}))"
        rb"(?(q)(?P=q))[ \t]*[\])},]",
        rb"",
        group=4,
        validator=enclosed_ok,
        placeholders=False,
        description="[key=value], {key: value}, (key=value): the closer ends the value",
    ),
    _r(
        "secret-said",
        # Prose that gives the value: ``the password is "..."``, ``token was `...```.
        rb"(?i)(?<![A-Za-z0-9_.$@-])(?P<key>[A-Za-z0-9_.$@-]{1,80}+)"
        rb"(?P<op>[ \t]+(?:is|was|will[ \t]+be|should[ \t]+be)[ \t]*:?[ \t]+)"
        rb"(?P<q>[\"'`])?(?P<v>(?(q)[^\"'`\s][^\"'`]{0,300}?|[^\s\"'`,;|]{0,299}[^\s\"'`,;|.:!?)]))"
        rb"(?(q)(?P=q))",
        rb"",
        group=4,
        validator=said_ok,
        placeholders=False,
        description='the password is "..." (a quoted value, or one with digits and letters)',
    ),
    _r(
        "secret-tagged-yaml",
        rb"(?i)(?<![A-Za-z0-9_.$@-])(?P<key>[\"']?[A-Za-z0-9_.$@-]{1,80}+[\"']?)"
        rb"(?P<op>[ \t]*:)[ \t]*(?:!!?[A-Za-z0-9_:-]{1,40}|&[A-Za-z0-9_-]{1,40})[ \t]+"
        # (unquoted, words apart by blanks to the end of the line are one value)
        rb"(?P<q>[\"'])?(?P<v>(?(q)[^\"'\s][^\"']{0,300}?"
        rb"|(?:(?-i:[a-z]{3,10}+(?: [a-z]{3,10}+){2,5}+)(?=[ \t]*\r?$)|[^\s\"'`,;|]{1,300})))"
        rb"(?(q)(?P=q))",
        rb"",
        group=4,
        validator=tagged_ok,
        placeholders=False,
        description="key: !!str value, key: &anchor value (a YAML tag or anchor between)",
    ),
    _r(
        "secret-url-encoded",
        rb"(?i)(?:(?<=%[0-9A-F]{2})|(?<=%25[0-9A-F]{2})|(?<![A-Za-z0-9_.$@%-]))"
        rb"(?P<key>[A-Za-z0-9_.$@-]{1,80}+)"
        rb"(?P<op>%3D|%22%3A%22|%22%3A%20%22|%3A|%253D|%2522%253A%2522|%253A)(?P<q>)"
        rb"(?P<v>(?:(?!%2[26]|%2[cC]|%3[bB]|%7[dD])(?:[^\s%&\"'`<>#;,|]|%[0-9A-Fa-f]{2}|%(?![0-9A-Fa-f]{2}))){6,300}+)",
        rb"",
        group=4,
        validator=url_encoded_ok,
        placeholders=False,
        description="password%3D... (a form or query string URL-encoded once or twice more)",
    ),
    _r(
        "secret-system-property",
        rb"(?:^|[\s\"'])-D(?P<key>[A-Za-z0-9_.$-]{1,80}+)(?P<op>=)"
        rb"(?P<q>[\"'])?(?P<v>(?(q)[^\"'\s][^\"']{0,300}?|[^\s\"'`,;|]{1,300}))(?(q)(?P=q))",
        rb"",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description="-Dkey=value (a JVM system property on a command line)",
    ),
    _r(
        "secret-xml-keyed",
        rb"(?i)<(?P<tag>[A-Za-z_][A-Za-z0-9_.:-]{0,80})\b[^<>]{0,200}?\b(?:key|name)[ \t]*=[ \t]*"
        rb"[\"'](?P<key>[A-Za-z0-9_.:$@-]{1,80})[\"'][^<>]{0,200}>(?P<op>)(?P<q>)"
        rb"(?P<v>[^<>\s][^<>]{0,299}?)</(?P=tag)>",
        rb"",
        group=5,
        validator=assignment_ok,
        placeholders=False,
        description='<entry key="password">...</entry>: the key named in an attribute',
    ),
    _r(
        "secret-argument-pair",
        # ("PASSWORD", "value") as two arguments: define(), SetEnvironmentVariable(),
        # os.getenv(key, default), a two-string list.
        rb"(?P<kq>[\"'])(?P<key>[A-Za-z0-9_.$@-]{1,80}+)(?P=kq)[ \t]*(?P<op>,)[ \t]*(?P<q>[\"'])"
        rb"(?P<v>[^\"'\s]{6,300}+)(?P=q)",
        rb"",
        group=5,
        validator=pair_argument_ok,
        placeholders=False,
        description='("PASSWORD", "value"): a key and its value given as two string arguments',
    ),
    _r(
        "secret-property-initializer",
        # C#: public string Password { get; set; } = "...";
        rb"(?<![A-Za-z0-9_])(?P<key>[A-Za-z0-9_]{1,80}+)[ \t]*\{[ \t]*get;[^{}\n]{0,40}\}[ \t]*"
        rb"(?P<op>=)[ \t]*(?P<q>\")(?P<v>[^\"\s][^\"\n]{0,4096}+)(?P=q)",
        rb"",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description='Password { get; set; } = "...": a property and its initial value',
    ),
    _r(
        "secret-long-value",
        # A long token (64 bytes and more) right after a key naming a secret,
        # whatever is between (quotes, escapes, YAML tags and anchors, CDATA,
        # a full-width colon): STS session tokens under a plain "Token" key.
        rb"(?<![A-Za-z0-9_.$@-])(?P<key>[A-Za-z0-9_.$@-]{1,80}+)[^A-Za-z0-9+/\n]{1,12}"
        rb"(?:[A-Za-z!&\[]{1,12}[^A-Za-z0-9+/\n]{1,4})?"
        rb"(?P<v>(?:[A-Za-z0-9+/_-]|\\/){64,}+)",
        rb"",
        group=2,
        validator=long_value_ok,
        placeholders=False,
        description="a token of 64 bytes and more under a key naming a secret, however wrapped",
    ),
    _r(
        "secret-bold-key",
        # Markdown that makes the key bold, colon and all: **password:** `...`
        rb"(?i)\*\*(?P<key>[A-Za-z0-9_.$@-]{1,80}+)(?P<op>:)\*\*[ \t]*" + _VALUE,
        rb"",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description="**password:** value (a bold key with its colon inside)",
    ),
    _r(
        "secret-triple-quoted",
        # TOML's multi-line strings and Python's triple quotes, on one line
        rb"(?i)(?<![A-Za-z0-9_.$@-])(?P<key>[A-Za-z0-9_.$@-]{1,80}+)[ \t]*(?P<op>=|:)[ \t]*"
        rb"(?P<q>'''|\"\"\")(?P<v>[^\n]{1,300}?)(?P=q)",
        rb"",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description="password = '''...''' (a value in triple quotes)",
    ),
    _r(
        "secret-sign-led-value",
        # A value led by a sign the other rules read as a variable, an option
        # or an operator ($Kx9#..., -dzA..., KEY==jg3A..., (|^4&*<...]) that
        # reads as drawn, after a key naming a secret and an operator, blanks,
        # a comma between two strings, a type (``: &str =``), a string prefix
        # (``@"``, ``r#"``) or an opening parenthesis.
        rb"(?<![A-Za-z0-9_.$@-])(?P<key>[\"'`]?[A-Za-z0-9_.$@-]{1,80}+[\"'`]?\]?)"
        rb"(?P<op>[ \t]*(?::=|\?=|=>|[:=,(])[ \t]*|[ \t]+"
        rb"|[ \t]*:[ \t]*&?[A-Za-z_][A-Za-z0-9_.<>\[\]?]{0,40}+[ \t]*=[ \t]*)"
        rb"(?:@|r#{0,3})?(?P<q>[\"'`])?(?P<v>`?(?=" + _SIGN_LEAD + rb")[^\s\"'`]{10,300}+)"
        rb"(?(q)(?P=q))",
        rb"",
        group=4,
        validator=sign_led_ok,
        placeholders=False,
        description="a key naming a secret and a value led by $, -, = or a bracket that "
        "reads as drawn, not as a variable, an option or an expression",
    ),
    _r(
        "secret-passphrase",
        # Lower-case words joined by one blank, dot or dash: the assignment
        # rules want a digit, capitals or entropy of a token key's value and
        # end an unquoted value at a blank.
        rb"(?<![A-Za-z0-9_.$@-])(?P<key>[\"'`]?[A-Za-z0-9_.$@-]{1,80}+[\"'`]?\]?)"
        rb"(?P<op>[ \t]*(?::=|\?=|=>|[:=,(])[ \t]*|[ \t]+"
        rb"|[ \t]*:[ \t]*&?[A-Za-z_][A-Za-z0-9_.<>\[\]?]{0,40}+[ \t]*=[ \t]*)"
        rb"(?:@|r#{0,3})?(?P<q>[\"'`])?"
        rb"(?P<v>[a-z]{3,10}+(?:(?:\.[a-z]{3,10}+){2,5}+|(?:-[a-z]{3,10}+){2,5}+"
        rb"|(?: [a-z]{3,10}+){2,5}+))"
        rb"(?(q)(?P=q)|(?![^\s,;]))",
        rb"",
        group=4,
        validator=passphrase_ok,
        placeholders=False,
        description="a key naming a secret and three to six lower-case words joined by a "
        "blank, a dot or a dash, none of prose, configuration or code",
    ),
    _r(
        "secret-spoken-phrase",
        # secret-passphrase's words apart by blanks, unquoted: taken only where
        # they run to the end of the line, or to the next pair (``;Server=``,
        # ``,ssl=``, `` MODE=``), and after blanks alone only where the key
        # opens the line (``ENV KEY ...``, a Redis directive).
        rb"(?<![A-Za-z0-9_.$@-])(?P<key>[A-Za-z0-9_.$@-]{1,80}+)"
        rb"(?P<op>[ \t]*(?::=|\?=|[:=])[ \t]*|[ \t]+)(?P<q>)"
        rb"(?P<v>[a-z]{3,10}+(?: [a-z]{3,10}+){2,5}+)"
        # (the end of the line: a ; or , and a closing quote or bracket may stand before it)
        rb"(?=[ \t]*[;,]?[ \t]*[\"'`]?[ \t]*[,;)\]}]?[ \t]*\r?$"
        rb"|[ \t]*[;,][ \t]*[A-Za-z][A-Za-z0-9 _.-]{0,40}="
        rb"|[ \t]+[A-Za-z_][A-Za-z0-9_.]{0,40}=|[ \t]+--?[A-Za-z])",
        rb"",
        group=4,
        validator=spoken_phrase_ok,
        placeholders=False,
        description="a key naming a secret and three to six lower-case words apart by blanks, "
        "unquoted, to the end of the line or the next pair",
    ),
    _r(
        "secret-wrapped-literal",
        # A string literal given through a constructor or a conversion:
        # String::from("..."), SecretString::new("...".into()), Secret("..."),
        # new String("..."), Some("...").
        rb"(?<![A-Za-z0-9_.$@-])(?P<key>[\"'`]?[A-Za-z0-9_.$@-]{1,80}+[\"'`]?)"
        rb"(?P<op>[ \t]*(?::=|=|:)[ \t]*)" + _WRAPPER + rb"[ \t]*"
        rb"(?P<q>[\"'])(?P<v>[^\"'\n]{1,300}?)(?P=q)"
        rb"(?=[ \t]*(?:\.(?:into|to_string|to_owned)\(\)[ \t]*)?\))",
        rb"",
        group=4,
        validator=assignment_ok,
        placeholders=False,
        description='password: String::from("..."), token = Secret("..."), '
        'pw = new String("..."): a literal wrapped in a constructor',
    ),
    _r(
        "secret-typed-assignment",
        # Go, Rust, Kotlin, Swift, Scala, TypeScript, C#, Java: a string given
        # through a type annotation, a string prefix or a setter.
        rb"(?<![A-Za-z0-9_$])(?P<key>[A-Za-z0-9_$]{1,80}+)"
        rb"(?P<op>[ \t]*:[ \t]*&?(?:'static[ \t]+)?[A-Za-z_][A-Za-z0-9_.]{0,40}+"
        rb"(?:<[A-Za-z0-9_, .]{0,40}+>)?[?!]?[ \t]*=[ \t]*|[ \t]*=[ \t]*(?=@\"|r#{0,3}\")|\()"
        rb"(?:@|r#{0,3})?(?P<q>[\"'])(?P<v>[^\"'\n]{1,300}?)(?P=q)",
        rb"",
        group=4,
        validator=typed_ok,
        placeholders=False,
        description='password: String = "...", TOKEN: &str = "...", key = @"..." or r#"..."#, '
        'setPassword("..."), withPassword("...")',
    ),
    _r(
        "secret-braced-value",
        # ODBC and SQL Server quote a value in braces: Pwd={...};
        rb"(?i)(?<![A-Za-z0-9_])(?:password|pwd)[ \t]*=[ \t]*\{([^{}\n]{1,256})\}",
        rb"",
        validator=braced_password_ok,
        placeholders=False,
        description="Pwd={...} and password={...} (a value in an ODBC connection string's braces)",
    ),
    _r(
        "credential-file-line",
        # A .pgpass line (host:port:database:user:password) and an Oracle thin
        # URL's user/password@.
        rb"^[ \t]*(?:[A-Za-z0-9*][A-Za-z0-9.*_-]{0,252}|\[[0-9A-Fa-f:]{2,45}\]):(?:[0-9]{1,5}|\*):"
        rb"[A-Za-z0-9_.*-]{1,63}:[A-Za-z0-9_.@*-]{1,63}:((?:[^\s:\\]|\\[:\\]){1,256}+)[ \t\r]*$"
        # (a passphrase: words apart by single blanks, judged as words)
        rb"|^[ \t]*(?:[A-Za-z0-9*][A-Za-z0-9.*_-]{0,252}|\[[0-9A-Fa-f:]{2,45}\]):(?:[0-9]{1,5}|\*):"
        rb"[A-Za-z0-9_.*-]{1,63}:[A-Za-z0-9_.@*-]{1,63}:([a-z]{3,10}(?: [a-z]{3,10}){2,5})[ \t\r]*$"
        rb"|jdbc:oracle:(?:thin|oci8?):[A-Za-z0-9_$#]{1,64}/(\"[^\"\n]{1,128}\"|[^@\s\"/]{1,128})@",
        rb"",
        validator=file_password_ok,
        placeholders=False,
        description="host:port:database:user:password (.pgpass), jdbc:oracle:thin:user/password@",
    ),
    _r(
        "password-hash-line",
        # htpasswd and shadow lines: user:HASH, the scheme's mark before it.
        rb"^[ \t]*[A-Za-z0-9._@-]{1,64}:((?:\$apr1\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22}"
        rb"|\{SHA\}[A-Za-z0-9+/]{27}=|\$2[abxy]?\$[0-9]{2}\$[./A-Za-z0-9]{53}"
        rb"|\$[56]\$(?:rounds=[0-9]{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}))"
        rb"(?=:|[ \t\r]*$)",
        rb"",
        validator=hash_line_ok,
        placeholders=False,
        description="user:HASH lines of htpasswd and shadow files (apr1, {SHA}, bcrypt, "
        "SHA-crypt)",
    ),
    _r(
        "netrc-passphrase",
        # A whole netrc line whose password is words apart by blanks
        # (machine HOST login USER password amber lattice crimson).
        rb"^[ \t]*(?:machine[ \t]+[^\s]{1,253}[ \t]+|default[ \t]+)login[ \t]+[^\s]{1,128}"
        rb"[ \t]+password[ \t]+([a-z]{3,10}(?:[ \t][a-z]{3,10}){2,5})[ \t\r]*$",
        rb"",
        validator=netrc_phrase_ok,
        placeholders=False,
        description="a netrc line (machine or default, login, password) whose password is "
        "three to six words apart by blanks",
    ),
    _r(
        "npmrc-auth",
        # An .npmrc's _auth (base64 of user:password) or _password (base64 of
        # the password), bare or for one registry (//host/path/:_password=).
        rb"(?:^[ \t]*|/:)_(?P<key>auth|password)[ \t]*=[ \t]*[\"']?"
        rb"([A-Za-z0-9+/]{8,1024}+={0,2})[\"']?[ \t\r]*$",
        rb"",
        group=2,
        validator=npmrc_auth_ok,
        placeholders=False,
        description="_auth= and _password= lines of .npmrc files (base64 of user:password "
        "or of the password)",
    ),
    _r(
        "wordpress-salt",
        rb"define\([ \t]*['\"](?:SECURE_AUTH|AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)['\"][ \t]*,[ \t]*"
        rb"(?:'([^'\n]{32,128})'|\"([^\"\n]{32,128})\")",
        rb"",
        validator=wordpress_salt_ok,
        placeholders=False,
        description="WordPress keys and salts in wp-config.php define() lines",
    ),
    _r(
        "powershell-plaintext",
        rb"(?i)\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(?:'([^'\n]{4,256})'"
        rb"|\"([^\"\n]{4,256})\")[^\n]{0,80}?-AsPlainText",
        rb"",
        validator=plaintext_secure_string_ok,
        placeholders=False,
        description="ConvertTo-SecureString '...' -AsPlainText (a literal made a secure string)",
    ),
    _r(
        "secret-bare-token",
        # A long base64 run standing alone (no key, no known preamble): an STS
        # session token's body pasted on its own, in a fence, a list, a quote.
        rb"(?<![A-Za-z0-9+/_-])([A-Za-z0-9+/]{128,8192}+={0,2})(?![A-Za-z0-9+/=_-])",
        rb"",
        validator=bare_token_ok,
        placeholders=False,
        description="a base64 run of 128 bytes and more that reads as a drawn token, "
        "with no key and no known preamble",
    ),
    _r(
        "login-credentials",
        # -u USER ... -p PASSWORD (az, docker, oc, cf, sqlcmd, ...)
        rb"(?:^|[\s;|&(`])-[uU][ \t]+[\"']?[^\s\"'-][^\s\"']{0,127}[\"']?[ \t]+"
        rb"(?:[^\n]{0,256}?[ \t])?-[pP][ \t]+[\"']?([^\s\"'`;|&]{4,256})",
        rb"",
        validator=login_password_ok,
        placeholders=False,
        description="-u user -p password on a command line",
    ),
)

#: The rule objects by id.
BY_ID = {r.id: r for r in RULES}

#: The searches that find candidate lines for the built-in rules:
#: ``(kind, pattern, verify, rule ids)``.  Each rule has its own search: the
#: literals it cannot match without and, where a literal alone is common in
#: code and prose (``key``, ``token``, ``pass``), the operator and the start of
#: a value that must follow, so a line is a candidate only when it holds the
#: beginning of a match.  ``kind`` "re" is a regex search over the buffer;
#: "lit" is a plain substring search whose hits are confirmed by ``verify``
#: matched at the hit.  Together they match every line on which a built-in
#: rule can fire (the tests check it on the secret corpora); the multi-pattern
#: scan runs them all in one pass.  ``PEM`` in the ids marks searches whose
#: lines the PEM machine also looks at.
PEM = "@pem"
#: Spaces, control spaces and escaped newlines, which the PEM machine reads
#: markers through (``- - -BEGIN``, ``-\\n--``).
_SPACED = b"[ \t\x0b\x0c\r\x1c-\x1f\\\\nrt]*"
_KEYWORDS = rb"(?:pass|pwd|pw|secret|token|key|auth|credential|sas|connection)"
_Q = rb"(?:\\*[\"'`])"  # a quote, maybe escaped (JSON inside a string, any depth)
_OPS = rb"(?::=|=>|\?=|\|\|=|:|=|<-|\xef\xbc[\x9a\x9d])"
_VALUE_START = rb"(?:" + _Q + rb"[^\"'` \t\n][^\"'`\n]{5}|[^ \t\n\"'`,;|]{6})"


def _alternation(words: tuple[str, ...]) -> bytes:
    """One of ``words`` (non-empty ones), as a prefix tree: a backtracking engine
    tries each letter once at a position, not each word."""
    return _alternation_of(tuple(words))


@cache
def _alternation_of(words: tuple[str, ...]) -> bytes:
    # (made once per word list: several patterns share the key words and suffixes)
    trie: dict[int, Any] = {}
    for w in sorted(set(words)):
        if w:
            node = trie
            for ch in w.encode():
                node = node.setdefault(ch, {})
            node[-1] = {}  # a word ends here

    escaped: dict[int, bytes] = {}  # (each byte escaped once: this runs at every start)

    def one(ch: int) -> bytes:
        e = escaped.get(ch)
        if e is None:
            e = escaped[ch] = escape(bytes([ch]))
        return e

    def emit(node: dict[int, Any]) -> bytes:
        alts = [one(ch) + emit(child)
                for ch, child in sorted(node.items()) if ch != -1]
        if not alts:
            return b""
        if len(alts) == 1 and -1 not in node:
            return alts[0]
        return b"(?:" + b"|".join(alts) + b")" + (b"?" if -1 in node else b"")

    return b"(?:" + emit(trie) + b")"


alternation = _alternation

# The end of a key that names a secret, as the validator reads keys: a key word
# followed only by a known suffix (``DB_PASSWORD``, ``api_key_value``; not
# ``token_count``, ``secret_name``, a bare ``key``).
_KEY_END = (
    _alternation(PASSWORD_WORDS + SECRET_WORDS) + rb"[_.-]*"
    # (a suffix's "_" may be written "-", as HTTP headers and options do: Secret-Key-Base)
    + _alternation(KEY_SUFFIXES).replace(b"_", b"[_-]") + b"?"
)
# The start of a value the validator can accept: six characters, not a
# variable, a placeholder or a template (``$X``, ``<your key>``, ``{{ x }}``).
KEY_END = _KEY_END  # (for the proof patterns)
_LITERAL_START = (
    rb"(?:" + _Q + rb"[^\"'` \t\n\x24<{][^\"'`\n]{5}|[^ \t\n\"'`,;|\x24<{][^ \t\n\"'`,;|]{5})"
)
_QQ = rb"(?:\\*[\"'])"  # a quote, maybe escaped
# A key that names a secret and its value apart by blanks (``ENV KEY value``),
# said (``the KEY is "..."``), a YAML tag between (``KEY: !!str ...``), or
# URL-encoded (``KEY%3D...``).
_KEY_APART = (
    rb"(?i)" + _KEY_END + rb"(?:[ \t]+(?:is|was|will[ \t]+be|should[ \t]+be)[ \t]*:?[ \t]+"
    # said: quoted, or a digit before any bracket (a bracket makes it code)
    + rb"(?:" + _Q + rb"[^\"'` \t\n]|[^ \t\n\"'`()\[\]{}]*[0-9\x80-\xff])"
    # apart by blanks (the key is not quoted; a value the validator takes is
    # not a word: it has a digit, a sign or a change of case)
    + rb"|[ \t]+(?:" + _Q + rb"[^\"'` \t\n\x24<{]|[^ \t\n\"'`\x24<{()\[\]}][^ \t\n\"'`()\[\]{}]*"
    + rb"(?:[0-9!#%\x5e*+~@&\x24\x80-\xff]|(?-i:[a-z][A-Z])))"
    + rb"|" + _Q + rb"?[ \t]*:[ \t]*[!&]|[ \t]+<<<|%3d|%22%3a|%3a|%253d|%2522%253a|%253a)"
)
# An Authorization header with a value either rule can take (Basic and six
# bytes, or an optional scheme word and sixteen bytes).
_AUTHORIZATION = (
    rb"(?i)authorization" + _Q + rb"?[ \t]*[:=][ \t]*" + _Q + rb"?(?:basic[ \t]+[A-Za-z0-9+/]{6}"
    rb"|(?:token|digest|negotiate|ntlm|apikey|sso-key|key|bot|sharedkey|splunk|gitlab|"
    rb"[a-z0-9-]*-hmac-sha256)?[ \t]*[A-Za-z0-9._~+/=:-]{16})"
)
# A key ending in a password word takes six bytes; any other key an unquoted
# value of eight (assignment_ok), or a quoted one of six (a scheme word
# may lead it: "Bearer abc...", which makes it a password).
_ASSIGNED = (
    rb"(?i)(?:" + _alternation(PASSWORD_WORDS) + rb"[_.-]*"
    + _alternation(KEY_SUFFIXES) + rb"?[\x24@]*" + _Q + rb"?\]?\*{0,2}[ \t]*" + _OPS + rb"[ \t]*"
    + _LITERAL_START + rb"|" + _KEY_END + rb"[\x24@]*" + _Q + rb"?\]?\*{0,2}[ \t]*" + _OPS
    + rb"[ \t]*"
    rb"(?:" + _Q + rb"[^\"'` \t\n\x24<{][^\"'`\n]{5}|[^ \t\n\"'`,;|\x24<{][^ \t\n\"'`,;|]{7}))"
)
# The search of secret-wrapped-literal: a key naming a secret, an operator and
# a constructor's name before a quote (String::from(", Secret(").  Its own: on
# the assignment's search the rule would run on every assignment's line.
_WRAPPED = (
    rb"(?i)" + _KEY_END + rb"[\x24@]*" + _Q + rb"?[ \t]*(?::=|=|:)[ \t]*" + _WRAPPER_SEARCH
    + rb"[ \t]*" + _Q + rb"[^\"'` \t\n\x24<{]"
)
# The search of secret-sign-led-value, secret-passphrase and
# secret-typed-assignment: a key naming a secret (or requirepass, masterauth),
# then an operator, blanks, a comma or a parenthesis before a value led by a
# sign or a lower-case word run; or a type and "=", a string prefix or a
# parenthesis before a quote.
_PHRASE_START = rb"(?-i:[a-z]{3,10}[.-][a-z]{3,10}[.-][a-z]{3})"
_SPOKEN_START = rb"(?-i:[a-z]{3,10} [a-z]{3,10} [a-z]{3})"  # (words apart by blanks)
_KEYED_VALUE = (
    rb"(?i)(?:" + _KEY_END + rb"|requirepass|masterauth)[\x24@]*" + _Q + rb"?\]?"
    rb"(?:[ \t]*(?::=|\?=|=>|[:=,(])[ \t]*(?:@|r#{0,3})?(?:" + _Q + rb"?(?:`?" + _SIGN_LEAD
    + rb"|" + _PHRASE_START + rb")|" + _Q + rb"?" + _SPOKEN_START + rb")"
    # (after blanks alone, a value led by "=" is no value: KEY =x)
    rb"|[ \t]+(?:@|r#{0,3})?(?:" + _Q + rb"?(?:`?" + _SIGN_LEAD.replace(b"[=-]", b"-", 1)
    + rb"|" + _PHRASE_START + rb")|" + _Q + rb"?" + _SPOKEN_START + rb")"
    # (the type's bytes unbounded: the automaton keeps a bounded repeat alive
    # after every key word of dense text, an unbounded class costs it less)
    rb"|[ \t]*:[ \t]*&?(?:'static[ \t]+)?[A-Za-z_][A-Za-z0-9_.<>, \[\]?]*[?!]?[ \t]*=[ \t]*"
    rb"(?:@|r#{0,3})?(?:" + _Q
    + rb"|`?" + _SIGN_LEAD + rb"|" + _PHRASE_START + rb")"
    rb"|[ \t]*=[ \t]*(?:@|r#{0,3})" + _Q + rb"|\((?:@|r#{0,3})?" + _Q + rb")"
)
#: The search of the lines that open a value on the lines after them
#: (:mod:`.follow`) stands for this mark.
OPENS = "@opens"
_OPENER = (
    rb"(?i)(?:" + _KEY_END + rb"[\x24@]*[\"'`]?[ \t]*(?::[ \t]*[|>][-+1-9]{0,2}|[:=][ \t]*\\"
    rb"|[:=][ \t]*<<-?[A-Za-z_])"
    rb"|variable[ \t]+\"[A-Za-z0-9_.-]{0,80}" + _KEY_END + rb"\"[ \t]*\{)"
)

_ALL = tuple(r.id for r in RULES)


def _provider_search() -> bytes:
    """The provider tokens' alternation, each shape to its least length."""
    pattern = BY_ID["provider-token"].regex.pattern
    assert pattern.startswith(rb"\b((?:") and pattern.endswith(rb"))" + _TAIL)
    inner = pattern[len(rb"\b(") : -len(rb")" + _TAIL)]
    # (each "{N,}" becomes "{N}"; a function, not a template: a template loads re)
    found: bytes = LazyRegex(rb"\{(\d+),\}").sub(lambda m: b"{%s}" % m.group(1), inner)
    return found


# (netrc-passphrase shares it: a netrc line's "login USER password" and a
# word of three letters and more, one search for both rules)
_DATABASE_SEARCH = (
    rb"(?i:(?:identified[ \t]+by|password)[ \t]+\\*'[^' \t\n]{6}"
    rb"|mysql|mariadb|"
    rb"(?:login|user)[ \t]+[^ \t\n]{1,128}[ \t]+password[ \t]+[^ \t\n]{3}"
    rb"|identified[ \t]+(?:with[ \t]+[A-Za-z0-9_]{1,64}[ \t]+)?by[ \t]+[^ \t\n;]{6}"
    rb"|(?:with|set)[ \t]+password[ \t]*[=f])"
)
_TIGHT: dict[str, bytes] = {
    "aws-access-key-id": rb"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)"
    rb"[A-Z2-7]{16}",
    "aws-secret-access-key": rb"(?i)secret[ _.-]?(?:access)?[ _.-]?key(?:[ _.-]?id)?"
    rb"(?:[\\\"'`\]]*[ \t]*(?:[:=]|=>|:=|,)[ \t]*|>|[ \t]*\[[A-Za-z]*\][ \t]*:[ \t]*"
    rb"|[ \t]+)[\\\"'`]*[A-Za-z0-9/+]{40}",
    "aws-session-token": rb"IQoJb3JpZ2lu|FwoGZXIvYXdz|FQoGZXIvYXdz|AQoDYXdz"
    rb"|(?i:(?:session|security)[ _.-]?token)(?:[\\\"'`\]]*[ \t]*(?:[:=]|=>|:=|,)[ \t]*|>|[ \t]+"
    rb"|%(?:25)?3[Dd])[\\\"'`]*(?:[A-Za-z0-9+/]|\\/|%(?:25)?2[BbFf]){60}",
    "github-token": rb"gh[rsuop]_[A-Za-z0-9]{36}",
    "github-fine-grained-pat": rb"github_pat_[A-Za-z0-9_]{36}",
    "gitlab-token": rb"gl(?:pat|ptt|dt|rt|cbt|soat|ft|imt|agent|oas|wt)-[A-Za-z0-9_-]{20}"
    rb"|GR1348941[A-Za-z0-9_-]{20}",
    "slack-token": rb"xox[abposre]-[A-Za-z0-9-]{10}|xapp-[0-9]-|xoxe\.xox",
    "slack-webhook": rb"hooks\.slack\.com/",
    # (stripe_ok: a digit in the key)
    "stripe-key": rb"[srp]k_(?:live|test|prod)_[A-Za-z]*[0-9]|whsec_[A-Za-z0-9+/]{24}",
    "openai-key": rb"sk-(?:svcacct|admin|proj|None|or-v1|ant-[a-z]{3,6}[0-9]{0,3})-"
    rb"[A-Za-z0-9_-]{20}",
    "google-oauth-token": rb"ya29\.[0-9A-Za-z_-]{20}",
    "google-oauth-client-secret": rb"GOCSPX-[A-Za-z0-9_-]{20}",
    "jwt": rb"eyJ[A-Za-z0-9_-]{8}",
    "npm-token": rb"npm_[A-Za-z0-9]{36}",
    "pypi-token": rb"pypi-AgE[A-Za-z0-9_-]{16}",
    "sendgrid-api-key": rb"SG\.[A-Za-z0-9_-]{16}",
    "twilio-key": rb"(?:SK|AC)[0-9a-f]{32}",
    "azure-storage-key": rb"(?i)(?:accountkey|sharedaccesskey)[ \t]*=",
    "azure-sas-token": rb"sig=[A-Za-z0-9%+/]{30}",
    "huggingface-token": rb"hf_[A-Za-z0-9]{34}",
    "provider-token": _provider_search(),
    "telegram-bot-token": rb"[0-9]:AA[A-Za-z0-9_-]{33}",
    "cli-credentials": rb"(?:curl|wget|http|xh|svn|ftp|smbclient)[^\n]*"
    rb"[ \t](?:-u|--user|--http-user|--password|--http-password)[ =]",
    "flag-credentials": rb"(?i)-[a-z0-9]{0,20}(?:password|passwd|passphrase|pass|pwd|token|"
    rb"api-?key|secret|client-secret|"
    rb"auth-token|access-token|session-token|private-key-?password|db-password|requirepass|"
    # (the quote before a comma maybe escaped: a list of arguments inside a JSON string)
    rb"masterauth)(?:-(?:key|base|value|string|text))*(?:=|[ \t]|" + _Q + rb"[ \t]*,)",
    "url-credentials": rb"://[^ \t\n\r:/?#@\"'<>]{0,256}:[^ \t\n\r\"'<>`]{1,256}@",
    "url-token-userinfo": rb"://[^ \t\n\r\x0b\x0c:/?#@\"'<>\[\]`]{8,256}@",
    "redis-url-userinfo": rb"(?i)(?:redis|valkey|unix)(?:s|\+[a-z]{1,12})?://[^ \t\n\r\x0b\x0c\"'`]"
    rb"{1,256}@",
    "url-credentials-encoded": rb"(?i)%3a%2f%2f|%253a%252f%252f",
    "redis-url-encoded": rb"(?i)(?:redis|valkey|unix)[a-z]*(?:%(?:25)?2b[a-z]{1,12})?"
    rb"%(?:25)?3a%(?:25)?2f",
    "bearer-token": rb"(?i)bearer[ \t]+[A-Za-z0-9._~+/-]{12}",
    "authorization-basic": _AUTHORIZATION,
    "authorization-header": _AUTHORIZATION,
    "redis-credentials": rb"(?i:requirepass|masterauth)[ \t]+" + _QQ + rb"?[^ \t\n\"']{4}"
    rb"|AUTH[ \t]+(?:[A-Za-z0-9_.@-]{1,64}[ \t]+)?" + _QQ + rb"?[^ \t\n\"']{6}|redis-cli"
    rb"|(?i:acl[ \t]+setuser|sentinel[ \t]+(?:auth-pass|sentinel-pass))"
    rb"|(?i:user)[ \t]+[^ \t\n]{1,128}[ \t][^\n]{0,256}>",
    # (one search for both: SQL and client passwords, and a netrc line's words)
    **dict.fromkeys(("database-credentials", "netrc-passphrase"), _DATABASE_SEARCH),
    # (the value: six bytes, not led by $ or {, as the validator wants)
    "secret-xml": rb"(?i)<[A-Za-z0-9_.:-]{0,80}(?:pass|pwd|pw|secret|token|key|auth|credential|"
    rb"sas|connection)[A-Za-z0-9_.:-]{0,80}>(?:<!\[CDATA\[)?[^<>\n \t\x24{][^\n]{5}",
    "secret-xml-attribute": rb"(?i)(?:key|name)[ \t]*=[ \t]*" + _QQ
    + rb"[A-Za-z0-9_.:\x24@-]{0,80}(?:pass|pwd|pw|secret|token|key|auth|credential|sas|connection)"
    rb"[^<>\n]*value[ \t]*=[ \t]*" + _QQ + rb"[^\"'<>\n\x24{]",
    "secret-name-value": rb"(?i)(?:name|key)" + _QQ + rb"?[ \t]*[:=][ \t]*" + _QQ
    + rb"?[A-Za-z0-9_.-]{0,80}" + _KEY_END + _QQ + rb"?[ \t]*,[ \t]*" + _QQ
    + rb"?[A-Za-z]{0,20}value" + _QQ
    + rb"?[ \t]*[:=][ \t]*" + _LITERAL_START,
    "secret-table-cell": rb"(?i)\|[ \t]*`?[A-Za-z0-9_.\x24@-]{0,80}" + _KEYWORDS
    + rb"[A-Za-z0-9_.\x24@-]{0,80}`?[ \t]*\|",
    # The forms apart by blanks, said in prose, tagged or encoded: one search.
    "secret-spaced-pair": _KEY_APART,
    "secret-said": _KEY_APART,
    "secret-tagged-yaml": _KEY_APART,
    "secret-url-encoded": _KEY_APART,
    # (an enclosed pair and a -D property are assignments: the assignment's search)
    "secret-enclosed-pair": _ASSIGNED,
    "secret-system-property": _ASSIGNED,
    "secret-xml-keyed": rb"(?i)(?:key|name)[ \t]*=[ \t]*" + _QQ + rb"[A-Za-z0-9_.:\x24@-]{0,80}"
    + _KEYWORDS + rb"[A-Za-z0-9_.:\x24@-]{0,80}" + _QQ + rb"[^<>\n]{0,200}>[^<> \t\n]",
    "secret-argument-pair": rb"(?i)" + _KEY_END + rb"[\x24@]*" + _QQ + rb"[ \t]*,[ \t]*" + _QQ
    + rb"[^\"' \t\n\r\x0b\x0c]{6}",
    "secret-property-initializer": rb"(?i)" + _KEY_END + rb"[ \t]*\{[ \t]*get;",
    # (the bytes between as the rule reads them, and escaped quotes: any number)
    "secret-long-value": rb"(?i)" + _KEY_END + rb"[\x24@]*[^A-Za-z0-9+/\n]+"
    rb"(?:[A-Za-z!&\[]{1,12}[^A-Za-z0-9+/\n]+)?(?:[A-Za-z0-9+/_-]|\\/){64}",
    "secret-scrambled-value": rb"(?i)" + _KEY_END + rb"[\x24@]*" + _Q + rb"?\]?\*{0,2}[ \t]*" + _OPS
    + rb"[ \t]*" + _Q + rb"?[^ \t\n\"'`]{0,300}[()\[\]{}<>\x24*@&]",
    "secret-bold-key": rb"(?i)" + _KEY_END + rb"[\x24@]*:\*\*[ \t]*[^ \t\n]",
    # (the quotes maybe escaped, as JSON inside a string writes them)
    "secret-triple-quoted": rb"(?i)" + _KEY_END + rb"[\x24@]*[ \t]*[=:][ \t]*"
    rb"(?:(?:\\*')(?:\\*')(?:\\*')|(?:\\*\")(?:\\*\")(?:\\*\"))",
    "secret-bare-token": rb"[A-Za-z0-9+/]{128}",
    # (a value the validator can take has a digit or a sign in it)
    "login-credentials": rb"-[uU][ \t][^\n]*[ \t]-[pP][ \t]+[\"']?[^ \t\n-][^ \t\n]*"
    rb"[^A-Za-z_ \t\n]",
    "secret-assignment": _ASSIGNED,
    "secret-wrapped-literal": _WRAPPED,
    "secret-cut-value": rb"(?i)" + _KEY_END + rb"[\x24@]*" + _Q + rb"?\]?\*{0,2}[ \t]*"
    + rb"(?:" + _OPS + rb"|\|)"
    + rb"[ \t]*[^ \t\n\"'`]{0,300}[,;|]",
    # (one search for three rules: a key naming a secret, what they read
    # between, and the start of a value each can take)
    **dict.fromkeys(
        ("secret-sign-led-value", "secret-passphrase", "secret-spoken-phrase",
         "secret-typed-assignment"), _KEYED_VALUE
    ),
    "secret-braced-value": rb"(?i)(?:password|pwd)[ \t]*=[ \t]*\{[^{}\n]{6}",
    "credential-file-line": rb":(?:[0-9]{1,5}|\*):[A-Za-z0-9_.*-]{1,63}:[A-Za-z0-9_.@*-]{1,63}:"
    rb"(?:[^ \t\n:\\]|\\[:\\])|jdbc:oracle:",
    "password-hash-line": rb":(?:\x24apr1\x24|\{SHA\}|\x242[abxy]?\x24[0-9]{2}\x24|\x24[56]\x24)",
    # (the assignment's search: _auth= and _password= are assignments of secret keys)
    "npmrc-auth": _ASSIGNED,
    "wordpress-salt": rb"define\([ \t]*['\"](?:SECURE_AUTH|AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)['\"]",
    "powershell-plaintext": rb"(?i)convertto-securestring",
    # (a key word's base64, at any of its three offsets)
    "secret-base64-assignment": _alternation(B64_FRAGMENTS),
}
assert set(_TIGHT) == set(_ALL), set(_ALL) ^ set(_TIGHT)
RULES = tuple(r._replace(prefilter=_TIGHT[r.id]) for r in RULES)
BY_ID = {r.id: r for r in RULES}

# One search per distinct pattern, in rule order.
_by_pattern: dict[bytes, list[str]] = {}
for _r_ in RULES:
    _by_pattern.setdefault(_r_.prefilter, []).append(_r_.id)
SCANS: tuple[tuple[str, bytes, bytes, tuple[str, ...]], ...] = (
    *(("re", pat, b"", tuple(ids)) for pat, ids in _by_pattern.items()),
    # The value line of a name/value pair on two lines (the name line is the one before).
    ("re", rb"(?i)value[\"']?[ \t]*:[ \t]*" + _LITERAL_START, b"", ("secret-assignment",)),
    # A key naming a secret whose value starts on the next line: a YAML block
    # scalar (``password: |``), a backslash (``token = \\``), an HCL variable
    # block (``variable "db_password" {``); see follow.py.
    ("re", _OPENER, b"", (OPENS,)),
    # Terminal escapes split what they paint: such lines go to every rule.
    ("re", rb"[\x1b\x9b]", b"", _ALL + (PEM,)),
    # The dash runs of PEM markers (three dashes, spaces or escapes between)
    # where BEGIN or END follows: one hit per marker, none in a rule of dashes.
    ("re", rb"(?i)-" + _SPACED + b"-" + _SPACED + b"-" + _SPACED + b"[be]", b"", (PEM,)),
)
del _r_

#: Wider forms of two searches, for the multi-pattern automaton only (see
#: prefilter.widen; every line the search finds, they find): a property
#: initializer's ``{ get;`` without its key, and a long value's run after a
#: key word anywhere before it on the line.
AUTOMATON_FORMS = {
    _TIGHT["secret-property-initializer"]: rb"(?i)\{[ \t]*get;",
    _TIGHT["secret-long-value"]: rb"(?i)" + _KEY_END + rb"[^\n]*(?:[A-Za-z0-9+/_-]|\\/){64}",
}

#: Non-ASCII candidates for the PEM machine (only searched when a buffer is
#: not pure ASCII): the UTF-8 lead bytes of the Unicode dash-likes, spaces and
#: format characters.
PEM_NON_ASCII = rb"[\xc2\xcb\xd6\xd7\xe1\xe2\xe3\xef\xf0]"
