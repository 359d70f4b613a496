"""The eleven built-in patterns of the default redaction, in the reference's order.

Ten credential shapes (a literal prefix, then a run of one character class)
and the PEM private-key block, whose machine lives in
:mod:`council_filters.redaction.machine`.  The line machine, the prefilter and
the compiled module all read them from here.
"""

from __future__ import annotations

from council_filters.base.tuples import NamedTuple

# --------------------------------------------------------------------------- #
# The credential patterns, in the order the reference tests them.
# --------------------------------------------------------------------------- #


class CredentialPattern(NamedTuple):
    """A literal prefix followed by a run of one character class.

    A line holds the credential when, at some position, ``prefix`` is followed
    by at least ``min_len - prefix_len`` bytes of ``char_class`` (the reference
    measures the whole match, prefix included, against ``min_len``).
    """

    name: str
    prefix: bytes  # a regex (only gh[pous]_ is not a plain literal)
    prefix_len: int
    char_class: bytes
    min_len: int

    @property
    def tail_len(self) -> int:
        return self.min_len - self.prefix_len

    @property
    def regex(self) -> bytes:
        return self.prefix + self.char_class + b"{%d}" % self.tail_len


CREDENTIAL_PATTERNS: tuple[CredentialPattern, ...] = (
    CredentialPattern("openai-project", b"sk-proj-", 8, b"[A-Za-z0-9_-]", 28),
    CredentialPattern("anthropic", b"sk-ant-", 7, b"[A-Za-z0-9_-]", 27),
    CredentialPattern("openai", b"sk-", 3, b"[A-Za-z0-9]", 23),
    CredentialPattern("google-api", b"AIza", 4, b"[0-9A-Za-z_-]", 39),
    CredentialPattern("github-token", b"gh[pous]_", 4, b"[A-Za-z0-9]", 40),
    CredentialPattern("github-pat", b"github_pat_", 11, b"[A-Za-z0-9_]", 51),
    CredentialPattern("aws-access-key", b"AKIA", 4, b"[0-9A-Z]", 20),
    CredentialPattern("bearer", b"Bearer ", 7, b"[A-Za-z0-9._~+/-]", 27),
    CredentialPattern("authorization", b"Authorization: ", 15, b"[A-Za-z0-9 ._~+/-]", 35),
    CredentialPattern("opencode-session", b"ses_", 4, b"[A-Za-z0-9]", 20),
)
PEM_PATTERN = "pem-private-key"
#: Every pattern name, in table order (the eleventh is the PEM block machine).
PATTERN_NAMES: tuple[str, ...] = tuple(p.name for p in CREDENTIAL_PATTERNS) + (PEM_PATTERN,)
#: The BEGIN marker of a PEM private-key block, as the reference matches it.
BEGIN_REGEX = rb"-----BEGIN [A-Z ]*PRIVATE KEY-----"
