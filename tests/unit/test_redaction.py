"""Table-driven tests for engram.redaction (scrubber + secret classifier)."""

from __future__ import annotations

import random

import pytest

from engram.redaction import (
    API_KEY_MARKER,
    CARD_MARKER,
    EMAIL_MARKER,
    JWT_MARKER,
    MARKERS,
    PHONE_MARKER,
    PII_KINDS,
    PII_MARKERS,
    PRIVATE_KEY_MARKER,
    SECRET_KINDS,
    SECRET_MARKER,
    SECRET_MARKERS,
    SSN_MARKER,
    ScrubResult,
    classify,
    looks_like_secret,
    scrub,
)

# Fixture secrets are assembled from pieces so the test file itself does not
# trip secret scanners (and nobody mistakes them for live credentials).
OPENAI = "sk-" + "proj-" + "abc123DEF456ghi789JKL012mno345"
OPENAI_LEGACY = "sk-" + "Abc123Def456Ghi789Jkl012Mno345Pqr678"
ANTHROPIC = "sk-" + "ant-api03-" + "abcdefghijklmnopqrstuvwxyz012345"
GH_CLASSIC = "ghp" + "_" + "abcdefghijklmnopqrstuvwxyz0123456789"
GH_OAUTH = "gho" + "_" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
GH_USER = "ghu" + "_" + "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8"
GH_SERVER = "ghs" + "_" + "0123456789abcdefghijABCDEFGHIJ012345"
GH_REFRESH = "ghr" + "_" + "zyxwvutsrqponmlkjihgfedcba9876543210"
GH_PAT = "github" + "_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuv"
SLACK_BOT = "xox" + "b-" + "1234567890-0987654321-AbCdEfGhIj"
SLACK_USER = "xox" + "p-" + "1234567890-0987654321-1122334455-abcdef"
SLACK_APP = "xox" + "a-" + "2-1234567890-abcdefabcdef"
SLACK_REFRESH = "xox" + "r-" + "1234567890-abcdefghijkl"
SLACK_SESSION = "xox" + "s-" + "1234567890-abcdefghijkl"
SLACK_HOOK_PATH = "T00000000/B00000000/" + "XXXXXXXXXXXXXXXXXXXXXXXX"
AWS_KEY_ID = "AKIA" + "IOSFODNN7EXAMPLE"
AWS_STS_ID = "ASIA" + "Y34FZKBOKMUTVV7A"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
GOOGLE = "AIza" + "SyA1234567890abcdefghijklmnopqrstuv"
STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM_BODY = "MIIEowIBAAKCAQEA7V1x\nq3Zk9YtV0pQ==\n"
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}-----END RSA PRIVATE KEY-----"
PEM_PKCS8 = f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY}-----END PRIVATE KEY-----"
PEM_OPENSSH = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}-----END OPENSSH PRIVATE KEY-----"

S = SECRET_MARKER
K = API_KEY_MARKER

