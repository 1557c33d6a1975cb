"""Blind batch for engram.redaction, written 2026-12-01 BEFORE the scrubber change.

Issue 11 item 8 ("Redaction generalised"): on unseen text, UK-style phone numbers
and an AWS secret access key written after the word "secret" survived scrubbing.
This table was written from the specification below, before ``engram/redaction.py``
moved phone numbers to ``phonenumbers`` and gained the keyword + entropy rule, and
before either the old or the new scrubber was run on it. It is frozen: the rows
are never relabelled to match the scrubber. ``test_redaction.py`` folds it into the
regression table.

Specification the expectations follow:

* Phone numbers of many countries, local and international (``+cc``, ``00cc``)
  formats, US extensions included in the span -> ``<phone>``. Short and emergency
  codes (911, 112), numbers whose NANP area code cannot exist (``123-...``),
  dates, times, versions, prices, coordinates, ISBNs, order and tracking numbers
  stay.
* Provider credentials with a recognisable format (AWS ``AKIA``/``ASIA`` ids,
  Google ``AIza``/``GOCSPX-``/``ya29.``, GitHub, GitLab, Slack ``xapp-``,
  Stripe ``whsec_``, SendGrid ``SG.``, DigitalOcean ``dop_v1_``, Vault ``hvs.``,
  PyPI ``pypi-``, Shopify ``shpat_``) -> ``<api_key>``; JWTs -> ``<jwt>``; PEM
  private keys (also JSON-escaped inside a GCP service-account file) ->
  ``<private_key>``.
* A high-entropy value near a key/secret/token/password/credential/api/auth
  word, in English, French, German, Spanish, Italian or Portuguese ("the secret
  access key is ...", "la clave secreta es ...") -> ``<secret>``; so is a
  password given after a password word in an assignment or "is"/"est"/"lautet"/
  "é" phrase, and the ``AccountKey=``/``SharedAccessKey=`` of an Azure
  connection string.

Decisions for the must-keep side:

* Git SHAs stay, even in a sentence that mentions a token: "fixed in commit
  <sha>" names a revision, not a credential. A hex run right after
  commit/sha/hash/checksum/digest is a reference.
* UUIDs in logs stay (request ids, session ids next to "auth"): they identify,
  they do not authenticate, and over-redacting them ruins log memories.
* Base64 of harmless text with no key word nearby stays: without context a
  scrubber cannot tell a blob from a secret, and the keyword rule is what
  catches real ones.
* Ordinary words, however long, stay next to key words ("the secret
  ingredient is cardamom", "the key takeaway is ...").

Figures (exact expected output; in brackets, rows whose sensitive value is
gone whatever the marker):

* scrubber before the change: must-scrub 17/66 (21/66), must-keep 62/63. The
  misses were every national-format phone number (UK, DE, FR, IN, BR, JP, AU),
  space-separated and extension-bearing US numbers, every value after a key
  word, all other-language credentials, Azure connection strings and the
  provider formats it did not know; the one over-redaction was
  "ticket 123-456-7890" (no such NANP area code).
* scrubber after the change: 66/66 (66/66), 63/63. That figure is in-sample:
  the rules were written by the author of this table after writing it, so it
  shows the specification is met, not how the rules fare on new text. The
  batch written after the change (``POST_CHANGE_CASES`` in
  ``test_redaction.py``) first scored 36/40 and 38/39.

Each must-scrub row is (text, expected scrubbed text, the value that must not
survive); each must-keep row must come back byte-for-byte unchanged. Fixture
secrets are assembled from pieces so secret scanners do not flag this file;
none of them is a live credential.
"""

from __future__ import annotations

from typing import Final

_S = "<secret>"
_K = "<api_key>"
_J = "<jwt>"
_P = "<phone>"
_PK = "<private_key>"

