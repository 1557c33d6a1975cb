"""Post-generation truthfulness gate: classify absence claims about memory in a draft.

Product rule: *no negative or exhaustive claim leaves the system without positive evidence
of coverage*. Before an LLM answer is released the gateway finds the absence claims the
draft asserts about memory and checks each one against the turn's ``AbsenceState``:

* corpus-wide negatives ("you never told me X", "I have no record of X", "we haven't
  discussed X", "there's nothing in my memory about X", "I don't remember you ever saying
  X", "this is the first time you've mentioned X") are licensed ONLY by
  ``ABSENCE_STATE_ABSENT_AUTHORITATIVE``;
* query-scoped negatives ("I couldn't find X", "my search returned nothing", "I found no
  mention of X in our past conversations", "no results came up for X") are licensed by
  ``ABSENT_AUTHORITATIVE`` or ``ABSENT_IN_SCOPE``;
* every other state (NOT_ABSENT, COVERAGE_UNKNOWN, UNAVAILABLE, FAILED, NOT_SEARCHED,
  COVERAGE_DISAGREEMENT, UNSPECIFIED, or an unknown value) licenses neither.

The module is pure (no I/O, no globals mutated), deterministic and rule based: a handful of
precompiled regular expressions over a masked copy of the text. A paragraph takes well
under a millisecond.

Pipeline
--------
1. **Masking** (offsets preserved, every masked character becomes ``_``, newlines kept):
   fenced code blocks (````` and ``~~~``), inline code (backticks), markdown block quotes
   (lines starting with ``>``), double quotes ("..." and curly), and single quotes ('...',
   curly) only when they are clearly quotation: the opening mark follows a non-word
   character and the closing mark is not followed by a letter, so ``don't`` / ``I've`` /
   ``users'`` are apostrophes. Remaining curly apostrophes are normalised to ``'``.
   Quoted material and code are therefore never split, matched or hedged; a quotation is
   an opaque noun inside its clause (``I have no record of "Falcon"`` is still a claim).
   Set phrases whose negation claims nothing ("you never know", "je weet maar nooit",
   "non si sa mai") are masked the same way.
2. **Sentences**: split on ``. ! ? …`` followed by whitespace (common abbreviations and
   titles are skipped, and a German ordinal before a month or a noun such as "7.
   Geburtstag") and on line breaks; blank lines separate paragraphs.
3. **Segments and clauses**: a sentence is cut into *segments* on ``; : , ( ) —`` and on
   ``but / though / although / however / whereas / because / since``; a segment is cut into
   *clauses* on bare ``and / or / nor`` and before a conditional marker.
4. **Non-assertions** are dropped before matching:

   * questions: a clause ending in ``?``, a segment opening with an auxiliary or wh-word in
     a sentence that ends in ``?``, or every clause of a sentence closed by a tag question
     (", did you?", ", right?"). ``I have no record of that, could you remind me?`` still
     asserts its first clause;
   * conditionals: everything from ``if / unless / whether / in case / provided that /
     assuming / suppose / imagine / as long as`` (or a segment-initial ``should I``) to the
     end of the segment ("whether" opening a subject clause, "Whether you have a vet is
     something ...", is no condition); a segment that is only a supposition
     ("Angenommen,", "Stell dir vor,", "Imagine:") makes the rest of its sentence
     conditional;
   * reported speech: inside a segment, anything after a reporting frame such as "you
     said", "she told me (that)", "you mentioned that", "according to you" is the
     speaker's content, not a memory claim ("you said you never liked coffee").

5. **Rules**: each remaining clause is matched against corpus-wide and query-scoped rules
   (``AbsenceClaim.pattern`` names the rule). Existence rules that describe the store
   ("there's nothing in my memory about X") give way to a search-framed rule in the same
   clause ("I found nothing in my memory about X" is query-scoped only). A clause yields at
   most one claim per scope. One sentence-level rule reads across clauses: an empty verdict
   right after a search clause ("I searched everything I have: nothing.", "I ran a search
   and it returned no matches") is query-scoped.

Hedging policy (decided here, asserted by the tests)
---------------------------------------------------
A hedge qualifies only what it qualifies:

* **certainty hedges release nothing**: "maybe", "perhaps", "I think", "as far as I
  know", "I can't be sure, but you never told me" still tell the user the memory is
  empty, so the claim stands.
* **coverage qualifiers** -- the text says the search itself was incomplete, failed,
  timed out, was unavailable or disagreed ("my search may have missed older notes",
  "the memory service timed out", and the same in French, Spanish, German, Italian,
  Portuguese and Dutch) -- release the claim in their own clause and in the clause
  just before them in the same sentence ("I couldn't find it, but my search may be
  incomplete"). Never the rest of the sentence, never a neighbouring sentence, and not
  when the qualifier comes as a consequence ("You never told me your travel dates, so
  I can't check events" still claims).
* Scope qualifiers are not hedges: "I only searched this month and found nothing" is still
  a query-scoped claim (licensed by ABSENT_IN_SCOPE, blocked by COVERAGE_UNKNOWN).
* A negated qualifier is not a hedge: "after an exhaustive search, I found no record" and
  "my records are complete" do not release anything.

The rules read the canonical text (:func:`engram.canonical.for_claims`), so zero-width
characters, homoglyphs, markdown, letter spacing and the like do not hide a claim; they
are English and high-precision. :mod:`gateway.claims` runs them first and sends every
clause they do not settle to the learned classifier (:mod:`gateway.claim_model`).

Limits: the rules alone recall about 0.72 of unfamiliar English claims (frozen blind
batch of 2026-12-01, docs/gateway.md) and nothing in other languages; the classifier
stage is what generalises.

Evidence-based output: :func:`repair_directive` builds a state-specific instruction for one
regeneration, and :func:`fallback_text` builds a deterministic truthful reply whose own
absence claims (if any) are licensed by the state it was built from.
"""

from __future__ import annotations

import difflib
import enum
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engram.canonical import for_claims
from engram.common.v1 import common_pb2
from gateway.recollection import CJK_RX, negated

__all__ = [
    "AbsenceClaim",
    "Analysis",
    "ClaimScope",
    "Clause",
    "GateResult",
    "absence_claims",
    "analyse",
    "evaluate",
    "fallback_text",
    "find_absence_claims",
    "is_licensed",
    "masked_canonical",
    "repair_directive",
    "split_clauses",
]

_S = common_pb2.AbsenceState
_UNSPECIFIED = _S.Value("ABSENCE_STATE_UNSPECIFIED")
_NOT_ABSENT = _S.Value("ABSENCE_STATE_NOT_ABSENT")
_ABSENT_IN_SCOPE = _S.Value("ABSENCE_STATE_ABSENT_IN_SCOPE")
_ABSENT_AUTHORITATIVE = _S.Value("ABSENCE_STATE_ABSENT_AUTHORITATIVE")
_COVERAGE_UNKNOWN = _S.Value("ABSENCE_STATE_COVERAGE_UNKNOWN")
_UNAVAILABLE = _S.Value("ABSENCE_STATE_UNAVAILABLE")
_FAILED = _S.Value("ABSENCE_STATE_FAILED")
_NOT_SEARCHED = _S.Value("ABSENCE_STATE_NOT_SEARCHED")
_DISAGREEMENT = _S.Value("ABSENCE_STATE_COVERAGE_DISAGREEMENT")


# --------------------------------------------------------------------------------------
# Public types
# --------------------------------------------------------------------------------------


class ClaimScope(enum.Enum):
    """How much of memory an absence claim speaks for."""

    CORPUS_WIDE = "corpus_wide"
    QUERY_SCOPED = "query_scoped"


