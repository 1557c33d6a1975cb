"""Positive recall claims about the user's past, and whether a record supports them.

A *recollection* asserts that the user said something before ("you told me your sister
is Anna", "as you mentioned last week", "last time you said ...") or states a personal
fact as remembered. engram lets none through on the model's word: it must be backed by
a record the context actually holds, or by an exact lookup the gate runs itself.

The rules here are high-precision (first pass): the telling frames of English, French,
Spanish, German, Italian, Portuguese, Dutch and Japanese ("as you said", "wie Sie
sagten", "me dijiste que", "come mi hai detto", "zoals je vertelde", "おっしゃっていました"),
and the phrases that present a sentence as remembered ("if I remember correctly", "si je
me souviens bien", "as we discussed"); :mod:`gateway.presupposition` reads remembered
facts presented as known without a telling verb ("With your knee injury, ..."), and the
classifier in :mod:`gateway.claim_model` finds the rest in any language. A negation in
what was told ("me dijiste que no comes cerdo") leaves it a recollection; a search of what
was told ("I searched what you told me") is the absence check's ground, not one. Not
recollections: the current message ("you just said", "you're asking", "in your
message"), questions, conditionals (the splitter drops both), and negated telling ("you
never told me", or a negation earlier in the sentence: "X has never been part of what
you've shared" is an absence claim).

Support (:func:`supported_by_records`): one rendered record shares at least half the
stemmed content words of the claim's topic (rounded up, at most 2), every number of it
and one of its names. A recollection's topic is the fact it states
(:func:`gateway.topics.fact_of`), not its whole sentence.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from engram import terms
from gateway.topics import Topic, stems_of

__all__ = [
    "find_recollection_spans",
    "names_the_current_message",
    "negated",
    "recall_marked",
    "recall_question",
    "reported_telling",
    "searched",
    "supported_by_records",
]

_TELL = (
    r"(?:told|mentioned|said|shared|wrote|explained|noted|described|brought\s+up|let\s+me\s+know"
    r"|informed\s+me|talked\s+about|spoke\s+(?:about|of)|confided|admitted|revealed)"
)
_PAST_MARK = (
    r"(?:before|earlier|previously|last\s+(?:time|week|month|year|night|session|\w+day)"
    r"|the\s+other\s+day|once|a\s+while\s+(?:ago|back)|in\s+(?:our|a)\s+(?:last|previous"
    r"|earlier|past)\s+(?:conversation|chat|session)|\w+\s+(?:days?|weeks?|months?)\s+ago)"
)
# Phrases that present what follows as remembered from earlier conversations ("if I
# remember correctly", "as we discussed", "from our earlier chats", "last time we spoke").
_RECALL_MARKERS_EN = (
    r"\bif\s+I\s+(?:remember|recall)\b|\bif\s+memory\s+serves\b|\bas\s+we\s+(?:discussed"
    r"|talked\s+about|agreed)\b|\bper\s+our\s+(?:chat|conversation|call|talk)\b|\bfrom\s+our"
    r"\s+(?:earlier|previous|past|last|first)\s+(?:chats?|conversations?|sessions?|talks?)\b"
    r"|\blast\s+time\s+we\s+(?:spoke|talked|chatted|met)\b|\bI\s+have\s+it\s+in\s+my\s+notes\b"
    r"|\b(?:from\s+what|as)\s+I\s+(?:remember|recall)\b|\bas\s+far\s+as\s+I\s+(?:remember|recall)\b"
    r"|\bI\s+seem\s+to\s+(?:remember|recall)\b|\bunless\s+I'm\s+misremembering\b"
)
_RECALL_MARKERS_OTHER = (
    # French
    r"\bsi\s+je\s+me\s+souviens\s+bien\b|\bje\s+me\s+souviens\s+(?:que|de\s+(?:votre|ton|ta"
    r"|tes|vos))\b|\bje\s+garde\s+en\s+m[ée]moire\b|\bd'apr[èe]s\s+nos\s+[ée]changes\b"
    r"|\blors\s+de\s+notre\s+(?:dernier|pr[ée]c[ée]dent)\s+[ée]change\b|\bsuite\s+[àa]\s+notre"
    r"\s+[ée]change\b|\bsi\s+j'ai\s+bien\s+retenu\b|\bsi\s+je\s+me\s+rappelle\s+bien\b"
    r"|\bsi\s+(?:ma\s+m[ée]moire\s+est\s+bonne|j'ai\s+bonne\s+m[ée]moire)\b"
    r"|\bautant\s+que\s+je\s+m'en\s+souvienne\b|\bje\s+me\s+rappelle\s+que\b"
    # Spanish
    r"|\brecuerdo\s+que\b|\bsi\s+no\s+recuerdo\s+mal\b|\bs[ée]\s+por\s+nuestras\b"
    r"|\bacord[áa]ndome\s+de\s+que\b|\bseg[úu]n\s+lo\s+que\s+hablamos\b|\bsi\s+mal\s+no\s+recuerdo\b"
    r"|\bsi\s+la\s+memoria\s+no\s+me\s+falla\b|\bpor\s+lo\s+que\s+recuerdo\b|\bque\s+yo\s+recuerde\b"
    r"|\bme\s+acuerdo\s+de\s+que\b"
    # German
    r"|\bich\s+wei(?:ß|ss)\s+noch\b|\bich\s+erinnere\s+mich\b|\bwenn\s+ich\s+mich\s+richtig"
    r"\s+erinnere\b|\bsoweit\s+ich\s+mich\b|\baus\s+unseren\s+(?:fr[üu]heren|letzten|bisherigen)"
    r"\s+Gespr[äa]chen\b|\blaut\s+unserem\s+(?:letzten\s+)?Gespr[äa]ch\b"
    r"|\bwenn\s+ich\s+mich\s+recht\s+(?:erinnere|entsinne)\b|\bich\s+meine\s+mich\s+zu\s+erinnern\b"
    r"|\bsoweit\s+ich\s+(?:mich\s+erinnere|es\s+im\s+Kopf\s+habe)\b"
    # Italian
    r"|\b(?:mi\s+)?ricordo\s+che\b|\bse\s+ricordo\s+bene\b|\bso\s+dalle\s+nostre\b"
    r"|\bcome\s+dicevamo\b|\bricordando\s+che\b|\bse\s+non\s+ricordo\s+male\b|\bse\s+ben\s+ricordo\b"
    r"|\bse\s+la\s+memoria\s+non\s+m'inganna\b|\b(?:per\s+quanto|da\s+quel\s+che|da\s+quello\s+che)"
    r"\s+ricordo\b|\bmi\s+sembra\s+di\s+ricordare\b"
    # Portuguese
    r"|\blembro(?:-me)?\s+(?:de\s+)?que\b|\bse\s+(?:eu\s+)?(?:bem\s+)?me\s+lembro\b"
    r"|\bsei\s+pelas\s+nossas\b|\bconforme\s+a\s+nossa\s+conversa\b|\blembrando\s+que\b"
    r"|\bpelo\s+que\s+(?:eu\s+)?me\s+lembro\b|\bse\s+a\s+mem[óo]ria\s+n[ãa]o\s+me\s+falha\b"
    r"|\bque\s+eu\s+me\s+lembre\b"
    # Dutch
    r"|\bals\s+ik\s+(?:het\s+)?me\s+goed\s+herinner\b|\bik\s+herinner\s+me\b|\bik\s+weet\s+nog\b"
    r"|\bvoor\s+zover\s+ik\s+me\s+herinner\b|\bals\s+ik\s+het\s+goed\s+(?:heb\s+)?onthouden\b"
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
        # "you'd said", "you did mention", a bare or parenthetical "you said"
        r"\byou'd\s+(?:already\s+|once\s+)?(?:said|told\s+me|mentioned|shared|described"
        r"|brought\s+(?:it\s+|that\s+|this\s+)?up|pointed\s+(?:it\s+|that\s+)?out)\b",
        r"\byou\s+did\s+(?:say|mention|tell\s+me)\b",
        r"\byou\s+(?:once\s+)?said\b",
        r"\byou\s+were\s+(?:saying|telling\s+me)\b",
        r"\byou(?:'ve|\s+have|\s+had)?\s+(?:brought\s+(?:it\s+|that\s+|this\s+)?up"
        r"|pointed\s+(?:it\s+|that\s+|this\s+)?out|confessed|admitted|described\s+(?:it|that"
        r"|yourself))\b",
        r"\bI\s+(?:still\s+|do\s+)?(?:remember|recall)\s+(?:that\s+)?(?:you|your)\b",
        r"\bremembering\s+that\s+you\b",
        _RECALL_MARKERS_EN,
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
    r"|confesaste|hablaste|avisaste|planteaste|comentabas|dec[ií]as|(?:has|hab[ií]as)"
    r"\s+(?:dicho|contado|comentado|mencionado|explicado|indicado|escrito|hablado|avisado"
    r"|confesado|planteado))"
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
_DE_PARTICIPLE = (
    r"(?:gesagt|erz[äa]hlt|erw[äa]hnt|berichtet|anvertraut|verraten|mitgeteilt|geschrieben"
    r"|beschrieben|geschildert|genannt|gemeint)"
)
# "Sie" (polite you) only capitalised: "wie sie sagten" is "as they said".
_SIE_DU = r"(?:(?-i:Sie)|du)"
_TELL_IT_PAST = (
    r"(?:detto|raccontato|accennato|spiegato|scritto|confidato|parlato|indicato|menzionato"
    r"|riferito|descritto|segnalato|confessato)"
)
_TELL_IT = (
    rf"(?:(?:hai|avevi)\s+(?:gi[aà]\s+)?{_TELL_IT_PAST}|dicevi|raccontavi|spiegavi|accennavi"
    r"|parlavi|segnalavi)"
)
_TELL_IT_3 = rf"(?:(?:ha|aveva)\s+(?:gi[aà]\s+)?{_TELL_IT_PAST}|diceva)"
_TELL_PT = (  # the tu forms
    r"(?:disseste|contaste|mencionaste|comentaste|explicaste|falaste|escreveste|referiste"
    r"|contavas|dizias|tinhas\s+(?:dito|contado|mencionado|comentado|falado))"
)
_TELL_PT_3 = (  # você forms, also "he/she said": only with "você" or "me"
    r"(?:disse|contou|mencionou|comentou|explicou|falou|escreveu|referiu|confessou"
    r"|confidenciou|avisou|tinha\s+(?:me\s+)?(?:dito|contado|mencionado|comentado|falado"
    r"|avisado))"
)
_VOCE = r"(?:voc[eê]|o\s+senhor|a\s+senhora)"
_TELL_NL = (
    r"(?:vertelde|vertelden|zei|noemde|schreef|beschreef|uitlegde|legde\s+uit"
    r"|(?:hebt|heeft|had|hadden)\s+(?:me\s+|mij\s+)?(?:(?:al|eens|ooit|wel)\s+)*"
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
        r"\b(?:comme\s+)?(?:vous|tu)\s+(?:me\s+|m'|nous\s+)?(?:l')?(?:disiez|disais|expliquiez"
        r"|expliquais|racontiez|racontais|pr[ée]cisiez)\b",
        rf"\bm'(?:avez|aviez)-vous\s+{_TELL_FR}\b|\bm'(?:as|avais)-tu\s+{_TELL_FR}\b",
        rf"\b(?:vous|tu)\s+(?:me\s+|nous\s+)l'(?:avez|as|aviez|avais)\s+{_TELL_FR}\b",
        r"\b(?:vous|tu)\s+(?:avez|as|aviez|avais)\s+(?:d[ée]j[àa]\s+)?(?:pr[ée]cis[ée]|expliqu[ée])\b",
        # Spanish: "como me dijiste", "según me contaste", "me comentó usted"
        rf"\b(?:como|seg[uú]n|tal\s+como)\s+(?:t[uú]\s+)?(?:me\s+|nos\s+)?(?:lo\s+)?{_TELL_ES}\b",
        rf"\b(?:como|seg[uú]n|tal\s+como)\s+(?:usted\s+(?:me\s+|nos\s+)?(?:lo\s+)?|me\s+(?:lo\s+)?)"
        rf"{_TELL_ES_3}\b",
        rf"\b(?:t[uú]\s+)?me\s+(?:lo\s+)?{_TELL_ES}\b|\bmencionaste\b",
        rf"\busted\s+(?:me\s+)?(?:lo\s+)?{_TELL_ES_3}\b",
        rf"\bpor\s+lo\s+que\s+(?:usted\s+)?me\s+(?:{_TELL_ES}|{_TELL_ES_3})\b",
        r"\b(?:dijiste|contaste|comentaste|explicaste)\b",
        # German: "wie Sie sagten", "du hast mir erzählt", "Sie meinten neulich"
        rf"\bwie\s+{_SIE_DU}\s+(?:mir\s+|uns\s+)?(?:(?:ja|schon|mal|neulich)\s+)*{_TELL_DE}\b",
        rf"\b{_SIE_DU}\s+(?:hast|haben|hattest|hatten)\s+(?:mir\s+|uns\s+)?"
        r"(?:(?:ja|schon|mal|neulich|einmal|doch|letztens|vorhin)\s+)*"
        r"(?:gesagt|erz[äa]hlt|erw[äa]hnt|geschrieben|beschrieben|berichtet|verraten|mitgeteilt)\b",
        rf"\b{_SIE_DU}\s+(?:sagten|sagtest|meinten|meintest|erz[äa]hlten|erz[äa]hltest"
        r"|erw[äa]hnten|erw[äa]hntest|schrieben|schriebst)\b",
        # verb-final and inverted frames with words between ("wie Sie letzte Woche erwähnt
        # haben", "hast du gesagt", "von der Sie mir berichtet haben")
        rf"\b(?:{_SIE_DU}|ihr)\s+(?:hast|haben|hattest|hatten|habt|hattet)\s+(?:mir\s+|uns\s+)?"
        rf"(?:[\w-]+\s+){{0,6}}?{_DE_PARTICIPLE}\b",
        rf"\b(?:{_SIE_DU}|ihr)\s+(?:mir\s+|uns\s+|es\s+mir\s+)?(?:[\w-]+\s+){{0,5}}?"
        rf"{_DE_PARTICIPLE}\s+(?:hast|haben|hattest|hatten|habt|hattet)\b",
        rf"\b(?:hast|haben|hattest|hatten|habt)\s+(?:du|(?-i:Sie)|ihr)\s+(?:mir\s+|es\s+mir\s+"
        rf"|uns\s+)?(?:[\w-]+\s+){{0,4}}?{_DE_PARTICIPLE}\b",
        rf"\b(?:sagtest|meintest|erz[äa]hltest|erw[äa]hntest|sagten|meinten|erz[äa]hlten"
        rf"|erw[äa]hnten)\s+(?:du|{_SIE_DU})\b",
        # Italian: "come mi hai detto", "mi avevi raccontato", "come mi aveva indicato"
        rf"\bcome\s+(?:mi\s+|ci\s+)?(?:l'|lo\s+)?{_TELL_IT}\b",
        rf"\bcome\s+(?:mi|ci)\s+(?:l'|lo\s+)?{_TELL_IT_3}\b",
        rf"\b(?:mi|me\s+l')\s*(?:{_TELL_IT}|{_TELL_IT_3})\b",
        rf"\bda\s+quello\s+che\s+mi\s+(?:{_TELL_IT}|{_TELL_IT_3})\b",
        r"\b(?:hai|avevi)\s+(?:gi[aà]\s+)?(?:accennato|menzionato|raccontato|parlato|segnalato"
        r"|detto\s+prima)\b|\bcome\s+ti\s+sei\s+(?:definit|descritt)[oa]\b",
        # Portuguese: "como você me disse", "contaste-me", "você mencionou"
        rf"\bcomo\s+(?:tu\s+)?(?:me\s+|nos\s+)?{_TELL_PT}\b",
        rf"\bcomo\s+(?:{_VOCE}\s+(?:me\s+|nos\s+)?|me\s+){_TELL_PT_3}\b",
        rf"\b(?:tu\s+)?me\s+{_TELL_PT}\b|\b(?:{_VOCE}\s+)?me\s+{_TELL_PT_3}\b",
        r"\b(?:disseste|contaste|falaste|referiste|explicaste)-me\b",
        rf"\b{_VOCE}\s+{_TELL_PT_3}\b|\b(?:mencionaste|referiste)\b",
        rf"\bpelo\s+que\s+(?:{_VOCE}\s+|tu\s+)?me\s+(?:{_TELL_PT}|{_TELL_PT_3})\b",
        r"\b(?:disseste|contaste|falaste|explicaste)\b|\btinhas?-me\s+(?:dito|falado|contado"
        r"|avisado)\b|\bque\s+mencionou\b",
        # Dutch: "zoals je vertelde", "je zei dat", "u hebt me verteld"
        rf"\bzoals\s+(?:je|jij|u)\s+(?:me\s+|mij\s+)?(?:al\s+|eens\s+|laatst\s+)?{_TELL_NL}\b",
        rf"\b(?:je|jij|u)\s+{_TELL_NL}\b",
        rf"\b(?:zoals|afgaande\s+op\s+wat)\s+(?:je|jij|u)\s+(?:me\s+|mij\s+)?(?:[\w-]+\s+){{0,4}}?{_TELL_NL}\b",
        # Japanese: "as you said" reported as heard ("とのことなので"), "based on what you told"
        r"とのことなので|とのことでした(?:ので|ね|よね)|お話を踏まえると|と伺って",
        _RECALL_MARKERS_OTHER,
        # Japanese: the honorific and plain "you told me" endings (no word boundaries)
        r"(?:おっしゃって(?:い)?(?:ました|た)|話して(?:くれ|くださ(?:い|っ)?|い)(?:た|ました)"
        r"|言って(?:い)?(?:ました|た)(?:よね|ね)?|教えて(?:くれ|くださ(?:い|っ)?|いただき)(?:た|ました)"
        r"|伺(?:いました|った|っていました)|聞いて(?:いました|いた)"
        # "お話しされていた通り", "お話しになっていたように": the honorific "as you said"
        r"|お話し(?:され|になっ)て(?:い)?(?:た|ました)(?:通り|とおり|ように))",
    )
)
# Words that make a telling verb about the current message, or negate it.
_NOT_PAST_RX = re.compile(
    r"\b(?:just|now|here|today|above|right\s+now|an?\s+(?:moment|minute|second)\s+ago"
    r"|in\s+(?:your|this)\s+(?:message|question"
    r"|request|note))\b|\b(?:never|not|n't|no)\b",
    re.IGNORECASE,
)
# The same in the other gate languages, read around their own frames only (English
# words such as "net" or "non-profit" must not silence an English frame); "mai" only in
# lower case ("im Mai" is a month) and not as the French month ("en mai", "le 3 mai",
# "mai 2025"). Japanese negates with ない/ません after the verb.
_OTHER_NEGATIONS = (
    r"jamais|pas|aucun\w*|rien|nunca|jam[aá]s|ning[uú]n\w*|nada|nie|niemals|nicht|kein\w*"
    r"|nichts|nirgends|nirgendwo|non|nessun\w*|niente|neanche|nemmeno|neppure"
    r"|(?<!\ben\s)(?<!\bde\s)(?<!\bdu\s)(?<!\bfin\s)(?<!\bdébut\s)(?<!\d\s)(?<!\d)(?-i:mai)"
    r"(?!\s+\d)"
    r"|n[aã]o|nenhum\w*|nem|ni|nooit|niet|geen|niets|nergens|nix|mancanza|faute|falta"
    r"|mangels|gebrek"
    # "the first time you mention": nothing was told before
    r"|premi[èe]re\s+fois|primera\s+vez|erste[ns]?\s+Mal|prima\s+volta|primeira\s+vez"
    r"|eerste\s+keer"
)
_JAPANESE_NEGATIONS = r"ない|ません|なかった"
_NOT_PAST_OTHER_RX = re.compile(
    rf"\b(?:{_OTHER_NEGATIONS}|vient\s+de|viens\s+de|acabas?\s+de|gerade|eben|appena|adesso"
    rf"|agora\s+mesmo|ahora\s+mismo|zojuist|aqui|aqu[íi]|acima|arriba|ci-dessus|sopra|oben"
    # the current message: "Me cuentas ahora que", "Tu me dis maintenant que", "Tu indiques
    # ici que", "Você escreveu agora há pouco que", "Du schreibst jetzt, dass"
    rf"|hierboven|ahora|maintenant|ici|agora|jetzt)\b|{_JAPANESE_NEGATIONS}",
    re.IGNORECASE,
)


# "Everything you told me", "what you had confided": the telling as the body of records
# searched ("dans tout ce que vous m'avez raconté, rien ne porte sur ..."), not as a
# recollection; left to the classifier, as is a telling frame with a negation after it.
_RELATIVE_BEFORE_RX = re.compile(
    r"\b(?:ce\s+que|ce\s+qu'|lo\s+que|quello\s+che|ci[oò]\s+che|o\s+que|aquilo\s+que"
    r"|[adn]o\s+que|naquilo\s+que|was|wat|dem,?\s+was|alles,?\s+was)\s*(?:(?:vous|tu|usted|t[uú]|voc[eê]|Sie|du|je|u)\s+)?"
    r"(?:(?:me|mi|m'|mir|me\s+lo|mij)\s*)?$",
    re.IGNORECASE,
)
# A negation anywhere before the telling verb in its sentence makes the telling part of
# an absence claim ("your diagnosis has never been part of what you've shared with me",
# "there is no record, in anything you've told me, of ..."), not a recollection.
_NEGATED_BEFORE_RX = re.compile(
    r"\b(?:never|not|nothing|none|nobody|nowhere|no(?!\s+(?:worries|problem|doubt)\b)"
    r"|without|first\s+time)\b|n't\b",
    re.IGNORECASE,
)
# Before a frame, "ne" and the words for "without" negate too.
_NEGATED_OTHER_RX = re.compile(
    rf"\b(?:{_OTHER_NEGATIONS}|ne|n'|sin|ohne|senza|sem|zonder)\b|{_JAPANESE_NEGATIONS}",
    re.IGNORECASE,
)


# The English words of the current message, for the other languages' frames ("no" is
# also Portuguese and Italian "in the": "pelo que você me contou da cirurgia no joelho").
_NOT_PAST_EN_RX = re.compile(
    r"\b(?:just|now|here|today|above|right\s+now|in\s+(?:your|this)\s+(?:message|question"
    r"|request|note))\b|\b(?:never|not|n't)\b",
    re.IGNORECASE,
)
# A telling frame followed by its complement: a negation there is what was told ("me
# dijiste que no comes cerdo"), not a negated telling.
_COMPLEMENT_RX = re.compile(r"[\s,]*(?:que|qu'|che|dass|dat|of|de\s+que)\b", re.IGNORECASE)


# A search of what the user said ("I searched my notes from our past conversations for
# ...", "ho dato un'occhiata a quello che mi avevi raccontato"): the ground of an absence
# claim, which the absence check reads, not a recollection.
_SEARCHED_RX = re.compile(
    r"\b(?:search\w*|looked|checked|pull(?:ed)?\s+up|went\s+through|combed|scanned"
    r"|cherch\w*|parcouru|fouill\w*|consult[ée]|regard[ée]|busqu[ée]|busc\w*|revis[ée]"
    r"|ech[ée]\s+un\s+ojo|durchsuch\w*|gesucht|nachgesehen|nachgeschaut|cercat\w*|controllat\w*"
    r"|occhiata|procur\w*|pesquis\w*|vasculh\w*|vista\s+de\s+olhos|olhada|gezocht|doorzocht"
    r"|teruggekeken|nagekeken|検索|探し)",
    re.IGNORECASE,
)


_RECALL_MARKER_RX = re.compile(rf"{_RECALL_MARKERS_EN}|{_RECALL_MARKERS_OTHER}", re.IGNORECASE)
# "Remember telling me ...?", "¿Te acuerdas de que me comentaste ...?": a question that
# presupposes the telling.
_RECALL_QUESTION_RX = re.compile(
    r"\b(?:do\s+you\s+)?remember\s+(?:telling\s+me|(?:that\s+|when\s+)?you\s+(?:said|told"
    r"|mentioned))\b|\bte\s+acuerdas\s+de\s+(?:que\s+)?(?:me|lo\s+que\s+me)\b"
    r"|\bti\s+ricordi\s+(?:che|quando)\s+mi\b|\blembr(?:a|as)\s+(?:que|quando)\s+(?:voc[êe]\s+|tu\s+)?me"
    r"\b|\b(?:tu\s+te|vous\s+vous)\s+souvenez?\s+(?:que|quand)\s+(?:tu|vous)\s+m'"
    r"|\berinnerst\s+du\s+dich,?\s+(?:dass|wie)\s+du\s+mir\b|\bweet\s+je\s+nog\s+dat\s+je"
    r"\s+(?:me|mij)\b",
    re.IGNORECASE,
)


def recall_question(sentence: str) -> bool:
    """Whether a question presupposes that the user told ("Remember telling me ...?")."""
    return bool(_RECALL_QUESTION_RX.search(sentence)) and not negated(
        _RECALL_QUESTION_RX.sub(" ", sentence), sentence
    )


# The user's current message named as the source ("Me cuentas ahora que eres vegano",
# "Tu indiques ici que", "Você escreveu agora há pouco que", "You said in this message
# that"): a telling or sending verb of the second person within three words of a word
# for now, here or just, either way round. What the user gives in this turn needs no
# record.
_CURRENT_TELLING_VERBS = (
    r"say|says|said|tell|told|write|wrote|mention|mentioned|dis|dites|indiques|indiquez"
    r"|[ée]cris|[ée]crivez|pr[ée]cises|mentionnes|racontes|dices|cuentas|escribes|escribiste"
    r"|comentas|mencionas|indicas|dijiste|dici|scrivi|racconti|indichi|scritto|detto|diz"
    r"|dizes|contas|escreve|escreves|escreveu|escreveste|menciona|mencionas|sagst"
    r"|schreibst|erz[äa]hlst|erw[äa]hnst|geschrieben|gesagt|zegt|schrijft|vertelt|noemt"
    r"|schreef|zei"
    # sending, done ("you've just uploaded", "mi hai appena mandato", "dat je net
    # stuurde"): never the imperative or the infinitive ("send it now", "ahora puedes
    # enviar"), which is advice
    r"|uploaded|sent|attached|pasted|shared|forwarded|enviado|enviaste|mandado|mandaste"
    r"|subido|pegado|adjuntado|compartido|reenviado|mandato|inviato|caricato|allegato"
    r"|incollato|girato|inoltrato|condiviso|enviou|mandou|colou|anexou|compartilhou"
    r"|partilhou|geschickt|hochgeladen|angeh[äa]ngt|eingef[üu]gt|weitergeleitet|gestuurd"
    r"|stuurde|geplakt|ge[üu]pload|doorgestuurd"
)
_CURRENT_MARKERS = (
    r"now|here|just|right\s+now|in\s+(?:this|your)\s+(?:message|note)|ahora|aqu[íi]|maintenant"
    r"|ici|agora|h[áa]\s+pouco|adesso|jetzt|gerade|eben|zojuist|en\s+este\s+mensaje"
    r"|dans\s+ce\s+message|nesta\s+mensagem|in\s+questo\s+messaggio|in\s+dieser\s+Nachricht"
    r"|in\s+dit\s+bericht|appena|(?:je|u)\s+(?:me\s+)?net"
)
# A second-person telling in the present is this message speaking ("You say your
# sister", "as you say", "Tu dis que", "Sie sagen, dass", "dices que", "je zegt dat"),
# unless it is a habit ("as you always say", "comme tu dis toujours": a recollection)
# or yet to happen ("when you write to her", "se mi dici"). Outside English the telling
# needs "as" before it or a "that" (a colon, a comma) after it, since "tu écris",
# "scrivi", "schreibst" also begin advice.
_PRESENT_TELLING_EN = (
    r"you\s+(?:say|mention|are\s+(?:saying|telling\s+me|mentioning))"
    r"|you're\s+(?:saying|telling\s+me|mentioning)"
)
_PRESENT_TELLING_OTHER = (
    r"tu\s+(?:me\s+)?(?:dis|[ée]cris|indiques|pr[ée]cises|racontes)"
    r"|vous\s+(?:me\s+)?(?:dites|[ée]crivez|indiquez|pr[ée]cisez|racontez)"
    r"|(?:me\s+)?(?:dices|cuentas|comentas|escribes)|(?:mi\s+)?(?:dici|scrivi|racconti)"
    r"|voc[êe]\s+(?:me\s+)?(?:diz|escreve|conta|menciona)|tu\s+(?:me\s+)?(?:dizes|escreves)"
    r"|tu\s+(?:me\s+)?mentionnes|vous\s+(?:me\s+)?mentionnez|(?:me\s+)?mencionas|(?:mi\s+)?menzioni"
    r"|du\s+(?:sagst|schreibst|erz[äa]hlst|erw[äa]hnst)|(?:sagst|schreibst|erw[äa]hnst)\s+du"
    r"|(?-i:Sie)\s+(?:sagen|schreiben|erw[äa]hnen)|(?:sagen|schreiben|erw[äa]hnen)\s+(?-i:Sie)"
    r"|(?:je|u)\s+(?:zegt|schrijft|vertelt|noemt)|(?:zeg|schrijf|vertel|noem)\s+je"
    r"|(?:zegt|schrijft|noemt)\s+u"
    r"|est(?:á|a|ás|as)\s+(?:me\s+)?(?:diciendo|contando|escribiendo|dizendo|escrevendo)"
    r"|sta(?:i)?\s+(?:mi\s+)?(?:dicendo|scrivendo|raccontando)"
)
_AS = r"as|like|comme|como|come|wie|zoals"
_THAT = r",|:|\b(?:that|que|qu'|che|dass|daß|dat)"
_PRESENT_TELLING_RX = re.compile(
    rf"\b(?:{_PRESENT_TELLING_EN})\b|\b(?:{_AS})\s+(?:{_PRESENT_TELLING_OTHER})\b"
    rf"|\b(?:{_PRESENT_TELLING_OTHER})\b(?:\s+[\w'-]+){{0,2}}?\s*(?:{_THAT})",
    re.IGNORECASE,
)
_HABIT_RX = re.compile(
    r"\b(?:always|often|keep|usually|siempre|toujours|souvent|immer|oft|st[äa]ndig|sempre"
    r"|spesso|altijd|vaak)\b",
    re.IGNORECASE,
)
# "when you write to her", "wenn du schreibst", "se mi dici": a telling yet to happen
_WHEN_OR_IF_RX = re.compile(
    r"\b(?:when|whenever|if|once|quand|lorsque|si|cuando|wenn|falls|sobald|se|quando|als"
    r"|wanneer|zodra)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
_CURRENT_TELLING_RX = re.compile(
    rf"\b(?:{_CURRENT_TELLING_VERBS})\s+(?:[\w'-]+\s+){{0,2}}?(?:{_CURRENT_MARKERS})\b"
    rf"|\b(?:{_CURRENT_MARKERS})\s+(?:[\w'-]+\s+){{0,2}}?(?:{_CURRENT_TELLING_VERBS})\b"
    r"|\bacab(?:as|aste|ou|a)\s+de\s+(?:me\s+)?(?:enviar|mandar|subir|pegar|adjuntar|compartir"
    r"|reenviar|decir|contar|escribir|dizer|escrever|colar|anexar|partilhar|compartilhar)"
    r"|\b(?:viens|venez)\s+(?:de\s+(?:me\s+|m')?|d')(?:dire|[ée]crire|envoyer|joindre"
    r"|coller|partager|transf[ée]rer|pr[ée]ciser|indiquer|mentionner|raconter|t[ée]l[ée]charger)"
    r"|このメッセージ|今回のメッセージ|今おっしゃ|いま書いて|今書いて|おっしゃる(?:とおり|通り)"
    r"|(?:今|いま|先ほど|さっき)(?:お?送|貼り付け|添付|アップロード)",
    re.IGNORECASE,
)


def _present_telling(sentence: str) -> re.Match[str] | None:
    """The present-tense telling of this message in ``sentence`` (above), if any."""
    match = _PRESENT_TELLING_RX.search(sentence)
    if match is None:
        return None
    before = sentence[max(0, match.start() - 24) : match.start()]
    around = sentence[max(0, match.start() - 12) : match.end() + 12]
    if _HABIT_RX.search(around) or _WHEN_OR_IF_RX.search(before):
        return None
    return match


# "as" before a telling, or opening it ("as you say", "wie du sagst"): the speaker agrees.
_AS_BEFORE_RX = re.compile(rf"\b(?:{_AS})\s*$", re.IGNORECASE)
_AS_OPENING_RX = re.compile(rf"(?:{_AS})\b", re.IGNORECASE)


def reported_telling(sentence: str) -> tuple[int, int] | None:
    """Where a bare present telling of this message stands in ``sentence`` ("Du sagst, du
    hättest mir nie ...", "You say you never told me ..."), or ``None``: what follows
    reports the user's words. With "as" before it ("as you say") the speaker agrees, and
    what follows is the speaker's own."""
    match = _present_telling(sentence)
    if match is None:
        return None
    before = sentence[max(0, match.start() - 8) : match.start()]
    if _AS_BEFORE_RX.search(before) or _AS_OPENING_RX.match(match.group()):
        return None
    return match.start(), match.end()


def names_the_current_message(sentence: str) -> bool:
    """Whether a sentence gives the user's current message as its source (above)."""
    return bool(_CURRENT_TELLING_RX.search(sentence)) or _present_telling(sentence) is not None


def recall_marked(sentence: str) -> bool:
    """Whether a sentence presents its content as remembered from earlier conversations
    ("if I remember correctly", "si je me souviens bien"), without denying or searching."""
    if not _RECALL_MARKER_RX.search(sentence):
        return False
    rest = _RECALL_MARKER_RX.sub(" ", sentence)  # "si no recuerdo mal" denies nothing
    return not (negated(rest, sentence) or searched(sentence))


def searched(text: str) -> bool:
    """Whether ``text`` describes a search (of memory or anything else)."""
    return bool(_SEARCHED_RX.search(text))


# Portuguese "no/na" are "in the" ("a cirurgia no joelho"): in a Portuguese text the
# English "no" is not read as a negation.
_PORTUGUESE_RX = re.compile(
    r"\b(?:teu|tua|teus|tuas|voc[êe]s?|n[ãa]o|pelo|pela|uma|nas|ao|aos|é|est[áa])\b", re.IGNORECASE
)
_NO_RX = re.compile(r"\bno\b", re.IGNORECASE)


def negated(text: str, context: str = "") -> bool:
    """Whether ``text`` holds a negation in one of the gate languages (``context``, the
    text around it, tells Portuguese "no" from English "no")."""
    if _PORTUGUESE_RX.search(context or text):
        text = _NO_RX.sub(" ", text)
    return bool(_NEGATED_BEFORE_RX.search(text) or _NEGATED_OTHER_RX.search(text))


# A clause boundary inside the text before a frame: a negation before it belongs to
# another statement ("Your partner can't eat gluten; you pointed that out ...").
_STATEMENT_BREAK_RX = re.compile(r"[;:\u2013\u2014]")
# Japanese and Chinese characters (kana and ideographs).
CJK_RX = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _statement_before(before: str, clause: str, start: int) -> str:
    lead = before + " " + clause[:start]
    cut = max((m.end() for m in _STATEMENT_BREAK_RX.finditer(lead)), default=0)
    return lead[cut:]


def find_recollection_spans(
    clause: str, before: str = "", after: str = ""
) -> list[tuple[int, int]]:
    """Spans of ``clause`` (canonical, asserted) where a rule sees a recollection;
    ``before`` and ``after`` are the text of its sentence around the clause."""
    spans: list[tuple[int, int]] = []
    for rule in _RULES + _OTHER_RULES:
        for m in rule.finditer(clause):
            # A search before the frame searched what was told; one after it is part
            # of what was told ("Tu m'as dit que ton ami cherche un colocataire").
            if searched(before + " " + clause[: m.start()]):
                continue
            if CJK_RX.match(m.group()) and not m.group().startswith("言って"):
                # Japanese puts what was told before the verb: only a negation of the
                # telling itself, a conditional ("としても") or hearsay after it counts.
                if re.search(
                    rf"{_JAPANESE_NEGATIONS}|としても|ても|たら|なら|とのこと",
                    clause[m.end() : m.end() + 12],
                ):
                    continue
                spans.append((m.start(), m.end()))
                break
            window = clause[max(0, m.start() - 12) : m.end() + 24]
            if (_NOT_PAST_RX if rule in _RULES else _NOT_PAST_EN_RX).search(window):
                continue
            if negated(m.group(), clause):
                continue
            lead = _statement_before(before, clause, m.start())
            if negated(lead, before + clause) and (
                rule in _OTHER_RULES or _NEGATED_BEFORE_RX.search(lead)
            ):
                continue
            relative = _RELATIVE_BEFORE_RX.search(clause[max(0, m.start() - 16) : m.start()])
            complement = bool(_COMPLEMENT_RX.match(clause, m.end()))
            if complement:  # what follows "que/dass/che" is what was told
                window = clause[max(0, m.start() - 12) : m.end()]
            if (
                rule in _OTHER_RULES
                and (
                    _NOT_PAST_OTHER_RX.search(window)
                    # "in everything you told me, nothing ...": the telling as the body
                    # searched, when the rest of the sentence denies
                    or (relative and negated(after, before + clause))
                    or (negated(clause[m.end() :], clause) and not complement)
                )
            ):
                continue
            spans.append((m.start(), m.end()))
            break
    return spans


def required_overlap(topic: Topic) -> int:
    """Shared stemmed words a record needs: 2 (or all, when fewer) of a sentence's topic;
    half of a fact's (one clause), rounded up, at most 2. A record holding every number
    and a name of the topic needs one shared word; a long compound counts as two
    (:func:`supported_by_records`)."""
    n = len(topic.stems)
    return min(2, (n + 1) // 2) if topic.fact else min(2, n)


def supported_by_records(topic: Topic, records: Iterable[str]) -> bool:
    """Whether one rendered record shares enough of the claim's topic, every number of
    it and one of its names (docstring)."""
    need = required_overlap(topic)
    if need == 0:
        return False
    stems = topic.stems
    for record in records:
        words = _record_words(record)
        shared = stems & words.content
        if not shared:
            continue
        if topic.specific and not _holds_all(words, topic.specific):
            continue
        if _weight(shared) >= need or _distinctive(topic.specific):
            # A name or a long number the claim states is the record's: one shared word
            # besides it is enough ("Con i tuoi 750 € di affitto resti sotto ..." by
            # "Pago 750 € di affitto"; an age or a month is not distinctive enough).
            return True
    return False


def _distinctive(specific: tuple[str, ...]) -> bool:
    return any(
        sum(c.isdigit() for c in w) >= 3 if any(c.isdigit() for c in w) else len(w) >= 3
        for w in specific
    )


# A German or Dutch compound packs two content words into one ("Laktoseintoleranz",
# "glutenallergie"): a shared word this long counts twice.
COMPOUND_LENGTH = 12


def _weight(shared: Iterable[str]) -> int:
    return sum(2 if len(w) >= COMPOUND_LENGTH else 1 for w in shared)


@dataclass(frozen=True)
class _RecordWords:
    content: frozenset[str]  # stemmed content words (stems_of)
    exact: frozenset[str]  # every word as FindExact compares it
    stems: frozenset[str]  # every word stemmed


@functools.lru_cache(maxsize=4096)
def _record_words(record: str) -> _RecordWords:
    """A rendered record's words, once: a decision checks each record against every
    reading of every recollection in the answer."""
    return _RecordWords(
        stems_of(record), frozenset(terms.exact_terms(record)), frozenset(terms.index_terms(record))
    )


def _holds_all(record: _RecordWords, specific: tuple[str, ...]) -> bool:
    """Every number of ``specific`` is in ``record`` and, when it has names, one of them
    (a capital marks a name in most scripts, but every German noun too, so requiring
    all of them would turn down "Ich fahre einen Passat von 2013" for "Bei deinem Passat
    von 2013 sitzt die Batterie links")."""

    def held(word: str) -> bool:
        return word in record.exact or any(s in record.stems for s in terms.index_terms(word))

    numbers = [w for w in specific if any(c.isdigit() for c in w)]
    names = [w for w in specific if w not in numbers]
    return all(held(w) for w in numbers) and (not names or any(held(w) for w in names))
