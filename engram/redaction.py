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
* Phone numbers are found by ``phonenumbers`` (Google's libphonenumber
  metadata) rather than by regexes: numbering plans differ per country and
  change, and a maintained library validates a candidate against the real plan
  instead of its shape. Numbers written with a country code (``+44 ...``,
  ``0049 ...``) are accepted for every country the library knows; numbers in
  national format are tried against ``PHONE_REGIONS`` only (see there).
* Secrets without a recognisable prefix are caught by a keyword + entropy rule
  in the spirit of detect-secrets: a token right after a key/secret/token/
  password/credential/api/auth/bearer word (English, French, German, Spanish,
  Italian, Portuguese) is redacted when its Shannon entropy is high enough
  (hex >= 3.0 bits per character; base64 alphabets >= 4.5, scaled down for
  tokens shorter than 36 characters, which cannot reach 4.5).

Standard library plus ``phonenumbers``.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from phonenumbers import Leniency, PhoneNumberMatcher

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
    "PHONE_REGIONS",
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
_MARKER_PREFIXES: Final[tuple[str, ...]] = tuple(sorted(MARKERS))
_SECRET_MARKER_RE: Final = re.compile("|".join(re.escape(m) for m in sorted(SECRET_MARKERS)))

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


# A span rule finds what to replace procedurally (phone numbers through
# phonenumbers, the keyword + entropy scan): sorted, non-overlapping
# (start, end, replacement) triples.
_SpanFinder = Callable[[str], list[tuple[int, int, str]]]


@dataclass(frozen=True, slots=True)
class _SpanRule:
    kind: str
    find: _SpanFinder


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
    if not value or value.startswith(_MARKER_PREFIXES):
        # Already redacted; what follows a marker inside a quoted value is
        # escape residue (``"<private_key>\\n"`` in a service-account file).
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
    r"|xoxe\.xox[bp]-[A-Za-z0-9\-]{10,}|xoxe-\d-[A-Za-z0-9\-]{20,}"  # Slack rotation
    r"|xapp-\d-[A-Za-z0-9\-]{20,}"  # Slack app-level
    r"|(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}"  # AWS access key id
    r"|AIza[A-Za-z0-9_\-]{35}"  # Google API key
    r"|GOCSPX-[A-Za-z0-9_\-]{24,}"  # Google OAuth client secret
    r"|ya29\.[A-Za-z0-9_\-]{20,}"  # Google OAuth access token
    r"|gl(?:pat|rt|dt|ptt|soat|cbt|imt|oas|ft)-[A-Za-z0-9_\-]{20,}"  # GitLab
    r"|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"  # Stripe
    r"|whsec_[A-Za-z0-9+/=]{24,}"  # Stripe webhook signing secret
    r"|SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}"  # SendGrid
    r"|do[opr]_v1_[a-f0-9]{64}"  # DigitalOcean
    r"|hv[sbr]\.[A-Za-z0-9_\-]{24,}"  # HashiCorp Vault
    r"|pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}"  # PyPI upload token
    r"|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"  # Shopify
    r"|dapi[a-f0-9]{32}(?:-\d)?"  # Databricks
    r"|AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{100,}"  # Firebase Cloud Messaging
    r"|ATATT3[A-Za-z0-9_\-=]{150,}"  # Atlassian API token
    r"|key-[0-9a-z]{32}"  # Mailgun
    r"|dckr_pat_[A-Za-z0-9_\-]{27,}"  # Docker Hub
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
    # Azure connection strings (AccountKey=, SharedAccessKey=) and other named keys.
    rf"|(?:account|shared{_SEP}access|signing|encryption|master){_SEP}key"
    # fr / de / es / pt password words (the Italian word is "password").
    rf"|mot{_SEP}de{_SEP}passe|passwort|kennwort|contrase[ñn]a|senha"
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