AWS_ID = "AKIA" + "JPJOMKEFOIUC5LGT"
AWS_STS_ID = "ASIA" + "KVQZ5GX4BRTL3CZV"
AWS_SECRET_1 = "wN+ptWPYxAwIZ0DqK7fC" + "OokPyQnP8o4FG5B5EGnw"
AWS_SECRET_2 = "Ap+cz2jlPR9+RrxEmlKi" + "+Mf549e3y3FEYVFPqTLk"
AWS_SECRET_3 = "CVeHcKMTXsHH/hkz0nQQ" + "G9WJ05X72qibobT+Jox1"
HEX32 = "5e9122116a44b78c" + "08854a846842674c"
HEX32_B = "04dba41ecccc3fc1" + "626e53a13043b026"
HEX40 = "980fca8dee1dcce841f4" + "a5b5ad3cf5360ba92dee"
HEX40_B = "c48bbf33feff9243a8f5" + "06b40928b5b7a767c76f"
HEX64 = "64544f9664a371e5048e7d8f4f53f0b0" + "d74b87c3b5ce2126e3ca3947c1798812"
B62_A = "5a2rplCAzVOxbz6i" + "kYb4CcN4oHipe8Az"
B62_B = "Xs07g3a1EpJy2HyF" + "QFjUWiy77hnsqDUg"
B62_C = "ECXNVGxLs7iUpM7D" + "PJYaW0NEvlQEtwhD"
B62_D = "7f20hnZ3Vuh8gSal" + "vPGC9KskyVB4P2FG"
B62_E = "FiWP4Fxy30QyUEC2" + "pr4NAwGaAPYUAtef"
B62_F = "5KCrmhNZHvXNbPp0" + "ZReJwRQ5EzzJn9Qz"
AZURE_ACCOUNT_KEY = (
    "eX1auGRyvr2GhlShhmeZV/R2gMwNRxovC14Hqrjz" + "16A8eXXJg5tfiL8vA7orfo1hXLnqe3yeuDeWQmeZxldbwr=="
)
AZURE_SAS_KEY = "g/WQrsAVZSEzia18ZDLLtx" + "zVMoiE7CfpzNN3HLr4+wB="
AZURE_CLIENT_SECRET = "4JC8Q~pYPmHg-6SzMo" + "UGfYtFW-tSNT3OgeHS3"
GITHUB_PAT = (
    "github"
    + "_pat_"
    + "nOpIKZhEreZc1IFsFsM94X_uwyDecOD4pf6nb2h4f"
    + "KKHqyKkNFIy2eogIZ0qIkXhzjaErJRgjzJclUlkjp"
)
GITLAB_RUNNER = "glrt" + "-cZsNlOtnCdb1qOl2COLB"
SLACK_APP = "xapp" + "-1-A0123ABCDEF-1234567890123-" + HEX64
STRIPE_LIVE = "sk_" + "live_" + "p1oRV2xtcpOzoreqJdhJdVLn"
STRIPE_WEBHOOK = "whsec" + "_P0VK7h6lz1pkJGcW3ALRUn542ysZySZe"
GOOGLE_API = "AIza" + "YSmtIAD1TjFBPQBouywU_S7PWD-hZsGLZBl"
GOOGLE_CLIENT_SECRET = "GOCSPX" + "-3CUCYmFWm34UPPhRfkde1BqHAZGi"
GOOGLE_ACCESS = "ya29" + ".gy5TLaFfSX3hD_qgR2k-dhLHEWRfkAYtPo_aK3lbpMeUU3B9w-Q_0lMUA9wr"
SENDGRID = "SG" + ".nFZlPLQuEZpPQh1SigvyeR.OnphcwvRErpWG18ePYq6Aq_berGFlly6Ek2X83aT4iX"
DIGITALOCEAN = "dop" + "_v1_" + "528638393a931c0ca2a8b06633b28458e030b99012e4c792c16e35d626ddaf72"
VAULT = "hvs" + ".ShMFJ2oo5t7t85dNxR5PjYec"
PYPI = "pypi" + "-AgEIcHlwaS5vcmc" + "Sf8NxCGgx2oc3kauxGXEPBQcHGWAJfTr5CdYunVNLVJ4wyk3XsKYbY7WpUNr"
SHOPIFY = "shpat" + "_2f10c069f1d95a4b0775deb82404fe22"
JWT_RS = (
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0"
    ".eyJpc3MiOiJodHRwczovL2F1dGguZXhhbXBsZS5vcmciLCJzdWIiOiI0MiIsImV4cCI6MTc2NzIyNTYwMH0"
    ".pTyGJMuHbEL31IeL2HPcHyGcFRl1SPnXNYvMIHa_2o7"
)
GCP_PEM_ESCAPED = (
    "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC"
    "\\nl7dXTPyLsxPFkThf4Vuc\\n-----END PRIVATE KEY-----"
)
ENCRYPTED_PEM = (
    "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHzBJBgkqhkiG9w0BBQ0w\n"
    "-----END ENCRYPTED PRIVATE KEY-----"
)
PASSWORD_1 = "lTh130&rkHc2J3"