# (input, expected scrubbed text). Both directions: redactions and texts that
# must come back byte-for-byte unchanged.
CASES: list[tuple[str, str]] = [
    # --- provider tokens ---------------------------------------------------
    (f"key {OPENAI} here", f"key {K} here"),
    (f"OPENAI_API_KEY={OPENAI_LEGACY}", f"OPENAI_API_KEY={K}"),
    (f"anthropic: {ANTHROPIC}", f"anthropic: {K}"),
    (f"token {GH_CLASSIC}.", f"token {K}."),
    (GH_OAUTH, K),
    (f"({GH_USER})", f"({K})"),
    (f"server {GH_SERVER}", f"server {K}"),
    (f"refresh {GH_REFRESH}", f"refresh {K}"),
    (f"pat {GH_PAT} end", f"pat {K} end"),
    (f"slack {SLACK_BOT}", f"slack {K}"),
    (f"slack {SLACK_USER}", f"slack {K}"),
    (f"app {SLACK_APP}", f"app {K}"),
    (f"{SLACK_REFRESH} {SLACK_SESSION}", f"{K} {K}"),
    (
        f"post to https://hooks.slack.com/services/{SLACK_HOOK_PATH} now",
        f"post to https://hooks.slack.com/services/{K} now",
    ),
    (f"id {AWS_KEY_ID} ok", f"id {K} ok"),
    (f"sts {AWS_STS_ID}", f"sts {K}"),
    (f"aws_secret_access_key = {AWS_SECRET}", f"aws_secret_access_key = {S}"),
    (f'"SecretAccessKey": "{AWS_SECRET}"', f'"SecretAccessKey": "{S}"'),
    (f"maps key {GOOGLE}", f"maps key {K}"),
    (f"stripe {STRIPE}", f"stripe {K}"),
    # --- bearer / authorization ---------------------------------------------
    (f"Authorization: Bearer {JWT}", f"Authorization: Bearer {S}"),
    ('curl -H "Authorization: Bearer abc"', f'curl -H "Authorization: Bearer {S}"'),
    ("authorization: bearer abc.def-ghi", f"authorization: Bearer {S}"),
    ("use bearer abc123def456 for the call", f"use Bearer {S} for the call"),
    ("Authorization: Basic dXNlcjpwYXNz", f"Authorization: Basic {S}"),
    (f"Authorization: token {GH_CLASSIC}", f"Authorization: token {S}"),
    # --- JWT ----------------------------------------------------------------
    (JWT, JWT_MARKER),
    (f"session={JWT}; path=/", f"session={JWT_MARKER}; path=/"),
    (f"got {JWT}.", f"got {JWT_MARKER}."),
    # --- sensitive URL parameters -------------------------------------------
    (
        "https://example.com/cb?code=1&access_token=abc.def&state=xyz",
        f"https://example.com/cb?code=1&access_token={S}&state=xyz",
    ),
    ("https://api.example.com/v1?api_key=abc123", f"https://api.example.com/v1?api_key={S}"),
    ("https://x.io/p?APIKEY=abc123&page=2", f"https://x.io/p?APIKEY={S}&page=2"),
    ("https://maps.example.com/?key=abc123&z=4", f"https://maps.example.com/?key={S}&z=4"),
    ("https://x.io/dl?Signature=zzz&sig=yyy", f"https://x.io/dl?Signature={S}&sig={S}"),
    ("https://x.io/?token=t0k", f"https://x.io/?token={S}"),
    ("https://x.io/?refresh_token=r&id_token=i", f"https://x.io/?refresh_token={S}&id_token={S}"),
    (
        "https://x.io/?client_secret=cs&client_id=app",
        f"https://x.io/?client_secret={S}&client_id=app",
    ),
    ("https://x.io/login?user=bob&password=pw1", f"https://x.io/login?user=bob&password={S}"),
    ("https://x.io/?secret=s1", f"https://x.io/?secret={S}"),
    (
        "https://b.s3.amazonaws.com/k?X-Amz-Credential=AKID%2F2026&X-Amz-Signature=dead&x=1",
        f"https://b.s3.amazonaws.com/k?X-Amz-Credential={S}&X-Amz-Signature={S}&x=1",
    ),
    (
        "https://app.example.com/#access_token=abc&expires_in=3600",
        f"https://app.example.com/#access_token={S}&expires_in=3600",
    ),
    ("[link](https://x.io/?token=abc)", f"[link](https://x.io/?token={S})"),
    (
        "postgres://alice:s3cret@db.example.com:5432/app",
        f"postgres://alice:{S}@db.example.com:5432/app",
    ),
    # --- PEM private keys ---------------------------------------------------
    (f"key:\n{PEM}\ndone", f"key:\n{PRIVATE_KEY_MARKER}\ndone"),
    (PEM_PKCS8, PRIVATE_KEY_MARKER),
    (f"{PEM_OPENSSH} trailing", f"{PRIVATE_KEY_MARKER} trailing"),
    ("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\n(truncated", PRIVATE_KEY_MARKER),
    (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----",
        PRIVATE_KEY_MARKER,
    ),
    # --- assignment shapes --------------------------------------------------
    ("password=hunter2", f"password={S}"),
    ('passwd: "hunter2"', f'passwd: "{S}"'),
    ("pwd=s3cr3t!", f"pwd={S}"),
    ("api-key: abc123", f"api-key: {S}"),
    ("api_key=abc123", f"api_key={S}"),
    ("x-api-key: abc123", f"x-api-key: {S}"),
    ("X-Api-Key: abc123", f"X-Api-Key: {S}"),
    ("clientSecret: 'abc123'", f"clientSecret: '{S}'"),
    ("client_secret=abc", f"client_secret={S}"),
    ("secret_token=abc", f"secret_token={S}"),
    ("access_token=abc", f"access_token={S}"),
    ("auth_token=abc", f"auth_token={S}"),
    ("personal access token=abc", f"personal access token={S}"),
    ("secret: hunter2", f"secret: {S}"),
    ("DB_PASSWORD=pa55 ./run.sh", f"DB_PASSWORD={S} ./run.sh"),
    ('{"password": "hun\\"ter2", "user": "bob"}', f'{{"password": "{S}", "user": "bob"}}'),
    ("{'api_key': 'abc'}", f"{{'api_key': '{S}'}}"),
    ("**Password**: hunter2.", f"**Password**: {S}."),
    ("Password : hunter2", f"Password : {S}"),
    ("f(password='p', host=h)", f"f(password='{S}', host=h)"),
    ("mysql --password hunter2 --user bob", f"mysql --password {S} --user bob"),
    ("tool --api-key=abc123", f"tool --api-key={S}"),
    ("spring.datasource.password=abc", f"spring.datasource.password={S}"),
    ("refreshToken := 'r1'", f"refreshToken := '{S}'"),
    ("token:=abc", f"token:={S}"),
    # --- PII ----------------------------------------------------------------
    ("mail alice.smith+tag@example.co.uk now", f"mail {EMAIL_MARKER} now"),
    ("<bob@example.com>", f"<{EMAIL_MARKER}>"),
    ("SSN 123-45-6789.", f"SSN {SSN_MARKER}."),
    ("card 4111 1111 1111 1111 ok", f"card {CARD_MARKER} ok"),
    ("card 4111-1111-1111-1111", f"card {CARD_MARKER}"),
    ("card 4111111111111111", f"card {CARD_MARKER}"),
    ("amex 3782 822463 10005", f"amex {CARD_MARKER}"),
    ("amex 378282246310005", f"amex {CARD_MARKER}"),
    ("mc 5555 5555 5555 4444", f"mc {CARD_MARKER}"),
    ("call +14155552671", f"call {PHONE_MARKER}"),
    ("call +44 20 7946 0958 today", f"call {PHONE_MARKER} today"),
    ("call (415) 555-2671", f"call {PHONE_MARKER}"),
    ("call 415-555-2671", f"call {PHONE_MARKER}"),
    ("call 415.555.2671", f"call {PHONE_MARKER}"),
    ("call +1 (415) 555-2671", f"call {PHONE_MARKER}"),
    ("call 1-800-555-0199", f"call {PHONE_MARKER}"),
    # --- must stay unchanged ------------------------------------------------
    ("released 2026-11-30", "released 2026-11-30"),
    ("released 2026/11/30", "released 2026/11/30"),
    ("released 30.11.2026", "released 30.11.2026"),
    ("at 12:30:45 UTC, 09:00-17:30", "at 12:30:45 UTC, 09:00-17:30"),
    ("2026-11-30T12:30:45Z", "2026-11-30T12:30:45Z"),
    ("bump 1.2.3 to v10.4.12-rc1", "bump 1.2.3 to v10.4.12-rc1"),
    ("fixes #1234, GH-5678 and JIRA-1234", "fixes #1234, GH-5678 and JIRA-1234"),
    ("ISBN 978-3-16-148410-0", "ISBN 978-3-16-148410-0"),
    ("ISBN 0-306-40615-2", "ISBN 0-306-40615-2"),
    ("isbn 9783161484100", "isbn 9783161484100"),
    ("order 1234 5678 9012 3456 shipped", "order 1234 5678 9012 3456 shipped"),
    ("ref 4111 1111 1111 1112", "ref 4111 1111 1111 1112"),
    ("at 1700000000000 ms", "at 1700000000000 ms"),
    (
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    ),
    ("short sha 9fceb02 and 1a2b3c4d5e6f", "short sha 9fceb02 and 1a2b3c4d5e6f"),
    ("id 123e4567-e89b-12d3-a456-426614174000", "id 123e4567-e89b-12d3-a456-426614174000"),
    ("id 12345678-1234-1234-1234-123456789012", "id 12345678-1234-1234-1234-123456789012"),
    ("host 192.168.1.1:8080 and 10.0.0.255", "host 192.168.1.1:8080 and 10.0.0.255"),
    ("ipv6 [2001:db8::1]:443", "ipv6 [2001:db8::1]:443"),
    ("listen on port 5432", "listen on port 5432"),
    ("uses 2048 MB and 3.5 GiB", "uses 2048 MB and 3.5 GiB"),
    ("in 1999 it cost $1,299.99", "in 1999 it cost $1,299.99"),
    ("please reset your password", "please reset your password"),
    ("the token expired yesterday", "the token expired yesterday"),
    ("Token expired: please log in", "Token expired: please log in"),
    ("password reset link sent", "password reset link sent"),
    ("Password:\nhunter is not on this line", "Password:\nhunter is not on this line"),
    ("the bearer of bad news", "the bearer of bad news"),
    ("bearer tokens are opaque", "bearer tokens are opaque"),
    ("max_tokens=1024, token_count: 5", "max_tokens=1024, token_count: 5"),
    ("secretName: db-creds", "secretName: db-creds"),
    ("Secret Santa: Bob", "Secret Santa: Bob"),
    (
        "see /home/user/.ssh/id_rsa and C:\\keys\\a.pem",
        "see /home/user/.ssh/id_rsa and C:\\keys\\a.pem",
    ),
    ("/etc/secrets/token.txt", "/etc/secrets/token.txt"),
    ("https://example.com/search?q=token&page=2", "https://example.com/search?q=token&page=2"),
    (
        "https://docs.python.org/3/library/re.html#re.sub",
        "https://docs.python.org/3/library/re.html#re.sub",
    ),
    ("https://x.io/api?monkey=1&keyword=a", "https://x.io/api?monkey=1&keyword=a"),
    ("clone git@github.com:org/repo.git", "clone git@github.com:org/repo.git"),
    ("pip install pkg==1.2.3 pkg@1.2", "pip install pkg==1.2.3 pkg@1.2"),
    ("sk-learn-compatible-estimators are fine", "sk-learn-compatible-estimators are fine"),
    ("task-sk-abcdefghijklmnopqrstuvwxyz12", "task-sk-abcdefghijklmnopqrstuvwxyz12"),
    (
        "def login(user: str, password: str) -> None:",
        "def login(user: str, password: str) -> None:",
    ),
    ("token: Optional[str] = None", "token: Optional[str] = None"),
    ("db.connect(user=user, password=password)", "db.connect(user=user, password=password)"),
    ('password=os.environ["DB_PASSWORD"]', 'password=os.environ["DB_PASSWORD"]'),
    ("password = settings.DB_PASSWORD", "password = settings.DB_PASSWORD"),
    ("password: ${DB_PASSWORD}", "password: ${DB_PASSWORD}"),
    ("password=$DB_PASSWORD", "password=$DB_PASSWORD"),
    ("password: ********", "password: ********"),
    ("api_key: <your-api-key>", "api_key: <your-api-key>"),
    ('password: ""', 'password: ""'),
    ("PWD=/work/main", "PWD=/work/main"),
    (
        "SSN-like 000-12-3456 666-12-3456 912-34-5678",
        "SSN-like 000-12-3456 666-12-3456 912-34-5678",
    ),
    ("score +12 and diff +1234 -56", "score +12 and diff +1234 -56"),
    ("", ""),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_scrub_table(text: str, expected: str) -> None:
    result = scrub(text)
    assert result.text == expected
    assert (result.redactions == 0) == (text == expected)


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_scrub_is_idempotent(text: str, expected: str) -> None:
    again = scrub(scrub(text).text)
    assert again.text == expected
    assert again.redactions == 0
    assert dict(again.by_kind) == {}


def test_table_is_large_and_two_sided() -> None:
    assert len(CASES) >= 80
    unchanged = sum(1 for text, expected in CASES if text == expected)
    assert unchanged >= 30
    assert len(CASES) - unchanged >= 50


@pytest.mark.parametrize(
    ("text", "by_kind"),
    [
        (f"Bearer {JWT}", {"bearer": 1}),
        (JWT, {"jwt": 1}),
        (PEM, {"private_key": 1}),
        (OPENAI, {"api_key": 1}),
        ("password=a secret=b", {"credential": 2}),
        ("https://x.io/?token=a&sig=b&page=1", {"url_secret": 2}),
        ("a@example.com b@example.org", {"email": 2}),
        ("123-45-6789", {"ssn": 1}),
        ("4111 1111 1111 1111", {"card": 1}),
        ("+14155552671 and 415-555-2671", {"phone": 2}),
        ("nothing to see", {}),
        (f"api_key={OPENAI}", {"api_key": 1}),
        (f"https://x.io/?id_token={JWT}", {"jwt": 1}),
    ],
)
def test_counts_per_kind(text: str, by_kind: dict[str, int]) -> None:
    result = scrub(text)
    assert dict(result.by_kind) == by_kind
    assert result.redactions == sum(by_kind.values())


def test_multiple_secrets_in_one_text() -> None:
    text = (
        f"deploy with OPENAI_API_KEY={OPENAI} and GH {GH_CLASSIC}\n"
        f"curl -H 'Authorization: Bearer {JWT}' https://x.io/?api_key=abc&page=2\n"
        f"db password: hunter2, contact ops@example.com or +1 415 555 2671\n"
        f"{PEM}\n"
        f"card 4242 4242 4242 4242, ssn 078-05-1120"
    )
    result = scrub(text)
    assert result.text == (
        f"deploy with OPENAI_API_KEY={K} and GH {K}\n"
        f"curl -H 'Authorization: Bearer {S}' https://x.io/?api_key={S}&page=2\n"
        f"db password: {S}, contact {EMAIL_MARKER} or {PHONE_MARKER}\n"
        f"{PRIVATE_KEY_MARKER}\n"
        f"card {CARD_MARKER}, ssn {SSN_MARKER}"
    )
    assert dict(result.by_kind) == {
        "api_key": 2,
        "bearer": 1,
        "url_secret": 1,
        "credential": 1,
        "private_key": 1,
        "email": 1,
        "phone": 1,
        "card": 1,
        "ssn": 1,
    }
    assert result.redactions == 10
    assert scrub(result.text).redactions == 0


def test_truncated_pem_redacts_to_end_of_text() -> None:
    text = "here is my key\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\npassword=x\nAKIA"
    result = scrub(text)
    assert result.text == f"here is my key\n{PRIVATE_KEY_MARKER}"
    assert dict(result.by_kind) == {"private_key": 1}
    assert looks_like_secret("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl")


def test_two_pem_blocks_are_redacted_separately() -> None:
    result = scrub(f"{PEM}\nbetween\n{PEM_PKCS8}")
    assert result.text == f"{PRIVATE_KEY_MARKER}\nbetween\n{PRIVATE_KEY_MARKER}"
    assert result.redactions == 2


@pytest.mark.parametrize("marker", sorted(MARKERS))
@pytest.mark.parametrize(
    "template",
    [
        "{m}",
        "password={m}",
        "password:={m}",
        "api_key=>{m}",
        "token == {m}",
        'password: "{m}"',
        "Authorization: Bearer {m}",
        "bearer {m}",
        "https://x.io/?token={m}&page=2",
        "postgres://u:{m}@db.example.com/app",
        "https://hooks.slack.com/services/{m}",
        "--password {m}",
        "a {m} b {m}",
        "{m}{m}",
        "+1 {m} 555",
    ],
)
def test_markers_never_rematch(marker: str, template: str) -> None:
    text = template.format(m=marker)
    result = scrub(text)
    assert result.text == text
    assert result.redactions == 0


def test_marker_constants() -> None:
    assert {SECRET_MARKER, API_KEY_MARKER, JWT_MARKER, PRIVATE_KEY_MARKER} == SECRET_MARKERS
    assert {EMAIL_MARKER, SSN_MARKER, CARD_MARKER, PHONE_MARKER} == PII_MARKERS
    assert MARKERS == SECRET_MARKERS | PII_MARKERS
    assert not SECRET_KINDS & PII_KINDS
    for marker in MARKERS:
        assert marker.startswith("<")
        assert marker.endswith(">")


def test_result_is_frozen_and_read_only() -> None:
    result = scrub("password=x")
    assert isinstance(result, ScrubResult)
    with pytest.raises(AttributeError):
        result.text = "y"  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.by_kind["credential"] = 5  # type: ignore[index]


SECRET_POSITIVES = [
    OPENAI,
    f"use {ANTHROPIC}",
    GH_CLASSIC,
    GH_PAT,
    SLACK_BOT,
    f"https://hooks.slack.com/services/{SLACK_HOOK_PATH}",
    f"key id {AWS_KEY_ID}",
    f"aws_secret_access_key={AWS_SECRET}",
    "Authorization: Bearer abc",
    "bearer abc123def456",
    JWT,
    PEM,
    "-----BEGIN PRIVATE KEY-----\nMIIE",
    "https://x.io/?access_token=abc",
    "https://x.io/?X-Amz-Signature=abc",
    "password=hunter2",
    "api-key: abc123",
    "x-api-key: abc123",
    "clientSecret: abc123",
    "secret_token=abc",
    "personal access token=abc",
    "mysql --password hunter2",
    "redis://:hunter2@cache.internal:6379",
    # Already-redacted content still describes a credential.
    "the key is <secret>",
    f"token {API_KEY_MARKER}",
    f"cert {PRIVATE_KEY_MARKER}",
    f"header {JWT_MARKER}",
]

SECRET_NEGATIVES = [
    "",
    "reset your password",
    "the token expired",
    "bearer tokens are opaque",
    "alice@example.com",
    "call +14155552671",
    "call (415) 555-2671",
    "card 4111 1111 1111 1111",
    "SSN 123-45-6789",
    f"contact {EMAIL_MARKER} or {PHONE_MARKER}",
    "released 2026-11-30 as v1.2.3",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "id 123e4567-e89b-12d3-a456-426614174000",
    "https://example.com/search?q=token&page=2",
    "def login(user: str, password: str) -> None:",
    "password: ${DB_PASSWORD}",
    "max_tokens=1024",
    "sk-learn-compatible-estimators",
    "the user prefers dark mode",
    "secretName: db-creds",
    "git@github.com:org/repo.git",
    "<secret-santa> is a tag, not a marker",
]


@pytest.mark.parametrize("text", SECRET_POSITIVES)
def test_looks_like_secret_positive(text: str) -> None:
    assert looks_like_secret(text)


@pytest.mark.parametrize("text", SECRET_NEGATIVES)
def test_looks_like_secret_negative(text: str) -> None:
    assert not looks_like_secret(text)


def test_classifier_lists_are_large_enough() -> None:
    assert len(SECRET_POSITIVES) >= 20
    assert len(SECRET_NEGATIVES) >= 20


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("nothing here", frozenset()),
        ("a@example.com", frozenset({"email"})),
        (f"password=x {JWT} a@example.com", frozenset({"credential", "jwt", "email"})),
        (f"{PEM} +14155552671", frozenset({"private_key", "phone"})),
        ("already <secret>", frozenset()),
    ],
)
def test_classify(text: str, kinds: frozenset[str]) -> None:
    assert classify(text) == kinds