# A password given in a sentence: "my password is hunter2", "Das Kennwort
# lautet ...", "a senha é ...". Assignment shapes (``password: x``) are
# _CREDENTIAL's; this is for the copula form, where prose is the common case
# ("the password is required", "la contraseña es obligatoria"), so the value
# must look like a password (see _password_phrase).
_PASSWORD_WORD = (
    r"password|passwd|passphrase|pwd|mot\s+de\s+passe|passwort|kennwort"
    r"|contrase[ñn]a|senha|clave"
)
_PASSWORD_PHRASE = re.compile(
    r"(?<![^\W\d_])"
    rf"(?P<pre>(?:{_PASSWORD_WORD})"
    # "password for the VPN is ...": only a prepositional phrase may sit
    # between the word and the verb, so "password manager is 1Password" stays.
    r"(?:[ \t]+(?:for|of|on|to|pour|de|du|für|von|para|per|do|da|del)(?:[ \t]+[^\s:=<>]+){1,2})?"
    r"[ \t]+(?:is|was|est|ist|lautet|es|era|é|è|sera)[ \t]*:?[ \t]+)"
    r"(?P<q>[\"'`]?)(?P<val>[^\s\"'`]{6,64}?)(?P=q)(?=[.,;:)\]]*(?:\s|$))",
    re.IGNORECASE,
)
_PASSWORD_SYMBOL = re.compile(r"[\d!@#$%^&*~+=?/\\|]")


def _password_phrase(m: re.Match[str]) -> str | None:
    value = m.group("val")
    if _is_non_secret_value(value) or not any(c.isalpha() for c in value):
        return None
    if "<" in value or "://" in value:  # holds a marker already, or is a URL
        return None
    if not _PASSWORD_SYMBOL.search(value):  # plain words: "required", "incorrect"
        return None
    q = m.group("q")
    return f"{m.group('pre')}{q}{SECRET_MARKER}{q}"


# --- keyword + entropy (detect-secrets style) ------------------------------

# Words after which a high-entropy token is taken to be a credential: en, fr,
# de, es, it, pt. A keyword starts at a word start or at a camelCase hump
# (``AccountKey``) and must end at a word end (``secretName``, ``keyboard``,
# ``tokenizer`` are not keywords).
_KEYWORD = re.compile(
    r"(?:(?:(?<![^\W\d_])|(?-i:(?<=[a-z])(?=[A-Z])))(?:"
    r"keys?|secrets?|tokens?|passwords?|passwd|passphrase|pwd|credentials?|creds"
    r"|api|apikey|auth|bearer"
    r"|cl[ée]s?|clefs?|secr[èe]tes?|jetons?|mots?\s+de\s+passe|identifiants"
    r"|passw(?:ort|örter)|kennw(?:ort|örter)|geheim[^\W\d_]*|zugangsdaten|anmeldedaten"
    r"|claves?|contrase[ñn]as?|secret[oa]s?|credencial(?:es)?|llaves?"
    r"|chiav[ei]|segret[oa]|credenziali"
    r"|chaves?|senhas?|segredos?|credenciais"
    # German compounds end in it anywhere: Zugangsschlüssel, API-Schlüssel.
    r")|schl(?:ü|ue)ssel)(?![^\W\d_])",
    re.IGNORECASE,
)
_KEYWORDS_IN_MARKERS: Final[tuple[tuple[str, int], ...]] = tuple(
    (marker, m.start()) for marker in sorted(MARKERS) for m in _KEYWORD.finditer(marker)
)
# How far after a keyword a value may sit: "the secret access key for the
# staging account is <value>" -- a handful of tokens on the same line and in
# the same sentence.
_WINDOW_CHARS: Final = 80
_WINDOW_TOKENS: Final = 6
_WINDOW_END = re.compile(r"\n|[.!?](?=\s)")
_TOKEN = re.compile(r"[A-Za-z0-9+/_\-.~]+=*")
# "fixed in commit <sha>", "sha256: <digest>": a hex run right after one of
# these names a revision or a checksum, not a credential.
_REFERENCE_WORDS: Final = frozenset(
    {"commit", "sha", "sha1", "sha256", "sha512", "md5", "hash", "checksum", "digest"}
    | {"revision", "rev", "fingerprint", "uuid", "guid"}
)
# A public key is not a secret: "public key: MIIB...", "pubkey", the base64
# body after an OpenSSH key type ("ssh-ed25519 AAAAC3..."), and Stripe's
# publishable keys.
# "public" must stand alone: were it the tail of a token, a first pass could
# redact that token and a second would no longer see the word.
_PUBLIC_BEFORE = re.compile(r"(?<![A-Za-z0-9+/_\-.~])(?:public|pub)[ _\-]?$", re.IGNORECASE)
_SSH_KEY_TYPES: Final = ("ssh-", "ecdsa-", "sk-ssh-", "sk-ecdsa-")
_PUBLISHABLE_PREFIXES: Final = ("pk_live_", "pk_test_")  # Stripe keys meant for browsers
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
_HEX = re.compile(r"[0-9a-fA-F]+")