# (text, expected, value that must not survive)
BLIND_MUST_SCRUB: Final[list[tuple[str, str, str]]] = [
    # --- phone numbers: UK ---------------------------------------------------
    ("Ring me on 020 7946 0958 after six.", f"Ring me on {_P} after six.", "7946 0958"),
    ("UK mobile: 07700 900123", f"UK mobile: {_P}", "900123"),
    (
        "call +44 7911 123456 or +44 (0)161 496 0000",
        f"call {_P} or {_P}",
        "123456",
    ),
    ("Leeds office 0113 496 0000.", f"Leeds office {_P}.", "496 0000"),
    # --- DE / FR ---------------------------------------------------------------
    (
        "Büro: 030 12345678, mobil 0151 23456789",
        f"Büro: {_P}, mobil {_P}",
        "23456789",
    ),
    ("Tel. +49 89 1234567", f"Tel. {_P}", "1234567"),
    ("from abroad dial 0049 30 12345678", f"from abroad dial {_P}", "12345678"),
    (
        "Appelez le 01 23 45 67 89 ou le 06.12.34.56.78",
        f"Appelez le {_P} ou le {_P}",
        "45 67 89",
    ),
    ("portable : +33 6 12 34 56 78", f"portable : {_P}", "12 34 56 78"),
    # --- IN / BR / JP / AU ---------------------------------------------------
    ("Contact: +91 98765 43210", f"Contact: {_P}", "98765 43210"),
    ("office 022 2345 6789 (Mumbai)", f"office {_P} (Mumbai)", "2345 6789"),
    ("WhatsApp (11) 91234-5678", f"WhatsApp {_P}", "91234-5678"),
    ("Rio: +55 21 2345-6789", f"Rio: {_P}", "2345-6789"),
    ("電話 03-1234-5678", f"電話 {_P}", "1234-5678"),
    ("mobile +81 90-1234-5678", f"mobile {_P}", "1234-5678"),
    (
        "call (02) 9876 5432 or 0412 345 678",
        f"call {_P} or {_P}",
        "9876 5432",
    ),
    ("Sydney +61 2 9876 5432", f"Sydney {_P}", "9876 5432"),
    # --- US with extensions, spaces -------------------------------------------
    ("US office +1 650-253-0000 ext. 1234", f"US office {_P}", "253-0000"),
    ("desk (312) 867-5309 x204", f"desk {_P}", "867-5309"),
    ("call 212 736 5000 today", f"call {_P} today", "736 5000"),
    ("tel:+13128675309", f"tel:{_P}", "3128675309"),
    # --- other countries -------------------------------------------------------
    ("Madrid: +34 612 34 56 78", f"Madrid: {_P}", "612 34 56 78"),
    ("Roma +39 06 1234 5678", f"Roma {_P}", "1234 5678"),
    ("Amsterdam +31 20 123 4567", f"Amsterdam {_P}", "123 4567"),
    ("CDMX +52 55 1234 5678", f"CDMX {_P}", "1234 5678"),
    ("Beijing +86 138 0013 8000", f"Beijing {_P}", "0013 8000"),
    ("Cape Town +27 21 123 4567", f"Cape Town {_P}", "123 4567"),
    # --- AWS ---------------------------------------------------------------------
    (f"aws secret {AWS_SECRET_1}", f"aws secret {_S}", AWS_SECRET_1),
    (
        f"the secret access key is {AWS_SECRET_2}",
        f"the secret access key is {_S}",
        AWS_SECRET_2,
    ),
    (
        f"AWS key id {AWS_ID} with secret {AWS_SECRET_3}",
        f"AWS key id {_K} with secret {_S}",
        AWS_SECRET_3,
    ),
    (f"export AWS_ACCESS_KEY_ID={AWS_STS_ID}", f"export AWS_ACCESS_KEY_ID={_K}", AWS_STS_ID),
    # --- GCP ---------------------------------------------------------------------
    (
        '{"type": "service_account", "private_key_id": "' + HEX40 + '", '
        '"private_key": "' + GCP_PEM_ESCAPED + '\\n"}',
        '{"type": "service_account", "private_key_id": "' + _S + '", '
        '"private_key": "' + _PK + '\\n"}',
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
    ),
    (f"GCP api key: {GOOGLE_API}", f"GCP api key: {_K}", GOOGLE_API),
    (
        f"OAuth client secret {GOOGLE_CLIENT_SECRET}",
        f"OAuth client secret {_K}",
        GOOGLE_CLIENT_SECRET,
    ),
    (f"access token {GOOGLE_ACCESS}", f"access token {_K}", GOOGLE_ACCESS),
    # --- Azure -------------------------------------------------------------------
    (
        "DefaultEndpointsProtocol=https;AccountName=engramprod;"
        f"AccountKey={AZURE_ACCOUNT_KEY};EndpointSuffix=core.windows.net",
        "DefaultEndpointsProtocol=https;AccountName=engramprod;"
        f"AccountKey={_S};EndpointSuffix=core.windows.net",
        AZURE_ACCOUNT_KEY,
    ),
    (
        "Endpoint=sb://engram.servicebus.windows.net/;SharedAccessKeyName="
        f"RootManageSharedAccessKey;SharedAccessKey={AZURE_SAS_KEY}",
        "Endpoint=sb://engram.servicebus.windows.net/;SharedAccessKeyName="
        f"RootManageSharedAccessKey;SharedAccessKey={_S}",
        AZURE_SAS_KEY,
    ),
    (
        f"the Azure app secret is {AZURE_CLIENT_SECRET}",
        f"the Azure app secret is {_S}",
        AZURE_CLIENT_SECRET,
    ),
    # --- GitHub / GitLab / Slack / Stripe / others ----------------------------
    (f"GitHub PAT {GITHUB_PAT}", f"GitHub PAT {_K}", GITHUB_PAT),
    (f"gitlab runner token {GITLAB_RUNNER}", f"gitlab runner token {_K}", GITLAB_RUNNER),
    (f"socket mode uses {SLACK_APP}", f"socket mode uses {_K}", SLACK_APP),
    (f"Stripe key {STRIPE_LIVE}", f"Stripe key {_K}", STRIPE_LIVE),
    (f"webhook signing secret {STRIPE_WEBHOOK}", f"webhook signing secret {_K}", STRIPE_WEBHOOK),
    (f"sendgrid key {SENDGRID}", f"sendgrid key {_K}", SENDGRID),
    (f"doctl auth init -t {DIGITALOCEAN}", f"doctl auth init -t {_K}", DIGITALOCEAN),
    (f"vault login {VAULT}", f"vault login {_K}", VAULT),
    (f"password = {PYPI}", f"password = {_K}", PYPI),
    (f"shopify admin {SHOPIFY}", f"shopify admin {_K}", SHOPIFY),
    (f"le jeton est {JWT_RS}", f"le jeton est {_J}", JWT_RS),
    (f"key:\n{ENCRYPTED_PEM}", f"key:\n{_PK}", "MIIFHzBJBgkqhkiG9w0BBQ0w"),
    # --- generic high-entropy values next to key words ---------------------
    (f"here is the token {B62_A}", f"here is the token {_S}", B62_A),
    (f"api key {HEX32} for staging", f"api key {_S} for staging", HEX32),
    (f"bearer token {B62_B}", f"bearer token {_S}", B62_B),
    (
        f"the auth secret for the webhook is {HEX40_B}",
        f"the auth secret for the webhook is {_S}",
        HEX40_B,
    ),
    (f"twilio auth token {HEX32_B}", f"twilio auth token {_S}", HEX32_B),
    ("my password is hunter2, don't share it", f"my password is {_S}, don't share it", "hunter2"),
    # --- other languages --------------------------------------------------------
    (f"mot de passe : {PASSWORD_1}", f"mot de passe : {_S}", PASSWORD_1),
    (f"clé secrète {HEX64}", f"clé secrète {_S}", HEX64),
    ("Passwort: Sommer2026!", f"Passwort: {_S}", "Sommer2026"),
    ("Das Kennwort lautet Xy7!kP2#qR9m", f"Das Kennwort lautet {_S}", "Xy7!kP2#qR9m"),
    (f"Der geheime Schlüssel: {B62_C}", f"Der geheime Schlüssel: {_S}", B62_C),
    ("contraseña: Tr0ub4dor&3", f"contraseña: {_S}", "Tr0ub4dor&3"),
    (f"la clave secreta es {B62_D}", f"la clave secreta es {_S}", B62_D),
    (f"la chiave API è {B62_E}", f"la chiave API è {_S}", B62_E),
    ("a senha é Mudar@2026", f"a senha é {_S}", "Mudar@2026"),
    (f"o token de acesso é {B62_F}", f"o token de acesso é {_S}", B62_F),
]

