"""Positive recall claims about the user's past, and whether a record supports them.

A *recollection* asserts that the user said something before ("you told me your sister
is Anna", "as you mentioned last week", "last time you said ...") or states a personal
fact as remembered. engram lets none through on the model's word: it must be backed by
a record the context actually holds, or by an exact lookup the gate runs itself.

The rules here are high-precision (first pass): the telling frames of English, French,
Spanish, German, Italian, Portuguese, Dutch and Japanese ("as you said", "wie Sie
sagten", "me dijiste que", "come mi hai detto", "zoals je vertelde", "おっしゃっていました");
the classifier in :mod:`gateway.claim_model` finds the rest in any language, notably
remembered facts presented as known without a telling verb. Not recollections: the
current message ("you just said", "you're asking", "in your message"), questions,
conditionals (the splitter drops both), and negated telling ("you never told me", or a
negation earlier in the sentence: "X has never been part of what you've shared" is an
absence claim).

Support (:func:`supported_by_records`): the claim's topic (:mod:`gateway.topics`) shares
at least ``min(2, len(topic))`` stemmed content words with one rendered record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gateway.topics import Topic, stems_of

__all__ = ["find_recollection_spans", "negated", "supported_by_records"]

_TELL = (
    r"(?:told|mentioned|said|shared|wrote|explained|noted|described|brought\s+up|let\s+me\s+know"
    r"|informed\s+me|talked\s+about|spoke\s+(?:about|of)|confided|admitted|revealed)"
)
_PAST_MARK = (
    r"(?:before|earlier|previously|last\s+(?:time|week|month|year|night|session|\w+day)"
    r"|the\s+other\s+day|once|a\s+while\s+(?:ago|back)|in\s+(?:our|a)\s+(?:last|previous"
    r"|earlier|past)\s+(?:conversation|chat|session)|\w+\s+(?:days?|weeks?|months?)\s+ago)"
)
_RULES = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        # as you mentioned / like you said / as you told me
        rf"\b(?:as|like|since|because)\s+you(?:'ve|\s+have|\s+had)?\s+(?:\w+ly\s+)?{_TELL}\b",
        # you told me / you've mentioned / you once said (not "you just said")
        r"\byou(?:'ve|\s+have|\s+had)?\s+(?:(?:once|already|previously|earlier)\s+)?"
        r"(?:told\s+me|mentioned|shared|let\s+me\s+know|informed\s+me|confided)\b",
        rf"\byou\s+(?:once\s+)?(?:said|wrote|explained|noted)\b(?=.*\b{_PAST_MARK}\b)",
        rf"\b(?:last\s+time|the\s+other\s+day|previously|earlier),?\s+you\s+{_TELL}\b",
        rf"\bfrom\s+what\s+you(?:'ve|\s+have)?\s+{_TELL}\b",
        rf"\b(?:I\s+)?remember\s+(?:you|that\s+you)\s+(?:{_TELL}|telling|saying|mentioning)\b",
        r"\byou\s+(?:were\s+)?telling\s+me\b",
        rf"\bin\s+(?:our|a)\s+(?:last|previous|earlier|past)\s+(?:conversation|chat|session)"
        rf",?\s+you\s+{_TELL}\b",
    )
)
# Telling frames of the other gate languages (second person, past or perfect, the
# polite and the familiar forms): each names the user as the one who told.
_TELL_FR = (
    r"(?:dit|parl[ée]|mentionn[ée]|racont[ée]|expliqu[ée]|indiqu[ée]|signal[ée]|confi[ée]"
    r"|pr[ée]cis[ée]|[ée]crit|d[ée]crit|appris|fait\s+savoir)"
)
_TELL_ES = (  # the tú forms: only ever the user
    r"(?:dijiste|contaste|comentaste|mencionaste|explicaste|indicaste|escribiste|contabas"
    r"|dec[ií]as|(?:has|hab[ií]as)\s+(?:dicho|contado|comentado|mencionado|explicado"
    r"|indicado|escrito))"
)
_TELL_ES_3 = (  # usted forms, also "he/she said": only with "usted" or "me"
    r"(?:dijo|cont[oó]|coment[oó]|mencion[oó]|explic[oó]|indic[oó]|escribi[oó]|dec[ií]a"
    r"|(?:ha|hab[ií]a)\s+(?:dicho|contado|comentado|mencionado|explicado|indicado|escrito))"
)
_TELL_DE = (
    r"(?:sagten|sagtest|meinten|meintest|erz[äa]hlten|erz[äa]hltest|erw[äa]hnten|erw[äa]hntest"
    r"|schrieben|schriebst|beschrieben|beschriebst|berichteten|berichtetest"
    r"|(?:mir\s+)?(?:(?:schon|mal|neulich|einmal|ja)\s+)*"
    r"(?:gesagt|erz[äa]hlt|erw[äa]hnt|geschrieben|beschrieben|berichtet|verraten|mitgeteilt)"
    r"(?:\s+(?:hast|haben|hattest|hatten))?)"
)
# "Sie" (polite you) only capitalised: "wie sie sagten" is "as they said".
_SIE_DU = r"(?:(?-i:Sie)|du)"
_TELL_IT_PAST = (
    r"(?:detto|raccontato|accennato|spiegato|scritto|confidato|parlato|indicato|menzionato"
    r"|riferito|descritto)"
)
_TELL_IT = rf"(?:(?:hai|avevi)\s+(?:gi[aà]\s+)?{_TELL_IT_PAST}|dicevi|raccontavi)"
_TELL_IT_3 = rf"(?:(?:ha|aveva)\s+(?:gi[aà]\s+)?{_TELL_IT_PAST}|diceva)"
_TELL_PT = (  # the tu forms
    r"(?:disseste|contaste|mencionaste|comentaste|explicaste|falaste|escreveste|referiste"
    r"|contavas|dizias|tinhas\s+(?:dito|contado|mencionado|comentado|falado))"
)
_TELL_PT_3 = (  # você forms, also "he/she said": only with "você" or "me"
    r"(?:disse|contou|mencionou|comentou|explicou|falou|escreveu|referiu"
    r"|tinha\s+(?:dito|contado|mencionado|comentado|falado))"
)
_VOCE = r"(?:voc[eê]|o\s+senhor|a\s+senhora)"
_TELL_NL = (
    r"(?:vertelde|vertelden|zei|noemde|schreef|beschreef|uitlegde|legde\s+uit"
    r"|(?:hebt|heeft|had|hadden)\s+(?:me\s+|mij\s+)?(?:al\s+|eens\s+|ooit\s+)?"
    r"(?:verteld|gezegd|genoemd|geschreven|beschreven|uitgelegd))"
)
_OTHER_RULES = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        # French: "comme vous me l'avez dit", "tu m'as dit que", "vous m'aviez parlé de"
        rf"\bcomme\s+(?:vous|tu)\s+(?:me\s+|nous\s+)?(?:l'|l[ea]\s+)?(?:avez|as|aviez|avais)"
        rf"\s+(?:d[ée]j[àa]\s+)?{_TELL_FR}\b",
        rf"\b(?:vous|tu)\s+m'(?:avez|as|aviez|avais)\s+(?:d[ée]j[àa]\s+|souvent\s+)?{_TELL_FR}\b",
        r"\b(?:vous|tu)\s+(?:avez|as|aviez|avais)\s+(?:d[ée]j[àa]\s+)?(?:mentionn[ée]|signal[ée]"
        r"|[ée]voqu[ée]|racont[ée])\b",
        rf"\bd'apr[èe]s\s+ce\s+que\s+(?:vous|tu)\s+m'(?:avez|as|aviez|avais)\s+{_TELL_FR}\b",
        # Spanish: "como me dijiste", "según me contaste", "me comentó usted"
        rf"\b(?:como|seg[uú]n|tal\s+como)\s+(?:t[uú]\s+)?(?:me\s+|nos\s+)?(?:lo\s+)?{_TELL_ES}\b",
        rf"\b(?:como|seg[uú]n|tal\s+como)\s+(?:usted\s+(?:me\s+|nos\s+)?(?:lo\s+)?|me\s+(?:lo\s+)?)"
        rf"{_TELL_ES_3}\b",
        rf"\b(?:t[uú]\s+)?me\s+(?:lo\s+)?{_TELL_ES}\b|\bmencionaste\b",
        rf"\busted\s+(?:me\s+)?(?:lo\s+)?{_TELL_ES_3}\b",
        # German: "wie Sie sagten", "du hast mir erzählt", "Sie meinten neulich"
        rf"\bwie\s+{_SIE_DU}\s+(?:mir\s+|uns\s+)?(?:(?:ja|schon|mal|neulich)\s+)*{_TELL_DE}\b",
        rf"\b{_SIE_DU}\s+(?:hast|haben|hattest|hatten)\s+(?:mir\s+|uns\s+)?"
        r"(?:(?:ja|schon|mal|neulich|einmal|doch|letztens|vorhin)\s+)*"
        r"(?:gesagt|erz[äa]hlt|erw[äa]hnt|geschrieben|beschrieben|berichtet|verraten|mitgeteilt)\b",
        rf"\b{_SIE_DU}\s+(?:sagten|sagtest|meinten|meintest|erz[äa]hlten|erz[äa]hltest"
        r"|erw[äa]hnten|erw[äa]hntest|schrieben|schriebst)\b",
        # Italian: "come mi hai detto", "mi avevi raccontato", "come mi aveva indicato"
        rf"\bcome\s+(?:mi\s+|ci\s+)?(?:l'|lo\s+)?{_TELL_IT}\b",
        rf"\bcome\s+(?:mi|ci)\s+(?:l'|lo\s+)?{_TELL_IT_3}\b",
        rf"\b(?:mi|me\s+l')\s*(?:{_TELL_IT}|{_TELL_IT_3})\b",
        rf"\bda\s+quello\s+che\s+mi\s+(?:{_TELL_IT}|{_TELL_IT_3})\b",
        # Portuguese: "como você me disse", "contaste-me", "você mencionou"
        rf"\bcomo\s+(?:tu\s+)?(?:me\s+|nos\s+)?{_TELL_PT}\b",
        rf"\bcomo\s+(?:{_VOCE}\s+(?:me\s+|nos\s+)?|me\s+){_TELL_PT_3}\b",
        rf"\b(?:tu\s+)?me\s+{_TELL_PT}\b|\b(?:{_VOCE}\s+)?me\s+{_TELL_PT_3}\b",
        r"\b(?:disseste|contaste|falaste|referiste|explicaste)-me\b",
        rf"\b{_VOCE}\s+{_TELL_PT_3}\b|\b(?:mencionaste|referiste)\b",
        rf"\bpelo\s+que\s+(?:{_VOCE}\s+|tu\s+)?me\s+(?:{_TELL_PT}|{_TELL_PT_3})\b",
        # Dutch: "zoals je vertelde", "je zei dat", "u hebt me verteld"
        rf"\bzoals\s+(?:je|jij|u)\s+(?:me\s+|mij\s+)?(?:al\s+|eens\s+|laatst\s+)?{_TELL_NL}\b",
        rf"\b(?:je|jij|u)\s+{_TELL_NL}\b",
        # Japanese: the honorific and plain "you told me" endings (no word boundaries)
        r"(?:おっしゃって(?:い)?(?:ました|た)|話して(?:くれ|くださ|い)(?:た|ました)"
        r"|言って(?:い)?(?:ました|た)(?:よね|ね)?|教えて(?:くれ|くださ|いただき)(?:た|ました)"
        r"|伺(?:いました|った|っていました)|聞いて(?:いました|いた))",
    )
)
# Words that make a telling verb about the current message, or negate it.
_NOT_PAST_RX = re.compile(
    r"\b(?:just|now|here|today|above|right\s+now|in\s+(?:your|this)\s+(?:message|question"
    r"|request|note))\b|\b(?:never|not|n't|no)\b",
    re.IGNORECASE,
)
# The same in the other gate languages, read around their own frames only (English
# words such as "net" or "non-profit" must not silence an English frame); "mai" only in
# lower case ("im Mai" is a month). Japanese negates with ない/ません after the verb.
_OTHER_NEGATIONS = (
    r"jamais|pas|aucun\w*|rien|nunca|jam[aá]s|ning[uú]n\w*|nada|nie|niemals|nicht|kein\w*"
    r"|nichts|(?-i:mai)|non|nessun\w*|niente|n[aã]o|nenhum\w*|nooit|niet|geen|niets"
)
_JAPANESE_NEGATIONS = r"ない|ません|なかった"
_NOT_PAST_OTHER_RX = re.compile(
    rf"\b(?:{_OTHER_NEGATIONS}|vient\s+de|viens\s+de|acabas?\s+de|gerade|eben|appena|adesso"
    rf"|agora\s+mesmo|ahora\s+mismo|zojuist)\b|{_JAPANESE_NEGATIONS}",
    re.IGNORECASE,
)


# "Everything you told me", "what you had confided": the telling as the body of records
# searched ("dans tout ce que vous m'avez raconté, rien ne porte sur ..."), not as a
# recollection; left to the classifier, as is a telling frame with a negation after it.
_RELATIVE_BEFORE_RX = re.compile(
    r"\b(?:ce\s+que|ce\s+qu'|lo\s+que|quello\s+che|ci[oò]\s+che|o\s+que|aquilo\s+que"
    r"|[adn]o\s+que|naquilo\s+que|was|wat|dem,?\s+was|alles,?\s+was)\s*(?:(?:vous|tu|usted|t[uú]|voc[eê]|Sie|du|je|u)\s+)?$",
    re.IGNORECASE,
)
# A negation anywhere before the telling verb in its sentence makes the telling part of
# an absence claim ("your diagnosis has never been part of what you've shared with me",
# "there is no record, in anything you've told me, of ..."), not a recollection.
_NEGATED_BEFORE_RX = re.compile(
    r"\b(?:never|not|nothing|none|nobody|nowhere|no(?!\s+(?:worries|problem|doubt)\b)"
    r"|without)\b|n't\b",
    re.IGNORECASE,
)
# Before a frame, "ne" and the words for "without" negate too.
_NEGATED_OTHER_RX = re.compile(
    rf"\b(?:{_OTHER_NEGATIONS}|ne|n'|sin|ohne|senza|sem|zonder)\b|{_JAPANESE_NEGATIONS}",
    re.IGNORECASE,
)


def negated(text: str) -> bool:
    """Whether ``text`` holds a negation in one of the gate languages."""
    return bool(_NEGATED_BEFORE_RX.search(text) or _NEGATED_OTHER_RX.search(text))


def find_recollection_spans(clause: str, before: str = "") -> list[tuple[int, int]]:
    """Spans of ``clause`` (canonical, asserted) where a rule sees a recollection;
    ``before`` is the text of its sentence before the clause."""
    spans: list[tuple[int, int]] = []
    for rule in _RULES + _OTHER_RULES:
        for m in rule.finditer(clause):
            window = clause[max(0, m.start() - 12) : m.end() + 16]
            if _NOT_PAST_RX.search(window):
                continue
            if _NEGATED_BEFORE_RX.search(before + " " + clause[: m.start()]):
                continue
            if rule in _OTHER_RULES and (
                _NOT_PAST_OTHER_RX.search(window)
                or _NEGATED_OTHER_RX.search(before + " " + clause[: m.start()])
                or _RELATIVE_BEFORE_RX.search(clause[max(0, m.start() - 16) : m.start()])
                or negated(clause[m.end() :])
            ):
                continue
            spans.append((m.start(), m.end()))
            break
    return spans


def required_overlap(topic: Topic) -> int:
    return min(2, len(topic.stems))


def supported_by_records(topic: Topic, records: Iterable[str]) -> bool:
    """Whether one rendered record shares enough of the claim's topic (docstring)."""
    need = required_overlap(topic)
    if need == 0:
        return False
    stems = topic.stems
    return any(len(stems & stems_of(record)) >= need for record in records)