# detect-secrets' defaults: hex strings >= 3.0 bits per character, base64
# strings >= 4.5. A string of n characters cannot carry more than log2(n)
# bits per character (4.5 needs n >= 23), so shorter base64 tokens are held to
# 87 % of that ceiling instead; random 20..35-character tokens clear it,
# identifiers and words do not.
HEX_ENTROPY: Final = 3.0
BASE64_ENTROPY: Final = 4.5
_SHORT_TOKEN_FRACTION: Final = 0.87
_MIN_SECRET_LEN: Final = 20  # shorter hex runs are span ids, GPG key ids, short SHAs


def _shannon(token: str) -> float:
    n = len(token)
    return -sum(c / n * math.log2(c / n) for c in Counter(token).values())


def _high_entropy(token: str) -> bool:
    n = len(token)
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    if n < _MIN_SECRET_LEN or not (has_digit and has_alpha) or _UUID.fullmatch(token):
        # Digit runs are numbers (order ids, timestamps); UUIDs identify.
        return False
    if _HEX.fullmatch(token):
        return _shannon(token) >= HEX_ENTROPY
    threshold = min(BASE64_ENTROPY, _SHORT_TOKEN_FRACTION * math.log2(n))
    return _shannon(token) >= threshold


def _keyword_secret_spans(text: str) -> list[tuple[int, int, str]]:
    starts: list[int] = []  # redacted spans, sorted (non-overlapping)
    ends: list[int] = []

    def taken(i: int) -> bool:
        k = bisect.bisect_right(starts, i) - 1
        return k >= 0 and i < ends[k]

    # Every decision must read the text the way a second pass will, with
    # the redacted values already replaced by markers, so that scrub stays
    # idempotent.
    for km in _KEYWORD.finditer(text):
        pos, ks = km.end(), km.start()
        # Keywords inside markers (``<secret>``, ``<api_key>``) or inside a
        # value redacted here are not keywords.
        if taken(ks):
            continue
        if any(text.startswith(mk, ks - off) for mk, off in _KEYWORDS_IN_MARKERS):
            continue
        if _PUBLIC_BEFORE.search(text, max(0, km.start() - 8), km.start()):
            continue
        limit = min(len(text), pos + _WINDOW_CHARS)
        stop = _WINDOW_END.search(text, pos, limit)
        end = stop.start() if stop else limit
        prev = ""
        for n, tm in enumerate(_TOKEN.finditer(text, pos, end)):
            if n >= _WINDOW_TOKENS:
                break
            start, token = tm.start(), tm.group()
            if tm.end() == end:
                # The window bounds where a value may start, not where it
                # ends: a long token is never cut in two.
                whole = _TOKEN.match(text, start)
                token = whole.group() if whole else token
            token = token.rstrip(".")
            if (start and text[start - 1] == "<") or taken(start):
                # A marker or a redacted value: this keyword's value is taken.
                break
            # Paths and URLs (``/etc/..``, ``~/.ssh``, ``//host/..``) are not values.
            if (
                token[:1] not in "/~."
                and not token.startswith(_PUBLISHABLE_PREFIXES)
                and prev not in _REFERENCE_WORDS
                and not prev.startswith(_SSH_KEY_TYPES)
                and _high_entropy(token)
            ):
                k = bisect.bisect_left(starts, start)
                if k < len(starts) and starts[k] < start + len(token):
                    break  # would overlap a value redacted for another keyword
                starts.insert(k, start)
                ends.insert(k, start + len(token))
                break
            prev = token.lower()
    return [(s, e, SECRET_MARKER) for s, e in zip(starts, ends, strict=True)]


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


