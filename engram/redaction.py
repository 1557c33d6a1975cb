"""Shared PII and secret scrubber, plus the secret classifier.

What it protects: text that leaves the canonical write path -- derived
projections, retrieval snippets, logs, metrics labels, and candidate memories
proposed by the learning plane. ``scrub`` replaces sensitive spans with typed
markers (``<secret>``, ``<email>`` ...) so the text stays readable while the
sensitive value is gone; ``looks_like_secret`` lets the learning plane refuse
to store candidate content that carries a credential at all.

What it does NOT do: it never scrubs the canonical journal. The journal keeps
exactly what was written (governance, audit and erasure operate on it), so
callers decide where scrubbing applies; this module is a pure function library.

Design notes:

* Secrets run before PII so that, e.g., ``postgres://u:pw@db.example.com`` is
  treated as a URL credential rather than an e-mail address.
* Every pattern is compiled once at import, is anchored by a cheap literal or a
  look-behind so scans start only at token boundaries, and avoids nested
  ambiguous quantifiers; matching stays roughly linear in the input length.
* Markers contain no digits, ``@``, ``=`` or token-like characters and every
  value pattern refuses to start with ``<``, so ``scrub`` is idempotent.
* Patterns err towards redacting real credentials; the false-positive
  guards (Luhn, card-issuer prefixes, placeholder and code-reference values)
  exist because over-redaction makes memories useless and makes the learning
  plane reject harmless content.

Pure standard library.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

__all__ = [
    "API_KEY_MARKER",
    "CARD_MARKER",
    "EMAIL_MARKER",
    "JWT_MARKER",
    "KIND_API_KEY",
    "KIND_BEARER",
    "KIND_CARD",
    "KIND_CREDENTIAL",
    "KIND_EMAIL",
    "KIND_JWT",
    "KIND_PHONE",
    "KIND_PRIVATE_KEY",
    "KIND_SSN",
    "KIND_URL_SECRET",
    "MARKERS",
    "PHONE_MARKER",
    "PII_KINDS",
    "PII_MARKERS",
    "PRIVATE_KEY_MARKER",
    "SECRET_KINDS",
    "SECRET_MARKER",
    "SECRET_MARKERS",
    "SSN_MARKER",
    "ScrubResult",
    "classify",
    "looks_like_secret",
    "scrub",
    "scrub_secrets",
]

# --- markers ----------------------------------------------------------------

SECRET_MARKER: Final = "<secret>"
"""Generic credential value (assignments, URL params, auth headers)."""
API_KEY_MARKER: Final = "<api_key>"
"""Provider-issued token with a recognisable prefix (OpenAI, GitHub, AWS ...)."""
JWT_MARKER: Final = "<jwt>"
PRIVATE_KEY_MARKER: Final = "<private_key>"
EMAIL_MARKER: Final = "<email>"
SSN_MARKER: Final = "<ssn>"
CARD_MARKER: Final = "<card>"
PHONE_MARKER: Final = "<phone>"

SECRET_MARKERS: Final[frozenset[str]] = frozenset(
    {SECRET_MARKER, API_KEY_MARKER, JWT_MARKER, PRIVATE_KEY_MARKER}
)
PII_MARKERS: Final[frozenset[str]] = frozenset(
    {EMAIL_MARKER, SSN_MARKER, CARD_MARKER, PHONE_MARKER}
)
MARKERS: Final[frozenset[str]] = SECRET_MARKERS | PII_MARKERS

# --- kinds (keys of ScrubResult.by_kind) -----------------------------------

KIND_PRIVATE_KEY: Final = "private_key"
KIND_BEARER: Final = "bearer"  # Authorization credentials (Bearer/Basic/Token)
KIND_API_KEY: Final = "api_key"
KIND_JWT: Final = "jwt"
KIND_URL_SECRET: Final = "url_secret"  # sensitive query params, URL passwords
KIND_CREDENTIAL: Final = "credential"  # key=value / key: value / --flag value
KIND_EMAIL: Final = "email"
KIND_SSN: Final = "ssn"
KIND_CARD: Final = "card"
KIND_PHONE: Final = "phone"

SECRET_KINDS: Final[frozenset[str]] = frozenset(
    {KIND_PRIVATE_KEY, KIND_BEARER, KIND_API_KEY, KIND_JWT, KIND_URL_SECRET, KIND_CREDENTIAL}
)
PII_KINDS: Final[frozenset[str]] = frozenset({KIND_EMAIL, KIND_SSN, KIND_CARD, KIND_PHONE})


@dataclass(frozen=True, slots=True)
class ScrubResult:
    """Scrubbed text plus how many spans were replaced, per kind."""

    text: str
    redactions: int
    by_kind: Mapping[str, int]


# A rule's replacer returns None to veto a match (e.g. a non-Luhn digit run);
# vetoed matches are left untouched and not counted.
_Replacer = Callable[[re.Match[str]], str | None]


@dataclass(frozen=True, slots=True)
class _Rule:
    kind: str
    pattern: re.Pattern[str]
    replace: _Replacer


def _constant(marker: str) -> _Replacer:
    return lambda _m: marker


def _keep_prefix(marker: str) -> _Replacer:
    return lambda m: m.group("pre") + marker


# --- value heuristics shared by the assignment-style rules -----------------

# Values that are obviously not credentials: type hints, nulls, templating,
# already-masked values, header scheme words. Redacting these would make the
# learning plane reject ordinary code snippets such as ``password: str``.
_PLACEHOLDER = re.compile(
    r"str|string|bytes|int|bool|none|null|nil|true|false|undefined|secretstr"
    r"|redacted|required|optional\[.*|bearer|basic|token"
    r"|\*+|x{3,}|\.{3}|<[^>]*>?|\{\{.*|%\(.*|\$\{[^}]*\}?",
    re.IGNORECASE,
)
_ENV_REF = re.compile(r"\$[A-Z_][A-Z0-9_]*")  # $DB_PASSWORD, case-sensitive on purpose
# ``os.environ[``, ``get_password(``, ``settings.DB_PASSWORD``: code that names
# where a secret lives, not the secret.
_CODE_CALL = re.compile(r"[A-Za-z_][\w.]*[(\[].*")
_CODE_ATTR = re.compile(
    r"(?:[A-Za-z_]\w*\.)+[A-Za-z_]*(?:pass|pwd|secret|token|key|cred)\w*", re.IGNORECASE
)


def _is_non_secret_value(value: str, key: str = "") -> bool:
    if not value or value in MARKERS:
        return True
    if _PLACEHOLDER.fullmatch(value) or _ENV_REF.fullmatch(value):
        return True
    if _CODE_CALL.fullmatch(value) or _CODE_ATTR.fullmatch(value):
        return True
    return bool(key) and value.lower() == key.lower()  # ``password=password`` kwargs


# --- secret rules -----------------------------------------------------------

_PEM = re.compile(
    r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
    # Lazy scan to the matching END; a truncated block (no END) runs to the end
    # of the text because whatever follows BEGIN is key material.
    r".*?(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|\Z)",
    re.DOTALL,
)

# RFC 6750 b64token; the last char excludes '.' so sentence periods survive.
_TOKEN68 = r"[A-Za-z0-9\-._~+/]*[A-Za-z0-9\-_~+/]=*"

_AUTH_HEADER = re.compile(
    r"\b(?P<pre>(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?)"
    rf"(?P<scheme>bearer|basic|token)[ \t]+(?P<tok>{_TOKEN68})",
    re.IGNORECASE,
)


def _auth_header(m: re.Match[str]) -> str:
    scheme = m.group("scheme")
    scheme = "Bearer" if scheme.lower() == "bearer" else scheme
    return f"{m.group('pre')}{scheme} {SECRET_MARKER}"


_BARE_BEARER = re.compile(rf"\bbearer[ \t]+(?P<tok>{_TOKEN68})", re.IGNORECASE)


def _bare_bearer(m: re.Match[str]) -> str | None:
    # Outside a header "bearer" is an English word ("bearer of bad news",
    # "bearer tokens"); demand something token-shaped after it.
    tok = m.group("tok")
    if len(tok) < 8 or not any(c.isdigit() for c in tok):
        return None
    return f"Bearer {SECRET_MARKER}"


_PROVIDER_TOKEN = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:"
    r"sk-ant-[A-Za-z0-9_\-]{20,}"  # Anthropic
    # OpenAI (sk-, sk-proj-, sk-svcacct-): the digit look-ahead keeps
    # hyphenated prose such as "sk-learn-compatible-estimators" readable.
    r"|sk-(?=[A-Za-z_\-]*\d)[A-Za-z0-9_\-]{20,}"
    r"|gh[pousr]_[A-Za-z0-9]{20,}"  # GitHub classic tokens
    r"|github_pat_[A-Za-z0-9_]{20,}"  # GitHub fine-grained
    r"|xox[abposr]-[A-Za-z0-9\-]{10,}"  # Slack
    r"|(?:AKIA|ASIA)[A-Z0-9]{16}"  # AWS access key id
    r"|AIza[A-Za-z0-9_\-]{35}"  # Google API key
    r"|glpat-[A-Za-z0-9_\-]{20,}"  # GitLab
    r"|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"  # Stripe
    r"|npm_[A-Za-z0-9]{36}"
    r"|hf_[A-Za-z0-9]{30,}"  # Hugging Face
    r")(?![A-Za-z0-9])"
)

_SLACK_WEBHOOK = re.compile(
    r"(?P<pre>https?://hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/\-]+",
    re.IGNORECASE,
)

_B64URL = r"[A-Za-z0-9_\-]"
_JWT = re.compile(
    rf"(?<![A-Za-z0-9_\-])eyJ{_B64URL}{{5,}}\.{_B64URL}{{2,}}\.{_B64URL}+"
    rf"(?:\.{_B64URL}{{4,}}\.{_B64URL}{{4,}})?"  # JWE has five segments
)

_URL_USERINFO = re.compile(
    r"(?P<pre>\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s/:@<>\"']*:)"
    r"(?P<pw>[^\s/@<>\"']+)(?=@)"
)


def _url_userinfo(m: re.Match[str]) -> str | None:
    if _is_non_secret_value(m.group("pw")):
        return None
    return m.group("pre") + SECRET_MARKER


_URL_PARAM = re.compile(
    r"(?P<pre>[?&#](?P<name>[A-Za-z][A-Za-z0-9_.\-]{0,63})=)(?P<val>[^&#\s\"'<>)\]]+)"
)
_SENSITIVE_PARAM = re.compile(
    r"key|sig|pwd|pass|auth|code_verifier"
    r"|[A-Za-z0-9_.\-]*(?:token|secret|password|passwd|signature|credential"
    r"|api[_\-]?key|private[_\-]?key|access[_\-]?key|session[_\-]?id)",
    re.IGNORECASE,
)


def _url_param(m: re.Match[str]) -> str | None:
    # Match every param and decide here: one scan, and the rest of the URL
    # (host, path, harmless params) stays readable.
    if not _SENSITIVE_PARAM.fullmatch(m.group("name")):
        return None
    return m.group("pre") + SECRET_MARKER


_SEP = r"[ _.\-]?"  # api_key / api-key / apiKey / "api key"
_CRED_CORE = (
    rf"(?:(?:client|app|api|consumer|aws){_SEP})?secret"
    rf"(?:{_SEP}(?:access{_SEP})?key|{_SEP}token)?"
    r"|pass(?:word|wd|phrase|code)"
    r"|pwd"
    rf"|(?:x{_SEP})?api{_SEP}key"
    rf"|(?:(?:access|refresh|auth|id|session|bearer|api|personal{_SEP}access){_SEP})?token"
    rf"|private{_SEP}key"
)
_QUOTED_OR_BARE_VALUE = (
    r"(?:\"(?P<dq>(?:[^\"\\\n]|\\.)*)\""
    r"|'(?P<sq>(?:[^'\\\n]|\\.)*)'"
    # Unquoted: may not start with an opener or '<' (markers, placeholders)
    # and may not end with a closer or '.', so ``f(password=x)`` and
    # ``Password: hunter2.`` keep their punctuation.
    r"|(?P<uq>[^\s\"'`,;{\[(<](?:[^\s\"'`,;]*[^\s\"'`,;)\]}>.])?))"
)
_CREDENTIAL = re.compile(
    # Two look-behinds: start only at the beginning of an identifier (so a
    # long ``a-b-c-...`` run is scanned once, not once per segment) while
    # still allowing ``--password=`` and ``"password":``.
    r"(?<![A-Za-z0-9_])(?<![A-Za-z0-9_][.\-])"
    rf"(?P<key>(?:[A-Za-z0-9]+[_.\-])*(?P<core>{_CRED_CORE}))(?![A-Za-z0-9_\-])"
    # Atomic: never re-split ":=" into ":" + value "=...", which would make
    # "password:=<secret>" re-match on a second pass.
    r"(?P<sep>(?>(?:[\"']|\*\*)?[ \t]*(?:=>|:=|==|=|:)[ \t]*))" + _QUOTED_OR_BARE_VALUE,
    re.IGNORECASE,
)
_CLI_FLAG = re.compile(
    r"(?<![\w\-])(?P<key>--(?:[A-Za-z0-9]+-)*"
    r"(?P<core>password|passwd|pass|token|secret|api-?key|client-secret"
    r"|access-token|auth-token))(?P<sep>[ \t]+)(?=[^\s\-])" + _QUOTED_OR_BARE_VALUE,
    re.IGNORECASE,
)


def _credential(m: re.Match[str]) -> str | None:
    core = m.group("core")
    if m.group("dq") is not None:
        value, quote = m.group("dq"), '"'
    elif m.group("sq") is not None:
        value, quote = m.group("sq"), "'"
    else:
        value, quote = m.group("uq"), ""
    if _is_non_secret_value(value, core):
        return None
    # $PWD is the POSIX working directory, not a password.
    if core.lower() == "pwd" and value[:1] in ("/", "~"):
        return None
    return f"{m.group('key')}{m.group('sep')}{quote}{SECRET_MARKER}{quote}"


# --- PII rules --------------------------------------------------------------

_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@(?:[A-Za-z0-9\-]+\.)+[A-Za-z]{2,}\b"
    r"(?!:[^\s])"  # git@github.com:org/repo.git is an scp-style remote
)

_SSN = re.compile(r"(?<![\w\-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w\-])")

_CARD = re.compile(
    r"(?<![\w.+\-])(?<!\d[ \-])(?:"
    # Ungrouped runs must start with an issuer digit (2-6: Mastercard, Amex,
    # Diners, JCB, Visa, Discover, UnionPay); keeps 13-digit epoch-millis,
    # ISBN-13s (978...) and similar ids readable even when they pass Luhn.
    r"[2-6]\d{12,18}"
    r"|\d{4}(?P<s1>[ \-])\d{4}(?P=s1)\d{4}(?P=s1)\d{1,4}(?:(?P=s1)\d{1,3})?"
    r"|\d{4}(?P<s2>[ \-])\d{6}(?P=s2)\d{4,5}"  # Amex / Diners 4-6-5, 4-6-4
    r")(?![\w\-])(?![ .]\d)"
)


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card(m: re.Match[str]) -> str | None:
    digits = "".join(c for c in m.group(0) if c.isdigit())
    if not 13 <= len(digits) <= 19 or not _luhn_ok(digits):
        return None
    return CARD_MARKER


_PHONE_INTL = re.compile(
    r"(?<![\w+])\+[1-9]\d{0,14}(?:[ .\-]?\(\d{1,4}\))?(?:[ .\-]\d{1,4}){0,5}(?![\w\-])"
)


def _phone_intl(m: re.Match[str]) -> str | None:
    # E.164 allows at most 15 digits; fewer than 8 is a score or a diff stat.
    n = sum(c.isdigit() for c in m.group(0))
    return PHONE_MARKER if 8 <= n <= 15 else None


_PHONE_NANP = re.compile(
    r"(?<![\w.+\-/])(?:"
    r"\(\d{3}\)[ ]?\d{3}[ .\-]\d{4}"
    # Same separator twice: 415-555-2671, 415.555.2671, 1-800-555-0199.
    r"|(?:1[.\-])?\d{3}(?P<ns>[.\-])\d{3}(?P=ns)\d{4}"
    r")(?![\w\-]|\.\d)"
)

_SECRET_RULES: Final[tuple[_Rule, ...]] = (
    _Rule(KIND_PRIVATE_KEY, _PEM, _constant(PRIVATE_KEY_MARKER)),
    _Rule(KIND_BEARER, _AUTH_HEADER, _auth_header),
    _Rule(KIND_BEARER, _BARE_BEARER, _bare_bearer),
    _Rule(KIND_API_KEY, _PROVIDER_TOKEN, _constant(API_KEY_MARKER)),
    _Rule(KIND_API_KEY, _SLACK_WEBHOOK, _keep_prefix(API_KEY_MARKER)),
    _Rule(KIND_JWT, _JWT, _constant(JWT_MARKER)),
    _Rule(KIND_URL_SECRET, _URL_USERINFO, _url_userinfo),
    _Rule(KIND_URL_SECRET, _URL_PARAM, _url_param),
    _Rule(KIND_CREDENTIAL, _CREDENTIAL, _credential),
    _Rule(KIND_CREDENTIAL, _CLI_FLAG, _credential),
)
_PII_RULES: Final[tuple[_Rule, ...]] = (
    _Rule(KIND_EMAIL, _EMAIL, _constant(EMAIL_MARKER)),
    _Rule(KIND_SSN, _SSN, _constant(SSN_MARKER)),
    _Rule(KIND_CARD, _CARD, _card),
    _Rule(KIND_PHONE, _PHONE_INTL, _phone_intl),
    _Rule(KIND_PHONE, _PHONE_NANP, _constant(PHONE_MARKER)),
)
_ALL_RULES: Final = _SECRET_RULES + _PII_RULES

_SECRET_MARKER_RE = re.compile("|".join(re.escape(m) for m in sorted(SECRET_MARKERS)))


def _counting(rule: _Rule, counts: Counter[str]) -> Callable[[re.Match[str]], str]:
    def sub(m: re.Match[str]) -> str:
        out = rule.replace(m)
        if out is None:
            return m.group(0)
        counts[rule.kind] += 1
        return out

    return sub


def _run(text: str, rules: Sequence[_Rule]) -> tuple[str, Counter[str]]:
    counts: Counter[str] = Counter()
    for rule in rules:
        text = rule.pattern.sub(_counting(rule, counts), text)
    return text, counts


def scrub(text: str) -> ScrubResult:
    """Replace secrets, then PII, with typed markers; idempotent."""
    out, counts = _run(text, _ALL_RULES)
    return ScrubResult(
        text=out,
        redactions=sum(counts.values()),
        by_kind=MappingProxyType(dict(counts)),
    )


def scrub_secrets(text: str) -> ScrubResult:
    """Replace only secrets (credentials, tokens, keys) with markers; PII stays.

    For stores whose policy turned PII redaction off: credentials are still
    never kept."""
    out, counts = _run(text, _SECRET_RULES)
    return ScrubResult(
        text=out,
        redactions=sum(counts.values()),
        by_kind=MappingProxyType(dict(counts)),
    )


def classify(text: str) -> frozenset[str]:
    """Kinds (``KIND_*``) that ``scrub`` would redact in ``text``.

    Existing markers are not reported here; ``looks_like_secret`` covers them.
    """
    return frozenset(_run(text, _ALL_RULES)[1])


def looks_like_secret(text: str) -> bool:
    """True if ``text`` carries a credential or an already-redacted one.

    A marker counts because content that was scrubbed upstream still describes
    a credential; storing it as a memory would be noise at best. PII alone
    (e-mail, phone, ...) is not a secret -- governance handles it separately.
    """
    if _SECRET_MARKER_RE.search(text):
        return True
    return bool(_run(text, _SECRET_RULES)[1])
