"""What a claim is about: its topic terms, beside the claim detectors.

A claim's topic is the content words of its sentence (the clause alone loses "your vet's
name" in "I looked up your vet's name, but nothing came back"), minus stop words of the
gate's languages (the ISO lists of the maintained ``stopwordsiso`` package) and minus
the *frame* words that only say a claim is being made (tell, mention, search, find,
memory, record... in the six gate languages). When the sentence has none, the previous
sentence of the same paragraph is tried once ("I checked your notes for the Falcon
project. Nothing came up."). No topic means the claim can be tied to no search.

Terms are in the suite's normal form (:mod:`engram.terms`): ``exact`` ones as FindExact
compares them, ``stems`` as the ranked read paths do.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from engram import terms

__all__ = ["Topic", "content_words", "fact_of", "topic_of"]

GATE_LANGUAGES = ("en", "fr", "de", "es", "it", "pt", "nl")
MAX_TOPIC_TERMS = 6

# Words that frame a memory claim rather than name its topic.
_FRAME_TEXT = """
never ever nothing anything none no not told tell telling tells say said saying says
mention mentioned mentioning mentions share shared sharing discuss discussed talk talked
speak spoke spoken bring brought raise raised came come up record records recorded note
notes noted memory memories remember remembered recall recalled history conversation
conversations chat chats session sessions message messages search searched searching
searches look looked looking lookup find found finding results result match matches hit
hits entry entries trace traces mention store stored saved file files log logs
previously before earlier past time first far know knew informed let gave given
jamais rien aucun aucune dit dire parlé parler mentionné mentionnée évoqué trouvé
trouvée cherché recherche recherches mémoire souvenir souviens historique conversation
conversations échanges notes note résultat résultats trace
nunca nada ningún ninguna ninguno dicho dijiste hablado mencionado mencionaste
encontrado encontré buscado búsqueda memoria recuerdo historial conversación
conversaciones notas resultado resultados rastro
nie niemals nichts kein keine keinen gesagt erzählt erwähnt gesprochen gefunden gesucht
suche gedächtnis erinnerung erinnere verlauf gespräch gesprächen notizen ergebnis
ergebnisse spur
mai niente nulla nessun nessuno nessuna detto parlato menzionato accennato trovato
cercato ricerca memoria ricordo cronologia conversazione conversazioni note risultato
risultati traccia
nunca nada nenhum nenhuma dito disse falado falaste mencionado mencionou encontrei
encontrado procurei pesquisa memória lembro histórico conversa conversas notas
resultado resultados rastro
nooit niets geen gezegd verteld genoemd gevonden gezocht zoekopdracht geheugen
gesprek gesprekken notities resultaten
query queries queried lookups surfaced avail vain fruitless
néant requête interrogé interrogation succès vaine infructueuse occurrence
coincidencias coincidencia intentos intento efectuado vacíos infructuosa
ergebnislos erfolglos treffer abgefragt recherche vergeblich
verifica esito negativo riscontro effettuato storico infruttuosa
procura busca infrutífera êxito
treffers nagezocht opgezocht tevergeefs
"""


@functools.cache
def _stop_words() -> frozenset[str]:
    import stopwordsiso

    words: set[str] = set()
    for lang in GATE_LANGUAGES:
        words.update(stopwordsiso.stopwords(lang))
    words.update(_FRAME_TEXT.split())
    return frozenset(w for word in words for w in terms.exact_terms(word))


def is_stop_word(word: str) -> bool:
    """Whether ``word`` is a stop or frame word of a gate language ("With", "Como", "Mit")."""
    stop = _stop_words()
    return any(w in stop for w in terms.exact_terms(word))


def content_words(text: str, limit: int | None = MAX_TOPIC_TERMS) -> tuple[str, ...]:
    """Exact-form content words of ``text`` in order, without repeats."""
    stop = _stop_words()
    out: list[str] = []
    for word in terms.exact_terms(text):
        if len(word) < 2 and word.isascii():
            continue
        if word in stop or word.isdigit() or word in out:
            continue
        out.append(word)
    return tuple(out[:limit])


@dataclass(frozen=True)
class Topic:
    exact: tuple[str, ...]
    # A remembered fact's names and numbers ("Anna", "2015"), in exact form: a record
    # supports the fact only if it holds each number and one of the names
    # (:func:`gateway.recollection.supported_by_records`).
    specific: tuple[str, ...] = ()
    # Made by :func:`fact_of`: one clause's words, so a record needs fewer of them.
    fact: bool = False

    @property
    def stems(self) -> frozenset[str]:
        return frozenset(s for word in self.exact for s in terms.index_terms(word))

    def __bool__(self) -> bool:
        return bool(self.exact)

    def describe(self) -> str:
        return " ".join(self.exact)


def topic_of(sentence: str, previous_sentence: str = "") -> Topic:
    """The topic of a claim made in ``sentence`` (module docstring)."""
    words = content_words(sentence)
    if not words and previous_sentence:
        words = content_words(previous_sentence)
    return Topic(words)


def stems_of(text: str) -> frozenset[str]:
    """Stemmed content words: what a ranked search for ``text`` was about."""
    return Topic(content_words(text, limit=None)).stems


# A word written with a capital inside a clause, or holding a digit: a name, a place, a
# model, a year, an amount.
_WORD_RX = re.compile(r"[^\W_][\w'’-]*")


def _specific_words(clause: str) -> tuple[str, ...]:
    stop = _stop_words()
    out: list[str] = []
    for i, match in enumerate(_WORD_RX.finditer(clause)):
        word = match.group()
        if not (any(c.isdigit() for c in word) or (i > 0 and word[0].isupper())):
            continue
        for exact in terms.exact_terms(word):
            if exact not in stop and exact not in out:
                out.append(exact)
    return tuple(out)


def fact_of(clause: str) -> Topic:
    """The topic of a fact a recollection presents: the content words of the clause that
    states it, and its names and numbers (which a supporting record must repeat). The
    rest of the sentence is left out: "You told me you're vegan, so every dish here is
    plant-based" is supported by "I'm vegan"."""
    return Topic(content_words(clause), _specific_words(clause), fact=True)