PHONE_REGIONS: Final[tuple[str, ...]] = ("US", "GB", "DE", "FR", "IN", "BR", "JP", "AU")
"""Regions whose national format (no ``+`` country code) is recognised.

A number written with a country code (``+44 20 7946 0958``, ``0049 30 ...``)
is validated against its own country's plan, whatever this list says. A
number without one can only be read against an assumed region, so each of
these is tried in turn (the union of the matches is redacted). These are the
countries issue 11 names, and their national formats are distinctive: a trunk
prefix (``0``) or, for NANP, a three-digit area code that must exist. Each
extra region costs one more phonenumbers pass per digit-run window. Italy and
Spain are left out on purpose: their national numbers have no trunk prefix,
so dates (``01.12.2026``) and ZIP+4 codes (``94103-1234``) validate; their
numbers are still caught when written with ``+39`` / ``+34``.
"""
# Any region whose international call prefix is 00 (most of the world): the
# pass that accepts "+cc ..." and "00cc ..." numbers.
_IDD_REGION: Final = "GB"
# phonenumbers is pure Python and costly per candidate, so it only ever sees
# windows around digit runs that could hold a number (seven digits or more,
# optionally grouped), padded so that its own context checks (a letter or a
# time right next to the digits, an extension after them) still apply.
# Every run qualifies, whatever surrounds it: which windows exist must not
# depend on what an earlier replacement left next to a run, or a second pass
# could see a number the first did not.
_DIGIT_RUN = re.compile(r"\d(?:[ ().\-/]{0,2}\d)*+")
# Runs that are dates or IPv4 addresses are not numbers to look at (the
# commonest digit runs in logs); a match of that shape is dropped as well, so
# the outcome never depends on which windows happened to exist.
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_MONTH = r"(?:0?[1-9]|1[0-2])"
_YEAR = r"(?:19|20)\d\d"
_NOT_A_NUMBER = re.compile(
    rf"{_YEAR}(?P<a>[-./]){_MONTH}(?P=a){_DAY}"
    rf"|{_DAY}(?P<b>[-./]){_MONTH}(?P=b){_YEAR}"
    rf"|{_MONTH}(?P<c>[-./]){_DAY}(?P=c){_YEAR}"
    r"|\d{1,3}(?:\.\d{1,3}){3}"
)
_MIN_PHONE_DIGITS: Final = 7
_PHONE_PAD: Final = 16
_COUNTRY_CODE_HINT = re.compile(r"[+＋]|(?<!\d)0(?:0|11)[1-9]")
_EXPLICIT_COUNTRY = re.compile(r"[+＋]|(?:00|011)[1-9]")
_GROUPED = re.compile(r"\d[ ().\-/]+\d|^\(")
# A national-format number written as one bare digit run ("9876543210") is as
# likely an order id or a timestamp; it counts only after one of these words.
_PHONE_WORD = re.compile(
    r"(?<![^\W\d_])(?:tel|t[ée]l[ée]phone|phone|call|ring|mobile?|cell|fax|whats[ ]?app|sms"
    r"|contact|handy|telefon|rufnummer|portable|appel(?:ez|er)|tel[ée]fono|telefone|m[óo]vil"
    r"|celular|cellulare|llam[ae]|ligue|chiama)(?![^\W\d_])|電話|携帯|手机|电话",
    re.IGNORECASE,
)
_PHONE_CONTEXT_CHARS: Final = 24


def _phone_word_before(text: str, start: int) -> bool:
    before = text[max(0, start - _PHONE_CONTEXT_CHARS) : start]
    # Only what lies after the previous number or marker counts: "<phone>"
    # itself, or a phone word that belonged to an earlier number, must not
    # make a second pass redact more than the first.
    cut = max(before.rfind(">"), *(i for i, c in enumerate(before) if c.isdigit()), -1)
    return bool(_PHONE_WORD.search(before, cut + 1))


def _phone_windows(text: str) -> list[tuple[int, int]]:
    windows: list[tuple[int, int]] = []
    for m in _DIGIT_RUN.finditer(text):
        run = m.group()
        if sum(c.isdigit() for c in run) < _MIN_PHONE_DIGITS or _NOT_A_NUMBER.fullmatch(run):
            continue
        start = max(0, m.start() - _PHONE_PAD)
        end = min(len(text), m.end() + _PHONE_PAD)
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], end)
        else:
            windows.append((start, end))
    return windows


def _phone_matches(text: str, start: int, end: int) -> list[tuple[int, int]]:
    window = text[start:end]
    found: list[tuple[int, int]] = []
    # Country code given: VALID is enough, any grouping the writer chose.
    if _COUNTRY_CODE_HINT.search(window):
        for m in PhoneNumberMatcher(window, _IDD_REGION, leniency=Leniency.VALID):
            if _EXPLICIT_COUNTRY.match(m.raw_string):
                found.append((start + m.start, start + m.end))
    if not _GROUPED.search(window) and not _PHONE_WORD.search(window):
        return found  # only bare digit runs and no phone word: none would count
    # National format: the digits must also be grouped the way that region
    # writes them (STRICT_GROUPING), which rejects "2026-004512" and ISBNs.
    for region in PHONE_REGIONS:
        for m in PhoneNumberMatcher(window, region, leniency=Leniency.STRICT_GROUPING):
            raw = m.raw_string
            if _EXPLICIT_COUNTRY.match(raw) or _NOT_A_NUMBER.fullmatch(raw):
                continue
            if not _GROUPED.search(raw) and not _phone_word_before(text, start + m.start):
                continue
            found.append((start + m.start, start + m.end))
    return found