def test_secret_kinds_match_looks_like_secret() -> None:
    for text in SECRET_POSITIVES + SECRET_NEGATIVES:
        has_marker = any(m in text for m in SECRET_MARKERS)
        assert looks_like_secret(text) == (bool(classify(text) & SECRET_KINDS) or has_marker)


def test_fuzzed_idempotence() -> None:
    # Splice fragments of the table together with random glue: idempotence
    # must hold for combinations the table does not list explicitly.
    rng = random.Random(20261130)
    fragments = [t for t, _ in CASES] + SECRET_POSITIVES + SECRET_NEGATIVES
    glue = [" ", "", "\n", "=", ":", "&", "?", "-", ".", "@", "/", "1", "a", '"', "<", ">"]
    for _ in range(400):
        parts = [rng.choice(fragments) for _ in range(rng.randint(1, 4))]
        text = "".join(p + rng.choice(glue) for p in parts)
        once = scrub(text)
        twice = scrub(once.text)
        assert twice.redactions == 0, (text, once.text, twice.text)
        assert twice.text == once.text


@pytest.mark.parametrize(
    "text",
    [
        "a-" * 50_000,
        "a_" * 50_000,
        "1 " * 50_000,
        "1-" * 50_000,
        "x@" + "a." * 50_000,
        "?a=b&" * 20_000,
        "+1 " * 30_000,
        'password="' + "x" * 100_000,
        "-----BEGIN PRIVATE KEY-----" * 3_000,
        "sk-" * 30_000,
        "a://b:" * 15_000,
    ],
)
@pytest.mark.timeout(30)  # a hang guard against catastrophic backtracking
def test_adversarial_inputs_terminate(text: str) -> None:
    result = scrub(text)
    looks_like_secret(text)
    assert result.redactions >= 0 and len(result.text) > 0