@dataclass(frozen=True)
class Clause:
    """An asserted clause; ``text == original[start:end]``."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class AbsenceClaim:
    """One absence claim: the clause asserting it, its scope and the rule that matched.

    ``topic`` is a best-effort extract of what the claim is about (``"your sister"``), used
    by :func:`repair_directive`; it does not take part in equality.
    """

    clause: Clause
    scope: ClaimScope
    pattern: str
    topic: str | None = field(default=None, compare=False)
    # Offset of the clause in the canonical text the rules read (internal).
    canonical_start: int = field(default=-1, compare=False)


@dataclass(frozen=True)
class GateResult:
    """Outcome of :func:`evaluate`: all claims found and the unlicensed ones."""

    violations: tuple[AbsenceClaim, ...]
    claims: tuple[AbsenceClaim, ...]

    @property
    def passed(self) -> bool:
        return not self.violations


# --------------------------------------------------------------------------------------
# Masking
# --------------------------------------------------------------------------------------

_MASK = "_"
_MAX_QUOTE = 400

_FENCE_RX = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)
_INLINE_CODE_RX = re.compile(r"(`+)[^\n]+?\1")
_BLOCKQUOTE_RX = re.compile(r"^[ \t]*>[^\n]*", re.M)
_DQUOTE_RX = re.compile(r'"[^"\n]{1,400}"')
# German „...“ and guillemets («...», »...«, and the single ‹...›) before the English
# curly pair, whose opening mark is German's closing one.
_LOW_DQUOTE_RX = re.compile("\u201e[^\u201e\u201c\u201d\n]{0,400}[\u201c\u201d]")
_GUILLEMET_RX = re.compile(
    "\u00ab[^\u00ab\u00bb\n]{0,400}\u00bb|\u00bb[^\u00ab\u00bb\n]{0,400}\u00ab"
    "|\u2039[^\u2039\u203a\n]{0,400}\u203a"
)
_CURLY_DQUOTE_RX = re.compile("\u201c[^\u201c\u201d]{0,400}\u201d")
# Japanese corner brackets quote speech before a quoting particle ("「…一度も聞いていない」と
# ありますね"); before で / を they hold a search term ("「北京」で検索") and stay readable.
_JA_QUOTE_RX = re.compile("「[^「」\n]{1,400}」(?=\\s*(?:と|って))")
_CURLY_SQUOTE_RX = re.compile("\u2018(?:[^\u2019\n]|\u2019(?=[A-Za-z]))*\u2019(?![A-Za-z])")
_SQUOTE_RX = re.compile(r"(?<![\w'])'(?=[^\s'])(?:[^'\n]|'(?=\w))*?(?<=[^\s'])'(?!\w)")
_NORMALISE = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ", "\u02bc": "'"}
)


# Set phrases whose negation claims nothing ("you never know, take an umbrella", "je weet
# maar nooit"): masked like quotations, so no rule or classifier reads them.
_IDIOM_RX = re.compile(
    r"\b(?:you\s+never\s+(?:know|can\s+tell)|never\s+say\s+never|better\s+late\s+than\s+never"
    r"|on\s+ne\s+sait\s+jamais|mieux\s+vaut\s+tard\s+que\s+jamais|nunca\s+se\s+sabe"
    r"|m[áa]s\s+vale\s+tarde\s+que\s+nunca|man\s+wei(?:ß|ss)\s+(?:ja\s+)?nie|man\s+kann\s+nie"
    r"\s+wissen|besser\s+sp[äa]t\s+als\s+nie|non\s+si\s+sa\s+mai|meglio\s+tardi\s+che\s+mai"
    r"|mais\s+vale\s+tarde\s+(?:do\s+)?que\s+nunca|je\s+weet\s+(?:maar\s+)?nooit"
    r"|beter\s+laat\s+dan\s+nooit"
    # the assistant's promises ("I'll never share", "je ne transmettrai jamais", "nunca
    # compartiré", "ich werde nie weitergeben", "non condividerò mai", "nunca partilharei")
    r"|I(?:'ll|\s+will)\s+never\s+\w+|I\s+won't\s+ever\s+\w+|je\s+ne\s+\w+rai\s+jamais"
    r"|nunca\s+\w+r[ée]\b|ich\s+werde\s+(?:\w+\s+)?(?:nie|niemals)\b|non\s+\w+r[òo]\s+mai"
    r"|nunca\s+\w+rei\b|ik\s+zal\s+(?:\w+\s+)?nooit)\b",
    re.I,
)


def _apply(chars: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = _MASK


def _mask(text: str) -> str:
    """Same-length copy of ``text`` with code, quotations and set phrases
    (:data:`_IDIOM_RX`) replaced by ``_``."""
    chars = list(text)
    for rx in (_FENCE_RX, _INLINE_CODE_RX, _BLOCKQUOTE_RX, _IDIOM_RX):
        current = "".join(chars)
        for block in rx.finditer(current):
            _apply(chars, block.start(), block.end())
    for rx in (
        _LOW_DQUOTE_RX,
        _GUILLEMET_RX,
        _DQUOTE_RX,
        _CURLY_DQUOTE_RX,
        _JA_QUOTE_RX,
        _CURLY_SQUOTE_RX,
        _SQUOTE_RX,
    ):
        current = "".join(chars)
        pos = 0
        while True:
            m = rx.search(current, pos)
            if m is None:
                break
            if m.end() - m.start() > _MAX_QUOTE + 2:
                pos = m.start() + 1
                continue
            _apply(chars, m.start(), m.end())
            pos = m.end()
    return "".join(chars).translate(_NORMALISE)


# --------------------------------------------------------------------------------------
# Sentences, segments, clauses
# --------------------------------------------------------------------------------------

_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "st", "approx", "cf", "al", "no"}
    # titles before a name in the other gate languages ("M. Lefèvre", "o Sr. Gonçalves",
    # "Hr. Weber", "dhr. De Vries")
    | {"m", "mme", "mlle", "sr", "sra", "srta", "dña", "sig", "dott", "prof", "hr", "dhr"}
    | {"mevr", "jr", "z.b", "bzw", "usw", "ca", "vgl", "ggf", "p.ex", "ecc"}
)
# A German ordinal ("zu Mias 8. Geburtstag", "am 15. Juni") is not the end of a sentence.
_ORDINAL_NEXT_RX = re.compile(
    r"\s+(?:Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November"
    r"|Dezember|Geburtstag|Hochzeitstag|Jahrestag|Lebensjahr|Klasse|Stock|Etage|Platz|Mal"
    r"|Jahrhundert|Tag|Woche|Monat)\b"
)
# Latin-style stops need a following space; CJK ones do not ("。", and "?"/"!" that NFKC
# made of full-width marks, directly followed by a CJK character).
_SENT_BOUNDARY_RX = re.compile(
    r"[.!?\u2026]+(?=\s)|\u3002+|[!?]+(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
)
_SEGMENT_RX = re.compile(
    # a comma or colon between digits ("18,000", "3:15") is not a boundary
    r"[;()\[\]\u3001]|(?<!\d)[,:]|[,:](?!\d)|\s[-\u2013\u2014]+\s|[\u2013\u2014]|\.{3}|\u2026"
    r"|(?<!nothing\s)(?<!anything\s)(?<!\ball\s)\bbut\b"
    r"|\b(?:though|although|however|whereas|because|since)\b"
    # "but" and "because" in the other gate languages
    r"|\b(?:mais|parce\s+que|pero|porque|aber|sondern|weil|però|perché|poiché|mas|porém"
    r"|maar|omdat)\b",
    re.I,
)
_CLAUSE_SPLIT_RX = re.compile(r"\b(?:and|or|nor)\b", re.I)
# Suppositions and hypotheticals put to the reader, by language: a closed class, like
# "if". What follows one is supposed, not asserted ("Suponiendo que tuvieras hijos",
# "Ammettiamo che tu sia allergico", "Imagine you moved to Lisbon", "Stell dir vor").
# Causal "given that" (dado que, posto che, puisque) presents a fact and is not here.
_SUPPOSITIONS = (
    r"(?:suppose|supposing|assuming|presuming|imagine|picture\s+(?:yourself|this)|let's\s+say"
    r"|hypothetically|what\s+if|for\s+the\s+sake\s+of\s+argument|for\s+argument's\s+sake"
    r"|in\s+the\s+event\s+that|on\s+the\s+assumption\s+that"
    r"|supposons|imaginons|admettons|mettons\s+que|posons\s+que|en\s+supposant|[àa]\s+supposer"
    r"|imaginez|imagine-toi|imaginez-vous|dans\s+l'hypoth[èe]se|hypoth[ée]tiquement"
    r"|pour\s+peu\s+que|[àa]\s+condition\s+que"
    r"|supongamos|suponiendo|pongamos\s+(?:que|por\s+caso)|imaginemos|imagina(?:te)?"
    r"|digamos\s+que|admitamos|en\s+el\s+supuesto\s+de\s+que|hipot[ée]ticamente"
    r"|a\s+condici[óo]n\s+de\s+que"
    r"|angenommen|nehmen\s+wir\s+an|gesetzt\s+den\s+Fall|vorausgesetzt|stell\s+dir\s+vor"
    r"|stellen\s+Sie\s+sich\s+vor|hypothetisch|f[üu]r\s+den\s+Fall|im\s+Falle?,?\s+dass"
    r"|supponiamo|supponendo|ammettiamo|ammesso\s+che|mettiamo\s+che|poniamo\s+(?:che|il\s+caso)"
    r"|ipotizziamo|immaginiamo|immagina(?:te)?|nell'ipotesi|ipoteticamente|a\s+condizione\s+che"
    r"|suponhamos|suponha|supondo|imaginemos|imagine\s+que|vamos\s+supor|na\s+hip[óo]tese"
    r"|hipoteticamente|contanto\s+que"
    r"|stel\s+dat|stel\s+je\s+voor|gesteld\s+dat|aangenomen\s+dat|veronderstel(?:d\s+dat)?"
    r"|in\s+het\s+geval\s+dat|voor\s+het\s+geval\s+dat|ervan\s+uitgaande\s+dat)"
)
_CONDITIONAL_RX = re.compile(
    # "whether" opening a subject clause is not a condition ("Whether you have a vet is
    # something you've never told me")
    r"\b(?:if|unless|whether(?![^,;.]{3,80}?\b(?:is|was|remains)\s+(?:something|one\s+thing"
    r"|a\s+thing|not\s+something|news|unclear|unknown)\b)|in\s+case|provided\s+that"
    r"|as\s+long\s+as"
    # the other gate languages ("se" is left out: it is also a reflexive pronoun)
    # Italian impersonal "si è / si sono / si parla" is not "if", nor a "si" after a
    # negation or "ci" ("non si trova", "ci si vede", French "pas si simple": "so")
    r"|(?<!non\s)(?<!pas\s)(?<!ci\s)si(?!\s+(?:è|sono|era|erano|parl\w+|tratt\w+|può|dev\w+)\b)"
    r"|au\s+cas\s+o[uù]"
    r"|à\s+moins\s+que|pourvu\s+que|en\s+caso\s+de\s+que|por\s+si"
    r"|a\s+menos\s+que|siempre\s+que|wenn|falls|sofern|ob|nel\s+caso|qualora|a\s+meno\s+che"
    r"|purché|caso|em\s+caso\s+de|a\s+não\s+ser\s+que|desde\s+que|indien|mits|tenzij"
    r"|mocht"
    # suppositions ("Angenommen, du hast mir ... nie genannt", "Suponiendo que tuvieras")
    rf"|{_SUPPOSITIONS}"
    # "when" of a generic person ("cuando uno es vegano", "wenn man", "quand on"), and
    # Dutch "als" before a subject ("als je vegetariër bent": "if")
    r"|cuando\s+uno|quand\s+on|wenn\s+man|quando\s+(?:uno|si|a\s+gente)|when\s+one"
    # and of a generic "you" in the present ("when you're vegan", "quando você é vegano")
    r"|when\s+you(?:'re|\s+are)|quando\s+(?:voc[êe]\s+)?(?:é|est[áa]|tem)\b|cuando\s+(?:eres|est[áa]s"
    r"|tienes)|quand\s+(?:tu\s+es|vous\s+[êe]tes)|quando\s+sei"
    r"|als\s+(?=(?:je|jij|u|jullie|we|wij|ik|het|er|men|hij|zij)\s)"
    r")\b",
    re.I,
)
# A segment that is only a supposition ("Angenommen, ...", "Stell dir vor, ...",
# "Imagine: ..."): the rest of its sentence is supposed, not asserted.
_SUPPOSITION_ONLY_RX = re.compile(
    rf"(?:{_SUPPOSITIONS}|digamos|mettiamo|poniamo|stel)\W*",
    re.I,
)
_SEGMENT_CONDITIONAL_RX = re.compile(
    r"(?:should|were|had)\s+(?:I|you|we|it|they|my|our|your|the|this|that|a|an)\b"
    # Italian/Portuguese "se" opening a segment before a subject, article or negation
    # ("Se la ricerca non trova nulla", "Se você não disser"); the Spanish clitic "se me /
    # se lo" (a reflexive, not "if") is left alone.
    # and before a preposition with its article ("Se nelle note non trovo nulla", "Se no
    # histórico não houver nada")
    r"|se\s+(?:nel(?:la|le|lo|l'|gli)?|nei|negli|sul(?:la|le|lo|l')?|sui|dal(?:la|le|lo|l')?"
    r"|dai|in|tra|fra|dopo|no|na|nos|nas|em|depois|dentro|durante|entre)\b"
    r"|se\s+(?:il|la|i|gli|le|l'|un|una|uno|o|a|os|as|um|uma|non|não|nao|você|vocês|tu|eu|io"
    r"|ele|ela|nós|noi|eles|elas"
    # ("ha" not before a Spanish participle: "Se ha efectuado una búsqueda" is passive)
    r"|lei|voi|mi|ti|ci|vi|hai|ha(?!\s+\w+[ai]do\b)|è|sei|for|tiver|nessun[oa]?|nenhum[a]?|nada"
    r"|nulla|nunca"
    # a second-person verb after "se" ("Se lavori da Ferrero", "Se trabalhas em Lisboa")
    r"|lavori|abiti|vivi|vuoi|puoi|devi|fai|vai|stai|studi|usi|prendi|compri|trovi|cerchi"
    r"|trabalhas|moras|vives|queres|podes|tens|estás|vais|fazes|estudas|usas|precisas"
    r"|mai|por\s+acaso|per\s+caso"
    r"|niente|ninguém|nessuno|alguém|qualcuno|questa|questo|essa|esse|este|esta)\b",
    re.I,
)
# German "Sollte ich nichts finden, ..." and the subjunctive "Hättest du mir das nie
# gesagt, ...", "Wäre ich nicht ..., ...", Dutch "Had je me ... nooit gegeven, dan ...",
# opening a sentence: a condition by inversion, not a question (a question's asked
# segment is never read as one). After a fronted clause the same words are a main clause
# ("Da Opa Heinz am Freitag kommt, sollte das Essen früh sein"), so only the first
# segment is read.
_INVERTED_SUBJECTS = (
    r"ich|du|er|sie|es|wir|ihr|man|die|der|das|dein\w*|mein\w*|Ihr\w*|unser\w*|sich|in|bei"
    r"|im|jemand|nichts|keine?"
)
_INVERTED_CONDITIONAL_RX = re.compile(
    rf"(?:solltet?(?:e?st|en)?|h[äa]tte(?:st|n|t)?|w[äa]re(?:st|n|t)?|w[üu]rde(?:st|n|t)?)"
    rf"\s+(?:{_INVERTED_SUBJECTS})\b"
    r"|(?:had(?:den)?|was|waren|zou(?:den)?)\s+(?:je|jij|u|ik|we|wij|jullie|hij|zij|ze)\b",
    re.I,
)
# A premise denied in order to be corrected ("It's not as if you never told me about Rania:
# you did in March", "No es que nunca me hayas hablado de tu hermano", "Nicht dass du mir
# nie ..."): the segment it opens asserts nothing; the correction after it is read.
_DENIED_PREMISE_RX = re.compile(
    r"(?:it'?s\s+|it\s+is\s+)?not\s+(?:that|as\s+if|as\s+though|like)\b"
    r"|ce\s+n'est\s+pas\s+(?:comme\s+si|que)\b|non\s+pas\s+que\b"
    r"|no\s+es\s+(?:que|como\s+si)\b"
    r"|(?:es\s+ist\s+)?nicht\s+(?:so,?\s+)?(?:dass|als\s+ob)\b"
    r"|non\s+(?:è\s+)?che\b|non\s+è\s+come\s+se\b"
    r"|n[ãa]o\s+(?:é\s+)?que\b|n[ãa]o\s+é\s+como\s+se\b"
    r"|(?:het\s+is\s+)?niet\s+(?:zo\s+)?(?:dat|alsof)\b",
    re.I,
)
_LEADING_RX = re.compile(
    r"(?:[\s\-*\u2022>#\"']+|\d+[.)]\s+"
    r"|(?:and|or|nor|but|yet|so|then|also|though|although|however|whereas|because|since"
    r"|plus)\b)+",
    re.I,
)
_TRAILING_RX = re.compile(r"[\s.,;:!?\u2026\-\u2013\u2014\"')\]]+$")
_HAS_WORD_RX = re.compile(r"[^\W_]")
# German and Dutch questions open on the finite verb before a pronoun ("Hast du ...",
# "Soll ich in deinen Notizen suchen, oder ...?", "Heb je ...").
_VERB_FIRST = (
    r"(?:hast|hat|habt|haben|habe|hatte|hattest|bist|ist|sind|war|warst|kannst|kann"
    r"|weißt|erinnerst|heb|hebt|heeft|hebben|ben|bent|weet"
    # and the modals of an offer
    r"|soll|sollen|darf|dürfen|möchtest|möchten|willst|wollen|magst|können|könntest|würdest"
    r"|würden|zal|zullen|moet|moeten|wil|wilt|kan|kun|kunt)\s+(?:du|ich|wir|ihr|sie|jij|je|ik"
    r"|we|u|es)\b"
)
_QUESTION_START_RX = re.compile(
    r"(?:what|who|whom|whose|when|where|why|how|which)\b"
    # English auxiliaries only before a subject: Portuguese "Do seu cachorro" ("of your
    # dog") and Italian "Do" are no questions
    r"|(?:did|do|does|have|has|had|is|are|was|were|am|can|could|would|will|should|shall"
    r"|may|might|must|isn't|aren't|wasn't|weren't|didn't|don't|doesn't|haven't|hasn't"
    r"|hadn't|can't|couldn't|wouldn't|won't|shouldn't)\s+(?:you|i|we|they|he|she|it|there"
    r"|that|this|these|those|your|my|our|their|his|her|the|a|an|any|anyone|anything"
    r"|someone|something|anybody|somebody|u|ya|y'all|(?-i:[A-Z])[\w'-]*)\b"
    # other languages: French inversion and est-ce que, Spanish/Portuguese/Italian
    # question words, German/Dutch verb-first auxiliaries before a pronoun
    r"|¿|[\w']+-(?:t-)?(?:je|tu|il|elle|on|nous|vous|ils|elles)\b|est-ce\b"
    r"|(?:qué|cuándo|dónde|cómo|quién|cuál|o\s+que|quem|onde|quando|dove|come|chi|cosa"
    r"|quale|quoi|pourquoi|comment|où|quand|qui|was|wann|wo|wie|warum|wer|welche[rsn]?"
    r"|wat|waarom|wanneer|waar|hoe|wie)\b"
    rf"|{_VERB_FIRST}"
    r"|(?:vuoi|vuole|volete|preferisci|quieres|quiere|prefieres|queres|quer|preferes|voulez"
    r"|veux)\s+que\b",
    re.I,
)
_VERB_FIRST_RX = re.compile(_VERB_FIRST, re.I)
# A German or Dutch clause opening a sentence as its object or condition ("Was deine
# Schwiegermutter liest, hast du nie erwähnt"): the verb-first segment after it is the
# main clause in verb-second order, a statement.
_SUBORDINATE_OPENING_RX = re.compile(
    r"(?:was|wer|wie|wo|wann|warum|ob|dass|wenn|weil|als|obwohl|nachdem|bevor|da|seit|sobald"
    r"|wat|waar|wanneer|waarom|of|dat|omdat|toen|nadat|voordat|sinds|zodra)\b",
    re.I,
)
_TAG_RX = re.compile(
    r"(?:(?:did|do|does|have|has|had|is|was|are|were|can|could|would|will|should)(?:n't)?"
    r"\s+(?:you|we|i|it|they|he|she)(?:\s+not)?|right|correct|true|no|yes|eh|huh|ok|okay"
    r"|yeah|or\s+not|is\s+that\s+(?:right|correct|true|so)|am\s+i\s+right"
    # the other gate languages
    r"|n'est-ce\s+pas|c'est\s+(?:bien\s+)?ça|non|hein|vrai|¿?(?:verdad|cierto|no)|oder"
    r"|nicht\s+wahr|stimmt'?s?|gell|ne|vero|giusto|no|né|não\s+é|certo|verdade|toch|hè)",
    re.I,
)
_REPORT_FRAME_RX = re.compile(
    # (not the memory named as speech: "in what you've told me before", "everything
    # you've said", whose nothing is this memory's)
    r"(?<![Ww]hat\s)(?<![Aa]ll\s)(?<!thing\s)"
    r"(?:\b(?i:you|he|she|they|someone|somebody|people|(?:your|my|his|her|their|the)\s+\w+)"
    r"|\b[A-Z][a-z]+)"
    r"(?i:(?:'ve|'d|\s+have|\s+had)?(?:\s+\w+ly)?\s+"
    r"(?:said|told\s+(?:me|us|you|him|her|them)|mentioned|wrote|explained|noted|claimed"
    r"|insisted|admitted|stated|replied|answered|added|complained|joked|reported|confirmed"
    r"|says|tells\s+(?:me|us)|thinks|thought|believes|believed|felt|assumed|suspected"
    r"|figured|swore|promised)"
    r"(?:\s+(?:to\s+me|earlier|before|once|yesterday|previously|last\s+\w+|this\s+\w+))*"
    r"(?:\s+that)?)\b"
    r"|\b(?i:according\s+to\s+(?:you|him|her|them|\w+))\b",
)


@dataclass(frozen=True)
class _ClauseInfo:
    start: int
    end: int
    question: bool
    conditional: bool
    frame_end: int | None  # reported speech: matches starting at/after this are content
    # A question only by its confirmation tag ("Your son starts in May, right?"): it
    # still presents what comes before the tag as known (recollections are read there).
    tagged: bool = False


@dataclass(frozen=True)
class _Sentence:
    start: int
    end: int
    paragraph: int
    clauses: tuple[_ClauseInfo, ...]


def _trim(masked: str, start: int, end: int) -> tuple[int, int]:
    piece = masked[start:end]
    m = _LEADING_RX.match(piece)
    lead = m.end() if m else 0
    t = _TRAILING_RX.search(piece, lead)
    tail = t.start() if t else len(piece)
    if tail <= lead:
        return start, start
    return start + lead, start + tail


def _sentence_spans(masked: str) -> list[tuple[int, int, int]]:
    spans: list[tuple[int, int, int]] = []
    paragraph = 0
    pos = 0
    for line in masked.split("\n"):
        line_start = pos
        pos += len(line) + 1
        if not line.strip():
            paragraph += 1
            continue
        cur = 0
        for m in _SENT_BOUNDARY_RX.finditer(line):
            word = re.search(r"([^\W\d_.]+(?:\.[^\W\d_]+)*)$", line[cur : m.start()])
            if m.group() == "." and word and word.group(1).lower() in _ABBREVIATIONS:
                continue
            if (
                m.group() == "."
                and re.search(r"(?<!\d)\d{1,2}$", line[cur : m.start()])
                and _ORDINAL_NEXT_RX.match(line, m.end())
            ):
                continue
            spans.append((line_start + cur, line_start + m.end(), paragraph))
            cur = m.end()
        if line[cur:].strip():
            spans.append((line_start + cur, line_start + len(line), paragraph))
    return spans


def _analyse_sentence(masked: str, s_start: int, s_end: int, paragraph: int) -> _Sentence:
    sentence = masked[s_start:s_end]
    is_question = ends_as_question(sentence)
    # segments on strong boundaries
    cuts = [0]
    for m in _SEGMENT_RX.finditer(sentence):
        cuts.extend((m.start(), m.end()))
    cuts.append(len(sentence))
    segments = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2)]
    segments = [(a, b) for a, b in segments if _HAS_WORD_RX.search(sentence[a:b])]

    tag_question = False
    if is_question and len(segments) > 1:
        a, b = _trim(sentence, *segments[-1])
        last = sentence[a:b]
        tag_question = bool(_TAG_RX.fullmatch(last)) and len(last.split()) <= 4

    clauses: list[_ClauseInfo] = []
    supposed = False
    previous_head = ""
    for index, (a, b) in enumerate(segments):
        seg_text = sentence[a:b]
        ta, _ = _trim(sentence, a, b)
        seg_head = sentence[ta:b]
        verb_second = (
            index > 0
            and bool(_VERB_FIRST_RX.match(seg_head))
            and bool(_SUBORDINATE_OPENING_RX.match(previous_head))
        )
        seg_question = is_question and (
            tag_question
            or index == len(segments) - 1
            or (bool(_QUESTION_START_RX.match(seg_head)) and not verb_second)
        )
        previous_head = seg_head
        # A question's earlier segments may still be conditions ("Se eu não encontrar
        # nada, te pergunto, combinado?"); the asked segment is not ("Should I look?").
        seg_conditional = supposed or (
            not seg_question
            and (
                bool(_SEGMENT_CONDITIONAL_RX.match(seg_head))
                or (index == 0 and bool(_INVERTED_CONDITIONAL_RX.match(seg_head)))
            )
        )
        seg_conditional = seg_conditional or bool(_DENIED_PREMISE_RX.match(seg_head))
        supposed = supposed or bool(_SUPPOSITION_ONLY_RX.fullmatch(seg_head.strip()))
        frame_ends = [a + m.end() for m in _REPORT_FRAME_RX.finditer(seg_text)]
        frame_end = s_start + min(frame_ends) if frame_ends else None
        # clause cut points: bare conjunctions and conditional markers
        points = sorted(
            {m.start() for m in _CLAUSE_SPLIT_RX.finditer(seg_text)}
            | {m.start() for m in _CONDITIONAL_RX.finditer(seg_text)}
        )
        conditional_from = next((a + m.start() for m in _CONDITIONAL_RX.finditer(seg_text)), None)
        bounds = [a, *(a + p for p in points), b]
        for c0, c1 in itertools.pairwise(bounds):
            t0, t1 = _trim(sentence, c0, c1)
            if t1 <= t0 or not _HAS_WORD_RX.search(sentence[t0:t1]):
                continue
            conditional = seg_conditional or (
                conditional_from is not None and c0 >= conditional_from
            )
            clause_question = seg_question or sentence[c0:c1].rstrip().endswith("?")
            clauses.append(
                _ClauseInfo(
                    start=s_start + t0,
                    end=s_start + t1,
                    question=clause_question,
                    conditional=conditional,
                    frame_end=frame_end,
                    tagged=tag_question and index < len(segments) - 1,
                )
            )
    return _Sentence(s_start, s_end, paragraph, tuple(clauses))


def _analyse(masked: str) -> list[_Sentence]:
    return [_analyse_sentence(masked, a, b, p) for a, b, p in _sentence_spans(masked)]


# --------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------

_ADVS = r"(?:\s+(?:ever|once|yet|even|already|\w+ly)){0,3}"
_TELL_PAST = (
    r"(?:told|mentioned|said|shared|brought\s+(?:[\w'-]+\s+){0,2}?up"
    r"|talked\s+(?:to\s+me\s+)?about|spoken?\s+(?:to\s+me\s+)?(?:about|of)|discussed|raised"
    r"|referred\s+to|informed\s+(?:me|us)|let\s+me\s+know|gave\s+me|given\s+me|described"
    r"|specified|revealed|wr(?:o|i)te?n?\s+(?:to\s+me\s+)?about|asked\s+(?:me\s+)?about"
    r"|noted|filled\s+me\s+in|clarified|indicated)"
)
_TELL_BASE = (
    r"(?:tell|mention|say|share|bring\s+(?:[\w'-]+\s+){0,2}?up"
    r"|talk\s+(?:to\s+me\s+)?about|speak\s+(?:to\s+me\s+)?(?:about|of)|discuss|raise"
    r"|refer\s+to|inform\s+(?:me|us)|let\s+me\s+know|give\s+me|describe|specify|reveal"
    r"|write\s+(?:to\s+me\s+)?about|ask\s+(?:me\s+)?about|note|fill\s+me\s+in|clarify"
    r"|indicate)"
)
_GET_AROUND = (
    r"(?:(?:got|gotten|get)\s+(?:a)?round\s+to|bothered\s+to|bother\s+to|happened\s+to"
    r"|thought\s+to|cared\s+to)\s+(?:telling|mentioning|sharing|saying|bringing\s+up"
    r"|talking\s+about|tell|mention|share|say|bring\s+up|talk\s+about)"
)
_WE_VERB = (
    r"(?:discussed|discuss|talked|talk|spoken|spoke|speak|covered|cover|gone\s+over"
    r"|went\s+over|go\s+over|touched\s+(?:on|upon)|touch\s+(?:on|upon)|chatted|chat"
    r"|mentioned|mention|brought\s+(?:[\w'-]+\s+){0,2}?up"
    r"|bring\s+(?:[\w'-]+\s+){0,2}?up|had\s+(?:a|any)\s+(?:conversation|discussion|chat)"
    r"|have\s+(?:a|any)\s+(?:conversation|discussion|chat)|addressed|address|exchanged"
    r"|(?:got|gotten|get|gone|went|go|dug|dig)\s+into)"
)
_MEM_LOCUS = (
    r"\b(?:in|from|within|across|among|on|throughout)\s+(?:(?:my|our|any\s+of\s+(?:my|our))"
    r"\s+(?:[\w-]+\s+){0,2}?(?:memory|memories|records?|notes|history|conversations?|chats?"
    r"|discussions?|sessions?|logs?|files?|exchanges|messages|transcripts?|threads?)"
    r"|the\s+(?:memory|memory\s+store|conversation\s+history|chat\s+history))\b"
    r"|\bon\s+(?:file|record)\b|\bin\s+memory\b|\bbetween\s+us\b"
    r"|\b(?:saved|stored|recorded|noted|remembered)\s+(?:about|on|for|regarding|concerning)\s+"
    r"(?:you|your)\b|\b(?:saved|stored)\s+(?:in\s+memory|for\s+you)\b"
    r"|\bof\s+(?:you|us|we)\s+(?:ever\s+)?(?:mentioning|saying|telling|discussing|talking"
    r"|bringing|sharing|raising)\b"
    r"|\b(?:you(?:'?ve|\s+have)?|we(?:'?ve|\s+have)?)\s+(?:ever\s+)?(?:told|mentioned|said"
    r"|shared|discussed|talked|brought)\b"
)
_RECORD_NOUN = (
    r"(?:(?<=stored\s)[\w'-]+|(?<=saved\s)[\w'-]+|(?<=recorded\s)[\w'-]+|records?|recollections?|notes?|mentions?|traces?|entr(?:y|ies)|logs?"
    r"|(?:memory|memories|history)(?=\s+(?:of|about|regarding|on|that|showing|indicating"
    r"|concerning)\b)"
    r"|(?:information|info|details?|data)(?=\s+(?:about|on|regarding|concerning|of|for)"
    r"\s+(?:you\b|your\b|you're|us\b|our\b)|\s+(?:stored|saved|on\s+file|in\s+(?:my\s+)?memory)))"
)
_RECORD_ADJ = r"(?:(?:prior|previous|earlier|past|stored|saved|existing|such|single|specific)\s+)?"
_MEM_OBJ = (
    r"(?:any(?:thing)?\b(?!\s+(?:wrong|incorrect|unusual|off|strange|odd|problematic"
    r"|bugs?|errors?|issues?|problems?|reason|harm|difference|mistakes?|point)\b)"
    r"|a\s+(?:single\s+)?(?:match|record|note|mention|trace|reference|result|hit|entry"
    r"|thing)\b|(?:mentions?|records?|notes?|results?|matches|hits|traces?|entries"
    r"|references?)\b|(?:it|that|this|them|those)\s+(?:in|among|anywhere|listed|yet"
    r"|so\s+far|mentioned|stored|saved)\b|(?:your|her|his|their)\s+(?:[\w'-]+\s+){0,2}?"
    r"(?:in|among|anywhere|listed)\b)"
)
_FIND_EXCLUDE = (
    r"(?!\s+(?:(?:a|an|the|any|anything|one|some)\s+)?(?:[\w-]+\s+)?(?:bugs?|errors?"
    r"|mistakes?|typos?|issues?|problems?|flaws?|solutions?|answers?|ways?|reasons?|words?"
    r"|faults?|wrong|closed[- ]form|formula|proof|counterexamples?)\b)"
)
_FOUND_V = (
    r"(?:found|find|turned\s+up|came\s+up\s+with|got|get|retrieved|located|surfaced|saw|see"
    r"|pulled\s+up|dug\s+up|came\s+across)"
)
_FOUND_OBJ = (
    r"(?:nothing|none|zilch|zero\s+\w+"
    r"|not\s+(?:a\s+)?(?:single\s+)?(?:thing|trace|mention|record|match|result|note|word)"
    r"|no\s+(?:[\w-]+\s+)?(?:mentions?|records?|results?|match(?:es)?|hits?|traces?|notes?"
    r"|entr(?:y|ies)|references?|information|info|sign|memories|conversations|messages"
    r"|data|details))\b"
    r"(?!\s+(?:wrong|incorrect|unusual|odd|strange|amiss|off|problematic|concerning"
    r"|suspicious|of\s+concern|to\s+(?:add|fix|change|correct|worry)))"
)
_SEARCH_SUBJ = (
    r"(?:\b(?:my|the|this|a|our|memory|last|latest|first|quick|initial)\s+"
    r"(?:(?!(?:your|his|her|their)\b)[\w'-]+\s+){0,2}?(?:search(?:es)?|look-?ups?|retrievals?)"
    r"|\bmy\s+(?:memory\s+)?quer(?:y|ies)|\bmemory\s+quer(?:y|ies)|\bsearching|\blooking"
    # the bare noun opening the clause ("Retrieval for 'Heidi vet' returned an empty list")
    r"|^\s*(?:search(?:es)?|look-?ups?|retrievals?|quer(?:y|ies)))\b"
)


_CANT_AUX = (
    r"(?:(?:can(?:'?t|not)|could(?:n'?t|\s+not)|do(?:n'?t|\s+not))\s+seem\s+to"
    r"|could(?:n'?t|\s+not)|can(?:'?t|not|\s+not)|still\s+can(?:'?t|not)"
    r"|(?:was|were)(?:n'?t|\s+not)\s+able\s+to|(?:was|am|were)\s+unable\s+to"
    r"|am\s+not\s+able\s+to|failed\s+to|have(?:n'?t|\s+not)\s+been\s+able\s+to)"
)
_CANT_SUBJ_AUX = (
    rf"(?:\s+{_CANT_AUX}|'?m\s+(?:unable|not\s+able)\s+to|'?re\s+(?:unable|not\s+able)\s+to"
    r"|'?ve\s+not\s+been\s+able\s+to)"
)
_CANT_TAIL = (
    r"\s+(?:\w+ly\s+)?(?:(?:find|locate|retrieve|turn\s+up|come\s+across|spot|surface"
    rf"|dig\s+up|pull\s+up|track\s+down|unearth|recover){_FIND_EXCLUDE}"
    r"|see\s+(?:any(?:thing)?\b|a\s+(?:single\s+)?(?:record|note|mention|trace|reference"
    r"|match)|mentions?|records?|notes?|(?:it|that|this|them)\s+(?:in|among|anywhere))"
    rf"{_FIND_EXCLUDE})"
)
_DIDNT_AUX = r"(?:did(?:n'?t|\s+not)|have(?:n'?t|\s+not)|'?ve\s+not|do(?:n'?t|\s+not))"
_DIDNT_TAIL = (
    r"(?:\s+(?:yet|ever|\w+ly))*\s+(?:find|found|locate|located|retrieve|retrieved"
    r"|turn\s+up|turned\s+up|see|seen|come\s+across|came\s+across|surface|surfaced|spot"
    rf"|spotted|get|got|pull\s+up|pulled\s+up)\s+{_MEM_OBJ}"
)


# Infinitives of telling after "llegar a" / "chegar a" (the negated-telling rules).
_ES_TELL_INF = r"(?:contar|decir|hablar|mencionar|comentar|compartir|explicar|dar)"
_PT_TELL_INF = r"(?:dizer|contar|falar|mencionar|referir|partilhar|compartilhar|indicar|explicar)\b"


@dataclass(frozen=True)
class _Rule:
    name: str
    scope: ClaimScope
    rx: re.Pattern[str]
    anchored: bool = False  # must match at the clause start
    needs_after: re.Pattern[str] | None = None  # must occur in the clause after the match
    existence: bool = False  # describes the store; yields to a search-framed rule
    topic_before: bool = False  # the topic is the clause text before the match


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_CW = ClaimScope.CORPUS_WIDE
_QS = ClaimScope.QUERY_SCOPED
# What "no ... mentions" rules read as the user's stored items (English).
_NOTE_QUALIFIER = r"saved|stored|recorded|memory|past|earlier|previous"
_NOTE_NOUNS_EN = (
    r"notes?|entries|entry|memories|records?|conversations?|chats?"
    r"|(?<=saved\s)(?:documents?|files?|lists?|recipes?|messages?|items?)"
    r"|(?<=stored\s)(?:documents?|files?|lists?|recipes?|messages?|items?)"
    r"|(?<=your\s)(?:documents?|files?|lists?|recipes?|messages?|saved\s+\w+)"
)

_RULES: tuple[_Rule, ...] = (
    # ---- corpus-wide -----------------------------------------------------------------
    _Rule(
        "you-never-told",
        _CW,
        _rx(
            rf"\byou(?:'?ve|'d|\s+have|\s+had)?(?:\s+\w+ly)?\s+never{_ADVS}\s+"
            rf"(?:{_GET_AROUND}|{_TELL_PAST}|{_TELL_BASE})\b"
        ),
    ),
    _Rule(
        "you-did-not-tell",
        _CW,
        _rx(
            r"\byou(?:\s+did(?:n'?t|\s+not)|\s+have(?:n'?t|\s+not)|\s+had(?:n'?t|\s+not)"
            rf"|'?ve\s+not|'d\s+not){_ADVS}\s+(?:{_GET_AROUND}|{_TELL_PAST}|{_TELL_BASE})\b"
        ),
    ),
    _Rule(
        "not-once-have-you",
        _CW,
        _rx(
            r"\bnot\s+(?:once|one\s+time|ever)\s+(?:have|did|had)\s+you\s+(?:ever\s+)?"
            rf"(?:{_TELL_PAST}|{_TELL_BASE})\b"
        ),
    ),
    _Rule(
        "inverted-never-have-you",
        _CW,
        _rx(
            r"\b(?:nowhere|at\s+no\s+(?:point|time)|never|not\s+once|not\s+ever)\b[^.;?!]{0,60}?"
            r"\b(?:have|did|had)\s+(?:you|we)\s+(?:ever\s+)?"
            rf"(?:{_TELL_PAST}|{_TELL_BASE}|{_WE_VERB})\b"
        ),
    ),
    _Rule(
        "not-aware-of-you-mentioning",
        _CW,
        _rx(
            r"\bI(?:'?m|\s+am)\s+not\s+aware\s+of\s+(?:you|us|we|any)\b"
            r"|\bI\s+(?:have(?:n'?t|\s+not)|'?ve\s+not)\s+(?:got\s+)?(?:any\s+)?"
            r"(?:idea|knowledge)\s+of\s+you\s+(?:ever\s+)?(?:mentioning|telling|saying)\b"
        ),
    ),
    _Rule(
        "yet-to-tell-me",
        _CW,
        _rx(
            r"\b(?:you|we)(?:'?ve|\s+have|'?re|\s+are)\s+(?:still\s+)?yet\s+to\s+"
            rf"(?:{_TELL_BASE}|talk|speak|go\s+over|cover|get\s+into)\b"
        ),
    ),
    _Rule(
        "never-shared-with-me",
        _CW,
        _rx(
            r"\b(?:was|were|has\s+been|have\s+been|had\s+been)(?:n'?t|\s+not|\s+never)\s+"
            r"(?:ever\s+|actually\s+)?(?:shared|mentioned|told|given|disclosed|provided"
            r"|brought\s+up|discussed|raised|described)\s+(?:with|to)\s+(?:me|us)\b"
            r"|\b(?:has|have|had)\s+never\s+been\s+(?:shared|mentioned|told|given|disclosed"
            r"|provided|brought\s+up|discussed|raised)\s+(?:with|to)\s+(?:me|us)\b"
        ),
    ),
    _Rule(
        "nothing-in-my-notes",
        _CW,
        _rx(
            r"^(?:\w+ly\s+)?nothing\s+(?:in|from|within|across|among)\s+(?:my|our)\s+"
            r"(?:[\w-]+\s+){0,2}?(?:memory|memories|notes|records|history|conversations|chats"
            r"|messages|files)\b"
        ),
        existence=True,
    ),
    _Rule(
        # "Nothing in your saved details mentions a middle name", "Nothing in your notes
        # says where your parents live": a store of the user's that says nothing of it
        # ("Nothing in your CV is wrong" names no saying, so it is no claim here).
        "nothing-in-your-notes",
        _CW,
        _rx(
            r"^(?:\w+ly\s+)?nothing\s+(?:in|from|within|among)\s+your\s+(?:[\w-]+\s+){0,2}?"
            r"(?:memory|memories|notes|records|history|conversations|chats|messages|files"
            r"|details|information|info|data|entries|profile)\s+(?:\w+\s+){0,2}?"
            r"(?:says?|mentions?|refers?\s+to|tells?\s+me|shows?|indicates?|contains?"
            r"|talks?\s+about)\b"
        ),
        existence=True,
    ),
    _Rule(
        "you-told-me-nothing",
        _CW,
        _rx(
            r"\bnothing\s+(?:that\s+)?you(?:'?ve|\s+have)?\s+(?:ever\s+)?(?:told|shared"
            r"|mentioned|given|(?:said|written)(?=\s+(?:about|regarding|on|to\s+me)\b))\b"
            # "nothing you've told me changes the plan": the subject of a verb
            r"(?!(?:\s+(?:\w+|so\s+far|today|yet)){0,2}?\s+(?:changes?|alters?|affects?"
            r"|suggests?|means?|contradicts?|rules?\s+out|points?|indicates?|makes?|needs?"
            r"|matters?|sounds?|seems?|strikes?)\b)"
            r"|\byou(?:'?ve|\s+have)?\s+(?:told|said|shared"
            r"|mentioned|given)\s+(?:me\s+|us\s+)?(?:absolutely\s+)?nothing\b"
        ),
    ),
    _Rule(
        # "Nulla di ciò che mi hai raccontato riguarda Cracovia", "Nada de lo que me has
        # contado habla de ...", "Rien de ce que tu m'as dit ne concerne ...": nothing the
        # user told says it. Only with a verb of mentioning after it: "Niente di ciò che
        # mi hai detto cambia il piano" is about the plan.
        "nothing-of-what-you-told",
        _CW,
        _rx(
            r"^(?:nulla|niente)\s+(?:di\s+)?(?:ci[òo]|quello|quanto)\s+che\s+mi\s+(?:hai|avevi|ha)"
            r"\s+(?:mai\s+)?(?:detto|raccontato|scritto|condiviso)\b"
            r"|^nada\s+de\s+(?:lo\s+que|cuanto)\s+me\s+(?:has|hab[íi]as|ha)\s+(?:dicho|contado"
            r"|escrito|compartido)\b"
            r"|^nada\s+(?:do|daquilo)\s+que\s+(?:voc[êe]\s+|tu\s+)?(?:me\s+)?(?:disse|contou"
            r"|escreveu|disseste|contaste|escreveste)\b"
            r"|^rien\s+de\s+ce\s+que\s+(?:tu|vous)\s+m'(?:as|avez|aviez|avais)\s+(?:dit|racont[ée]"
            r"|[ée]crit|confi[ée])\b"
            r"|^nichts\s+von\s+dem,?\s+was\s+(?:du|Sie)\s+mir\s+(?:\w+\s+)?(?:erz[äa]hlt|gesagt"
            r"|geschrieben)\b"
        ),
        needs_after=_rx(
            r"\b(?:riguarda|parla|menziona|accenna|cita|tocca|concerne|mentionne|parle|[ée]voque"
            r"|habla|menciona|trata|toca|fala|refere|betrifft|erw[äa]hnt|handelt|nennt)\w*"
        ),
    ),
    _Rule(
        "never-told-elliptical",
        _CW,
        _rx(
            r"(?:have\s+)?(?:never|have(?:n'?t|\s+not)|did(?:n'?t|\s+not))"
            r"(?:\s+(?:ever|once|yet|\w+ly))*\s+(?:told\s+(?:me|us)|mentioned"
            r"|brought\s+(?:[\w'-]+\s+){0,2}?up|talked\s+about|discussed"
            r"|said\s+(?:anything|a\s+word)|shared\s+(?:anything|it|that|this))\b"
        ),
        anchored=True,
    ),
    _Rule(
        "we-never-discussed",
        _CW,
        _rx(
            rf"\bwe(?:'?ve|'d|\s+have|\s+had)?\s+(?:never|not){_ADVS}\s+{_WE_VERB}\b"
            r"|\bwe\s+(?:have(?:n'?t|\s+not)|had(?:n'?t|\s+not)|did(?:n'?t|\s+not))"
            rf"{_ADVS}\s+{_WE_VERB}\b"
        ),
    ),
    _Rule(
        "i-dont-think-you-told",
        _CW,
        _rx(
            r"(?:\bI\s+do(?:n'?t|\s+not)\s+(?:think|believe|recall\s+that|remember\s+that)"
            r"|\bit\s+does(?:n'?t|\s+not)\s+(?:look|seem|sound|appear)\s+(?:like|as\s+if"
            r"|as\s+though|that))\s+"
            r"(?:that\s+)?(?:you|we)(?:'?ve|'d|\s+have|\s+had|\s+ever|\s+did)?"
            rf"(?:\s+(?:ever|actually|really|yet|already))*\s+(?:{_TELL_PAST}|{_WE_VERB})\b"
        ),
    ),
    _Rule(
        "no-record",
        _CW,
        _rx(
            r"\bI(?:'?ve|\s+have|\s+had|'?ve\s+got|\s+have\s+got)?\s+(?:no|zero)\s+"
            rf"{_RECORD_ADJ}{_RECORD_NOUN}"
            r"|\bI\s+(?:do(?:n'?t|\s+not)|did(?:n'?t|\s+not))\s+(?:\w+ly\s+)?have\s+"
            rf"(?:(?:any|a|an)\s+)?{_RECORD_ADJ}{_RECORD_NOUN}"
            r"|\bI\s+have(?:n'?t|\s+not)\s+(?:got\s+)?(?:any|a)\s+"
            rf"{_RECORD_ADJ}{_RECORD_NOUN}"
            r"|\bI(?:\s+|'m\s+|\s+am\s+)(?:lack|lacking|missing)\s+(?:(?:any|a|an)\s+)?"
            rf"{_RECORD_ADJ}{_RECORD_NOUN}"
        ),
    ),
    _Rule(
        "nothing-stored",
        _CW,
        _rx(
            r"\bI(?:'?ve|\s+have)?(?:\s+got)?\s+nothing\s+(?:stored|saved|recorded|noted"
            r"|on\s+(?:file|record)|in\s+(?:my\s+)?(?:memory|notes|records))"
            r"|\bI(?:'?ve|\s+have)\s+(?:got\s+)?nothing\s+(?:on|about|regarding|concerning)\s+"
            r"(?:you\b|your\b|that\b|this\b|it\b|them\b|him\b|her\b)"
            r"|\bI\s+do(?:n'?t|\s+not)\s+have\s+anything\s+(?:\w+\s+)?(?:stored|saved|recorded"
            r"|noted|on\s+(?:file|record|that|this|it|you|your)|in\s+(?:my\s+)?(?:memory|notes"
            r"|records)|about|regarding|concerning)\b"
            r"|\bI\s+(?:have(?:n'?t|\s+not)|'?ve\s+not|did(?:n'?t|\s+not)|never)\s+"
            r"(?:stored|saved|recorded|noted|kept|store|save|record|note|keep)\s+"
            r"(?:anything|any)\b"
        ),
    ),
    _Rule(
        "not-on-file",
        _CW,
        _rx(
            r"\bI\s+do(?:n'?t|\s+not)\s+have\s+(?:your|her|his|their)\s+(?:[\w'-]+\s+){0,3}?"
            r"(?:on\s+(?:file|record)|saved|stored|recorded|noted|in\s+(?:my\s+)?(?:memory"
            r"|notes|records))"
        ),
    ),
    _Rule(
        "not-in-memory",
        _CW,
        _rx(
            r"(?:\b(?:is|are|was|were)(?:n'?t|\s+not|\s+never)|'s\s+(?:not|never)"
            r"|'re\s+(?:not|never))\s+(?:\w+ly\s+)?(?:stored\s+|saved\s+|recorded\s+|kept\s+"
            r"|mentioned\s+)?(?:in|on|among)\s+(?:(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:memory"
            r"|memories|records?|notes|files?|history|conversations?|chats?)|file|record)\b"
        ),
        existence=True,
        topic_before=True,
    ),
    _Rule(
        "there-is-nothing-in-memory",
        _CW,
        _rx(
            r"\bthere(?:'s|\s+is|\s+are|\s+was|\s+were|'re|s)\s+(?:no|nothing"
            r"|not\s+(?:a\s+(?:single\s+)?\w+|any(?:thing)?)|zero)\b"
        ),
        needs_after=_rx(_MEM_LOCUS),
        existence=True,
    ),
    _Rule(
        "memory-holds-nothing",
        _CW,
        _rx(
            r"(?:\b(?:my|our)|\byour\s+(?:previous|past|earlier|prior|older|old))\s+"
            r"(?:[\w-]+\s+){0,2}?(?:memory|memories|records|notes|history"
            r"|conversations|chats|messages|files)\s+(?:(?:has|have|had|contains?|contained"
            r"|holds?|held|shows?|showed|includes?|included|mentions?|mentioned)\s+"
            r"(?:nothing|no\b|zero\b|not\s+(?:a\s+)?(?:single\s+)?(?:thing|word|mention|record))"
            r"|(?:(?:does|do|did|have|has)(?:n'?t|\s+not)|(?:have\s+|has\s+)?never)\s+"
            r"(?:\w+ly\s+)?(?:contain|have|hold|show|include|mention|say|cover|reference|record"
            r"|touch(?:ed)?\s+(?:on|upon)|mentioned|covered|included|contained|referred\s+to"
            r"|discussed|talked\s+about|come\s+up|came\s+up)\b)"
        ),
        existence=True,
    ),
    _Rule(
        "memory-is-empty",
        _CW,
        _rx(
            r"\b(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:memory|memories|records|notes|history)\s+"
            r"(?:is|are|was|were|'s|'re)\s+(?:\w+ly\s+)?(?:empty|blank|silent|bare)\b"
        ),
        existence=True,
    ),
    _Rule(
        "no-single-note-mentions",
        _CW,
        _rx(
            r"\b(?:not\s+(?:a\s+|one\s+)?(?:single\s+)?|no\s+(?:single\s+)?)(?:note|record|message"
            r"|conversation|memory|entry|chat)\s+(?:of\s+(?:mine|ours)\s+)?(?:\w+ly\s+)?"
            r"(?:mentions|mentioned|includes|included|refers\s+to|referred\s+to|says|said"
            r"|covers|covered|touches\s+on|touched\s+on)\b"
        ),
        existence=True,
    ),
    _Rule(
        "none-of-our-conversations",
        _CW,
        _rx(
            r"\bnone\s+of\s+(?:our|my|your|the)\s+(?:[\w-]+\s+){0,2}?(?:conversations|chats"
            r"|messages|notes|records|memories|sessions|discussions|exchanges)\s+(?:\w+ly\s+)?"
            r"(?:mentions?|mentioned|includes?|included|covers?|covered|refers?|referred|says?"
            r"|said|talks?|talked|contains?|contained|touch(?:es|ed)?)\b"
        ),
        existence=True,
    ),
    _Rule(
        "no-prior-conversation",
        _CW,
        _rx(
            r"\bno\s+(?:prior|previous|earlier|past)\s+(?:conversations?|discussions?"
            r"|mentions?|records?|chats?|notes?|sessions?|exchanges?)\b"
        ),
        existence=True,
    ),
    _Rule(
        "dont-remember-you-saying",
        _CW,
        _rx(
            r"\bI\s+(?:do(?:n'?t|\s+not)|ca(?:n'?t|nnot|n\s+not)|could(?:n'?t|\s+not))\s+"
            r"(?:\w+ly\s+)?(?:remember|recall|recollect)"
            r"(?=\s+(?:(?:ever|any|that|this|such|the)\s+)?(?:you\b|us\b|we\b|our\b|your\b"
            r"|anyone\b|any\b|ever\b|having\b|hearing\b|being\s+told\b|anything\s+about\b"
            r"|a\s+(?:conversation|discussion|mention|time)\b|(?:conversation|discussion|chat"
            r"|mention|exchange|talk|topic)\b))"
        ),
    ),
    _Rule(
        "first-time-you-mentioned",
        _CW,
        _rx(
            r"\b(?:this|that|it)(?:'s|\s+is|\s+was|\s+must\s+be|\s+seems\s+to\s+be)\s+"
            r"(?:the\s+|my\s+)?first\s+(?:time\s+(?:that\s+)?(?:you(?:'?ve|\s+have)?"
            r"|we(?:'?ve|\s+have)?|I(?:'?ve|\s+have|'m|\s+am)?)\s+(?:ever\s+)?"
            rf"(?:{_TELL_PAST}|{_WE_VERB}|heard|hearing|asked)"
            r"|I(?:'?ve|\s+have|'m|\s+am)\s+(?:ever\s+)?(?:heard|hearing)|mention)\b"
        ),
    ),
    _Rule(
        "never-heard-you-mention",
        _CW,
        _rx(
            r"\bI(?:'?ve|\s+have)?\s+(?:never|not)\s+(?:\w+ly\s+)?(?:heard|seen)\s+you\s+"
            rf"(?:{_TELL_BASE}|talk|bring)\b"
            rf"|\bI\s+have(?:n'?t|\s+not){_ADVS}\s+(?:heard|seen)\s+you\s+(?:{_TELL_BASE})\b"
            r"|\bI(?:'?ve|\s+have)?\s+never\s+been\s+told\b|\bI\s+have(?:n'?t|\s+not)\s+been"
            r"\s+told\b|\bI\s+was(?:n'?t|\s+not|\s+never)\s+told\b"
        ),
    ),
    _Rule(
        "never-came-up",
        _CW,
        _rx(
            r"(?:\bha(?:s|ve)(?:n'?t|\s+not|\s+never)|'s\s+(?:never|not)|'ve\s+never|\bnever"
            r"|\bdid(?:n'?t|\s+not))\s+(?:(?:\w+ly|ever|yet)\s+)*(?:(?:come|came)\s+up"
            r"|been\s+(?:mentioned|discussed|brought\s+up|raised|shared))\b"
        ),
        needs_after=_rx(
            r"\b(?:before|previously|so\s+far|until\s+now|yet|between\s+us|with\s+me|to\s+me"
            r"|by\s+you|in\s+(?:our|my|any\s+of\s+our)\s+\w+|in\s+conversation)\b"
        ),
    ),
    # ---- query-scoped ------------------------------------------------------------------
    _Rule("could-not-find", _QS, _rx(rf"\b(?:I|we){_CANT_SUBJ_AUX}{_CANT_TAIL}")),
    _Rule("could-not-find-elliptical", _QS, _rx(rf"{_CANT_AUX}{_CANT_TAIL}"), anchored=True),
    _Rule("did-not-find", _QS, _rx(rf"\b(?:I|we)\s*{_DIDNT_AUX}{_DIDNT_TAIL}")),
    _Rule("did-not-find-elliptical", _QS, _rx(rf"{_DIDNT_AUX}{_DIDNT_TAIL}"), anchored=True),
    _Rule(
        "found-nothing",
        _QS,
        _rx(
            r"\b(?:I|we)(?:(?:'?ve|\s+have|\s+had)(?!\s+got\b))?(?:\s+\w+ly)?\s+"
            rf"{_FOUND_V}\s+{_FOUND_OBJ}"
        ),
    ),
    _Rule(
        "found-nothing-elliptical",
        _QS,
        _rx(rf"(?:\w+ly\s+)?{_FOUND_V}\s+{_FOUND_OBJ}"),
        anchored=True,
    ),
    _Rule(
        "search-returned-nothing",
        _QS,
        _rx(
            rf"{_SEARCH_SUBJ}(?:\s+\S+){{0,8}}?\s+(?:"
            r"(?:returned|turned\s+up|found|yielded|produced|surfaced|gave(?:\s+me)?|showed"
            r"|brought\s+back|pulled\s+up|came\s+back\s+with|came\s+up\s+with|has\s+returned|got"
            r"|matched)\s+(?:nothing|none|zero\b|0\b|no\b|not\s+(?:a\s+)?(?:single\s+)?(?:thing"
            r"|result|match|hit|record)|an?\s+empty|empty)"
            r"|(?:did(?:n'?t|\s+not)|has(?:n'?t|\s+not)|have(?:n'?t|\s+not)|failed\s+to)\s+"
            r"(?:\w+ly\s+)?(?:return|find|turn\s+up|surface|show|produce|yield|bring\s+up"
            r"|bring\s+back|pull\s+up|come\s+up\s+with|match|get)\s+(?:any(?:thing)?"
            r"|a\s+(?:single\s+)?\w+)\b"
            r"|(?:came|come|was|were|is|turned\s+out|ended\s+up)\s+(?:back\s+|up\s+)?(?:empty"
            r"|blank|dry|empty-handed)\b)"
        ),
    ),
    _Rule(
        "came-up-empty",
        _QS,
        _rx(
            r"\b(?:I|we)(?:'?ve|\s+have)?\s+(?:came|come)\s+up\s+(?:empty|empty-handed|dry"
            r"|short|with\s+nothing|blank)|\bI\s+drew\s+a\s+blank\b"
        ),
    ),
    _Rule(
        "no-results",
        _QS,
        _rx(
            r"\bno\s+(?:[\w-]+\s+)?(?:results?|match(?:es)?|hits?|entries|records?|mentions?"
            r"|memories|notes|conversations|messages)"
            r"\s+(?:\w+ly\s+)?(?:came\s+up|come\s+up|were\s+found|was\s+found|turned\s+up"
            r"|showed\s+up|were\s+returned|was\s+returned|came\s+back|matched|surfaced"
            r"|appeared|popped\s+up|for\b)"
            r"|\b(?:zero|0)\s+(?:results?|matches|hits?|entries|records?)\b"
            r"|\bthere\s+(?:were|was|are|is|'s)\s+no\s+(?:[\w-]+\s+)?(?:results?|match(?:es)?"
            r"|hits?)\b"
        ),
    ),
    _Rule(
        "no-results-fragment",
        _QS,
        _rx(r"no\s+(?:[\w-]+\s+)?(?:results?|match(?:es)?|hits?)\s*$"),
        anchored=True,
    ),
    _Rule(
        "nothing-came-up",
        _QS,
        _rx(
            r"\bnothing\s+(?:[\w-]+\s+)?(?:came\s+up|come\s+up|turned\s+up|showed\s+up|matched"
            r"|was\s+found|was\s+returned|surfaced|came\s+back|popped\s+up"
            r"|has\s+(?:come|turned|shown)\s+up)\b"
            r"(?!\s+(?:during|at\s+(?:the|your|our|his|her|their)\b|in\s+(?:the|your|his|her"
            r"|their)\s+(?:meeting|call|review|interview|session|check|exam|test|discussion)))"
        ),
    ),
    _Rule(
        "nothing-shows-up-in-memory",
        _QS,
        _rx(
            r"\bnothing\s+(?:\S+\s+){0,5}?(?:shows|comes|turns|pops|showed|came|turned|popped)"
            r"\s+up\b"
        ),
        needs_after=_rx(_MEM_LOCUS),
    ),
    _Rule(
        # "None of your saved recipes mention saffron", "Aucune note ne mentionne le
        # voyage", "Nenhuma das suas notas menciona a viagem", "Keine deiner Notizen
        # erwähnt ...": no stored item of the user's says it. A bare note, entry, memory
        # or record is the user's; documents, files, lists and recipes only when saved or
        # possessed ("None of these recipes mention saffron" is a cookbook).
        "no-note-mentions",
        _QS,
        _rx(
            rf"\b(?:none\s+of\s+(?:your|the|my)\s+|no\s+)(?:{_NOTE_QUALIFIER}\s+)?(?:{_NOTE_NOUNS_EN})"
            r"\s+(?:\w+\s+){0,3}?(?:mentions?|refers?\s+to|says?|contains?|talks?\s+about"
            r"|includes?)\b"
            r"|\baucune?\s+(?:de\s+(?:tes|vos|mes)\s+)?(?:notes?|entr[ée]es?|souvenirs?|fiches?"
            r"|conversations?)\s+(?:\w+\s+){0,3}?ne\s+(?:mentionne|parle|[ée]voque|contient|cite"
            r"|fait\s+mention)"
            r"|\bninguna?\s+(?:de\s+(?:tus|sus|mis)\s+)?(?:notas?|entradas?|recuerdos?"
            r"|conversaciones?|apuntes?)\s+(?:\w+\s+){0,3}?(?:menciona|habla|recoge|contiene|cita)\b"
            r"|\bnenhum[a]?\s+(?:d[ao]s\s+(?:suas|tuas|seus|teus|minhas)\s+)?(?:notas?"
            r"|anota[çc][õo]es|entradas?|mem[óo]rias?|conversas?|registos?|registros?)"
            r"\s+(?:\w+\s+){0,3}?(?:menciona|fala|cita|cont[ée]m|refere)\b"
            r"|\bkeine?[rs]?\s+(?:(?:deiner|Ihrer|meiner)\s+)?(?:\w+\s+)?(?:Notiz(?:en)?|Eintr[äa]ge?"
            r"|Erinnerung(?:en)?|Gespr[äa]che?)\s+(?:\w+\s+){0,3}?(?:erw[äa]hnt|nennt|enth[äa]lt)\b"
            r"|\bnessun[ao]?\s+(?:(?:dei\s+tuoi|delle\s+tue|dei\s+suoi|delle\s+sue)\s+)?(?:note|nota"
            r"|appunt[io]|voc[ei]|ricord[io]|conversazion[ei])\s+(?:\w+\s+){0,3}?(?:menziona|parla"
            r"|cita|contiene|riporta)\b"
            r"|\bgeen\s+(?:van\s+(?:je|jouw|uw)\s+)?(?:notities?|aantekeningen|herinneringen"
            r"|gesprekken)\s+(?:\w+\s+){0,3}?(?:noemt|vermeldt|bevat|gaat\s+over)\b"
        ),
    ),
)

# Negated telling in the other gate languages: the user (second person, polite or
# familiar) never told the assistant, or "we never talked about it"; the impersonal
# forms ("non si è mai parlato", "nunca foi registado") only with our conversations
# named. Each needs the first-person listener or the shared conversation, so "your
# colleague says you never told her" is not one.
_OUR_TALKS = (
    r"(?:tra\s+(?:di\s+)?noi|nelle\s+nostre|nei\s+nostri|entre\s+n[óo]s|nas\s+nossas"
    r"|nos\s+nossos|en\s+nuestras|entre\s+nosotros|dans\s+nos|entre\s+nous"
    r"|in\s+unseren|zwischen\s+uns|in\s+onze|tussen\s+ons|con\s+me|comigo|conmigo"
    r"|avec\s+moi|mit\s+mir|met\s+mij)"
)
# Reported speech in the other gate languages: someone says that the user never told.
_OTHER_REPORT_RX = re.compile(
    r"\b(?:dit|disent|affirme|pr[ée]tend|dice|dicen|afirma|asegura|sostiene|dicono|afferma"
    r"|diz|dizem|disse|sagt|sagen|meint|behauptet|zegt|zeggen|beweert|secondo|selon|seg[úu]n"
    r"|segundo|laut|volgens|mi\s+dici|me\s+dices|me\s+dizes|tu\s+dis|vous\s+dites|du\s+sagst)\b",
    re.IGNORECASE,
)
_IT_IMPERSONAL = (
    r"\bnon\s+(?:ne\s+)?(?:si\s+[èe]|abbiamo)\s+mai\s+(?:parlato|discusso)\b"
    r"|\bnon\s+(?:[èe]|sono)\s+mai\s+(?:stat[oaie]\s+)?(?:compars[oaie]|emers[oaie]"
    r"|nominat[oaie]|menzionat[oaie]|citat[oaie]|uscit[oaie]\s+fuori)\b"
)
_OTHER_LANGUAGE_RULES: tuple[_Rule, ...] = (
    _Rule(
        "it-you-never-told",
        _CW,
        _rx(
            r"\bn(?:o)?n\s+(?:(?:mi\s+|me\s+(?:l'|ne\s+)|ce\s+ne\s+|ci\s+)(?:hai|ha|avevi|aveva|avete"
            r"|avevate)|hai|avevi|avete|avevate)\s+mai\s+(?:detto|parlato|accennato|raccontato|menzionato|nominato"
            r"|spiegato|fatto\s+(?:parola|cenno)|comunicato|scritto|dato|indicato|citato)\b"
            # told to someone else ("non hai mai detto al tuo capo"): the user's life
            r"(?!\s+(?:al|alla|allo|ai|alle|agli)\s|\s+a\s+(?!me\b))"
            r"|\bnon\s+mi\s+(?:hai|avevi|ha|aveva)\s+(?:detto|raccontato|accennato|scritto)\s+(?:nulla"
            r"|niente)\b"
            # "mai" fronted, with no "non" ("Mai mi hai detto come si chiama")
            r"|\bmai\s+(?:mi\s+|me\s+(?:l'|ne\s+)|ce\s+ne\s+|ci\s+)(?:hai|ha|avevi|aveva|avete"
            r"|avevate)\s+(?:detto|parlato|accennato|raccontato|menzionato|nominato|spiegato"
            r"|scritto|indicato|citato)\b(?!\s+(?:al|alla|allo|ai|alle|agli)\s)"
        ),
    ),
    _Rule("it-never-talked", _CW, _rx(_IT_IMPERSONAL), needs_after=_rx(_OUR_TALKS)),
    _Rule("it-never-talked-here", _CW, _rx(rf"{_OUR_TALKS}[^.;!?]{{0,80}}?{_IT_IMPERSONAL}")),
    _Rule(
        "pt-you-never-told",
        _CW,
        _rx(
            r"\b(?:voc[êe]|tu|o\s+senhor|a\s+senhora)\s+(?:nunca|jamais)\s+(?:me\s+)?(?:tinha\s+)?"
            r"(?:me\s+)?(?:falou|disse|contou|mencionou|comentou|referiu|falado|dito|contado"
            r"|mencionado)\b"
            # told to someone else ("você nunca contou ao seu chefe"): the user's life
            # ("a" alone is also the article: "nunca me disse a sua idade" is a claim)
            r"(?!\s+(?:ao|aos|à|às|para\s+(?:o|a|os|as)|a\s+ningu[ée]m)\s)"
            r"|\b(?:nunca|jamais)\s+me\s+(?:tinhas\s+|tinha\s+)?(?:falaste|disseste|contaste|mencionaste"
            r"|comentaste|referiste|falado|dito|contado|contou|disse|falou|mencionou|comentou)\b"
            r"|\bn[ãa]o\s+me\s+(?:tinhas\s+)?(?:falaste|disseste|contaste|mencionaste|referiste)"
            r"\s+(?:nunca|jamais)\b"
            r"|\bnunca\s+(?:conversamos|convers[áa]mos|falamos|fal[áa]mos|tratamos|trat[áa]mos"
            r"|abordamos|abord[áa]mos)\s+(?:sobre|de|da|do|das|dos|disso|dessa|desse|nisso)\b"
            # the periphrasis "chegar a" ("nunca chegou a me dizer", "nunca me chegaste a contar")
            r"|\b(?:nunca|jamais)\s+(?:me\s+(?:chegou|chegaste|chegaram)\s+a\s+"
            rf"{_PT_TELL_INF}|(?:chegou|chegaste|chegaram)\s+a\s+(?:me\s+{_PT_TELL_INF}"
            rf"|{_PT_TELL_INF}-me))"
            r"|\b(?:nunca|jamais)\s+chegaste\s+a\s+" + _PT_TELL_INF
        ),
    ),
    _Rule(
        "es-you-never-told",
        _CW,
        _rx(
            r"\b(?:nunca|jam[áa]s)\s+(?:dijiste|contaste|mencionaste|comentaste)\b"
            r"|\b(?:nunca|jam[áa]s)\s+me\s+(?:has\s+|hab[ií]as\s+|ha\s+|hab[ií]a\s+)?"
            r"(?:dijiste|contaste|hablaste|comentaste|mencionaste|dicho|contado|hablado"
            r"|comentado|mencionado)\b"
            r"|\bno\s+me\s+(?:has|hab[ií]as)\s+(?:dicho|contado|hablado|comentado|mencionado)"
            r"\s+nunca\b"
            r"|\bnunca\s+(?:hemos\s+|hab[ií]amos\s+)?(?:hablamos|hablado|comentamos|comentado"
            r"|tratamos|tratado)\s+(?:de|del|sobre)\b"
            # the periphrasis "llegar a" ("nunca llegaste a contarme", "nunca me llegó a decir")
            # (the second person alone, or "me" with the third: "Ana nunca llegó a contar")
            r"|\b(?:nunca|jam[áa]s)\s+(?:me\s+)?(?:llegaste|llegasteis|has\s+llegado)\s+a\s+"
            rf"{_ES_TELL_INF}(?:me(?:lo|la|los|las)?)?\b"
            r"|\b(?:nunca|jam[áa]s)\s+(?:me\s+(?:lleg[óo]|llegaron|ha\s+llegado)\s+a\s+"
            rf"{_ES_TELL_INF}|(?:lleg[óo]|llegaron|ha\s+llegado)\s+a\s+{_ES_TELL_INF}me)"
        ),
    ),
    _Rule(
        "fr-you-never-told",
        _CW,
        _rx(
            r"\b(?:vous|tu)\s+ne\s+m'(?:en\s+)?(?:avez|as|aviez|avais)\s+jamais\s+(?:dit|parl[ée]"
            r"|mentionn[ée]|racont[ée]|indiqu[ée]|pr[ée]cis[ée]|confi[ée]|[ée]voqu[ée]|signal[ée])\b"
            r"|\b(?:nous\s+n'avons|on\s+n'a)\s+jamais\s+(?:parl[ée]|discut[ée]|abord[ée]"
            r"|[ée]voqu[ée])\b"
            r"|\b(?:vous|tu)\s+n'(?:avez|as|aviez|avais)\s+jamais\s+(?:[\w-]+\s+)?(?:signal[ée]"
            r"|mentionn[ée]|[ée]voqu[ée]|parl[ée]|indiqu[ée]|pr[ée]cis[ée])\b"
            r"|\b[àa]\s+aucun\s+moment\s+(?:vous|tu)\s+(?:ne\s+m'|n')(?:en\s+)?(?:avez|as)\s+"
            r"(?:dit|parl[ée]|mentionn[ée]|[ée]voqu[ée]|signal[ée]|indiqu[ée])\b"
        ),
    ),
    _Rule(
        "de-you-never-told",
        _CW,
        _rx(
            r"\b(?:du|(?-i:Sie))\s+(?:hast|haben|hattest|hatten)\s+(?:mir\s+|uns\s+)?"
            r"(?:[\w-]+\s+){0,5}?(?:nie|niemals|noch\s+nie)\s+(?:[\w-]+\s+){0,5}?"
            r"(?:erz[äa]hlt|erw[äa]hnt|gesagt|genannt|verraten|mitgeteilt|angesprochen)\b"
            r"|\bwir\s+haben\s+(?:[\w-]+\s+){0,4}?(?:nie|niemals|noch\s+nie)\s+"
            r"(?:[\w-]+\s+){0,4}?(?:gesprochen|geredet)\b"
            r"|\b(?:hast|hattest)\s+du\s+(?:mir|uns)\s+(?:[\w-]+\s+){0,3}?(?:nie|niemals|noch\s+nie)"
            r"\s+(?:[\w-]+\s+){0,5}?(?:erz[äa]hlt|erw[äa]hnt|gesagt|genannt|verraten|mitgeteilt)\b"
            # "not a word" ("Von einem Knieproblem hast du bisher kein Wort gesagt")
            r"|\b(?:(?:du|(?-i:Sie))\s+(?:hast|haben|hattest|hatten)|(?:hast|hattest)\s+du"
            r"|(?-i:haben|hatten)\s+(?-i:Sie))\s+(?:mir\s+|uns\s+)?(?:(?:bisher|noch|bis\s+jetzt"
            r"|jemals|je|davon|dazu|dar[üu]ber|mal|[üu]berhaupt|ja|doch|also)\s+){0,3}"
            r"(?:kein|nicht\s+ein)\s+(?:einziges\s+)?Wort\s+(?:[\w-]+\s+){0,4}?"
            r"(?:gesagt|erz[äa]hlt|verloren|erw[äa]hnt|geschrieben)\b"
        ),
    ),
    _Rule(
        # "Zu Ihrer Steuererklärung liegt mir nichts vor", "hab ich gar nix gespeichert",
        # "No guardo ningún dato sobre ...", "Non ho in archivio nemmeno una riga",
        # "Della tua laurea non so assolutamente nulla"
        "nothing-on-file-other-languages",
        _CW,
        _rx(
            r"\b(?:liegt|liegen|lag|lagen)\s+mir\s+(?:(?:gar|[üu]berhaupt|leider|bisher|noch"
            r"|dazu|dar[üu]ber|davon)\s+)*(?:nichts|nix|keine\s+(?:Daten|Angaben|Informationen"
            r"|Unterlagen|Eintr[äa]ge|Notizen))\s+vor\b"
            r"|\b(?:hab|habe|hatte)\s+ich\s+(?:(?:gar|[üu]berhaupt|leider|bisher|noch|dazu"
            r"|dar[üu]ber|davon|dir|von\s+dir)\s+)*(?:nichts|nix)\s+(?:[\w-]+\s+){0,2}?"
            r"(?:gespeichert|abgespeichert|notiert|abgelegt|hinterlegt|vermerkt|gemerkt)\b"
            r"|\bich\s+(?:hab|habe|hatte)\s+(?:(?:gar|[üu]berhaupt|leider|bisher|noch|dazu"
            r"|dar[üu]ber|davon)\s+)*(?:nichts|nix)\s+(?:[\w-]+\s+){0,4}?(?:gespeichert"
            r"|abgespeichert|notiert|abgelegt|hinterlegt|vermerkt)\b"
            # (about the user's own things: "no guardo nada entre sesiones" is a capability)
            r"|\bno\s+(?:guardo|conservo|tengo\s+(?:guardad[oa]s?|registrad[oa]s?|anotad[oa]s?"
            r"|apuntad[oa]s?))\s+(?:ning[úu]n\w*\s+\w+|nada|\w+\s+algun[oa])\s+(?:sobre|de|del"
            r"|acerca\s+de|respecto\s+a)\s+(?:tus?|sus?|vuestr\w+)\b"
            r"|\bcarezco\s+de\s+(?:cualquier|todo|ning[úu]n)\s+(?:recuerdo|dato|registro|informaci[óo]n)\b"
            # "Não há nada guardado sobre o seguro", "Zu deiner Zahnärztin habe ich keine
            # Einträge"
            r"|\b(?:n[ãa]o\s+h[áa]|no\s+hay|non\s+c'[èe])\s+(?:nada|nulla|niente)\s+(?:di\s+)?"
            r"(?:guardad[oa]|salv[oa]|salvat[oa]|registad[oa]|registrad[oa]|anotad[oa]|memorizzat[oa]"
            r"|archiviat[oa])\s+(?:sobre|acerca|de|do|da|del|della|sul|sulla|su)\b"
            r"|\bil\s+n'y\s+a\s+rien\s+d'(?:enregistr[ée]|not[ée]|gard[ée]|m[ée]moris[ée])\s+sur\b"
            r"|\b(?:habe|hab)\s+ich\s+(?:(?:gar|leider|noch|bisher|[üu]berhaupt)\s+)*keine\s+"
            r"(?:Eintr[äa]ge|Notizen|Daten|Informationen|Angaben|Unterlagen)\b"
            r"|\bich\s+(?:habe|hab)\s+(?:(?:gar|leider|noch|bisher|[üu]berhaupt)\s+)*keine\s+"
            r"(?:Eintr[äa]ge|Notizen|Daten|Informationen|Angaben|Unterlagen)\s+(?:zu|[üu]ber|von)\b"
            r"|\bnon\s+ho\s+(?:in\s+archivio|salvat[oa]|memorizzat[oa]|registrat[oa]"
            r"|annotat[oa])\s+(?:(?:proprio|assolutamente|ancora)\s+)?(?:nulla|niente|nemmeno"
            r"|neanche|nessun[oa]?)\b"
            r"|\bnon\s+so\s+(?:(?:proprio|assolutamente|ancora)\s+)?(?:nulla|niente)\s+"
            r"(?:di|del|della|dello|dei|delle|sul|sulla|sui|sulle)\s+(?:tu[oaei]|suo|sua|vostr\w)\b"
            r"|\b(?:di|del|della|dello|dei|delle|sul|sulla|sui|sulle)\s+(?:tu[oaei]|vostr\w)\s+"
            r"[^.;!?]{1,60}?\bnon\s+so\s+(?:(?:proprio|assolutamente|ancora)\s+)?(?:nulla|niente)\b"
        ),
    ),
    _Rule(
        # "Sobre o seu plano de saúde, a minha memória está completamente vazia"
        "memory-is-empty-other-languages",
        _CW,
        _rx(
            r"\b(?:(?:a\s+)?minha|mi|ma|la\s+mia|meine?|mijn)\s+(?:mem[óo]ria|m[ée]moire|Ged[äa]chtnis"
            r"|Speicher|geheugen)\s+(?:est[áa]|es|est|[èe]|ist|is)\s+(?:(?:completamente|totalmente"
            r"|compl[èe]tement|totalement|del\s+tutto|v[öo]llig|komplett|ganz|helemaal)\s+)?"
            r"(?:vazia|vac[íi]a|vide|vuota|leer|leeg)\b"
        ),
    ),
    _Rule(
        # "Die Memory-Abfrage für „Gitarrenunterricht“ ist leer zurückgekommen", "Le filtre
        # appliqué à vos notes ne fait remonter aucun document", "Found 0 notes containing"
        "search-came-back-empty-other-languages",
        _QS,
        _rx(
            r"\b(?:suche|abfrage|recherche)\b[^.;!?]{0,60}?\b(?:ist|war|kam)\s+(?:leer"
            r"|ergebnislos|ohne\s+(?:Ergebnis|Treffer))\b"
            r"|\bne\s+fait\s+(?:remonter|ressortir|appara[îi]tre)\s+(?:rien|aucun\w*)\b"
            r"|^\s*found\s+(?:0|zero|no)\s+(?:notes?|entries|records?|matches|results|messages?)\b"
        ),
    ),
    _Rule(
        # "There are no memories matching 'Eindhoven interview'", "No hay notas que
        # coincidan con": stored items matching a query, none
        "no-stored-items-matching",
        _QS,
        _rx(
            r"\bthere(?:'s|\s+is|\s+are|\s+were|\s+was)\s+no\s+(?:saved\s+|stored\s+)?"
            r"(?:memories|notes|entries|records|messages)\s+(?:matching|that\s+match(?:es)?"
            r"|containing)\b"
            r"|\bno\s+hay\s+(?:notas|entradas|registros|mensajes|recuerdos)\s+(?:guardad[oa]s\s+)?"
            r"que\s+coincidan\b"
        ),
    ),
    _Rule(
        # "Não tenho nenhuma informação sobre alergias suas", "Je n'ai aucune information
        # sur ton bail", "Non ho nessuna informazione sul tuo contratto"
        "no-information-about-other-languages",
        _CW,
        _rx(
            r"\bn[ãa]o\s+tenho\s+(?:nenhuma|qualquer)\s+(?:informa[çc][ãa]o|nota|registo|registro"
            r"|dado)\s+(?:guardad[oa]\s+)?(?:sobre|acerca|de|do|da|dos|das)\b"
            r"|\bje\s+n'ai\s+aucune\s+(?:information|note|donn[ée]e|trace)\s+(?:enregistr[ée]e\s+)?"
            r"(?:sur|concernant|[àa]\s+propos)\b"
            r"|\bnon\s+ho\s+(?:nessuna|alcuna)\s+(?:informazione|nota|traccia)\s+(?:salvata\s+)?"
            r"(?:su|sul|sulla|sui|sulle|riguardo|di|del|della)\b"
            r"|\bno\s+tengo\s+ninguna\s+(?:informaci[óo]n|nota)\s+(?:guardada\s+)?(?:sobre|acerca"
            r"|de|del)\b"
        ),
    ),
    _Rule(
        # "No saved message matches 'ferry Gdańsk'" in the gate languages
        "no-saved-item-matches",
        _QS,
        _rx(
            # the item said to be saved, before or after its noun ("aucun message ne
            # correspond" alone may be a mailbox's)
            r"\b(?:no|ning[úu]n[oa]?|nessun[oa]?|nenhum[a]?|aucun[e]?|kein[e]?|geen(?:\s+enkel)?)\s+"
            r"(?:(?:saved|stored|gespeicherte?|bewaarde?|opgeslagen)\s+(?:messages?|notes?"
            r"|entr(?:y|ies)|Nachricht(?:en)?|Notiz(?:en)?|Eintr[äa]ge?|bericht(?:en)?|notities?"
            r"|items?)|(?:mensajes?|notas?|entradas?|messaggi[oa]?|voci|voce|mensage[mn]s?"
            r"|messages?|notes?|entr[ée]es?)\s+(?:guardad[oa]s?|salvat[oa]|enregistr[ée]e?s?"
            r"|memorizzat[oa]|archivad[oa]s?))\s+(?:ne\s+)?(?:coincide|corrisponde|corresponde"
            r"|correspond|matches|komt\s+overeen|passt|entspricht|match)\b"
        ),
    ),
    _Rule(
        # "Rien ne remonte quand je cherche « mot de passe Wi-Fi » dans vos notes"
        "fr-nothing-comes-up",
        _QS,
        _rx(r"\brien\s+ne\s+(?:remonte|ressort|sort|appara[îi]t|s'affiche)\b"),
        needs_after=_rx(r"\bcherch\w*|\brecherch\w*"),
    ),
    _Rule(
        "nl-you-never-told",
        _CW,
        _rx(
            r"\b(?:je|jij|u)\s+(?:hebt|heeft|had)\s+(?:het\s+)?(?:me|mij)\s+(?:[\w-]+\s+){0,3}?"
            r"nooit\s+(?:[\w-]+\s+){0,4}?(?:verteld|gezegd|genoemd)\b"
            r"|\b(?:heb|had)\s+(?:je|jij|u)\s+(?:het\s+)?(?:me|mij)\s+(?:[\w-]+\s+){0,3}?nooit\s+"
            r"(?:[\w-]+\s+){0,4}?(?:verteld|gezegd|genoemd)\b"
        ),
    ),
)

# "Searched everything I have: nothing." - an empty verdict right after a search clause.
_EMPTY_VERDICT_RX = _rx(
    r"(?:nothing|none|zero|zilch|empty|no\s+(?:results?|matches|hits|luck))"
    r"(?:\s+(?:at\s+all|whatsoever|relevant|useful|came\s+up|turned\s+up))?$"
    r"|no\s+(?:[\w-]+\s+)?(?:records?|mentions?|traces?|notes?|signs?|entr(?:y|ies))\b"
    r"|(?:it|that|this|which|they)\s+(?:\w+ly\s+)?(?:(?:returned|turned\s+up|found|yielded"
    r"|produced|gave(?:\s+me)?|showed|got|came\s+back\s+with)\s+(?:nothing|none|zero\b"
    r"|no\b|not\s+a\b)|(?:came\s+back|came\s+up|was|were|turned\s+out)\s+(?:empty|blank"
    r"|dry)\b|did(?:n'?t|\s+not)\s+(?:return|find|turn\s+up|surface|show)\s+any)"
    r"|there(?:'s|\s+is|\s+are|\s+was|\s+were)\s+(?:nothing|no\s+(?:[\w-]+\s+)?(?:mentions?"
    r"|records?|notes?|results?|match(?:es)?|hits?|traces?|entr(?:y|ies)))\b"
    # the other gate languages' bare verdicts ("durchforstet – Fehlanzeige", "gesucht:
    # null Treffer", "procurando ..., sem sucesso", "j'ai cherché : chou blanc")
    r"|(?:rien|aucun\s+r[ée]sultat|z[ée]ro\s+r[ée]sultat|0\s+r[ée]sultat|chou\s+blanc|nada"
    r"|ning[úu]n\s+resultado|sin\s+(?:resultados?|[ée]xito|suerte)|cero\s+resultados|nichts"
    r"|null\s+treffer|keine\s+treffer|kein\s+treffer|fehlanzeige|ergebnislos|nulla|niente"
    r"|nessun\s+risultato|zero\s+risultati|buco\s+nell'acqua|nenhum\s+resultado"
    r"|sem\s+(?:sucesso|resultados?)|zero\s+resultados|niets|leer|vide|vac[íi]o|vuoto|vazio"
    r"|leeg|geen\s+(?:resultaten|treffers"
    r"|resultaat)|nul\s+resultaten"
    # zero of any kind of hit ("zero correspondências", "zéro correspondance", "0 Treffer")
    r"|(?:aucun[e]?|ning[úu]n[oa]?|nessun[oa]?|nenhum[a]?|kein[e]?|geen|no)\s+(?:[\w-]+\s+)?"
    r"(?:correspondant[e]?s?|coincidentes?|corrispondent[ei]|correspondentes?|passende[rns]?"
    r"|overeenkomend\w*|matching)\b"
    r"|(?:zero|z[ée]ro|cero|null|nul|0)\s+(?:correspond[êe]ncias?|correspondances?"
    r"|coincidencias?|corrispondenze|ocorr[êe]ncias|entradas|entr[ée]es|voci|ergebnisse?"
    r"|eintr[äa]ge|treffer|hits|resultaten|matches|entries))"
    r"(?:\s+(?:de\s+nada|de\s+rien|du\s+tout|at\s+all))?"
    # and what was searched for ("zero resultados para «Recife»", "0 Treffer für Bern")
    r"(?:\s+(?:para|pour|per|f[üu]r|voor|sobre|sur|su|zu|for)\s+[^.!?;]{1,60})?$"
)
# Idioms of coming back empty, read anywhere in a clause that follows a search or holds
# one ("stand am Ende mit leeren Händen da", "je suis revenu bredouille", "ni rastro").
_EMPTY_IDIOM_RX = _rx(
    r"\b(?:came\s+(?:up|back)\s+empty(?:-handed)?|drew\s+a\s+blank|zip|zilch|nada|bredouille"
    r"|les\s+mains\s+vides|que\s+dalle|chou\s+blanc|ni\s+rastro|sin\s+rastro|las\s+manos\s+vac[íi]as"
    r"|mit\s+leeren\s+h[äa]nden|fehlanzeige|buco\s+nell'acqua|a\s+mani\s+vuote|un\s+nulla"
    r"|de\s+m[ãa]os\s+vazias|sem\s+rastro|nem\s+sinal|met\s+lege\s+handen|leverde\s+(?:niks|niets)"
    r"\s+op|bot\s+gevangen|sali[óo]\s+en\s+blanco|kwam\s+(?:er\s+)?(?:niks|niets)\s+uit"
    r"|n[ãa]o\s+surgiu\s+(?:nada|nenhum\w*|uma\s+[úu]nica)|nulla\s+di\s+fatto)\b"
    # "there is none" in the other gate languages ("não há entradas", "non c'è nulla")
    r"|\b(?:il\s+n'y\s+(?:a|avait)\s+(?:rien|aucun\w*|pas\s+de)|no\s+hay\s+(?:nada|ning[úu]n\w*"
    r"|registros?|notas?|entradas?)|es\s+gibt\s+(?:keine\w*|nichts)|non\s+c'[èe]\s+(?:nulla|niente"
    r"|nessun\w*)|n[ãa]o\s+h[áa]\s+(?:nada|nenhum\w*|registos?|registros?|notas?|entradas?)"
    r"|er\s+(?:is|staat|zijn)\s+(?:niets|niks|geen))\b"
)
# A search's outcome named by a noun or adjective of nothing found ("came back with
# nothing", "blieb ergebnislos", "l'esito è negativo", "resultou infrutífera", "sans
# succès", "sin coincidencias", "kein einziger Treffer", "nul treffers"): read in a
# clause after its search, wherever the search stands in the sentence or in the one
# before (a closed class, unlike _EMPTY_IDIOM_RX's "there is none", which only the
# search's own or next clause can make a verdict).
_NULL_OUTCOME_RX = _rx(
    r"\b(?:came\s+back\s+with\s+(?:nothing|zero|no\b)|(?:did(?:n'?t|\s+not)|failed\s+to)"
    r"\s+(?:surface|return|turn\s+up|bring\s+up|pull\s+up|find)\s+(?:a\s+single|one\s+single"
    r"|any)\b|to\s+no\s+avail|in\s+vain|fruitless(?:ly)?|without\s+(?:any\s+)?(?:luck|success"
    r"|results?|a\s+(?:single\s+)?(?:hit|match))|not\s+a\s+single\s+(?:hit|match|result|mention"
    r"|entry|message|note|record|trace)"
    r"|n[ée]ant|sans\s+(?:aucun\s+)?(?:succ[èe]s|r[ée]sultats?|correspondance)|infructueu(?:x|se)"
    r"|rest[ée]e?s?\s+vaines?|n'a\s+rien\s+donn[ée]|pas\s+(?:un\s+seul|une\s+seule)\s+(?:r[ée]sultat"
    r"|occurrence|correspondance|mention|entr[ée]e)|aucune\s+occurrence"
    r"|sin\s+(?:ninguna\s+)?coincidencias?|en\s+vano|infructuos[ao]s?|vinieron\s+vac[íi][oa]s"
    r"|volvi(?:eron|[óo])\s+vac[íi][oa]s?|no\s+(?:dio|arroj[óo])\s+(?:nada|ning[úu]n|resultados?)"
    r"|ergebnislos|erfolglos|vergeblich|fehlanzeige|ohne\s+(?:jeden\s+)?(?:erfolg|ergebnis|treffer)"
    r"|kein(?:e[nr]?)?\s+einzige[nr]?\s+treffer|nichts\s+(?:ergeben|gebracht|zutage\s+gef[öo]rdert)"
    r"|(?:l'esito|il\s+risultato)\s+(?:[èe]|[èe]\s+stato|risulta)\s+negativo|esito\s+negativo"
    r"|senza\s+(?:alcun\s+)?(?:esito|risultat[oi]|successo|riscontr[oi])|invano|infruttuos[ao]"
    r"|nessun\s+riscontro|andat[aoei]\s+a\s+vuoto|rimast[aoei]\s+a\s+secco"
    r"|non\s+ha\s+dato\s+(?:alcun\w*\s+)?(?:esito|risultat[oi]|frutti?)"
    r"|infrut[íi]fer[ao]s?|em\s+v[ãa]o|sem\s+(?:[êe]xito|nenhum\s+resultado)|resultado\s+negativo"
    r"|n[ãa]o\s+deu\s+em\s+nada|voltou\s+vazi[ao]"
    r"|geen\s+(?:enkele\s+)?treffers?|nul\s+treffers|zonder\s+(?:resultaat|succes)|tevergeefs"
    r"|vruchteloos|niets\s+opgeleverd|(?:krijg|kreeg)\s+ik\s+(?:niks|niets)\s+terug)\b"
)
# A try (or a questioning) is a search when the memory is named beside it ("Hice dos intentos en tu
# memoria ...", "j'ai essayé ... dans la mémoire de nos sessions, sans succès").
_TRIED_RX = _rx(
    r"\b(?:tried|attempts?|essay[ée]|tent[ée]|tentatives?|intent[ée]|intentado|intentos?"
    r"|provato|tentativ[oi]|tentei|tentativas?|geprobeerd|pogingen|poging|versucht|versuche?"
    # asking the memory as one asks a person ("die Erinnerungsdatenbank befragt")
    r"|befragt|interpellato|interrogato)\b"
)
_SEARCH_VERB_RX = _rx(
    r"\b(?:search(?:ed|ing)?|looked|looking|checked|checking|lookup|look-up|queried|scanned"
    r"|went\s+through|going\s+through|combed|combing|dug|digging|durchk[äa]mmt|peinado"
    r"|pein[ée]|uitgekamd|miré|mirado|guardato|olhei"
    r"|cherch[ée]|cherchant|fouill[ée]|fouillant|parcouru|v[ée]rifi[ée]|consult[ée]|consultei"
    r"|consultado|busqu[ée]|buscado|buscando"
    r"|revis[ée]|revisado|rastre[ée]|gesucht|durchsucht|durchforstet"
    r"|nachgesehen|nachgeschaut|abgefragt|cercato|cercando|controllato|verificato|frugato"
    r"|procurei|procurado|procurando|pesquisei|pesquisado|verifiquei|vasculhei|gezocht"
    r"|doorzocht|nagekeken|gecontroleerd"
    # the search named as a noun ("Memory-Suche nach „Blutdruck“: 0 Treffer")
    r"|suche|recherche|b[úu]squeda|ricerca|pesquisa|zoektocht|zoekopdracht|abfrage|buscador"
    r"|nagelopen|doorgelopen|nachgeschlagen|durchgesehen|(?:na|op)gezocht"
    # sifting verbs ("j'ai épluché tes messages", "filtré ta mémoire", "scoured")
    r"|[ée]pluch[ée]|filtr[ée]|filtrado|filtrato|gefiltert|gefilterd|filtrei|filtered|sifted"
    r"|scoured|trawled|passé\s+au\s+peigne\s+fin|passat[oa]\s+in\s+rassegna"
    r"|(?:door|terug)gebladerd)\b"
)
# Searches named by nouns that are searches only before a null outcome (_NULL_OUTCOME_RX):
# "a busca" and "la verifica" also fail or pass ("A busca falhou por um erro de conexão").
_SEARCH_NOUN_RX = _rx(
    r"\b(?:query|queries|requ[êe]te|interrog(?:[ée]e?s?|eant|ation|azione)"
    r"|(?:una|la)\s+verifica"
    r"|a\s+(?:procura|busca))\b"
)

# Cheap pre-filter: a clause without any of these cannot match a rule.
_TRIGGER_RX = re.compile(
    r"\b(?:no|not|never|nowhere|nothing|none|zero|0|empty|blank|first|unable|failed|cannot"
    r"|lack|lacking|missing|yet\s+to"
    # the other languages' "never" (their negated-telling rules)
    r"|mai|nunca|jamais|jam[áa]s|nie|niemals|nooit|non|nulla|niente|rien|nada|nichts|niets"
    r"|nenhum[a]?|nessun[oa]?|aucun[e]?|ning[uú]n[oa]?|kein\w*|geen|nix|carezco|leer|vide"
    r"|vac[íi][oa]|vuot[oa]|vazi[oa]|leeg"
    # the states of emptiness of the blank-memory rule ("are silent on", "tacciono")
    r"|blank|silent|vides?|vierges?|muet\w*|taisent|d[ée]sert|blanco|mud[oa]s?|ausencia"
    r"|silencio|stumm|schweig\w*|Zeile|Silbe|Abwesenheit|tac(?:e|ciono)|bianco|riga|parola"
    r"|branco|calad[oa]s?|linha|palavra|refer[êe]ncias|aus[êe]ncia|zwijg\w*|afwezigheid|trace"
    r"|ligne|l[íi]nea|palabra|regel|woord)\b"
    r"|n'?t\b",
    re.I,
)

# ---- hedges ---------------------------------------------------------------------------
_NEG = r"(?:\bnot|n'?t)"
_COVERAGE_HEDGE_RX = _rx(
    r"\bincomplete\b|\bnon-?exhaustive\b|\bpartial(?:ly)?\b|\bpartly\b"
    rf"|{_NEG}\s+(?:(?:be|been|have|having|an?|the|fully|entirely|necessarily|very|quite"
    r"|truly|really)\s+){0,3}(?:complete|exhaustive|comprehensive|thorough|full|conclusive)\b"
    r"|\b(?:may|might|could)\s+(?:well\s+|still\s+|also\s+)?(?:have\s+)?(?:missed|miss"
    r"|overlooked|overlook|forgotten)\b"
    r"|\b(?:may|might)\s+(?:well\s+|still\s+|also\s+)?not\s+(?:have|be|include|cover"
    r"|capture|show|reflect|contain|find|surface|see)\b"
    r"|\b(?:may|might|could)\s+(?:still\s+)?(?:be|exist)\s+(?:more|other|elsewhere|somewhere"
    r"|something|records|notes)\b"
    r"|\bthere\s+(?:may|might|could)\s+(?:still\s+|well\s+)?be\s+(?:[\w-]+\s+)?(?:more|other"
    r"|something|records?|notes?|mentions?|matches|entries|conversations|messages)\b"
    r"|\bbest[- ]effort\b|\bapproximate\b|\bnot\s+guaranteed\b|\bno\s+guarantee\b"
    r"|\bdoes(?:n'?t|\s+not)\s+(?:necessarily\s+)?mean\b"
    r"|\b(?:hei(?:ß|ss)t|bedeutet)\s+(?:aber\s+|noch\s+|doch\s+)?nicht\b|\bne\s+(?:veut|voulait)\s+pas"
    r"\s+(?:forc[ée]ment\s+)?dire\b|\bne\s+signifie\s+pas\b|\bno\s+(?:significa|quiere\s+decir)\b"
    r"|\bnon\s+(?:significa|vuol\s+dire)\b|\bn[ãa]o\s+(?:significa|quer\s+dizer)\b"
    r"|\b(?:betekent|wil)\s+(?:\w+\s+)?niet\s+(?:zeggen\b)?"
    r"|\b(?:is|was)(?:n'?t|\s+not)\s+to\s+say\b"
    r"|\bis(?:n'?t|\s+not)\s+(?:necessarily\s+)?(?:proof|evidence)\b"
    r"|\b(?:unavailable|unreachable|offline|timed\s+out|timing\s+out)\b"
    r"|\b(?:search|lookup|retrieval|memory|query|service|source)\s+(?:[\w-]+\s+){0,3}?failed\b"
    r"(?!\s+to\s+(?:return|find|turn|surface|show|produce|yield|match|bring|get))"
    r"|\b(?:could(?:n'?t|\s+not)|ca(?:n'?t|nnot)|was(?:n'?t|\s+not)\s+able\s+to|unable\s+to"
    r"|failed\s+to)\s+(?:\w+ly\s+)?(?:reach|access|search|connect(?:\s+to)?|load|check|query)"
    r"(?:\s+(?:[\w'-]+\s+){0,2}?(?:memory|memories|history|records?|notes|conversations?"
    r"|archives?|store|database|index|everything|all\b|it\b)|\s*$)"
    # the same qualifiers in the other gate languages
    r"|\b(?:incomplet[aeos]?s?|incompleta|parcial(?:es|is)?|partiel(?:le)?s?|parzial[ei]"
    r"|unvollst[aä]ndig\w*|teilweise|onvolledig|gedeeltelijk|non\s+esaustiv[aoie]"
    r"|(?:pas|non|não|no)\s+exhausti\w+|nicht\s+vollst[aä]ndig)\b"
    # interrupted, stopped midway, unreachable, could not access
    r"|\b(?:interrompu\w*|s'est\s+arr[êe]t[ée]e|unterbrochen|nicht\s+erreichbar|nicht\s+verf[üu]gbar"
    r"|parou\s+no\s+meio|(?:liep|loopt)\s+(?:halverwege\s+)?vast|halverwege|niet\s+bereikbaar"
    r"|no\s+(?:he\s+podido|pude|pud[eo])\s+acceder|no\s+estaba\s+disponible|indisponible"
    r"|non\s+(?:era\s+)?raggiungibile|non\s+disponibile|indispon[íi]vel|fuori\s+servizio"
    r"|n'[ée]tait\s+pas\s+(?:joignable|accessible|disponible)|n'ai\s+pas\s+pu\s+acc[ée]der"
    r"|n[ãa]o\s+consegui\s+acessar|sem\s+acesso|kein\s+zugriff|konnte\s+(?:ich\s+)?(?:\w+\s+){0,4}?"
    r"nicht\s+(?:durchsuchen|pr[üu]fen|abrufen|erreichen)|non\s+ho\s+potuto\s+(?:accedere|controllare"
    r"|verificare)|途中で止ま|中断|アクセスできません)"
    r"|\b(?:a\s+échoué|ont\s+échoué|échoué|falló|ha\s+fallado|fehlgeschlagen|fallit[ao]"
    r"|falhou|mislukt|abgebrochen|interrott[ao]|interrompid[ao]|time-?out|zeitüberschreitung"
    r"|expir[ée]e?|tempo\s+esgotado|tiempo\s+de\s+espera|d[ée]lai\s+d[ée]pass[ée])\b"
    # the search could not run ("n'a pas pu s'exécuter", "no se pudo ejecutar")
    r"|\bn'(?:a|ont)\s+pas\s+pu\s+(?:s'ex[ée]cuter|aboutir|[êe]tre\s+(?:effectu[ée]e?|lanc[ée]e?"
    r"|men[ée]e?))\b|\bno\s+se\s+(?:pudo|ha\s+podido)\s+(?:ejecutar|completar|realizar|hacer)\b"
    r"|\bnon\s+(?:[èe]\s+stato\s+possibile|si\s+[èe]\s+potut[ao])\s+(?:eseguir\w*|completar\w*)\b"
    r"|\bn[ãa]o\s+(?:foi\s+poss[íi]vel|p[ôo]de\s+ser)\s+(?:executar|conclu[íi]\w*|realizar|execut\w+)\b"
    r"|\bkonnte\s+nicht\s+(?:ausgef[üu]hrt|durchgef[üu]hrt|abgeschlossen)\s+werden\b"
    # the search could not be finished, the service does not answer
    r"|\b(?:could(?:n'?t|\s+not)|was(?:n'?t|\s+not)\s+able\s+to|unable\s+to|failed\s+to)"
    r"\s+(?:finish|complete)\s+(?:the|my|a)\s+(?:search|lookup)\b"
    r"|\b(?:is(?:n'?t|\s+not)|was(?:n'?t|\s+not)|not)\s+(?:responding|answering)\b"
    r"|\b(?:did(?:n'?t|\s+not)|does(?:n'?t|\s+not))\s+(?:respond|answer)\b"
    r"|\b(?:n'ai\s+pas\s+pu|impossible\s+de)\s+(?:terminer|finir|achever|compl[ée]ter"
    r"|mener\s+[àa]\s+bien)\s+(?:la|ma|cette)\s+recherche\b"
    r"|\bne\s+r[ée]pond(?:ait)?\s+pas\b"
    r"|\bno\s+(?:pude|he\s+podido|logr[ée])\s+(?:terminar|completar|acabar)\s+la\s+b[úu]squeda\b"
    r"|\bno\s+(?:responde|respondi[óo]|contesta)\b"
    r"|\b(?:suche|abfrage)\b[^.;]{0,60}?\b(?:nicht\s+abschlie[sß]en|nicht\s+abgeschlossen"
    r"|nicht\s+beenden|nicht\s+beendet)"
    r"|\b(?:antwortet|reagiert|antwortete|reagierte)\s+nicht\b"
    r"|\bnon\s+(?:sono\s+riuscit[oa]|ho\s+potuto)\s+a?\s*(?:completare|terminare|finire)"
    r"\s+la\s+ricerca\b|\bnon\s+(?:risponde|ha\s+risposto)\b"
    r"|\bn[ãa]o\s+consegui\s+(?:concluir|terminar|completar)\s+a\s+(?:pesquisa|busca)\b"
    r"|\bn[ãa]o\s+(?:responde|respondeu|est[áa]\s+respondendo)\b"
    r"|\bkon\s+niet\s+worden\s+(?:afgerond|voltooid)\b|\bniet\s+(?:afronden|voltooien)\b"
    r"|\b(?:reageert|reageerde|antwoordt)\s+niet\b"
    r"|\b(?:indisponible|inaccessible|indispon[ií]vel|no\s+(?:est[aá]|estaba)\s+disponible"
    r"|no\s+disponible|nicht\s+(?:erreichbar|verfügbar)|non\s+(?:disponibile|raggiungibile)"
    r"|niet\s+beschikbaar)\b"
    r"|\b(?:did(?:n'?t|\s+not)|have(?:n'?t|\s+not)|has(?:n'?t|\s+not)|'?ve\s+not)\s+"
    r"(?:\w+ly\s+|yet\s+)?(?:searched|search|checked|check|looked|look)\b"
    r"|\bnot\s+(?:been\s+|yet\s+)?searched\b"
    r"|\b(?:disagreed|disagree|disagreement|conflicting|inconsistent)\b"
    r"|\bcoverage\s+(?:[\w-]+\s+){0,4}?(?:is|was)\s+unknown\b"
    # a search limited in scope ("my search only covers the last month", "ma recherche ne
    # couvre que", "durchsucht nur die letzten vier Wochen", "só consegui verificar")
    r"|\bonly\s+(?:covers?|covered|searche[sd]|checked|looked\s+(?:at|through)|goes\s+back"
    r"|went\s+back|reache[sd]|includes?|included|spans?)\b"
    r"|\b(?:could|was\s+able\s+to)\s+only\s+(?:search|check|look|access)\b"
    r"|\bne\s+(?:couvre|couvrait|porte|portait|remonte|remontait|concerne|concernait)\s+qu(?:e\b|['\u2019])"
    r"|\bn'ai\s+pu\s+(?:consulter|v[ée]rifier|regarder|chercher|parcourir)\s+que\b"
    r"|\bs[oó]lo\s+(?:he\s+podido|pude|cubre|abarca|busqu[ée]|revis[ée]|consult[ée])\b"
    r"|\bsolamente\s+(?:he\s+podido|pude|cubre|abarca)\b"
    r"|\b(?:durchsucht|umfasst|deckt|abdeckt|reicht|erfasst|durchsuchen)\s+(?:[\w-]+\s+){0,2}?"
    r"nur\b|\bkonnte\s+(?:ich\s+)?nur\b"
    r"|\bho\s+potuto\s+(?:controllare|consultare|cercare|vedere|verificare)\s+(?:solo|soltanto)\b"
    r"|\b(?:copre|riguarda|include)\s+(?:solo|soltanto)\b"
    r"|\bs[óo]\s+(?:consegui|pude|cobre|abrange|verifiquei|pesquisei|olhei)\b"
    r"|\b(?:beslaat|omvat|doorzoekt|dekt)\s+(?:[\w-]+\s+){0,2}?alleen\b|\bkon\s+(?:ik\s+)?alleen\b"
    r"|だけ(?:なので|です|でした)|のみ(?:なので|です|でした)"
    # "I may have missed it" in the other gate languages, and a search that could not be run
    r"|\b(?:peut-[êe]tre|pu|se\s+peut\s+que\s+j'aie|possible\s+que\s+j'aie)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:manqu[ée]|rat[ée]|laiss[ée]\s+passer|pass[ée]\s+[àa]\s+c[ôo]t[ée]|omis)\b"
    r"|\bn'ai\s+pas\s+pu\s+(?:consulter|chercher|parcourir|fouiller|v[ée]rifier|ouvrir)\b"
    r"|\b(?:puede\s+que|quiz[áa]s?|tal\s+vez|es\s+posible\s+que)\s+(?:se\s+me\s+)?(?:\w+\s+){0,2}?"
    r"(?:escapado|pasado\s+por\s+alto|perdido|omitido)\b|\bpasado\s+por\s+alto\b"
    r"|\bno\s+(?:he\s+podido|pude)\s+(?:buscar|revisar|consultar|abrir)\b"
    r"|\b(?:vielleicht|m[öo]glicherweise|eventuell|dass\s+ich)\s+(?:\w+\s+){0,3}?"
    r"(?:[üu]bersehen|verpasst)\b"
    r"|\b(?:potrei|potrebbe|posso)\s+(?:\w+\s+){0,2}?(?:aver(?:e)?|essermi)\s+(?:perso|sfuggit\w"
    r"|tralasciat\w|saltat\w)|\b(?:mi\s+)?(?:sia|[èe])\s+sfuggit\w\b"
    r"|\bnon\s+ho\s+potuto\s+(?:cercare|consultare|aprire)\b"
    r"|\b(?:posso|pode|talvez)\s+(?:\w+\s+){0,2}?(?:ter\s+)?(?:deixado\s+(?:passar|escapar)|escapado)\b"
    r"|\bn[ãa]o\s+(?:consegui|pude)\s+(?:pesquisar|procurar|verificar|buscar|consultar|abrir)\b"
    r"|\b(?:misschien|mogelijk|dat\s+ik)\s+(?:\w+\s+){0,3}?(?:gemist|over\s+het\s+hoofd\s+gezien)\b"
    r"|\bkon\s+(?:ik\s+)?(?:[\w-]+\s+){0,4}?niet\s+(?:doorzoeken|bekijken|controleren|openen"
    r"|raadplegen)\b"
    r"|(?:見落とし|見逃し)[^。]{0,12}かもしれません"
    # the claim itself withheld ("so I can't say you never mentioned it", "je ne peux pas
    # affirmer que tu ne m'en as jamais parlé"): what follows is not asserted. Doubt is
    # not withholding: "I can't be sure you never told me" still leans on the absence and
    # stays a claim, like "maybe".
    r"|\b(?:can(?:'t|not)|could(?:n't|\s+not)|won't)\s+(?:really\s+|honestly\s+)?(?:say|claim"
    r"|confirm|affirm)\b"
    r"|\bne\s+(?:peux|peut|pourrais|saurais)\s+(?:donc\s+|alors\s+|d[oè]s\s+lors\s+)?pas\s+"
    r"(?:vraiment\s+)?(?:affirmer|dire|garantir"
    r"|certifier|confirmer)"
    r"|\bno\s+(?:puedo|podr[íi]a|sabr[íi]a)\s+(?:afirmar|decir|asegurar|garantizar|confirmar)\b"
    r"|\bkann\s+(?:ich\s+)?(?:\w+\s+)?nicht\s+(?:sagen|behaupten|garantieren|best[äa]tigen)\b"
    r"|\bnon\s+(?:posso|potrei|saprei)\s+(?:affermare|dire|garantire|confermare)"
    r"|\bn[ãa]o\s+(?:posso|poderia|consigo|sei)\s+(?:afirmar|dizer|garantir|confirmar)\b"
    r"|\bn[ãa]o\s+d[áa]\s+(?:para|pra)\s+(?:afirmar|dizer|garantir|confirmar)\b"
    r"|\bkan\s+(?:ik\s+)?(?:\w+\s+)?niet\s+(?:zeggen|beweren|garanderen|bevestigen)\b"
    r"|(?:とは言い切れません|とは断言できません)"
    # a search not run yet, and one limited in scope, in the past tense too
    r"|\bainda\s+n[ãa]o\s+(?:procurei|pesquisei|verifiquei|olhei|busquei|consultei)\b"
    r"|\b(?:todav[íi]a|a[úu]n)\s+no\s+(?:he\s+)?(?:buscado|busqu[ée]|revisado|revis[ée]|mirado"
    r"|consultado)\b|\bje\s+n'ai\s+pas\s+encore\s+(?:cherch[ée]|regard[ée]|v[ée]rifi[ée]"
    r"|consult[ée])\b|\bnoch\s+nicht\s+(?:nachgesehen|gesucht|durchsucht|gepr[üu]ft"
    r"|nachgeschaut)\b|\bnon\s+ho\s+ancora\s+(?:cercato|controllato|guardato|verificato)\b"
    r"|\bnog\s+niet\s+(?:gezocht|gekeken|doorzocht|nagekeken)\b"
    r"|\bs[óo]\s+(?:abrangeu|cobriu|incluiu|foi\s+at[ée]|pegou|considerou)\b"
    r"|\bs[óo]lo\s+(?:abarc[óo]|cubri[óo]|incluy[óo]|lleg[óo])\b"
    r"|\bn'a\s+(?:couvert|port[ée](?:\s+sur)?)\s+que\b"
    r"|\bn'ai\s+(?:\w+\s+)?(?:consult[ée]|cherch[ée]|regard[ée]|parcouru|v[ée]rifi[ée]|fouill[ée])"
    r"\s+que\b|\b(?:besloeg|omvatte|dekte|doorzocht)\s+alleen\b"
    r"|\bhat\s+nur\b[^.;]{0,40}?\b(?:umfasst|abgedeckt"
    r"|durchsucht)\b|\bha\s+coperto\s+solo\b|\bheeft\s+alleen\b[^.;]{0,40}?\b(?:doorzocht"
    r"|bestreken|omvat)\b"
)


# A qualifier introduced as a consequence ("..., so I can't check") does not govern the
# clause before it: it follows from the claim instead of withdrawing it.
_CONSEQUENCE_WORDS = (
    r"(?:\bso(?:\s+that)?|\btherefore|\bthus|\bhence|\bwhich\s+(?:is\s+why|means)"
    r"|\bthat(?:'s|\s+is)\s+why|\bdonc|\bc'est\s+pourquoi|\bpar\s+cons[ée]quent|\bdeshalb"
    r"|\bdaher|\bdarum|\bweshalb|\bweswegen|\bsodass|\bpor\s+eso|\bpor\s+lo\s+(?:tanto|que)"
    r"|\bas[ií]\s+que|\bentonces|\bquindi|\bperci[oò]|\bper\s+cui|\bpertanto|\bdunque"
    r"|\bpor\s+isso|\bportanto|\bent[aã]o|\bdaarom|\bdus|\bzodat)"
)
_CONSEQUENCE_RX = _rx(_CONSEQUENCE_WORDS + r"[\s,]*$")
# The same words opening the qualifier's own clause ("..., per cui il modulo resta
# incompleto": the splitter keeps the connective inside the clause).
_CONSEQUENCE_OPENING_RX = _rx(r"\s*" + _CONSEQUENCE_WORDS + r"\b")


# A qualifier that withholds a claim, ending its clause ("I can't say", "Ich kann nicht
# sagen", "non posso affermare"), and the complement clause it governs after a cut.
_WITHHELD_END_RX = re.compile(
    r"(?:say|claim|confirm|affirm|affirmer|dire|garantir|certifier|confirmer"
    r"|afirmar|decir|asegurar|garantizar|sagen|behaupten|garantieren|best[äa]tigen"
    r"|affermare|garantire|confermare|dizer|zeggen|beweren|garanderen|bevestigen"
    # "... doesn't mean (that) ...", in the gate languages
    r"|mean|hei(?:ß|ss)t\s+(?:aber\s+|noch\s+|doch\s+)?nicht|bedeutet\s+nicht|dire|signifie\s+pas"
    r"|significa|quiere\s+decir|vuol\s+dire|quer\s+dizer|betekent\s+niet)\W*$",
    re.I,
)
_COMPLEMENT_OPENING_RX = re.compile(r"\W*(?:that|que|qu'|dass|che|dat)\b", re.I)


def _qualifier_clauses(masked: str, sentence: _Sentence) -> set[int]:
    """Starts of the clauses a coverage qualifier governs: its own, the clause just
    before it in the same sentence ("I couldn't find it, but my search may be
    incomplete") unless the qualifier comes as a consequence of that clause, a
    parenthesis right after it, and the complement clause after a qualifier that
    withholds a claim ("Ich kann nicht sagen, dass du es nie erwähnt hast")."""
    governed: set[int] = set()
    for index, clause in enumerate(sentence.clauses):
        if not _COVERAGE_HEDGE_RX.search(masked, clause.start, clause.end):
            continue
        governed.add(clause.start)
        lead = masked[max(sentence.start, clause.start - 24) : clause.start]
        consequence = bool(
            _CONSEQUENCE_RX.search(lead) or _CONSEQUENCE_OPENING_RX.match(masked, clause.start)
        )
        if index > 0 and not consequence:
            governed.add(sentence.clauses[index - 1].start)
        if index + 1 < len(sentence.clauses):
            after = sentence.clauses[index + 1]
            if _WITHHELD_END_RX.search(masked, clause.start, clause.end) and (
                _COMPLEMENT_OPENING_RX.match(masked, after.start)
            ):
                # the claim withheld stands in the next clause ("Ich kann nicht sagen,
                # dass du es nie erwähnt hast")
                governed.add(after.start)
            if masked[clause.end : after.start].strip().startswith("("):
                # its own parenthesis: "(ranked search over 2 sources, 0 hits)"
                close = masked.find(")", after.start, sentence.end)
                close = sentence.end if close < 0 else close
                governed.update(c.start for c in sentence.clauses[index + 1 :] if c.start < close)
    return governed


def _first_hit(
    rule: _Rule, clause: str, offset: int, frame_end: int | None
) -> re.Match[str] | None:
    if rule.anchored:
        m = rule.rx.match(clause)
        candidates: Iterable[re.Match[str]] = (m,) if m else ()
    else:
        candidates = rule.rx.finditer(clause)
    for m in candidates:
        if frame_end is not None and offset + m.start() >= frame_end:
            continue  # reported speech: the user's (or a third party's) words
        if rule.needs_after is not None and not rule.needs_after.search(clause, m.end()):
            continue
        return m
    return None


# ---- topics ---------------------------------------------------------------------------

_TOPIC_LEAD_RX = re.compile(
    r"^(?:\s|,)*(?:(?:me|us|about|of|on|regarding|concerning|for|re|that|any|anything|mention"
    r"|mentions"
    r"|record|records|ever|in\s+(?:my|our)\s+\w+(?:\s+\w+)?|you\s+(?:ever\s+)?(?:saying|telling"
    r"\s+me|mentioning|discussing|bringing\s+up|talking\s+about|sharing)|us\s+(?:ever\s+)?"
    r"(?:discussing|talking\s+about))\b\s*)*",
    re.I,
)
_TOPIC_TAIL_RX = re.compile(
    r"(?:\s+(?:before|previously|earlier|either|too|at\s+all|yet|so\s+far|though|now"
    r"|with\s+me|to\s+me|in\s+(?:our|my)\s+(?:[\w-]+\s+)?\w+|anywhere))+\s*$",
    re.I,
)
_EMPTY_TOPICS = frozenset({"", "it", "that", "this", "them", "those", "anything", "any", "me"})


def _topic(
    text: str, clause_start: int, clause_end: int, m_start: int, m_end: int, before: bool
) -> str | None:
    raw = text[clause_start:m_start] if before else text[m_end:clause_end]
    raw = " ".join(raw.split())
    if not before:
        lead = _TOPIC_LEAD_RX.match(raw)
        raw = raw[lead.end() :] if lead else raw
    raw = _TOPIC_TAIL_RX.sub("", raw).strip(" ,.;:!?")
    if raw.lower() in _EMPTY_TOPICS:
        return None
    return raw[:80]


# --------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------


def ends_as_question(sentence: str) -> bool:
    """Whether ``sentence`` ends with a question mark (before closing quotes, brackets or
    masking)."""
    return sentence.rstrip(" \t_\"')]").endswith("?")


def split_clauses(text: str) -> list[Clause]:
    """Asserted clauses of ``text`` in order, with offsets into its canonical form
    (:func:`engram.canonical.for_claims`; the same as ``text`` when it has no formatting
    or characters to undo).

    Quoted text and code are masked out: they never start, end or split a clause and a
    clause made only of them is dropped (a quotation inside a clause stays in its
    ``text``). Questions and conditional clauses are not asserted and are omitted.
    """
    analysis = analyse(text)
    return [analysis.clause(c.start, c.end) for _, c in analysis.asserted()]


@dataclass(frozen=True)
class Analysis:
    """A text split for the claim detectors: canonical text, its masked copy (code and
    quotations as ``_``) and its sentences with their clauses."""

    text: str
    masked: str
    sentences: tuple[_Sentence, ...]
    # The text as given, and for each canonical offset (plus the end) its offset there.
    original: str = ""
    offsets: tuple[int, ...] = ()

    def clause(self, start: int, end: int) -> Clause:
        """The clause at canonical [start, end), as it stands in the original text."""
        wanted = self.text[start:end]
        if not self.offsets:
            return Clause(wanted, start, end)
        o_start, o_end = self.offsets[start], self.offsets[end]
        # Usually the clause stands verbatim near where the alignment put it.
        found = self.original.find(wanted, o_start, o_end + 16 + len(wanted))
        if found < 0:
            found = self.original.rfind(wanted, max(0, o_start - 16), o_start + len(wanted))
        if found >= 0:
            return Clause(wanted, found, found + len(wanted))
        piece = self.original[o_start:o_end]
        o_start += len(piece) - len(piece.lstrip())
        o_end = o_start + len(piece.strip())
        while o_end <= o_start and o_end < len(self.original):
            o_end += 1  # an alignment that fell on white space: take the next run
            if self.original[o_start:o_end].strip():
                piece = self.original[o_start:o_end]
                o_start += len(piece) - len(piece.lstrip())
        return Clause(self.original[o_start:o_end], o_start, o_end)

    def asserted(self) -> list[tuple[int, _ClauseInfo]]:
        """(sentence index, clause) of every clause that is neither question nor
        conditional."""
        return [
            (i, c)
            for i, s in enumerate(self.sentences)
            for c in s.clauses
            if not c.question and not c.conditional
        ]

    def tagged(self) -> list[tuple[int, _ClauseInfo]]:
        """(sentence index, clause) of the clauses that are questions only by a
        confirmation tag ("..., right?", "..., n'est-ce pas ?"), not conditional."""
        return [
            (i, c)
            for i, s in enumerate(self.sentences)
            for c in s.clauses
            if c.question and c.tagged and not c.conditional
        ]

    def sentence_text(self, index: int) -> str:
        s = self.sentences[index]
        return self.masked[s.start : s.end]

    def _has_previous(self, index: int) -> bool:
        """A sentence before ``index`` in the same paragraph."""
        return index > 0 and (
            self.sentences[index - 1].paragraph == self.sentences[index].paragraph
        )

    def previous_sentence_text(self, index: int) -> str:
        return self.sentence_text(index - 1) if self._has_previous(index) else ""

    def sentence_words(self, index: int) -> str:
        """The sentence with its quotations as written (masked for the rules, but the
        words a search was run for: "I searched your notes for 'dentist'")."""
        s = self.sentences[index]
        return self.text[s.start : s.end]

    def previous_sentence_words(self, index: int) -> str:
        return self.sentence_words(index - 1) if self._has_previous(index) else ""


def _alignment(original: str, canonical: str) -> tuple[int, ...]:
    """Map each canonical offset (and the end) to an offset of the original."""
    out = [0] * (len(canonical) + 1)
    matcher = difflib.SequenceMatcher(None, original, canonical, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k in range(j1, j2 + 1):
            if tag == "equal":
                out[k] = i1 + (k - j1)
            else:  # a replaced or inserted run maps onto the original run's span
                out[k] = i1 if k == j1 else i2
    out[len(canonical)] = len(original)
    return tuple(out)


def analyse(text: str) -> Analysis:
    canonical = for_claims(text)
    masked = _mask(canonical)
    offsets = () if canonical == text else _alignment(text, canonical)
    return Analysis(canonical, masked, tuple(_analyse(masked)), text, offsets)


def masked_canonical(text: str) -> str:
    """The text the classifier reads: canonical, with code and quotations masked (the
    trainer featurises its corpus through this too, so training and live clauses agree)."""
    return _mask(for_claims(text))


def find_absence_claims(text: str) -> list[AbsenceClaim]:
    """Absence claims about memory asserted by ``text`` (hedged ones are released)."""
    if not text or not text.strip():
        return []
    return absence_claims(analyse(text))


def coverage_qualified(analysis: Analysis, sentence_index: int) -> set[int]:
    """Clause starts released by a coverage qualifier in that sentence."""
    return _qualifier_clauses(analysis.masked, analysis.sentences[sentence_index])


_OTHER_SYSTEM_RX = re.compile(
    r"\b(?:web\s?sites?|site|web|online|internet|google|bing|inbox|mailbox|e-?mails?|gmail"
    r"|outlook|crm|databases?|db|spreadsheets?|sheet|excel|pubmed|scholar|catalog(?:ue)?s?"
    r"|catalogo|cat[áa]logo|katalog|catalogus|biblioteca|bibliothek|biblioth[èe]que|bibliotheek"
    r"|opac|librar(?:y|ies)|registry|register|archives?|portal|app|store|shop|amazon"
    r"|screenshot|logs?|folders?|director(?:y|ies)|drive|dropbox|repo(?:sitory)?|github|jira"
    r"|tracker|server|api|sql|table|index|wiki|intranet|browser|marketplace|ebay|airline"
    r"|csv|tsv|dataset|json|xml|grep|ripgrep|cadastre|catasto|catastro|cadastro|grundbuch"
    r"|kataster|kadaster"
    r"|booking|calendar|phone|contacts"
    # a search tool named by what it finds ("the flight search", "a hotel search")
    r"|(?<!your\s)(?:flight|hotel|train|rail|bus|fare|room|rental|product|price)\s+search"
    r"|recherche\s+de\s+(?:vols?|h[ôo]tels?|trains?)|b[úu]squeda\s+de\s+(?:vuelos|hoteles)"
    r"|flugsuche|hotelsuche|ricerca\s+(?:voli|hotel)|pesquisa\s+de\s+(?:voos|hot[ée]is)"
    # the same places in the other gate languages: the user's mailbox, the web
    r"|posteingang|postfach|im\s+netz|spam-?ordner|bo[îi]te\s+de\s+r[ée]ception|messagerie"
    r"|ind[ée]sirables|en\s+ligne|bandeja\s+de\s+entrada|en\s+l[íi]nea|casella\s+(?:di\s+posta"
    r"|email)|posta\s+in\s+arrivo|in\s+rete|caixa\s+de\s+entrada|na\s+net|postvak|inbox)\b"
    r"|\byou\s+(?:ran|did|made|tried|pasted|sent|shared|uploaded)\b"
    r"|\byour\s+(?:own\s+)?(?:search|query|lookup|look-up)\b",
    re.I,
)
_MEMORY_WORD_RX = re.compile(
    r"\b(?:memory|memories|my\s+notes|our\s+(?:\w+\s+)?(?:conversations?|chats?|sessions?"
    r"|talks|exchanges|history)|chat\s+history|(?:conversation|chat)\s+logs?"
    r"|you(?:'ve|\s+have)?\s+(?:ever\s+)?(?:told|mentioned|shared\s+with)\s+me"
    r"|(?:I|we)(?:'ve|\s+have)?\s+(?:saved|stored|kept|remembered)|saved\s+about\s+you"
    r"|stored\s+about\s+you|your\s+(?:saved\s+)?(?:notes|history)"
    r"|your\s+(?:past|old|previous|earlier)\s+messages|past\s+conversations"
    # the same in the other gate languages
    r"|m[ée]moire|memoria|mem[óo]ria|ged[äa]chtnis|speicher|geheugen|historique|historial"
    r"|erinnerungs(?:datenbank|speicher|archiv)|gedächtnisspeicher"
    r"|hist[óo]rico|cronologia|verlauf|geschiedenis|(?:tes|vos|tus|sus|deine[n]?|Ihre[n]?|tuoi"
    r"|suoi|suas|tuas|je|uw)\s+(?:(?:anciens|vieux|antiguos|alten|vecchi|antigas|oude)\s+)?"
    r"(?:notes|messages|notas|mensajes|notizen|nachrichten|note|messaggi|mensagens|notities"
    r"|berichten)|nos\s+(?:conversations|échanges)|nuestras\s+conversaciones"
    r"|unsere[n]?\s+(?:\w+\s+)?gespr[äa]che\w*|nostre\s+(?:\w+\s+)?(?:conversazioni|chat"
    r"|chiacchierate|sessioni)|nossas\s+(?:\w+\s+)?(?:conversas|sess[õo]es)"
    r"|onze\s+(?:\w+\s+)?(?:gesprekken|sessies)|nos\s+(?:\w+\s+)?(?:séances|sessions|entretiens)"
    r"|nuestras\s+(?:\w+\s+)?(?:charlas|sesiones)|unsere[n]?\s+(?:\w+\s+)?(?:Sitzungen|Chats)"
    # the memory named as what the speaker knows of the user or the user has said
    r"|what\s+(?:I\s+(?:know|remember|have|keep)\s+(?:about|of|on)\s+you|you(?:'ve|\s+have)?"
    r"\s+(?:told|shared\s+with)\s+me)|everything\s+you(?:'ve|\s+have)?\s+(?:told|shared\s+with)"
    r"\s+me|lo\s+que\s+(?:recuerdo|s[ée]|guardo|tengo(?:\s+guardado)?)\s+(?:de|sobre)\s+ti"
    r"|lo\s+que\s+me\s+(?:has\s+contado|contaste|has\s+dicho|dijiste)"
    r"|ce\s+que\s+(?:je\s+sais|j'ai(?:\s+(?:en\s+m[ée]moire|gard[ée]|not[ée]))?)\s+(?:de|sur)"
    r"\s+(?:toi|vous)|ce\s+que\s+(?:tu\s+m'as|vous\s+m'avez)\s+(?:dit|confi[ée]|racont[ée])"
    r"|quello\s+che\s+(?:so|ricordo|ho)\s+(?:di|su)\s+(?:te|di\s+te|lei)|quello\s+che\s+mi\s+(?:hai"
    r"|ha|avevi|aveva)\s+(?:detto|raccontato)|le\s+cose\s+che\s+so\s+di\s+te"
    r"|o\s+que\s+(?:sei|guardo|tenho)\s+(?:de|sobre)\s+(?:ti|si|voc[êe])|o\s+que\s+(?:me\s+)?"
    r"(?:disse|contou|disseste|contaste)|was\s+(?:ich\s+(?:über|von)\s+(?:dir|Ihnen)\s+(?:weiß"
    r"|gespeichert\s+habe)|du\s+mir\s+(?:\w+\s+){0,4}?(?:erzählt|gesagt|geschrieben)\s+hast"
    r"|Sie\s+mir\s+(?:\w+\s+){0,4}?(?:erzählt|gesagt|geschrieben)\s+haben)"
    r"|wat\s+(?:ik\s+(?:van|over)\s+(?:je|jou|u)\s+(?:weet|bewaard\s+heb)|je\s+me\s+(?:\w+\s+)?"
    r"(?:vertelde|schreef|hebt\s+verteld)))\b",
    re.I,
)


# Japanese has no word boundaries for the rules above: its own few, high-precision
# frames. A search reported in the clause before ("メモを検索しましたが、") and a
# nothing-found verdict about a record in this one ("...に関するものは見つかりませんでした");
# and never-told frames ("一度も話してくれたことがない", "伺った限りでは ... ありません").
_JA_LOOKED_UP = r"(?:記録|メモ|履歴|ノート)を(?:[^。、]{0,15}?で)?引い"
_JA_SEARCH = rf"(?:検索|確認|調べ|探し|チェック|照会|見直|{_JA_LOOKED_UP})"
_JA_SEARCH_RX = re.compile(rf"{_JA_SEARCH}(?:し?てみ|し)?(?:ました|た)|{_JA_SEARCH}てみたものの")
# A search's outcome named by its nothing ("結果はゼロ", "空振り", "該当なし", "ヒット0件",
# "空の結果"), and the search named by a noun before it ("クエリ「…」は、空の結果を返しました").
_JA_SEARCH_NOUN_RX = re.compile(r"クエリ|検索(?:結果)?|照会")
_JA_NULL_OUTCOME_RX = re.compile(
    r"結果は(?:ゼロ|0件|０件|なし|空)|空振り|該当(?:なし|ゼロ|0件|０件)|ヒット(?:なし|ゼロ|0件|０件)|空の結果"
    r"|収穫(?:なし|ゼロ)|ゼロ件|[0０]件(?:でした|です|だった|。|$)"
)
_JA_SEARCH_IN_CLAUSE_RX = re.compile(
    rf"{_JA_SEARCH}(?:して|しても|したが|したところ|しましたが|ましたが)"
)
_JA_EMPTY_RX = re.compile(
    r"(?:もの|記録|情報|メモ|データ|件|話|記載|何も|一切|どこにも)[^。]{0,12}?(?:見つかりませんでした"
    r"|見つかりません|見つからなかった|見当たりませんでした|見当たりません|見当たらなかった"
    r"|ありませんでした|ありません|なかった|ヒットしませんでした|出てきませんでした"
    r"|出てこなかった)"
)
_JA_NEVER_TOLD_RX = re.compile(
    r"(?:一度も|何も)[^。]{0,15}?(?:(?:話し|言っ|教え|お話し|共有し|触れ)て(?:くれ|くださ|もら|いただ)"
    r"|聞いて|伺って|お聞きして|聞いた|伺った)[^。]{0,15}?(?:ない|ません|なかった)"
    r"|初めて(?:聞き|伺い|お聞きし)ました|初耳"
)
_JA_AS_FAR_AS_TOLD_RX = re.compile(
    r"(?:伺った|お聞きした|聞いた|共有して(?:くださった|いただいた|くれた)|話して(?:くださった"
    r"|くれた)|教えて(?:いただいた|くれた)|お話しいただいた)(?:限り|内容|範囲|中)"
)
# "田中さんは一度もその話をしなかった": a third person's never is not ours.
_JA_THIRD_PERSON_RX = re.compile(r"(?:さん|様|彼|彼女|先生|氏|くん|ちゃん)(?:は|が)")
_JA_NEGATIVE_RX = re.compile(r"(?:ありません|ない(?:よう|みたい|です)?|ません|なかった|なさそう)")
# Where a Japanese search happened when it was not this memory ("ネットで", "受信トレイ"),
# not what it looked for (a flight number is also a memory topic).
_JA_ELSEWHERE = (
    r"(?:ネット|ウェブ|オンライン|インターネット|サイト|グーグル|Google|PubMed|検索エンジン|カタログ"
    r"|楽天|Amazon|アマゾン|メルカリ|ヤフー|Yahoo|通販|ショップ|ストア"
    r"|データベース|スプレッドシート)(?:で|を検索|の中)|受信トレイ|メールボックス"
)
_JA_OTHER_SYSTEM_RX = re.compile(_JA_ELSEWHERE)


def _japanese_claim(body: str, previous: str, lead: str) -> ClaimScope | None:
    """The scope of a Japanese absence claim in ``body`` (``previous``: the clause before
    it; ``lead``: its sentence up to it), or ``None``."""
    if _JA_OTHER_SYSTEM_RX.search(lead + body):
        return None
    if (_JA_EMPTY_RX.search(body) or _JA_NULL_OUTCOME_RX.search(body)) and (
        _JA_SEARCH_RX.search(previous) or _JA_SEARCH_IN_CLAUSE_RX.search(body)
    ):
        return _QS
    if _JA_NULL_OUTCOME_RX.search(body) and _JA_SEARCH_NOUN_RX.search(lead + body):
        return _QS
    if _JA_NEVER_TOLD_RX.search(body) and not _JA_THIRD_PERSON_RX.search(lead + body):
        return _CW
    if _JA_AS_FAR_AS_TOLD_RX.search(lead + body) and _JA_NEGATIVE_RX.search(body):
        return _CW
    return None


# Searches of systems that are surely not this memory (the web, the user's mailbox,
# flights, reviews, public databases), for the classifier's claims too: narrower than
# _OTHER_SYSTEM_RX, which also names stores a memory answer may call the user's
# ("your saved contacts").
_ELSEWHERE_RX = re.compile(
    r"\b(?:(?:on|in|across|through|via)\s+(?:the\s+)?(?:web|internet|google|bing|pubmed"
    r"|scholar|amazon|ebay|your\s+(?:inbox|mailbox|e-?mails?|gmail|outlook))|online|im\s+(?:netz"
    r"|internet|web)|in\s+(?:deinem|Ihrem)\s+(?:posteingang|postfach)|sur\s+(?:le\s+)?(?:web"
    r"|internet)|en\s+ligne|dans\s+(?:ta|votre)\s+bo[îi]te\s+de\s+r[ée]ception|en\s+(?:internet"
    r"|la\s+web|l[íi]nea)|en\s+tu\s+bandeja\s+de\s+entrada|in\s+rete|su\s+internet"
    r"|nella\s+tua\s+casella|na\s+(?:internet|web)|na\s+sua\s+caixa\s+de\s+entrada"
    r"|op\s+(?:internet|het\s+web)|in\s+je\s+inbox)\b"
    # a library's or a shop's catalogue, a public database ("Im Katalog der
    # Stadtbibliothek ... keine Treffer", "nel catalogo della biblioteca", PubMed)
    r"|\b(?:im|in\s+(?:dem|einem))\s+(?:\w+\s+)?(?:Katalog|Bibliothekskatalog|OPAC)\b"
    r"|\b(?:dans|sur)\s+le\s+catalogue\b|\ben\s+el\s+cat[áa]logo\b|\bnel\s+catalogo\b"
    r"|\bno\s+cat[áa]logo\b|\bin\s+(?:de|het)\s+catalogus\b|\bpubmed\b"
    # the user's own mail service by name ("your Outlook search", "nella tua PEC")
    r"|\b(?:your|ta|tu|votre|vuestra|su|deine?[mnrs]?|Ihre?[mnrs]?|tua|sua|tuo|suo|teu|seu|je|uw)"
    r"\s+(?:Outlook|Gmail|PEC|Thunderbird|Yahoo|Proton\s?Mail|iCloud|Hotmail|GMX|Posteo"
    r"|Web\.de|Libero|Aruba)\b"
    # a search read off a screenshot the user sent ("Going by the screenshot", "Dallo
    # screenshot", "d'après ta capture", "según la captura", "laut dem Screenshot")
    r"|\b(?:(?:from|in|on|going\s+by|according\s+to|based\s+on|judging\s+by)\s+(?:the|your|this"
    r"|that)\s+screen\s?shot|(?:dallo|nello|sullo|dal\s+tuo|nel\s+tuo)\s+screenshot"
    r"|(?:d'apr[èe]s|sur|selon)\s+(?:la|ta|votre|cette)\s+capture|(?:en|seg[úu]n)\s+(?:la|tu|su|esta)"
    r"\s+captura|(?:auf|laut)\s+(?:dem|deinem|Ihrem)\s+(?:Screenshot|Bildschirmfoto)"
    r"|(?:pelo|no|do|neste|nesse)\s+print|(?:na|pela)\s+captura|op\s+de\s+(?:screenshot"
    r"|schermafbeelding))\b"
    # a command-line tool, a land registry, the user's contacts
    r"|\b(?:grep|ripgrep|egrep|findstr)\b"
    r"|\b(?:cadastre|catasto|catastro|cadastro|grundbuch\w*|kataster|kadaster|land\s+registry)\b"
    r"|\b(?:your|tes|vos|tus|sus|deine[n]?|Ihre[n]?|i\s+tuoi|i\s+suoi|(?:os\s+)?(?:seus|teus)|je|uw)"
    r"\s+(?:contacts|contactos|kontakte|contatti|contatos|contacten)\b"
    r"(?!\s+(?:m[ée]moris|enregistr|guardad|gespeichert|salvat|memorizzat|opgeslagen|saved"
    r"|stored|remembered))"
    r"|\b(?:lista|libreta|agenda|rubrica|carnet|liste|adressbuch)\s+(?:de\s+|dei\s+|des\s+)?"
    r"(?:contact\w*|contatt\w*|indirizzi|adresses)\b|\brubrica\b|\badressbuch\b"
    # a document the user pasted, attached or uploaded (the current message's)
    r"|\bque\s+(?:me\s+)?(?:has|ha|habéis|han)\s+(?:pegado|adjuntado|subido)\b"
    r"|\bque\s+(?:pegaste|adjuntaste|subiste)\b"
    r"|\bque\s+(?:tu\s+)?(?:m'as|as|vous\s+m'avez|vous\s+avez)\s+(?:coll[ée]e?|joint[e]?"
    r"|t[ée]l[ée]vers[ée]e?)\b"
    r"|\b(?:du|Sie)\s+(?:mir\s+)?(?:eingefügt|hochgeladen|angehängt)\b"
    r"|\bche\s+mi\s+(?:hai|ha|avete)\s+(?:incollato|allegato|caricato)\b"
    r"|\bque\s+(?:voc[êe]\s+)?(?:me\s+)?(?:colou|colaste|anexou|anexaste|carregou)\b"
    r"|\bdie\s+(?:je|u)\s+(?:me\s+)?(?:plakte|uploadde|bijvoegde)\b"
    # the model's own training, not this memory ("after my knowledge cutoff")
    r"|\b(?:knowledge|training)\s+cut-?off\b|\btraining\s+data\b"
    r"|\bmy\s+last\s+(?:update|training)\b|\b(?:mio|mio\s+ultimo)\s+addestramento\b"
    r"|\b(?:mio|al\s+mio)\s+ultimo\s+aggiornamento\b|\bma\s+derni[èe]re\s+mise\s+[àa]\s+jour\b"
    r"|\bmon\s+entra[îi]nement\b|\bdonn[ée]es\s+d'entra[îi]nement\b"
    r"|\bmi\s+[úu]ltim[oa]\s+(?:actualizaci[óo]n|entrenamiento)\b|\bdatos\s+de\s+entrenamiento\b"
    r"|\bdati\s+di\s+addestramento\b|\bdados\s+de\s+(?:treino|treinamento)\b"
    r"|\bmeu\s+(?:[úu]ltimo\s+)?(?:treino|treinamento)\b|\btrainingsdaten\b"
    r"|\bmeine[mns]?\s+(?:letzten\s+)?training\w*\b|\btrainingsdata\b"
    rf"|{_JA_ELSEWHERE}",
    re.I,
)
# A command or query in inline code as the subject of the result ("`grep -rn TODO src/`
# returned nothing", "`SELECT ...` no devolvió filas"): read on the text before masking,
# where code keeps its backticks (a quoted search term, "« Ørsted » ne renvoie aucun
# résultat", is masked alike but is the memory's own search).
_CODE_RESULT_RX = re.compile(
    r"`[^`\n]+`\s+(?:returned|returns|found|finds|gave|gives|yielded|yields|printed"
    r"|prints|produced|matched|matches|shows|showed|outputs?|came\s+back|a\s+renvoy[ée]"
    r"|renvoie|ne\s+renvoie|n'a\s+rien|devolvi[óo]|devuelve|no\s+devuelve|no\s+devolvi[óo]"
    r"|liefert\w*|lieferte|gab|gibt|ha\s+restituito|restituisce|non\s+restituisce"
    r"|non\s+ha\s+restituito|retornou|retorna|n[ãa]o\s+retorn\w+|devolveu|gaf|geeft|leverde)\b",
    re.I,
)
# A search that found something, counted ("I found three entries about the dentist",
# "In deinen Notizen habe ich drei Einträge gefunden"): no absence, whatever its frame.
_COUNTED_RX = re.compile(
    r"\b(?:\d+|one|two|three|four|five|several|a\s+few|deux|trois|quatre|cinq|plusieurs|dos"
    r"|tres|cuatro|cinco|varias|varios|zwei|drei|vier|f[üu]nf|mehrere|einige|due|tre|quattro"
    r"|cinque|alcune|alcuni|duas|dois|tr[êe]s|quatro|cinco|v[áa]rias|v[áa]rios|twee|drie|vijf"
    r"|enkele|meerdere)\s+(?:[\w-]+\s+)?(?:entries|entry|notes|results|records|mentions|matches"
    r"|hits|messages|entr[ée]es|r[ée]sultats|entradas|notas|resultados|registros|registos"
    r"|mensajes|mensagens|eintr[äa]ge|notizen|treffer|ergebnisse|nachrichten|voci|risultati"
    r"|registri|messaggi|notities|resultaten|vermeldingen|berichten)\b",
    re.I,
)
_FOUND_RX = re.compile(
    r"\b(?:found|find|there\s+(?:are|were)|trouv[ée]\w*|il\s+y\s+a|hay|hab[íi]a|encontr\w+"
    r"|gefunden|gibt\s+es|trovat\w*|ci\s+sono|achei|h[áa]|gevonden|staan|zijn\s+er)\b",
    re.I,
)


# The speaker's own find, in the past ("I found the receipt in your notes", "ho trovato",
# "j'ai trouvé", "encontré", "habe ich ... gefunden", "encontrei", "achei", "heb ik ...
# gevonden"); :func:`reports_a_find` also asks that nothing be negated.
_FIRST_PERSON_FIND_RX = re.compile(
    r"\bI(?:'ve|\s+have)?\s+(?:just\s+|also\s+)?found\b|\bj'ai\s+(?:bien\s+)?trouv[ée]"
    r"|\b(?:he\s+)?encontr[ée]\b|\bho\s+(?:anche\s+|gi[àa]\s+)?trovato\b"
    r"|\b(?:habe\s+ich|ich\s+habe)\b[^.!?]{0,50}?\bgefunden\b|\bencontrei\b|\bachei\b"
    r"|\b(?:heb\s+ik|ik\s+heb)\b[^.!?]{0,50}?\bgevonden\b"
    # the find coordinated with the search ("I looked in your notes and found the receipt")
    r"|\b(?:and|but)\s+(?:also\s+)?found\b|\bet\s+(?:j'ai\s+)?trouv[ée]\b|\by\s+encontr[ée]\b"
    r"|\be\s+(?:ho\s+)?trovato\b|\be\s+(?:encontrei|achei)\b",
    re.I,
)
# "I found zero matches": a find of nothing.
# So is one near any bare "no" (:func:`negated` reads Portuguese "no" as "in the").
_ZERO_RX = re.compile(
    r"\b(?:zero|0|cero|z[ée]ro|null|nul|nulla|niente|nada|rien|nichts|niets|no|non|n[ãa]o"
    r"|nicht|niet|kein\w*|geen|nunca|jamais|mai|nie|nooit)\b",
    re.I,
)
# A promise to tell no one: a first-person future (or present for future) of telling,
# sharing or revealing, and "no one" of the same language, in either order.
_DISCRETION_RX = re.compile(
    r"\b(?:I|we)(?:'ll|\s+will|\s+would|\s+won't|\s+wouldn't|'m\s+not\s+going\s+to"
    r"|\s+am\s+not\s+going\s+to|\s+promise\s+(?:not\s+|never\s+)?to)\b[^.!?]{0,40}?"
    r"\b(?:tell|share|repeat|reveal|disclose|pass|say|mention)\w*\b[^.!?]{0,40}?"
    r"\b(?:anyone|anybody|no\s?one|nobody|third\s+part(?:y|ies))\b"
    r"|\b(?:dirai|r[ée]p[ée]terai|r[ée]v[ée]lerai|partagerai|raconterai|divulguerai|vais\s+"
    r"(?:le\s+|l'|en\s+|la\s+)?(?:dire|r[ée]p[ée]ter|partager|raconter|r[ée]v[ée]ler))\b"
    r"[^.!?]{0,40}?\bpersonne\b"
    r"|\b(?:dir[ée]|contar[ée]|compartir[ée]|revelar[ée]|repetir[ée]|voy\s+a\s+(?:contar|decir"
    r"|compartir|revelar|repetir))\w*\b[^.!?]{0,40}?\bnadie\b"
    r"|\bich\s+(?:werde|w[üu]rde|verrate|erz[äa]hle|sage|gebe)\b[^.!?]{0,60}?\bniemand(?:em)?\b"
    r"|\bniemand(?:em)?\b[^.!?]{0,30}?\b(?:erz[äa]hlen|sagen|verraten|weitergeben|weitersagen"
    r"|weitererz[äa]hlen)\b"
    r"|\b(?:dir[òo]|racconter[òo]|riveler[òo]|condivider[òo]|ripeter[òo]|riferir[òo])\b"
    r"[^.!?]{0,40}?\bnessuno\b"
    r"|\b(?:direi|contarei|compartilharei|partilharei|revelarei|repetirei|vou\s+(?:contar"
    r"|dizer|compartilhar|partilhar|revelar))\b[^.!?]{0,40}?\bningu[ée]m\b"
    r"|\bik\s+(?:zal|ga|vertel|deel)\b[^.!?]{0,50}?\bniemand\b"
    r"|(?:第三者|他の人|誰|だれ)[^。]{0,20}?(?:共有|話|伝え|漏ら|教え)[^。]{0,20}?"
    r"(?:ありません|しません|いたしません)",
    re.I,
)
# A promise to keep nothing of the conversation ("Je n'enregistrerai rien de cette
# conversation", "I won't save any of this", "Non salverò nulla"): a first-person future of
# keeping, negated; like discretion, it is about the future, not what the memory holds.
_KEEP_NOTHING_RX = re.compile(
    r"\bI(?:\s+will\s+not|\s+won't|'ll\s+not|'m\s+not\s+going\s+to|\s+am\s+not\s+going\s+to"
    r"|\s+promise\s+not\s+to)\s+(?:\w+\s+)?(?:save|store|record|keep|remember|note|log|write)\b"
    r"|\bI(?:'ll|\s+will)\s+(?:save|store|record|keep|remember|note)\s+nothing\b"
    r"|\bn(?:e\s+|')(?:l'|les\s+|le\s+|la\s+|vais\s+(?:rien|pas)\s+)?(?:enregistrerai|garderai|conserverai"
    r"|noterai|retiendrai|m[ée]moriserai|sauvegarderai|enregistrer|garder|conserver|noter|retenir"
    r"|m[ée]moriser|sauvegarder)\b"
    r"|\bno\s+(?:lo\s+|la\s+|los\s+|las\s+|voy\s+a\s+)?(?:guardar[ée]|registrar[ée]|anotar[ée]"
    r"|almacenar[ée]|apuntar[ée]|memorizar[ée]|guardar|registrar|anotar|almacenar|apuntar"
    r"|memorizar)\b"
    r"|\bich\s+werde\b[^.!?]{0,40}?\b(?:nichts|nicht|keine\w*)\b[^.!?]{0,40}?\b(?:speichern"
    r"|notieren|behalten|merken|festhalten|ablegen|aufschreiben)\b"
    r"|\bnon\s+(?:lo\s+|la\s+|li\s+|le\s+)?(?:salver[òo]|registrer[òo]|memorizzer[òo]"
    r"|annoter[òo]|conserver[òo])\b"
    r"|\bn[ãa]o\s+(?:o\s+|a\s+|vou\s+)?(?:guardarei|gravarei|registrarei|registarei|anotarei"
    r"|armazenarei|memorizarei|guardar|gravar|registrar|registar|anotar|armazenar|memorizar)\b"
    r"|\bik\s+(?:zal|ga)\b[^.!?]{0,40}?\b(?:niets|niks|niet|geen)\b[^.!?]{0,40}?\b(?:opslaan"
    r"|bewaren|onthouden|noteren|vastleggen|opschrijven)\b"
    r"|(?:保存|記録|記憶)(?:は|も)?(?:しません|いたしません|しないでおきます)",
    re.I,
)
# The speaker denying an act of its own on the user's things ("I didn't change any of your
# settings", "Je n'ai pas modifié vos paramètres", "Non ho modificato nessuna delle tue
# sveglie"): a statement about what the assistant did, not about what the memory holds.
# Acts of keeping ("I didn't save anything") are left to the claim detectors.
_OWN_ACT = (
    r"chang\w*|modif\w*|alter\w*|delet\w*|remov\w*|eras\w*|touch\w*|edit\w*|mov\w*|sen[dt]"
    r"|book\w*|cancel\w*|add\w*|reset\w*|updat\w*|rename\w*|overwr\w*|chang[ée]\w*"
)
_OWN_ACT_DENIED_RX = re.compile(
    r"\bI\s+(?:did(?:n't|\s+not)|have(?:n't|\s+not)|'ve\s+not|never)\s+(?:\w+ly\s+)?(?:"
    + _OWN_ACT
    + r")\b"
    r"|\bje\s+n'ai\s+(?:pas|rien|jamais)\s+(?:du\s+tout\s+)?(?:modifi[ée]|chang[ée]|supprim[ée]"
    r"|touch[ée]|effac[ée]|d[ée]plac[ée]|envoy[ée]|r[ée]serv[ée]|annul[ée]|ajout[ée]|renomm[ée]"
    r"|[ée]cras[ée]|r[ée]initialis[ée])"
    r"|\bje\s+n'ai\s+(?:modifi[ée]|chang[ée]|supprim[ée]|touch[ée]|effac[ée]|d[ée]plac[ée]"
    r"|envoy[ée]|r[ée]serv[ée]|annul[ée]|ajout[ée]|renomm[ée])\s+(?:aucun\w*|rien|personne)"
    r"|\bno\s+(?:he\s+)?(?:cambi[ée]|modifiqu[ée]|borr[ée]|elimin[ée]|toqu[ée]|mov[íi]|envi[ée]"
    r"|reserv[ée]|cancel[ée]|a[ñn]ad[íi]|cambiado|modificado|borrado|eliminado|tocado|movido"
    r"|enviado|reservado|cancelado|a[ñn]adido)\b"
    r"|\bich\s+habe\b[^.!?;]{0,50}?\b(?:nicht|nichts|keine?\w*)\b[^.!?;]{0,40}?\b(?:ge[äa]ndert"
    r"|gel[öo]scht|angefasst|verschoben|gesendet|geschickt|gebucht|storniert|hinzugef[üu]gt"
    r"|ver[äa]ndert|umbenannt|zur[üu]ckgesetzt)\b"
    r"|\bnon\s+ho\s+(?:\w+\s+)?(?:modificato|cambiato|cancellato|eliminato|toccato|spostato"
    r"|inviato|prenotato|annullato|aggiunto|rinominato|resettato)\b"
    r"|\bn[ãa]o\s+(?:alterei|mudei|apaguei|exclu[íi]|mexi|movi|enviei|reservei|cancelei"
    r"|adicionei|modifiquei|troquei)\b"
    r"|\bik\s+heb\b[^.!?;]{0,50}?\b(?:niet|niets|geen)\b[^.!?;]{0,40}?\b(?:gewijzigd|veranderd"
    r"|verwijderd|aangeraakt|verplaatst|verstuurd|geboekt|geannuleerd|toegevoegd|aangepast)\b",
    re.I,
)
# The memory off or absent as the frame of a sentence ("without memory turned on", "sans
# la mémoire activée", "con la memoria disattivata", "Sem a memória ligada").
_MEMORY_OFF_RX = re.compile(
    r"\bwithout\s+(?:the\s+|my\s+)?memory\b|\bmemory\s+(?:is\s+|being\s+|was\s+)?(?:off"
    r"|disabled|turned\s+off|switched\s+off)\b"
    r"|\bsans\s+(?:la\s+|ma\s+)?m[ée]moire\b|\bm[ée]moire\s+(?:est\s+)?d[ée]sactiv[ée]e\b"
    r"|\bsin\s+(?:la\s+|mi\s+)?memoria\b|\bmemoria\s+(?:est[áa]\s+|[èe]\s+)?(?:desactivada"
    r"|apagada|disattivata|spenta)\b|\bsenza\s+(?:la\s+)?memoria\b"
    r"|\bohne\s+(?:das\s+|mein\s+|die\s+)?(?:\w+e\s+)?(?:ged[äa]chtnis|ged[äa]chtnisfunktion|speicher"
    r"|erinnerungsfunktion|memory)\b|\b(?:ged[äa]chtnis|speicher|erinnerung)\w*\s+(?:ist\s+)?"
    r"(?:deaktiviert|ausgeschaltet|abgeschaltet|aus)\b"
    r"|\bsem\s+(?:a\s+)?mem[óo]ria\b|\bmem[óo]ria\s+(?:est[áa]\s+)?(?:desligada|desativada)\b"
    r"|\bzonder\s+(?:het\s+|mijn\s+)?geheugen\b|\bgeheugen\s+(?:staat\s+|is\s+)?(?:uit"
    r"|uitgeschakeld)\b",
    re.I,
)


_WHY_RX = re.compile(
    r"\W*(?:why|how\s+come|pourquoi|por\s*qu[ée]|warum|wieso|weshalb|perch[ée]|come\s+mai"
    r"|por\s+que|waarom|hoe\s+komt\s+het)\b|\W*(?:どうして|なぜ|なんで)",
    re.I,
)


_FIRST_PERSON_RX = re.compile(
    r"\b(?:me|m'|moi|mir|mich|mi|mij|us|nous|uns|ci|nos|ons)\b|言って|教えて|話して", re.I
)


# A device's memory is never this one ("la memoria del tuo telefono è quasi vuota").
_DEVICE_MEMORY_RX = re.compile(
    r"\b(?:phone|laptop|computer|device|card|drive|disk)'?s?\s+(?:internal\s+)?memory"
    r"|\b(?:memoria|m[ée]moire|mem[óo]ria|speicher|geheugen)\s+(?:interna\s+|interne\s+)?"
    r"(?:del|de\s+la|de\s+l'|du|de|do|da|des|deines|ihres|van\s+je)\s+(?:(?:tuo|suo|tu|su|ton|votre"
    r"|teu|seu|sua|tua)\s+)?(?:telefono|tel[ée]fono|t[ée]l[ée]phone|telefone|celular|m[óo]vil"
    r"|portable|smartphone|handys?|telefoon|computer|ordinateur|ordenador|pc|laptop|disco|disque"
    r"|scheda|tarjeta|cart[ãa]o|carte)\b"
    r"|\b(?:Handy|Telefon|Laptop|Computer)speicher\b",
    re.I,
)


def _not_this_memory(text: str, systems: re.Pattern[str]) -> bool:
    """``text`` speaks of a device's memory, or names one of ``systems`` and no memory."""
    if _DEVICE_MEMORY_RX.search(text):
        return True
    return bool(systems.search(text)) and not _MEMORY_WORD_RX.search(text)


def _names_another_system(text: str) -> bool:
    """The rules' test: ``text`` names a system other than this memory (:data:`_OTHER_SYSTEM_RX`)
    and no memory of it, or a device's memory."""
    return _not_this_memory(text, _OTHER_SYSTEM_RX)


def searched_elsewhere(sentence: str) -> bool:
    """Whether ``sentence`` (masked) reports a search of a system other than this memory
    and names no memory of it, or speaks of a device's memory."""
    return _not_this_memory(sentence, _ELSEWHERE_RX)


# The memory described as blank, silent or without a line ("Our earlier sessions are
# silent on Ingrid's allergies", "les archives de nos entretiens sont vierges", "le nostre
# vecchie conversazioni tacciono", "Het archief van onze gesprekken zwijgt", "nas nossas
# conversas passadas, zero referências"): a closed class of states of emptiness, read
# only beside a word that names this memory (:data:`_MEMORY_WORD_RX`), in either order.
_BLANK_STATE = (
    r"(?:(?:is|are|was|were|remains?|stays?|ha(?:ve|s)\s+been)\s+(?:\w+ly\s+|all\s+)?"
    r"(?:blank|empty|silent)|silent\s+(?:on|about|regarding)|not\s+(?:a\s+)?(?:single\s+)?"
    r"(?:line|word|trace|syllable)\s+(?:on|about|of)"
    r"|(?:aucune|nulle)\s+trace|pas\s+(?:une|un)\s+(?:seul[e]?\s+)?(?:ligne|mot|trace)"
    r"|(?:est|sont|reste|restent|demeurent)\s+(?:(?!revenu|retourn)\w+\s+)?(?:vides?|vierges?"
    r"|muet(?:te)?s?)"
    r"|se\s+taisent|c'est\s+le\s+d[ée]sert"
    r"|ni\s+(?:una\s+)?(?:sola\s+)?(?:l[íi]nea|palabra)|(?:est[áa]n?|queda|quedan)\s+"
    r"(?:\w+\s+)?(?:vac[íi][oa]s?|en\s+blanco|mud[oa]s?)|brilla(?:n)?\s+por\s+su\s+ausencia"
    r"|guarda(?:n)?\s+(?:un\s+)?(?:absoluto\s+|total\s+)?silencio"
    r"|(?:ist|sind|bleibt|bleiben)\s+(?:\w+\s+){0,3}?(?:leer|stumm)|schweig(?:t|en)"
    r"|keine?\s+(?:einzige\s+)?(?:Zeile|Silbe)|gl[äa]nz\w*\s+durch\s+Abwesenheit"
    r"|(?:è|sono|resta|restano|rimane|rimangono)\s+(?:(?!tornat|ritornat|risultat)\w+\s+)?"
    r"(?:vuot[oaie]|mut[oaie]"
    r"|in\s+bianco)|tac(?:e|ciono)|(?:nemmeno|neanche|neppure)\s+(?:una\s+)?(?:riga|parola)"
    r"|(?:est[áa]|est[ãa]o|fica|ficam)\s+(?:\w+\s+)?(?:vazi[oa]s?|em\s+branco|calad[oa]s?"
    r"|mud[oa]s?)|nem\s+(?:uma\s+)?(?:[úu]nica\s+)?(?:linha|palavra)|zero\s+refer[êe]ncias"
    r"|brilha(?:m)?\s+pela\s+aus[êe]ncia"
    r"|(?:is|zijn|blijft|blijven)\s+(?:\w+\s+){0,3}?(?:leeg|blanco)|zwijg(?:t|en)"
    r"|geen\s+(?:enkel\s+)?(?:woord|regel)\s+(?:over|van)|schittert\s+door\s+afwezigheid"
    r")\b"
)
_BLANK_STATE_RX = re.compile(rf"\b{_BLANK_STATE}", re.I)
_BLANK_MEMORY_RULES: tuple[_Rule, ...] = (
    _Rule(
        "memory-is-blank",
        _CW,
        re.compile(
            rf"(?:{_MEMORY_WORD_RX.pattern})[^.!?;]{{0,80}}?\b{_BLANK_STATE}"
            rf"|\b{_BLANK_STATE}[^.!?;]{{0,80}}?(?:{_MEMORY_WORD_RX.pattern})",
            re.I,
        ),
        existence=True,
    ),
)


def reports_a_find(sentence: str) -> bool:
    """Whether ``sentence`` (masked) reports found entries, by their count or as the
    speaker's own find ("Nelle tue note ho trovato la ricevuta"), and negates nothing."""
    return (
        (bool(_COUNTED_RX.search(sentence)) and bool(_FOUND_RX.search(sentence)))
        or (bool(_FIRST_PERSON_FIND_RX.search(sentence)) and not _ZERO_RX.search(sentence))
    ) and not negated(sentence)


def promises_discretion(sentence: str) -> bool:
    """Whether ``sentence`` (masked) promises to tell no one ("Non dirò mai a nessuno
    quello che mi hai raccontato"): its negation is about the future, not the memory."""
    return bool(_DISCRETION_RX.search(sentence))


def denies_own_act(sentence: str) -> bool:
    """Whether ``sentence`` (masked) denies an act of the assistant's own on the user's
    things ("I didn't change your settings"): what it did, not what the memory holds."""
    return bool(_OWN_ACT_DENIED_RX.search(sentence))


def memory_off(sentence: str) -> bool:
    """Whether ``sentence`` (masked) is framed by the memory being off or absent ("Sem a
    memória ligada, não consigo lembrar de nada"): a capability, not a search result."""
    return bool(_MEMORY_OFF_RX.search(sentence))


def claims_no_memory_absence(sentence: str, unmasked: str = "") -> bool:
    """Whether ``sentence`` (masked) cannot claim an absence from this memory, whatever a
    classifier reads in it: it searched another system, reports a find, promises
    discretion, says the memory is off or denies an act of the assistant's own. A promise
    is read in ``unmasked`` (the same sentence before masking) when given: its "never" is
    masked as a set phrase."""
    return (
        searched_elsewhere(sentence)
        or bool(_CODE_RESULT_RX.search(unmasked))
        or reports_a_find(sentence)
        or promises_discretion(unmasked or sentence)
        or bool(_KEEP_NOTHING_RX.search(sentence))
        or memory_off(sentence)
        or denies_own_act(sentence)
    )


def absence_claims(analysis: Analysis) -> list[AbsenceClaim]:
    """The rules' absence claims in an analysed text."""
    text, masked, sentences = analysis.text, analysis.masked, analysis.sentences
    out: list[AbsenceClaim] = []
    previous_sentence = ""
    for sentence in sentences:
        found: list[AbsenceClaim] = []
        previous = ""
        # "Why did you never tell me about the move?" presupposes the never: the rules
        # read a why-question's clauses as asserted (the classifier reads no questions).
        text_of_sentence = masked[sentence.start : sentence.end]
        why = bool(_WHY_RX.match(text_of_sentence)) and bool(
            _FIRST_PERSON_RX.search(text_of_sentence)
        )
        for c in sentence.clauses:
            if (c.question and not why) or c.conditional:
                previous = ""
                continue
            body = masked[c.start : c.end]
            after_search = bool(_SEARCH_VERB_RX.search(previous))
            previous_body, previous = previous, body
            # the sentence through this clause (``upto`` may also take the sentence before)
            through = masked[sentence.start : c.end]
            upto = through
            if (
                not after_search
                and c is sentence.clauses[0]
                and _SEARCH_VERB_RX.search(previous_sentence)
            ):
                # "I combed through your messages for the code. Zip."
                after_search, upto = True, previous_sentence + " " + upto
            searched_here = after_search or bool(_SEARCH_VERB_RX.search(body))
            null_outcome = False
            if _NULL_OUTCOME_RX.search(body):
                if (
                    searched_here
                    or _SEARCH_VERB_RX.search(through)
                    or _SEARCH_NOUN_RX.search(through)
                    or (_TRIED_RX.search(through) and _MEMORY_WORD_RX.search(through))
                ):
                    null_outcome = True
                elif _SEARCH_VERB_RX.search(previous_sentence) or _SEARCH_NOUN_RX.search(
                    previous_sentence
                ):
                    # "Ik heb teruggebladerd door wat we bespraken. Wat X betreft: nul treffers."
                    null_outcome, upto = True, previous_sentence + " " + upto
            if (
                (
                    (after_search and _EMPTY_VERDICT_RX.match(body))
                    or (searched_here and _EMPTY_IDIOM_RX.search(body))
                    or null_outcome
                )
                and c.frame_end is None
                and not _names_another_system(upto)
            ):
                clause = analysis.clause(c.start, c.end)
                found.append(AbsenceClaim(clause, _QS, "search-then-nothing", None, c.start))
                continue
            if CJK_RX.search(body):
                # the search may be the sentence before ("ノートで探してみました。空振りです。")
                before = previous_body or (previous_sentence if c is sentence.clauses[0] else "")
                scope = _japanese_claim(body, before, masked[sentence.start : c.start])
                if scope is not None and not promises_discretion(
                    text[sentence.start : sentence.end]
                ):
                    clause = analysis.clause(c.start, c.end)
                    found.append(AbsenceClaim(clause, scope, "ja-absence", None, c.start))
                    continue
            if not _TRIGGER_RX.search(body):
                continue
            hits: dict[ClaimScope, tuple[_Rule, re.Match[str]]] = {}
            for rule in _RULES + _OTHER_LANGUAGE_RULES + _BLANK_MEMORY_RULES:
                if rule.scope in hits:
                    continue
                m = _first_hit(rule, body, c.start, c.frame_end)
                if m is not None:
                    hits[rule.scope] = (rule, m)
            if not hits:
                # the state of emptiness in its own clause after the memory's name ("Nas
                # nossas conversas passadas, zero referências ao seu salário")
                blank = _BLANK_STATE_RX.search(body)
                if (
                    blank is not None
                    and _MEMORY_WORD_RX.search(masked[sentence.start : c.start])
                    and (c.frame_end is None or c.start + blank.start() < c.frame_end)
                ):
                    hits[_CW] = (_BLANK_MEMORY_RULES[0], blank)
            for scope, (rule, m) in list(hits.items()):
                if rule in _OTHER_LANGUAGE_RULES and _OTHER_REPORT_RX.search(
                    masked[sentence.start : c.start + m.start()]
                ):
                    del hits[scope]  # "Sua amiga diz que você nunca falou ... com ela"
            if _CW in hits and _QS in hits and hits[_CW][0].existence:
                del hits[_CW]  # "I found nothing in my memory" is search-framed
            elif (
                _CW in hits
                and hits[_CW][0].existence
                and (
                    _SEARCH_VERB_RX.search(masked[sentence.start : c.start])
                    or (c is sentence.clauses[0] and _SEARCH_VERB_RX.search(previous_sentence))
                )
            ):
                # "I checked, and there's nothing under that name in my notes", "Ich habe
                # deine Notizen durchgesehen, eine Allergie wird darin nirgends erwähnt":
                # the store described after the search is that search's result.
                hits[_QS] = hits.pop(_CW)
            elif (
                _CW in hits
                and hits[_CW][0] in _BLANK_MEMORY_RULES
                and (_SEARCH_VERB_RX.search(through) or _SEARCH_NOUN_RX.search(through))
            ):
                # "La query sulla tua memoria per «Ferrero» è tornata vuota": the blank is
                # the search's outcome
                hits[_QS] = hits.pop(_CW)
            # The search may be named earlier in the sentence ("I searched your inbox
            # and found nothing").
            upto = through
            if hits and _names_another_system(upto):
                # A search of another system (a website, an inbox, a database, PubMed,
                # the user's own lookup) says nothing about memory: the rules hold back
                # and the classifier reads the clause.
                hits = {}
            clause = analysis.clause(c.start, c.end)
            for scope in (_CW, _QS):
                if scope in hits:
                    rule, m = hits[scope]
                    topic = _topic(
                        text,
                        c.start,
                        c.end,
                        c.start + m.start(),
                        c.start + m.end(),
                        rule.topic_before,
                    )
                    found.append(AbsenceClaim(clause, scope, rule.name, topic, c.start))
        previous_sentence = text_of_sentence
        if not found:
            continue
        qualifiers = _qualifier_clauses(masked, sentence)
        if qualifiers:
            found = [f for f in found if f.canonical_start not in qualifiers]
        out.extend(found)
    return out


def is_licensed(scope: ClaimScope, state: int) -> bool:
    """Whether ``state`` (a ``common_pb2.AbsenceState`` value) licenses a claim of ``scope``."""
    if scope is ClaimScope.CORPUS_WIDE:
        return state == _ABSENT_AUTHORITATIVE
    return state in (_ABSENT_AUTHORITATIVE, _ABSENT_IN_SCOPE)


def evaluate(text: str, state: int) -> GateResult:
    """Find the absence claims in ``text``; those not licensed by ``state`` are violations."""
    claims = tuple(find_absence_claims(text))
    violations = tuple(c for c in claims if not is_licensed(c.scope, state))
    return GateResult(violations=violations, claims=claims)


def _one_line(summary: str) -> str:
    flat = " ".join(summary.split())
    flat = re.sub(r"[.!?]+(?=\s|$)", ";", flat)
    return flat.strip(" ;")


_REASONS: dict[int, tuple[str, str]] = {
    _NOT_ABSENT: (
        "but memory actually holds matching records for this turn{ev}",
        "Do not claim absence; answer from the matching records and say what they contain.",
    ),
    _ABSENT_IN_SCOPE: (
        "but the evidence only shows that the search performed for this turn came back "
        "empty{ev}; it does not cover all of memory",
        "Do not claim the user never mentioned it; say only that it was not found in the "
        "search performed, and say what was searched.",
    ),
    _COVERAGE_UNKNOWN: (
        "but the memory search for this turn was ranked and not exhaustive (coverage unknown){ev}",
        "Do not claim absence; say what was searched and that the search may have missed "
        "matching records.",
    ),
    _UNAVAILABLE: (
        "but memory was unavailable for this turn, so nothing could be searched{ev}",
        "Do not claim absence; say that memory could not be reached, and offer to check "
        "again or ask the user.",
    ),
    _FAILED: (
        "but the memory search for this turn failed or its coverage could not be validated{ev}",
        "Do not claim absence; say that the search failed, so you cannot tell either way.",
    ),
    _NOT_SEARCHED: (
        "but memory was not searched for this turn{ev}",
        "Do not claim absence; say that you have not checked memory for this, or ask the user.",
    ),
    _DISAGREEMENT: (
        "but the memory sources disagreed about whether matching records exist{ev}",
        "Do not claim absence; say that the sources gave conflicting results and that you "
        "cannot confirm either way.",
    ),
    _ABSENT_AUTHORITATIVE: (
        "and a complete, independently verified search of memory found nothing{ev}",
        "The absence claim is licensed; keep it, but do not go beyond what was searched.",
    ),
}
_DEFAULT_REASON = (
    "but no evidence about memory coverage is available for this turn{ev}",
    "Do not claim absence; say that you cannot confirm either way.",
)


# The last sentence of every repair directive.
KEEP_THE_REST = "Keep the rest of the answer unchanged."


def repair_directive(violations: Sequence[AbsenceClaim], state: int, evidence_summary: str) -> str:
    """Evidence-specific instruction for one regeneration of a draft that failed the gate.

    Returns ``""`` when there is nothing to repair.
    """
    if not violations:
        return ""
    topic = next((v.topic for v in violations if v.topic), None) or "it"
    if any(v.scope is ClaimScope.CORPUS_WIDE for v in violations):
        what = f"the user never mentioned {topic}"
    else:
        what = f"nothing about {topic} was found"
    quoted = "; ".join(f'"{v.clause.text}"' for v in violations[:3])
    ev = _one_line(evidence_summary)
    reason, instruction = _REASONS.get(state, _DEFAULT_REASON)
    reason = reason.format(ev=f" ({ev})" if ev else "")
    return f"Your draft claims {what} ({quoted}), {reason}. {instruction} {KEEP_THE_REST}"


def fallback_text(state: int, evidence_summary: str, topic: str | None) -> str:
    """Deterministic truthful reply built from the evidence state alone.

    Any absence claim in the returned text is licensed by ``state`` itself: the text is
    checked with :func:`evaluate`, and if the caller's summary or topic would smuggle in an
    unlicensed claim (say a NOT_ABSENT summary reading "0 hits") it is left out.
    """
    t = " ".join(topic.split()) if topic and topic.strip() else "that"
    summary = _one_line(evidence_summary)
    for candidate_topic, candidate_summary in ((t, summary), (t, ""), ("that", "")):
        text = _fallback(state, candidate_summary, candidate_topic)
        if evaluate(text, state).passed:
            return text
    return text  # the bare templates are tested to pass under their own state


def _fallback(state: int, summary: str, t: str) -> str:
    ev = f" ({summary})" if summary else ""
    if state == _ABSENT_AUTHORITATIVE:
        return (
            f"I have no record of you mentioning {t}: a complete, verified search of my "
            f"memory found nothing{ev}."
        )
    if state == _ABSENT_IN_SCOPE:
        return (
            f"I couldn't find {t} in the memory search I ran for this turn{ev}; that search "
            "does not cover all of my memory, so I can't say whether you mentioned it "
            "elsewhere."
        )
    if state == _NOT_ABSENT:
        return f"My memory does hold records that match {t}{ev}, so I'll answer from those."
    if state == _COVERAGE_UNKNOWN:
        return (
            f"I can't confirm whether you mentioned {t}: my memory search was not exhaustive{ev}."
        )
    if state == _UNAVAILABLE:
        return f"I can't check whether you mentioned {t}: my memory was unavailable{ev}."
    if state == _FAILED:
        return f"I can't tell whether you mentioned {t}: my memory search failed{ev}."
    if state == _NOT_SEARCHED:
        return (
            f"I haven't searched my memory for {t} on this turn{ev}, so I can't say whether "
            "you mentioned it."
        )
    if state == _DISAGREEMENT:
        return (
            f"I can't confirm whether you mentioned {t}: my memory sources gave conflicting "
            f"answers{ev}."
        )
    return (
        f"I can't confirm whether you mentioned {t}: the coverage of my memory search is "
        f"unknown{ev}."
    )