BLIND_MUST_KEEP: Final[list[str]] = [
    # --- dates, times, versions -------------------------------------------------
    "Release 2026.12.1 shipped on 2026-12-01 at 14:30 CET",
    "Meeting 01.12.2026, 09:30–10:15",
    "2026-12-01T14:30:00+01:00 INFO started",
    "upgrade from v3.11.4 to 3.12.0rc1",
    "Windows build 10.0.19045.3693",
    "Version: 4.5.0-beta.2+build.20261201",
    "model id claude-3-5-sonnet-20241022",
    # --- order, ticket, ISBN, tracking ------------------------------------------
    "order #2026-004512 shipped, tracking 1Z999AA10123456784",
    "Order number 40012345 confirmed",
    "ticket 123-456-7890 was closed",
    "ISBN 978-0-596-52068-7",
    "ISBN-10: 0-596-52068-9",
    "Jira ENG-40213 and PR #5821",
    "ZIP 94103-1234, room 1204 on floor 12",
    # --- prices, quantities, coordinates ---------------------------------------
    "Price: €1.299,00 incl. VAT, was $1,499.99",
    "¥120,000 or £49.99/month",
    "population 67,081,000 in 2026",
    "pages 123–145, figure 3.2",
    "dimensions 1920x1080 at 60 Hz, 3840×2160",
    "coordinates 51.5074° N, 0.1278° W",
    "lat=-33.8688 lon=151.2093",
    "+40.7128, -74.0060 (New York)",
    "epoch 1733011200 (seconds)",
    "in an emergency call 911 or 112",
    "call me at 5, or at 6:30",
    "score 3-1, ranked 1,234th",
    # --- network and low-level ids -------------------------------------------------
    "listening on 0.0.0.0:8080, MAC 00:1A:2B:3C:4D:5E",
    "IPv4 203.0.113.42 and 198.51.100.7",
    "HTTP 404 after 3 retries, error 0x80070005",
    # --- git SHAs, hashes, UUIDs, base64 ---------------------------------------
    "fixed in commit 0e8a4b2f5c1d9e7a3b6c8d0f2a4e6b8c0d2f4a6e",
    "the token refresh bug was fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b",
    "git cherry-pick a1b2c3d4 && git rebase -i HEAD~3",
    "sha256: 923d5a4fd12aabfe228f219e9cb0eb53f16947ccf25ec84d8dbc74254770f589",
    "request_id=9b2f6c1e-4d3a-4f5b-8c7d-2e1f0a9b8c7d status=200 took 35ms",
    "auth service: session 4bf92f35-77b3-4da6-a3ce-929d0e0e4736 expired",
    "trace_id 4bf92f3577b34da6a3ce929d0e0e4736 span 00f067aa0ba902b7",
    "the payload is SGVsbG8sIHdvcmxkIQ== (base64 of a greeting)",
    # --- ordinary words next to key words ---------------------------------------
    "Donaudampfschifffahrtsgesellschaftskapitän",
    "antidisestablishmentarianism and pneumonoultramicroscopicsilicovolcanoconiosis",
    "the secret ingredient is cardamom",
    "the key takeaway is SupercalifragilisticExpialidocious",
    "Passwort vergessen? Klicken Sie auf den Link.",
    "le mot de passe doit contenir au moins 12 caractères",
    "la contraseña es obligatoria",
    "a senha expirou ontem",
    "API key rotation happens every 90 days",
    "token budget: 128000 tokens per request",
    "the token 'EOF' was unexpected",
    "tokenizer vocab size 32000",
    "keyboard shortcut Ctrl+Shift+P",
    "PRIMARY KEY (tenant_id, created_at)",
    "the API returns key/value pairs such as user_id and account_name",
    "K8s secret name: db-credentials-prod",
    'secret: "{{ vault_db_password }}"',
    "credential helper: osxkeychain",
    "use the --token-file ~/.config/gh/token flag",
    "ssh-keygen -t ed25519 -C deploy",
    "Authorization header missing",
    "the bearer of the card must sign",
    "Zugangsdaten findest du im Tresor",
    "AKIA is the prefix of AWS access key ids",
    "ghp_ tokens expire; rotate them",
    "Content-Type: application/json; charset=utf-8",
]
