"""Every claim a candidate answer makes about memory: rules first, then the classifier.

1. The text is canonicalised and analysed once (:func:`gateway.truthfulness.analyse`):
   code, quotations, questions and conditionals are settled there as not asserting.
2. The high-precision rules settle the clauses they match: absence claims
   (:func:`gateway.truthfulness.absence_claims`) and recollections
   (:mod:`gateway.recollection`).
3. Every other asserted clause goes to the learned classifier in one batch
   (:mod:`gateway.claim_model`): its fast stage settles what it is sure of, the model
   stage the rest. A clause the model is unsure of is returned as *unsure*.
4. Clauses that are questions only by a confirmation tag ("..., right?") are read for
   recollections alone: they present the fact before the tag as known.
5. Coverage qualifiers release what they govern, whichever stage found the claim.

Each claim carries its topic (:mod:`gateway.topics`), which binds it to a search.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from gateway.claim_model import ClaimClassifier, ClauseScore, classifier
from gateway.follow_up import followed_up
from gateway.presupposition import (
    about_someone_public,
    addresses_the_user,
    describes_a_relative,
    presupposed_fact,
)
from gateway.recollection import (
    find_recollection_spans,
    names_the_current_message,
    negated,
    recall_marked,
    recall_question,
    reported_telling,
)
from gateway.topics import Topic, fact_of, topic_of
from gateway.truthfulness import (
    AbsenceClaim,
    Analysis,
    ClaimScope,
    Clause,
    absence_claims,
    analyse,
    claims_no_memory_absence,
    coverage_qualified,
    ends_as_question,
    promises_discretion,
)

__all__ = ["ClaimKind", "FoundClaim", "find_claims"]


class ClaimKind(enum.Enum):
    ABSENCE = "absence"
    RECOLLECTION = "recollection"
    # The classifier could not tell whether the clause makes a claim.
    UNSURE = "unsure"


@dataclass(frozen=True)
class FoundClaim:
    kind: ClaimKind
    clause: Clause
    topic: Topic
    # Rule name, or "model:fast" / "model:e5".
    source: str
    scope: ClaimScope | None = None
    claim_probability: float = 1.0
    # Offset in the canonical text (the clause's own offsets are the original's).
    canonical_start: int = -1
    # The rule's reading of what the claim is about, as written ("your sister").
    phrase: str | None = None
    # Index of the sentence the claim is in (analysis order).
    sentence: int = -1
    # A recollection's readings of the fact it states (:func:`gateway.topics.fact_of`):
    # its clause and the clauses beside it. A record supporting one supports the claim.
    facts: tuple[Topic, ...] = ()

    def as_absence(self) -> AbsenceClaim:
        scope = self.scope or ClaimScope.CORPUS_WIDE
        return AbsenceClaim(
            self.clause, scope, self.source, self.phrase or self.topic.describe() or None
        )


_SCOPES = {"corpus_wide": ClaimScope.CORPUS_WIDE, "query_scoped": ClaimScope.QUERY_SCOPED}


def _sentence_of(analysis: Analysis, start: int) -> int:
    for i, s in enumerate(analysis.sentences):
        if s.start <= start < s.end:
            return i
    return 0


def _topic(analysis: Analysis, sentence: int) -> Topic:
    return topic_of(analysis.sentence_words(sentence), analysis.previous_sentence_words(sentence))


def _facts(analysis: Analysis, sentence: int, start: int, end: int) -> tuple[Topic, ...]:
    """Where the fact of a recollection at [start, end) may stand: its clause, and the
    clauses just before and after it in the sentence (a telling frame sits beside the
    fact it reports: "You grew up in Toronto, as you mentioned when we talked about
    tyres"; "As you told me, you're vegan")."""
    clauses = analysis.sentences[sentence].clauses
    before = [c for c in clauses if c.end <= start]
    after = [c for c in clauses if c.start >= end]
    spans = [(start, end)]
    if before:
        spans.append((before[-1].start, before[-1].end))
    if after:
        spans.append((after[0].start, after[0].end))
    facts = (fact_of(analysis.text[a:b]) for a, b in spans)
    return tuple(f for f in facts if f)


def find_claims(text: str, model: ClaimClassifier | None = None) -> list[FoundClaim]:
    """All claims in ``text`` (module docstring), in text order."""
    if not text.strip():
        return []
    analysis = analyse(text)
    found: list[FoundClaim] = []
    settled: set[int] = set()
    ruled_sentences: set[int] = set()  # sentences with an absence claim the rules found
    for claim in absence_claims(analysis):
        sentence = _sentence_of(analysis, claim.canonical_start)
        found.append(
            FoundClaim(
                ClaimKind.ABSENCE,
                claim.clause,
                _topic(analysis, sentence),
                claim.pattern,
                claim.scope,
                1.0,
                claim.canonical_start,
                claim.topic,
            )
        )
        settled.add(claim.canonical_start)
        ruled_sentences.add(sentence)
    pending: list[tuple[int, int, int]] = []
    recalled: set[int] = set()
    marked: set[int] = set()  # sentences with a recollection already
    told: set[int] = set()  # sentences with a telling frame or a recall marker
    for sentence, info in analysis.asserted():
        if info.start in settled:
            continue
        body = analysis.masked[info.start : info.end]
        before = analysis.masked[analysis.sentences[sentence].start : info.start]
        after = analysis.masked[info.end : analysis.sentences[sentence].end]
        source = recollection_rule(body, before, after)
        if not source and sentence not in marked and _marked_as_recalled(analysis, sentence):
            source = _MARKED
        if source == _PRESUPPOSED and (sentence in told or sentence - 1 in told):
            # "You told me you work nights at a hotel. With those shifts, ...": the fact
            # continues the recollection just made, whose record is the one to check.
            source = None
        if source == _PRESUPPOSED and not _names_the_user(analysis, sentence):
            source = None  # whose fact it is, the classifier reads (PRESUPPOSED_NEEDS_YOU)
        if source:
            marked.add(sentence)
            if source != _PRESUPPOSED:
                told.add(sentence)
            found.append(
                FoundClaim(
                    ClaimKind.RECOLLECTION,
                    analysis.clause(info.start, info.end),
                    _topic(analysis, sentence),
                    source,
                    None,
                    1.0,
                    info.start,
                    facts=_facts(analysis, sentence, info.start, info.end),
                )
            )
            recalled.add(info.start)
            # "You told me a lot about the garden, but never about the soil": the
            # telling is a recollection and the sentence may still claim an absence. A
            # presupposed fact is read by the classifier too ("Dein Kaninchen ist mir
            # komplett neu" presents a pet and claims an absence).
            rest = analysis.masked[info.end : analysis.sentences[sentence].end]
            if source != _PRESUPPOSED and not negated(rest):
                continue
        pending.append((sentence, info.start, info.end))
    # Tag questions ("Your son starts school in May, right?") present a fact as known:
    # they are read for recollections only (an absence claim asked back is a question).
    tagged: list[tuple[int, int, int]] = []
    for sentence, info in analysis.tagged():
        body = analysis.masked[info.start : info.end]
        before = analysis.masked[analysis.sentences[sentence].start : info.start]
        after = analysis.masked[info.end : analysis.sentences[sentence].end]
        source = recollection_rule(body, before, after, tagged=True)
        if source == _PRESUPPOSED and not _names_the_user(analysis, sentence):
            source = None  # asked back about anyone: the classifier reads it, as above
        if source:
            found.append(
                FoundClaim(
                    ClaimKind.RECOLLECTION,
                    analysis.clause(info.start, info.end),
                    _topic(analysis, sentence),
                    source,
                    None,
                    1.0,
                    info.start,
                    facts=_facts(analysis, sentence, info.start, info.end),
                )
            )
        else:
            tagged.append((sentence, info.start, info.end))
    # "Remember telling me you'd never been to Scotland?": a question that presupposes the
    # telling is a recollection (questions are otherwise not read); so is a follow-up on
    # the user's life ("How did Anna's recital go?", "Hope Biscuit's ears are better").
    for index, sent in enumerate(analysis.sentences):
        if index in marked or not sent.clauses:
            continue
        text = analysis.sentence_text(index)
        subject = followed_up(text)
        asked = ends_as_question(text)
        if recall_question(text) or subject is not None or (asked and describes_a_relative(text)):
            first = sent.clauses[0]
            if first.start in recalled or first.start in settled:
                continue
            facts = _facts(analysis, index, first.start, first.end)
            if subject and fact_of(subject):  # without the frame's own words ("how is ... going")
                facts = (*facts, fact_of(subject))
            found.append(
                FoundClaim(
                    ClaimKind.RECOLLECTION,
                    analysis.clause(first.start, first.end),
                    _topic(analysis, index),
                    _MARKED,
                    None,
                    1.0,
                    first.start,
                    facts=facts,
                )
            )
            recalled.add(first.start)
    if pending or tagged:
        units = _conjoined(analysis, pending) if MERGE_CONJOINED else pending
        joined = joined_readings(analysis, units)
        for i, reading in _first_part_readings(units, pending):
            joined.setdefault(i, []).append(reading)
        # a reading across a clause the rules already found a claim in repeats that claim
        joined = {
            i: kept
            for i, readings in joined.items()
            if (kept := [r for r in readings if not any(r[1] < s < r[2] for s in settled)])
        }
        scored = _classified(analysis, units + tagged, joined, model, ruled_sentences)
        tagged_starts = {start for _, start, _ in tagged}
        found.extend(
            c
            for c in scored
            if (c.canonical_start not in tagged_starts or c.kind is ClaimKind.RECOLLECTION)
            and not (c.kind is ClaimKind.RECOLLECTION and c.canonical_start in recalled)
        )
    found = [replace(c, sentence=_sentence_of(analysis, c.canonical_start)) for c in found]
    # what the user says in this very message needs no record, however it was read; an
    # unsure clause there that denies nothing asserts nothing about memory either
    current = {
        i
        for i in {c.sentence for c in found if _from_this_message(c)}
        if names_the_current_message(analysis.sentence_text(i))
    }
    found = [c for c in found if not (c.sentence in current and _from_this_message(c))]
    found = [c for c in found if not _reported_from_this_message(analysis, c)]
    # a sentence the rules found a claim in is that claim; the model's reading of another
    # of its clauses, of the same scope, repeats it (same sentence, so the same topic)
    ruled = {
        (c.sentence, c.scope)
        for c in found
        if c.kind is ClaimKind.ABSENCE and c.canonical_start in settled
    }
    found = [
        c
        for c in found
        if not (
            c.kind is ClaimKind.ABSENCE
            and c.canonical_start not in settled
            and (c.sentence, c.scope) in ruled
        )
    ]
    return sorted(_unqualified(analysis, found), key=lambda c: c.canonical_start)


_PRESUPPOSED = "recollection:presupposed"
_MARKED = "recollection:marked"


def recollection_rule(body: str, before: str, after: str = "", tagged: bool = False) -> str | None:
    """Which recollection rule, if any, settles a clause: a telling frame, or a personal
    fact presented as known (:mod:`gateway.presupposition`); ``tagged`` for a clause
    asked back with a confirmation tag ("..., right?"). A promise to tell no one what the
    user tells ("あなたが話してくれた内容を第三者に共有することは決してありません")
    recalls nothing."""
    if promises_discretion(before + body + after):
        return None
    if find_recollection_spans(body, before, after):
        return "recollection"
    if presupposed_fact(body, before, tagged=tagged, after=after):
        return _PRESUPPOSED
    return None


# A presupposed fact settles as a recollection by rule only in a sentence that names the
# user (a second-person word, a relative by name); elsewhere the fact may be anyone's
# ("Because Bilbo leaves the Shire", "Frida Kahlo sufrió a los 18 años un accidente",
# but also "Since Leo has football on Saturdays" and pro-drop "Como empiezas en marzo"),
# and the classifier, which knows public and fictional lives, decides.
PRESUPPOSED_NEEDS_YOU = True


def _names_the_user(analysis: Analysis, sentence: int) -> bool:
    return not PRESUPPOSED_NEEDS_YOU or addresses_the_user(analysis.sentence_text(sentence))


def _marked_as_recalled(analysis: Analysis, sentence: int) -> bool:
    """A sentence that says it is remembering ("..., if I remember correctly", "si je me
    souviens bien, ..."): the marker often sits in a clause the analysis drops as
    conditional, so the first asserted clause carries the recollection."""
    return recall_marked(analysis.sentence_text(sentence))


# Clauses the splitter cut at a bare "and"/"or" are read by the classifier as one unit
# when none of them was settled by a rule: "I've combed through our chat log and your
# plan isn't anywhere in it" needs its first half to be a claim, "I searched your inbox
# and found nothing" needs its first half to be benign.
MERGE_CONJOINED = True
_CONJUNCTION_GAP_RX = re.compile(r"\s*,?\s*(?:and|or|nor)\s*", re.I)
# The splitter cuts at commas, colons and dashes, so a claim can lie across a cut and
# claim nothing on either side: an elliptic result ("I looked for the sitter's number in
# your memory, but nothing", "Recherche dans ton historique : 0 résultat"), a located
# absence with its check after it ("Le budget n'est pas dans vos notes, j'ai regardé deux
# fois"), a main clause around a relative one ("In unseren bisherigen Gesprächen, die
# ich eben gelesen habe, taucht der Umzug nicht auf"). Adjacent units of a sentence and
# the whole sentence are also read as one (:func:`joined_readings`).


def _conjoined(
    analysis: Analysis, pending: list[tuple[int, int, int]]
) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    for sentence, start, end in pending:
        if out:
            last_sentence, last_start, last_end = out[-1]
            gap = analysis.masked[last_end:start]
            if last_sentence == sentence and _CONJUNCTION_GAP_RX.fullmatch(gap):
                out[-1] = (sentence, last_start, end)
                continue
        out.append((sentence, start, end))
    return out


def _first_part_readings(
    units: list[tuple[int, int, int]], pending: list[tuple[int, int, int]]
) -> list[tuple[int, tuple[int, int, int]]]:
    """(unit index, reading) for the first part of each unit :func:`_conjoined` merged,
    alone and joined to the unit before it in the sentence: read as well, since what it
    adds after "and"/"or" cannot withdraw a claim the first part makes ("there's no word
    about you crossing the Øresund or paying a toll")."""
    ends = {start: end for _, start, end in pending}
    out: list[tuple[int, tuple[int, int, int]]] = []
    for i, (sentence, start, end) in enumerate(units):
        first_end = ends.get(start, end)
        if first_end == end:
            continue
        out.append((i, (sentence, start, first_end)))
        if i > 0 and units[i - 1][0] == sentence:
            out.append((i - 1, (sentence, units[i - 1][1], first_end)))
    return out


def joined_readings(
    analysis: Analysis, units: list[tuple[int, int, int]]
) -> dict[int, list[tuple[int, int, int]]]:
    """Each unit read together with the next unit of its sentence and, in a sentence of
    three units or more, the whole sentence read as one from its first unit, keyed by
    the unit the reading starts at. Only in a sentence holding a negation of one of the
    gate languages: an absence claim across a cut has one, and the joined readings are
    model time (every unit is still read alone, whatever its language)."""
    joined: dict[int, list[tuple[int, int, int]]] = {}
    negation: dict[int, bool] = {}
    for i, (sentence, start, _) in enumerate(units):
        if sentence not in negation:
            text = analysis.sentence_text(sentence)
            negation[sentence] = negated(text, text)
        if not negation[sentence]:
            continue
        last = i
        while last + 1 < len(units) and units[last + 1][0] == sentence:
            last += 1
        if last > i:
            joined.setdefault(i, []).append((sentence, start, units[i + 1][2]))
        if last >= i + 2 and (i == 0 or units[i - 1][0] != sentence):
            joined.setdefault(i, []).append((sentence, start, units[last][2]))
    return joined


# A joined reading counts only in a sentence where no clause alone claims an absence (by
# a rule or by the classifier): elsewhere it could only repeat the claim, or move it to
# the other scope. The joins of sentences a rule settled are never read; the others are
# read in the units' batch, one pass, so the heaviest answers wait for one engine call,
# and ignored where a unit turned out to claim. With ``JOINS_AFTER_UNITS`` they are read
# in a second batch once the units' labels are known: less model time in all, one more
# pass in sequence (docs/benchmarks.md measures both).
JOINS_AFTER_UNITS = False


def _absence_sentences(pending: list[tuple[int, int, int]], scores: list[ClauseScore]) -> set[int]:
    return {unit[0] for unit, score in zip(pending, scores, strict=True) if score.label in _SCOPES}


def _classified(
    analysis: Analysis,
    pending: list[tuple[int, int, int]],
    joined: dict[int, list[tuple[int, int, int]]],
    model: ClaimClassifier | None,
    ruled: AbstractSet[int] = frozenset(),
) -> list[FoundClaim]:
    """Classify ``pending`` and the ``joined`` readings of sentences outside ``ruled``
    (sentence indices where a rule found an absence claim). A joined reading replaces
    the unit it starts at when no unit of its sentence is an absence claim and it is
    one, more probable than the unit alone, unless the unit alone is a recollection
    (joining never turns a remembered fact into an absence, nor a remark into a
    recollection: "Got it, you hate cilantro")."""
    clf = model or classifier()
    extra = [(i, r) for i in sorted(joined) for r in joined[i] if r[0] not in ruled]
    if JOINS_AFTER_UNITS:
        scores = clf.classify([analysis.masked[a:b] for _, a, b in pending])
        claimed = _absence_sentences(pending, scores)
        extra = [(i, r) for i, r in extra if r[0] not in claimed]
        scores += clf.classify([analysis.masked[a:b] for _, (_, a, b) in extra]) if extra else []
    else:
        units = pending + [reading for _, reading in extra]
        scores = clf.classify([analysis.masked[a:b] for _, a, b in units])
        claimed = _absence_sentences(pending, scores[: len(pending)])
    chosen = list(zip(pending, scores[: len(pending)], strict=True))
    for (i, reading), score in zip(extra, scores[len(pending) :], strict=True):
        best = chosen[i][1]
        if (
            reading[0] not in claimed
            and score.label in _SCOPES
            and best.label != "recollection"
            and score.claim_probability > best.claim_probability
        ):
            chosen[i] = (reading, score)
    out: list[FoundClaim] = []
    for (sentence, start, end), score in chosen:
        if score.unsure:
            kind, scope = ClaimKind.UNSURE, None
        elif score.label in _SCOPES:
            kind, scope = ClaimKind.ABSENCE, _SCOPES[score.label]
        elif score.label == "recollection":
            kind, scope = ClaimKind.RECOLLECTION, None
        else:
            continue
        if kind is not ClaimKind.RECOLLECTION and _no_absence_here(analysis, sentence):
            continue
        if kind is ClaimKind.RECOLLECTION and about_someone_public(
            analysis.sentence_text(sentence)
        ):
            continue
        out.append(
            FoundClaim(
                kind,
                analysis.clause(start, end),
                _topic(analysis, sentence),
                f"model:{score.stage}",
                scope,
                score.claim_probability,
                start,
                facts=(
                    _facts(analysis, sentence, start, end) if kind is ClaimKind.RECOLLECTION else ()
                ),
            )
        )
    return out


def _from_this_message(claim: FoundClaim) -> bool:
    """Whether a claim of a sentence naming the current message is that message's
    content: a recollection, or an unsure clause without a negation."""
    if claim.kind is ClaimKind.RECOLLECTION:
        return True
    return claim.kind is ClaimKind.UNSURE and not negated(claim.clause.text)


# A clause opening on the user as its subject (after a telling: "du hättest", "you never").
_USER_SUBJECT_RX = re.compile(
    r"\W*(?:that\s+|que\s+|qu'|dass\s+|che\s+|dat\s+)?(?:you|du|tu|vous|(?-i:Sie)|usted|voc[êe]"
    r"|je|jij|u|t'|(?:nunca|jam[áa]s|jamais|nie|mai)\s+(?:me|mi|m'))\b",
    re.IGNORECASE,
)


def _reported_from_this_message(analysis: Analysis, claim: FoundClaim) -> bool:
    """Whether the classifier's absence reading is the user's own words reported from this
    message: after a bare present telling ("Du sagst, du hättest mir nie von deinem Bruder
    erzählt", "You say you never told me"), in a clause whose subject is the user. "As you
    say, I have nothing on file" agrees, and stays the speaker's claim."""
    if claim.kind is ClaimKind.RECOLLECTION or not claim.source.startswith("model:"):
        return False
    telling = reported_telling(analysis.sentence_text(claim.sentence))
    if telling is None:
        return False
    offset = analysis.sentences[claim.sentence].start
    start, end = offset + telling[0], offset + telling[1]
    if claim.canonical_start < start:
        return False
    after = analysis.masked[max(claim.canonical_start, end) : claim.canonical_start + 200]
    return bool(_USER_SUBJECT_RX.match(after))


def _no_absence_here(analysis: Analysis, sentence: int) -> bool:
    """A sentence that searched another system (the web, the user's inbox), reports what
    it found, promises discretion or says the memory is off claims no absence from
    memory, whatever the classifier reads in it (the rules hold back in the first two)."""
    span = analysis.sentences[sentence]
    return claims_no_memory_absence(
        analysis.sentence_text(sentence), analysis.text[span.start : span.end]
    )


def _unqualified(analysis: Analysis, found: list[FoundClaim]) -> list[FoundClaim]:
    """Drop absence and unsure claims a coverage qualifier governs (the rules' own
    claims were already filtered; filtering twice is harmless)."""
    out: list[FoundClaim] = []
    cache: dict[int, set[int]] = {}
    for claim in found:
        if claim.kind is not ClaimKind.RECOLLECTION:
            sentence = _sentence_of(analysis, claim.canonical_start)
            if sentence not in cache:
                cache[sentence] = coverage_qualified(analysis, sentence)
            if claim.canonical_start in cache[sentence]:
                continue
        out.append(claim)
    return out