def _phone_spans(text: str, *, near_marker: bool = False) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int]] = []
    for start, end in _phone_windows(text):
        if near_marker and "<" not in text[start:end]:
            continue
        found.extend(_phone_matches(text, start, end))
    spans: list[tuple[int, int, str]] = []
    for start, end in sorted(found, key=lambda se: (se[0], -se[1])):
        if spans and start < spans[-1][1]:
            continue
        spans.append((start, end, PHONE_MARKER))
    return spans


_SECRET_RULES: Final[tuple[_Rule | _SpanRule, ...]] = (
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
    _Rule(KIND_CREDENTIAL, _PASSWORD_PHRASE, _password_phrase),
    _SpanRule(KIND_CREDENTIAL, _keyword_secret_spans),
)
_PII_RULES: Final[tuple[_Rule | _SpanRule, ...]] = (
    _Rule(KIND_EMAIL, _EMAIL, _constant(EMAIL_MARKER)),
    _Rule(KIND_SSN, _SSN, _constant(SSN_MARKER)),
    _Rule(KIND_CARD, _CARD, _card),
    _SpanRule(KIND_PHONE, _phone_spans),
)
# Later rounds: a number hidden by another one, or reshaped by a secret
# marker, sits next to a marker, so phonenumbers only looks there.
_PII_RULES_AGAIN: Final[tuple[_Rule | _SpanRule, ...]] = (
    *_PII_RULES[:-1],
    _SpanRule(KIND_PHONE, lambda text: _phone_spans(text, near_marker=True)),
)


def _counting(rule: _Rule, counts: Counter[str]) -> Callable[[re.Match[str]], str]:
    def sub(m: re.Match[str]) -> str:
        out = rule.replace(m)
        if out is None:
            return m.group(0)
        counts[rule.kind] += 1
        return out

    return sub


def _apply_spans(rule: _SpanRule, text: str, counts: Counter[str]) -> str:
    spans = rule.find(text)
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for start, end, replacement in spans:
        parts.append(text[last:start])
        parts.append(replacement)
        last = end
    parts.append(text[last:])
    counts[rule.kind] += len(spans)
    return "".join(parts)


def _run(text: str, rules: Sequence[_Rule | _SpanRule]) -> tuple[str, Counter[str]]:
    counts: Counter[str] = Counter()
    for rule in rules:
        if isinstance(rule, _SpanRule):
            text = _apply_spans(rule, text, counts)
        else:
            text = rule.pattern.sub(_counting(rule, counts), text)
    return text, counts


_MAX_EXTRA_ROUNDS: Final = 3


def _run_all(text: str) -> tuple[str, Counter[str]]:
    out, counts = _run(text, _SECRET_RULES)
    out, pii = _run(out, _PII_RULES)
    counts += pii
    # One match can hide another (two numbers glued by a space read as one
    # invalid number; an address glued to the next), and a PII marker can
    # reshape a neighbouring value (``pw=abc1<phone>``): repeat both until
    # nothing changes, so that a second scrub finds nothing.
    changed = bool(pii)
    for _ in range(_MAX_EXTRA_ROUNDS):
        if not changed:
            break
        out, more = _run(out, _PII_RULES_AGAIN)
        out, again = _run(out, _SECRET_RULES)
        counts += more + again
        changed = bool(more or again)
    return out, counts


def scrub(text: str) -> ScrubResult:
    """Replace secrets, then PII, with typed markers; idempotent."""
    out, counts = _run_all(text)
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
    return frozenset(_run_all(text)[1])


def looks_like_secret(text: str) -> bool:
    """True if ``text`` carries a credential or an already-redacted one.

    A marker counts because content that was scrubbed upstream still describes
    a credential; storing it as a memory would be noise at best. PII alone
    (e-mail, phone, ...) is not a secret -- governance handles it separately.
    """
    if _SECRET_MARKER_RE.search(text):
        return True
    return bool(_run(text, _SECRET_RULES)[1])
