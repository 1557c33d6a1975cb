"""Follow-ups on the user's own life: asking how something went, or wishing it well.

"How did Anna's recital go on Friday?", "¿Qué tal fue el recital de Lucía?", "Wie geht's
Bello nach der Zahnbehandlung?", "Hope Biscuit's ears are better after the vet visit!",
"Congrats again on Kenji's promotion": each presents an event of the user's life (or of
someone close to them) as known to both, which the answer can only know from memory. So
each is a recollection and needs a record, like "as you told me".

A sentence counts when two things hold together:

1. **a follow-up frame** opening it: a question of how something went or is going ("how
   did", "comment s'est passé", "qué tal", "wie war", "com'è andato", "como foi", "hoe
   ging", "どうでしたか"), or a wish or congratulation ("hope", "good luck with", "congrats
   on", "j'espère que", "enhorabuena por", "viel Glück bei", "in bocca al lupo per",
   "parabéns pelo", "succes met");
2. **something specific of the user's**: a second-person possessive with a word that is
   not small talk ("your day", "your weekend" are greetings), someone named (a capitalised
   word inside the sentence that is not a pronoun, title, month or day), or a word of the
   personal-fact vocabulary after a definite article or a demonstrative ("el examen",
   "ese tobillo", "la soutenance").

"How are you?", "Hope this helps!", "Good luck!", "How do I reset it?" name nothing
specific; "How does the tax work?" is no follow-up ("does" asks how a thing works).
"""

from __future__ import annotations

import re

from gateway.presupposition import fact_word, possessive_owner, reads_as_dutch, someone_named
from gateway.recollection import searched

__all__ = ["followed_up"]

_LEAD = (
    r"^\W*(?:(?:so|and|anyway|oh|well|hey|alors|et|bon|bueno|y|entonces|oye|und|na|also|e"
    r"|allora|ma|ent[ãa]o|e\s+a[íi]|en|nou|dus)\s*,?\s*)?"
)
_ASKS_HOW = (
    # English
    r"how(?:'s|'re|\s+(?:did|was|were|is|are|has|have|'s))\b"
    # French
    r"|comment\s+(?:s'est|se\s+sont|[çc]a\s+s'est|c'[ée]tait|va|vont|avance|avancent|se\s+passe"
    r"|se\s+d[ée]roule|[ée]tait|s'annonce|allez|vas|te\s+sens|vous\s+sentez)\b"
    r"|[çc]a\s+s'est\s+bien\s+pass[ée]"
    # Spanish
    r"|(?:¿\s*)?(?:qu[ée]\s+tal|c[óo]mo\s+(?:fue|va|van|te\s+fue|le\s+fue|sali[óo]|ha\s+ido"
    r"|te\s+ha\s+ido|sigue|siguen|est[áa]|est[áa]n|llevas|lleva|anda|andan|termin[óo]"
    r"|acab[óo]|result[óo]|te\s+encuentras))\b"
    # German
    r"|wie\s+(?:war|waren|lief|liefen|ging|gingen|geht's|geht\s+es|gehts|l[äa]uft|laufen"
    r"|steht's|steht\s+es|hat\s+sich|ist\s+es)\b"
    # Italian
    r"|com'[èe]\s+(?:andat[oaie]|stat[oaie]|finit[oa])|come\s+(?:[èe]|e'|sono)\s+(?:andat|stat)\w*"
    r"|come\s+(?:va|vanno|sta|stanno|procede|procedono|prosegue|ti\s+senti|si\s+sente)\b"
    # Portuguese
    r"|como\s+(?:foi|foram|est[áa]|est[ãa]o|vai|v[ãa]o|anda|andam|correu|correram|ficou"
    r"|terminou|se\s+saiu|te\s+sentes|se\s+sente)\b"
    # Dutch
    r"|hoe\s+(?:ging|gingen|was|waren|gaat|gaan|is\s+het|staat|verliep|liep|voel\s+je)\b"
)
_WISHES = (
    r"(?:I\s+)?hope\b|(?:good|best\s+of)\s+luck\s+(?:with|on|for|at)\b"
    r"|congrat(?:ulation)?s\b|well\s+done\s+on\b|fingers\s+crossed\s+for\b"
    r"|j'esp[èe]re\s+que\b|esp[ée]rons\s+que\b|bonne\s+chance\s+(?:pour|avec)\b"
    r"|f[ée]licitations\b|bravo\s+pour\b|bon\s+courage\s+pour\b"
    r"|espero\s+que\b|ojal[áa]\b|suerte\s+(?:con|en|para)\b|mucha\s+suerte\b"
    r"|enhorabuena\b|felicidades\b"
    r"|(?:ich\s+)?hoffe\b|hoffentlich\b|viel\s+(?:gl[üu]ck|erfolg)\s+(?:beim|bei|f[üu]r|mit|zum|zur)\b"
    r"|(?:herzlichen\s+)?gl[üu]ckwunsch\b|gute\s+besserung\b"
    r"|spero\s+che\b|in\s+bocca\s+al\s+lupo\s+per\b|buona\s+fortuna\s+(?:per|con)\b"
    r"|congratulazioni\b|complimenti\b|auguri\b"
    r"|boa\s+sorte\s+(?:com|no|na|nos|nas|para)\b|parab[ée]ns\b|tomara\s+que\b"
    r"|(?:ik\s+)?hoop\s+dat\b|hopelijk\b|succes\s+(?:met|bij)\b|gefeliciteerd\b|beterschap\b"
)
_FRAME_RX = re.compile(rf"{_LEAD}(?:{_ASKS_HOW}|{_WISHES})", re.IGNORECASE)
_JAPANESE_FOLLOW_UP_RX = re.compile(
    r"(?:どうでしたか|いかがでしたか|どうだった|どうですか|いかがですか|その後|おめでとう"
    r"|うまくいきますように|よくなりますように|お大事に|順調ですか|順調でしょうか|落ち着きましたか"
    r"|良くなりましたか|よくなりましたか|慣れた[？?]|慣れましたか|もう慣れ|といいですね|といいね)"
)

