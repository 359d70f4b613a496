"""Lexical security patterns on added lines: one small table per language.

Each rule is a regex tried on one added line with its comment-only lines
skipped; string literals are masked first where the rule says so (a
sensitive name inside a log message's text is prose, an argument is data).
The table is the documentation: ``docs/scan.md`` lists it, and a test checks
every rule against positives and near misses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: File extension -> language key.
LANGUAGES: dict[str, str] = {
    ".py": "python", ".pyw": "python",
    ".js": "js", ".jsx": "js", ".mjs": "js", ".cjs": "js", ".ts": "js", ".tsx": "js",
    ".mts": "js", ".cts": "js", ".vue": "js", ".svelte": "js",
    ".go": "go", ".rb": "ruby", ".rake": "ruby", ".php": "php",
    ".java": "java", ".kt": "java", ".kts": "java", ".scala": "java", ".groovy": "java",
    ".rs": "rust", ".ex": "elixir", ".exs": "elixir", ".cs": "csharp",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell",
}
_COMMENT = {
    "python": ("#",), "ruby": ("#",), "shell": ("#",), "elixir": ("#",),
    "js": ("//", "/*", "*"), "go": ("//", "/*", "*"), "java": ("//", "/*", "*"),
    "rust": ("//", "/*", "*"), "csharp": ("//", "/*", "*"), "php": ("//", "#", "/*", "*"),
}

#: SQL text: upper-case keywords as written in code; lower-case only with a shape prose lacks
#: (``select *``, ``... where col =``, ``insert into t (``, ``delete from t where``).
SQL = (r"(?:\bSELECT\s[^;]{0,200}?\bFROM\b|\bINSERT\s+INTO\b|\bUPDATE\s+\S+\s+SET\b|"
       r"\bDELETE\s+FROM\b|\bDROP\s+TABLE\b|"
       r"\bselect\s+(?:\*|[\w.]+(?:\s*,\s*[\w.]+)*)\s+from\s+[\w.]+\s+where\b|\bselect\s+\*\s+from\b|"
       r"\binsert\s+into\s+[\w.]+\s*\(|\bupdate\s+[\w.]+\s+set\s+\w+\s*=|"
       r"\bdelete\s+from\s+[\w.]+\s+where\b)")
_SQL = re.compile(SQL)
#: Identifier words that name a credential or personal value (an identifier is split on
#: ``_`` and camelCase: ``apiKey``, ``api_key``, ``user_password`` all count; ``tokens`` not).
SENSITIVE_WORDS = frozenset({"password", "passwd", "pwd", "passphrase", "secret", "token",
                             "apikey", "credential", "credentials", "ssn", "cvv", "pin"})
SENSITIVE_PAIRS = frozenset({("api", "key"), ("access", "key"), ("private", "key"),
                             ("secret", "key"), ("credit", "card"), ("card", "number"),
                             ("session", "id"), ("session", "key"), ("auth", "header")})
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def sensitive_identifier(code: str) -> bool:
    """True when an identifier in ``code`` names a credential or personal value."""
    for ident in _IDENT.findall(code):
        parts = [p.lower() for p in _PARTS.findall(ident)]
        if any(p in SENSITIVE_WORDS for p in parts):
            return True
        if any(pair in SENSITIVE_PAIRS for pair in zip(parts, parts[1:], strict=False)):
            return True
    return False


@dataclass(frozen=True)
class LexRule:
    id: str
    languages: frozenset[str]
    pattern: re.Pattern[str]
    severity: str
    summary: str
    discussion: str
    needs_sql: bool = False  # the line must also hold SQL text
    mask_strings: bool = False  # look for the pattern with string contents masked
    sensitive_args: bool = False  # a sensitive name must appear outside string text


def _r(rule_id: str, langs: str, pattern: str, severity: str, summary: str, discussion: str,
       **flags: bool) -> LexRule:
    return LexRule(rule_id, frozenset(langs.split()), re.compile(pattern), severity, summary,
                   discussion, **flags)


_SQL_WHY = ("Text built into a SQL statement lets whoever controls the value change the query"
            " (SQL injection). Pass values as bound parameters (placeholders) instead.")
_SHELL_WHY = ("A shell command built from strings runs whatever the interpolated value says"
              " (command injection). Pass an argument vector without a shell, and never"
              " interpolate untrusted values into a command line.")
_LOG_WHY = ("A credential or personal value written to a log reaches everyone who can read the"
            " logs. Log an identifier or a short hash instead, or drop the value.")
_EVAL_WHY = ("Evaluating text as code runs whatever the text says. Parse the data (JSON, a"
             " literal parser) or dispatch on known names instead.")
_TLS_WHY = ("With certificate verification off, anyone on the network path can impersonate the"
            " server and read or change the traffic. Keep verification on; trust a private CA"
            " by configuring its certificate.")

RULES: tuple[LexRule, ...] = (
    # -- string-built SQL ---------------------------------------------------
    _r("sql-string-built", "python",
       r"""(?:\bf["']|["']\s*\+|\+\s*["']|["']\s*%\s*[\w(]|\.format\()""", "critical",
       "SQL statement built from strings", _SQL_WHY, needs_sql=True),
    _r("sql-string-built", "js",
       r"""(?:`[^`]*\$\{|["'`]\s*\+|\+\s*["'`])""", "critical",
       "SQL statement built from strings", _SQL_WHY, needs_sql=True),
    _r("sql-string-built", "go",
       r"""(?:fmt\.Sprintf\(|"\s*\+|\+\s*")""", "critical",
       "SQL statement built from strings", _SQL_WHY, needs_sql=True),
    _r("sql-string-built", "ruby",
       r"""(?:"[^"]*#\{|["']\s*\+|\+\s*["'])""", "critical",
       "SQL statement built from strings", _SQL_WHY, needs_sql=True),
    _r("sql-string-built", "php",
       r"""(?:"[^"]*\$\w|"[^"]*\{\$|["']\s*\.\s*\$|\$\w+\s*\.\s*["'])""", "critical",
       "SQL statement built from strings", _SQL_WHY, needs_sql=True),
    _r("sql-string-built", "java csharp",
       r"""(?:"\s*\+|\+\s*"|String\.format\(|\$"[^"]*\{|\.formatted\()""", "critical",
       "SQL statement built from strings", _SQL_WHY, needs_sql=True),
    _r("sql-string-built", "rust",
       r"""format!\(""", "critical", "SQL statement built from strings", _SQL_WHY,
       needs_sql=True),
    _r("sql-string-built", "elixir",
       r"""(?:"[^"]*#\{|<>)""", "critical", "SQL statement built from strings", _SQL_WHY,
       needs_sql=True),
    # -- string-built shell commands ----------------------------------------
    _r("shell-string-built", "python",
       r"""(?:\bos\.(?:system|popen)\s*\(\s*(?:f["']|[^)]*?["']\s*[+%]|[^)]*?\.format\()|"""
       r"""\bsubprocess\.\w+\([^)]*shell\s*=\s*True)""", "critical",
       "Shell command built from strings", _SHELL_WHY),
    _r("shell-string-built", "js",
       r"""\b(?:exec|execSync)\s*\(\s*(?:`[^`]*\$\{|[^)]*?["'`]\s*\+|[^),]*?\+\s*["'`])""",
       "critical", "Shell command built from strings", _SHELL_WHY),
    _r("shell-string-built", "go",
       r"""exec\.Command(?:Context)?\([^)]*"(?:ba|z)?sh"\s*,\s*"-c"\s*,\s*(?:fmt\.Sprintf|[^)]*\+)""",
       "critical", "Shell command built from strings", _SHELL_WHY),
    _r("shell-string-built", "ruby",
       r"""(?:`[^`]*#\{|\b(?:system|exec|spawn)\s*\(?\s*"[^"]*#\{|%x\{[^}]*#\{)""",
       "critical", "Shell command built from strings", _SHELL_WHY),
    _r("shell-string-built", "php",
       r"""\b(?:shell_exec|exec|system|passthru|popen|proc_open)\s*\(\s*(?:"[^"]*\$|[^)]*\.\s*\$)""",
       "critical", "Shell command built from strings", _SHELL_WHY),
    _r("shell-string-built", "java",
       r"""Runtime\.getRuntime\(\)\.exec\(\s*[^)]*\+""",
       "critical", "Shell command built from strings", _SHELL_WHY),
    _r("shell-string-built", "rust",
       r"""Command::new\("(?:ba|z)?sh"\)[^;]*\.arg\(\s*format!""",
       "critical", "Shell command built from strings", _SHELL_WHY),
    # -- sensitive values in log calls ----------------------------------------
    _r("sensitive-log", "python",
       r"""\b(?:log(?:ger|ging)?|self\.log(?:ger)?)\.(?:debug|info|warning|warn|error|"""
       r"""exception|critical|log)\s*\(|\bprint\s*\(""", "medium",
       "Sensitive value written to a log", _LOG_WHY, sensitive_args=True),
    _r("sensitive-log", "js",
       r"""\b(?:console|log(?:ger)?)\.(?:log|debug|info|warn|error|trace)\s*\(""", "medium",
       "Sensitive value written to a log", _LOG_WHY, sensitive_args=True),
    _r("sensitive-log", "go",
       r"""\b(?:log|fmt|slog|logger|zap|logrus)\.(?:Print|Printf|Println|Fatal|Fatalf|Debug|"""
       r"""Info|Warn|Error|Infof|Debugf|Warnf|Errorf)\w*\s*\(""", "medium",
       "Sensitive value written to a log", _LOG_WHY, sensitive_args=True),
    _r("sensitive-log", "ruby",
       r"""(?:\b(?:Rails\.)?logger\.(?:debug|info|warn|error|fatal)\b|\bputs\b)""",
       "medium", "Sensitive value written to a log", _LOG_WHY, sensitive_args=True),
    _r("sensitive-log", "php",
       r"""\b(?:error_log|var_dump|print_r)\s*\(|\$(?:this->)?log(?:ger)?->\w+\(|Log::\w+\(""",
       "medium", "Sensitive value written to a log", _LOG_WHY, sensitive_args=True),
    _r("sensitive-log", "java csharp",
       r"""\b(?:log(?:ger)?|LOG(?:GER)?|Console)\.(?:trace|debug|info|warn|error|WriteLine|"""
       r"""Log\w*)\s*\(|System\.(?:out|err)\.print""", "medium",
       "Sensitive value written to a log", _LOG_WHY, sensitive_args=True),
    _r("sensitive-log", "rust",
       r"""\b(?:println|eprintln|print|info|debug|warn|error|trace)!\s*\(""", "medium",
       "Sensitive value written to a log", _LOG_WHY, sensitive_args=True),
    _r("sensitive-log", "elixir",
       r"""\b(?:Logger\.(?:debug|info|warn|warning|error)|IO\.(?:puts|inspect))\b""", "medium",
       "Sensitive value written to a log", _LOG_WHY, sensitive_args=True),
    # -- eval -------------------------------------------------------------------
    _r("eval", "python", r"""(?<![\w.])(?:eval|exec)\s*\(""", "critical",
       "Text evaluated as code", _EVAL_WHY, mask_strings=True),
    _r("eval", "js", r"""(?<![\w.$])eval\s*\(|\bnew\s+Function\s*\(|"""
       r"""\bset(?:Timeout|Interval)\s*\(\s*["'`]""", "critical",
       "Text evaluated as code", _EVAL_WHY),
    _r("eval", "ruby", r"""(?<![\w.])eval\s*[( ]|\.(?:instance|class|module)_eval\s*\(\s*["']""",
       "critical", "Text evaluated as code", _EVAL_WHY, mask_strings=True),
    _r("eval", "php",
       r"""(?<![\w>$])eval\s*\(|\bcreate_function\s*\(|preg_replace\s*\(\s*["'].*/e["']""",
       "critical", "Text evaluated as code", _EVAL_WHY),
    _r("eval", "shell", r"""(?:^|[;&|]\s*)eval\s""", "critical", "Text evaluated as code",
       _EVAL_WHY),
    _r("eval", "elixir", r"""\bCode\.eval_string\s*\(""", "critical", "Text evaluated as code",
       _EVAL_WHY),
    # -- disabled TLS verification --------------------------------------------------
    _r("tls-verify-disabled", "python",
       r"""\bverify\s*=\s*False\b|_create_unverified_context|\bCERT_NONE\b|"""
       r"""check_hostname\s*=\s*False|PYTHONHTTPSVERIFY["']?\s*[\]=,:]\s*["']?0""",
       "critical", "TLS certificate verification disabled", _TLS_WHY),
    _r("tls-verify-disabled", "js",
       r"""rejectUnauthorized\s*:\s*false|NODE_TLS_REJECT_UNAUTHORIZED\s*[=:]\s*["']?0|"""
       r"""strictSSL\s*:\s*false|insecure\s*:\s*true""",
       "critical", "TLS certificate verification disabled", _TLS_WHY),
    _r("tls-verify-disabled", "go", r"""InsecureSkipVerify\s*:\s*true""", "critical",
       "TLS certificate verification disabled", _TLS_WHY),
    _r("tls-verify-disabled", "ruby",
       r"""VERIFY_NONE|verify_mode\s*[:=]>?\s*OpenSSL::SSL::VERIFY_NONE|ssl_verify\s*[:=]>?\s*false""",
       "critical", "TLS certificate verification disabled", _TLS_WHY),
    _r("tls-verify-disabled", "php",
       r"""CURLOPT_SSL_VERIFY(?:PEER|HOST)\s*,\s*(?:false|0)\b|['"]verify['"]\s*=>\s*false""",
       "critical", "TLS certificate verification disabled", _TLS_WHY),
    _r("tls-verify-disabled", "java csharp",
       r"""NoopHostnameVerifier|ALLOW_ALL_HOSTNAME_VERIFIER|TrustAll\w*|"""
       r"""ServerCertificateValidationCallback\s*=.*=>\s*true|"""
       r"""ServerCertificateCustomValidationCallback\s*=.*=>\s*true""",
       "critical", "TLS certificate verification disabled", _TLS_WHY),
    _r("tls-verify-disabled", "rust",
       r"""danger_accept_invalid_(?:certs|hostnames)\s*\(\s*true""", "critical",
       "TLS certificate verification disabled", _TLS_WHY),
    _r("tls-verify-disabled", "shell",
       r"""\bcurl\b[^|;&]*\s(?:-k|--insecure)\b|\bwget\b[^|;&]*--no-check-certificate|"""
       r"""http\.sslVerify\s+false""", "critical", "TLS certificate verification disabled",
       _TLS_WHY),
    _r("tls-verify-disabled", "elixir", r"""verify:\s*:verify_none""", "critical",
       "TLS certificate verification disabled", _TLS_WHY),
)