# Possessed small talk: greetings, not facts ("How was your day?", "Hope your week is
# going well", "Comment s'est passée ta journée ?").
_SMALL_TALK_RX = re.compile(
    r"\b(?:day|week|weekend|morning|evening|night|afternoon|time|question|search|request"
    r"|journ[ée]e|semaine|week-end|matin[ée]e|soir[ée]e|d[íi]a|semana|fin\s+de\s+semana"
    r"|ma[ñn]ana|tarde|noche|tag|woche|wochenende|morgen|abend|giornata|settimana|fine"
    r"\s+settimana|mattinata|serata|dag|week|weekend|avond|ochtend|fds)\b",
    re.IGNORECASE,
)
_DEFINITE = (
    r"the|this|that|le|la|les|l'|ce|cette|el|los|las|ese|esa|este|esta|der|die|das|dem|den"
    r"|des|il|lo|gli|i|quel\w*|quest\w*|o|a|os|as|esse|essa|este|esta|de|het|deze|die"
)
_DEFINITE_RX = re.compile(rf"(?:^|[\s'])(?:{_DEFINITE})\s*(?=\w)", re.IGNORECASE)


_FIRST_PERSON_SUBJECT_RX = re.compile(
    r"\W*(?:that\s+|que\s+|dass\s+|che\s+|dat\s+)?(?:I|I'\w+|je|j'|yo|ich|io|eu|ik|we|nous|wir)\b",
    re.IGNORECASE,
)


def _specific(body: str, sentence: str) -> bool:
    owner = possessive_owner(body, sentence)
    if owner is not None and not _SMALL_TALK_RX.match(body, owner):
        return True
    # the frame may end in the article ("Boa sorte na defesa", "Viel Glück beim Examen")
    opening = " ".join(body.split()[:2])
    return fact_word(opening) or any(
        fact_word(body[m.end() : m.end() + 40]) for m in _DEFINITE_RX.finditer(body)
    )


def followed_up(sentence: str) -> str | None:
    """What ``sentence`` (canonical, masked) asks after or wishes well, when it is an
    event of the user's life presented as known (module docstring): the words after the
    frame, where the fact a supporting record holds stands ("el temario de las
    oposiciones"), or None."""
    if _JAPANESE_FOLLOW_UP_RX.search(sentence):
        known = fact_word(sentence) or someone_named(sentence)
        return _JAPANESE_FOLLOW_UP_RX.sub(" ", sentence) if known else None
    m = _FRAME_RX.match(sentence)
    if not m:
        return None
    body = sentence[m.end() :]
    # "Hope I didn't miss anything in your notes" is about the answer's own search.
    first_person = _FIRST_PERSON_SUBJECT_RX.match(body)
    if (
        first_person
        and first_person.group().split()[-1].lower() == "je"
        and reads_as_dutch(sentence)
    ):
        first_person = None  # Dutch "je" is "your"
    if searched(sentence) or first_person:
        return None
    return body if someone_named(sentence) or _specific(body, sentence) else None