_STRING = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`""")
_INTERP = re.compile(r"""\$\{([^}]*)\}|#\{([^}]*)\}|"""
                     r"""\{([A-Za-z_][\w.\[\]'"]*)(?:![rsa])?(?::[^}]*)?\}""")


def language(path: str) -> str | None:
    dot = path.rfind(".")
    if dot < 0 or "/" in path[dot:]:
        return None
    return LANGUAGES.get(path[dot:].lower())


def is_comment(lang: str, text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith(_COMMENT.get(lang, ()))


def code_outside_strings(text: str) -> str:
    """The line with string literal contents replaced by spaces, interpolations kept."""
    def keep(m: re.Match[str]) -> str:
        body = m.group(0)
        inner = " ".join(g for im in _INTERP.finditer(body) for g in im.groups() if g)
        return f'" {inner} "'
    return _STRING.sub(keep, text)


def match_line(lang: str, text: str) -> list[LexRule]:
    """The rules (one per rule id) that fire on one added line of a ``lang`` file."""
    if is_comment(lang, text):
        return []
    hits: dict[str, LexRule] = {}
    masked: str | None = None
    for rule in RULES:
        if lang not in rule.languages or rule.id in hits:
            continue
        if rule.needs_sql and not _SQL.search(text):
            continue
        subject = text
        if rule.mask_strings or rule.sensitive_args:
            masked = code_outside_strings(text) if masked is None else masked
            subject = masked
        m = rule.pattern.search(subject)
        if not m:
            continue
        if rule.sensitive_args:
            args = subject[m.end():]
            if not sensitive_identifier(args):
                continue
        hits[rule.id] = rule
    return list(hits.values())


def table_markdown() -> str:
    """The rule table as docs/scan.md shows it (a test keeps the two equal)."""
    rows = ["| rule | languages | severity | needs SQL text | pattern |", "|---|---|---|---|---|"]
    for rule in RULES:
        pattern = (rule.pattern.pattern.replace("&", "&amp;").replace("<", "&lt;")
                   .replace(">", "&gt;").replace("|", "\\|"))
        scope = ("strings masked" if rule.mask_strings else
                 "a sensitive name among the arguments" if rule.sensitive_args else "")
        rows.append(f"| `{rule.id}` | {', '.join(sorted(rule.languages))} | {rule.severity} | "
                    f"{'yes' if rule.needs_sql else ''} | <code>{pattern}</code>"
                    f"{' (' + scope + ')' if scope else ''} |")
    return "\n".join(rows) + "\n"
