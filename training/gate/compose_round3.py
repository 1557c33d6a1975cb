#!/usr/bin/env python3
"""Compose round-3 training clauses (six languages) for the gate's clause classifier.

Deterministic, standard library only. Round 3 targets the benign types that the
reported blind batches showed the classifier confusing with claims, and the recollection
wordings it missed; every item is a hand-written frame filled with hand-written topics
(each frame meets several topics), none copied from an evaluation batch:

* benign: the current message ("in your question you mention", "you say here"), the
  assistant's own earlier advice ("as I told you last time, ..."), something the user
  shared in this turn (a spreadsheet, a log, a screenshot), a third party's silence
  reported back ("so your sister never told you"), a search that failed or covered only
  part of memory (a coverage statement, not an absence claim), other systems' empty
  results, hypotheticals;
* recollection: a remembered personal fact without a telling verb ("if I remember
  correctly, ...", "from our earlier chats I know ...", "I remember that you ...").

Usage: python3 training/gate/compose_round3.py   (writes round3_<lang>.jsonl here)
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# Per language: {label: [frames]} and topics (a noun phrase about the user, "t"; a
# third party, "p"; an external system, "s").
DATA = {
    "en": {
        "topics": [
            "your sister's wedding",
            "your new job",
            "your allergy",
            "the move to Leeds",
            "your thesis",
            "your dog's diet",
            "the budget for the kitchen",
            "your knee surgery",
            "the trip to Porto",
            "your landlord",
        ],
        "people": [
            "your sister",
            "your father",
            "your boss",
            "your landlord",
            "your son",
            "your partner",
        ],
        "systems": [
            "the supermarket's website",
            "your inbox search",
            "the CRM",
            "PubMed",
            "the library catalogue",
            "the company wiki",
            "Google Scholar",
            "the airline's booking page",
        ],
        "benign": [
            "In your question you mention {t}",
            "You say here that {t} is the main worry",
            "Since you're asking about {t} right now",
            "In your message today you describe {t}",
            "Now that you've brought up {t}",
            "As I said in my last answer, {t} can wait a week",
            "I told you last time that the warranty covers {t}",
            "Like I suggested earlier, start with {t}",
            "As I recommended before, keep {t} simple",
            "The spreadsheet you just shared lists {t}",
            "The log you pasted shows an error right after {t}",
            "According to the screenshot you sent, {t} is due on Friday",
            "So {p} never told you about {t}",
            "It sounds like {p} never mentioned {t} to you",
            "{p} apparently never said a word about {t}",
            "The search of my memory failed, so I can't tell whether you mentioned {t}",
            "I could only search the last ten conversations for {t}",
            "My memory search for {t} timed out",
            "I only looked through this week's notes, so older mentions of {t} may exist",
            "The memory service was unavailable when I looked for {t}",
            "{s} shows no results for {t}",
            "{s} returned nothing for {t}, so try another spelling",
            "Searching {s} for {t} found nothing",
            "Imagine you told a recruiter about {t}",
            "Suppose {t} falls through",
            "Let's say {t} happens in May",
        ],
        "recollection": [
            "If I remember correctly, {t} is in June",
            "From our earlier chats I know {t} matters a lot to you",
            "I remember that {t} was stressing you out",
            "Last time we talked, {t} was still undecided",
            "You were worried about {t} when we last spoke",
            "Based on what you shared before, {t} is settled",
            "I recall {t} from our previous conversation",
            "Going by our past conversations, {t} is the priority",
        ],
    },
    "fr": {
        "topics": [
            "le mariage de votre sœur",
            "votre nouveau poste",
            "votre allergie",
            "le déménagement à Lyon",
            "votre thèse",
            "le régime de votre chien",
            "le budget de la cuisine",
            "votre opération du genou",
        ],
        "people": ["votre sœur", "votre père", "votre patron", "votre propriétaire", "votre fils"],
        "systems": [
            "le site du supermarché",
            "la recherche dans votre boîte mail",
            "le catalogue de la bibliothèque",
            "PubMed",
            "le CRM",
        ],
        "benign": [
            "Dans votre question, vous parlez de {t}",
            "Vous m'expliquez ici que {t} vous inquiète",
            "Dans votre message, vous précisez {t}",
            "Comme je vous l'ai dit la dernière fois, {t} peut attendre",
            "Comme je vous l'avais conseillé, commencez par {t}",
            "Le tableau que vous venez de coller montre {t}",
            "D'après la capture que vous avez envoyée, {t} est prévu vendredi",
            "Si je comprends bien, {p} ne vous a jamais parlé de {t}",
            "Vous me dites que {p} n'a jamais évoqué {t}",
            "La recherche dans ma mémoire a échoué, je ne sais donc pas si vous avez parlé de {t}",
            "Je n'ai pu parcourir que les dix dernières conversations pour {t}",
            "{s} n'affiche aucun résultat pour {t}",
            "Imaginons que {t} tombe à l'eau",
        ],
        "recollection": [
            "Si je me souviens bien, {t} est prévu en juin",
            "D'après nos échanges précédents, {t} compte beaucoup pour vous",
            "Je me souviens que {t} vous stressait",
            "Lors de notre dernier échange, {t} n'était pas encore décidé",
            "La dernière fois, vous m'avez parlé de {t}",
        ],
    },
    "es": {
        "topics": [
            "la boda de tu hermana",
            "tu nuevo trabajo",
            "tu alergia",
            "la mudanza a Valencia",
            "tu tesis",
            "la dieta de tu perro",
            "el presupuesto de la cocina",
            "tu operación de rodilla",
        ],
        "people": ["tu hermana", "tu padre", "tu jefe", "tu casero", "tu hijo"],
        "systems": [
            "la web del supermercado",
            "la búsqueda en tu correo",
            "el catálogo de la biblioteca",
            "PubMed",
            "el CRM",
        ],
        "benign": [
            "En tu pregunta mencionas {t}",
            "Me cuentas aquí que {t} te preocupa",
            "En tu mensaje de hoy describes {t}",
            "Como te comenté la última vez, {t} puede esperar",
            "Como te recomendé antes, empieza por {t}",
            "La hoja de cálculo que acabas de compartir muestra {t}",
            "Según la captura que enviaste, {t} vence el viernes",
            "O sea que {p} nunca te habló de {t}",
            "Me dices que {p} nunca mencionó {t}",
            "La búsqueda en mi memoria falló, así que no sé si me hablaste de {t}",
            "Solo pude revisar las diez conversaciones más recientes sobre {t}",
            "{s} no muestra resultados para {t}",
            "Pongamos que {t} se cancela",
        ],
        "recollection": [
            "Si no recuerdo mal, {t} es en junio",
            "Por nuestras conversaciones anteriores sé que {t} te importa mucho",
            "Recuerdo que {t} te tenía estresado",
            "La última vez que hablamos, {t} aún no estaba decidido",
            "La otra vez me hablaste de {t}",
        ],
    },
    "de": {
        "topics": [
            "die Hochzeit deiner Schwester",
            "deine neue Stelle",
            "deine Allergie",
            "den Umzug nach Köln",
            "deine Masterarbeit",
            "das Futter deines Hundes",
            "das Budget für die Küche",
            "deine Knie-OP",
        ],
        "people": ["deine Schwester", "dein Vater", "dein Chef", "dein Vermieter", "dein Sohn"],
        "systems": [
            "die Website des Supermarkts",
            "die Suche in deinem Postfach",
            "der Bibliothekskatalog",
            "PubMed",
            "das CRM",
        ],
        "benign": [
            "In deiner Frage erwähnst du {t}",
            "Du schreibst hier, dass dich {t} beschäftigt",
            "In deiner Nachricht beschreibst du {t}",
            "Wie ich dir letztes Mal geschrieben habe, kann {t} warten",
            "Wie ich dir vorgeschlagen hatte, fang mit {t} an",
            "Die Tabelle, die du gerade geteilt hast, zeigt {t}",
            "Laut deinem Screenshot ist {t} am Freitag fällig",
            "Dann hat dir {p} also nie von {t} erzählt",
            "Du sagst, {p} habe {t} nie erwähnt",
            "Die Suche in meinem Gedächtnis ist fehlgeschlagen, also weiß ich nicht, ob du {t} erwähnt hast",
            "Ich konnte nur die letzten zehn Gespräche nach {t} durchsuchen",
            "{s} zeigt keine Treffer für {t}",
            "Angenommen, {t} fällt ins Wasser",
        ],
        "recollection": [
            "Wenn ich mich richtig erinnere, ist {t} im Juni",
            "Aus unseren früheren Gesprächen weiß ich, dass dir {t} wichtig ist",
            "Ich erinnere mich, dass dich {t} gestresst hat",
            "Bei unserem letzten Gespräch war {t} noch offen",
            "Du hast mir neulich von {t} erzählt",
        ],
    },
    "it": {
        "topics": [
            "il matrimonio di tua sorella",
            "il tuo nuovo lavoro",
            "la tua allergia",
            "il trasloco a Torino",
            "la tua tesi",
            "la dieta del tuo cane",
            "il budget per la cucina",
            "l'operazione al ginocchio",
        ],
        "people": [
            "tua sorella",
            "tuo padre",
            "il tuo capo",
            "il tuo padrone di casa",
            "tuo figlio",
        ],
        "systems": [
            "il sito del supermercato",
            "la ricerca nella tua casella",
            "il catalogo della biblioteca",
            "PubMed",
            "il CRM",
        ],
        "benign": [
            "Nella tua domanda parli di {t}",
            "Mi scrivi qui che {t} ti preoccupa",
            "Nel tuo messaggio di oggi descrivi {t}",
            "Come ti avevo detto l'altra volta, {t} può aspettare",
            "Come ti avevo suggerito, comincia da {t}",
            "Il foglio di calcolo che hai appena condiviso mostra {t}",
            "Secondo lo screenshot che hai mandato, {t} scade venerdì",
            "Quindi {p} non ti ha mai parlato di {t}",
            "Mi dici che {p} non ha mai accennato a {t}",
            "La ricerca nella mia memoria non è riuscita, quindi non so se mi hai parlato di {t}",
            "Ho potuto controllare solo le ultime dieci conversazioni su {t}",
            "{s} non dà risultati per {t}",
            "Mettiamo che {t} salti",
        ],
        "recollection": [
            "Se ricordo bene, {t} è a giugno",
            "Dalle nostre conversazioni precedenti so che {t} ti sta a cuore",
            "Ricordo che {t} ti stressava",
            "L'ultima volta che ci siamo sentiti, {t} non era ancora deciso",
            "L'altra volta mi hai parlato di {t}",
        ],
    },
    "pt": {
        "topics": [
            "o casamento da sua irmã",
            "o seu novo emprego",
            "a sua alergia",
            "a mudança para Curitiba",
            "a sua tese",
            "a dieta do seu cachorro",
            "o orçamento da cozinha",
            "a cirurgia no joelho",
        ],
        "people": ["a sua irmã", "o seu pai", "o seu chefe", "o seu senhorio", "o seu filho"],
        "systems": [
            "o site do supermercado",
            "a busca no seu e-mail",
            "o catálogo da biblioteca",
            "o PubMed",
            "o CRM",
        ],
        "benign": [
            "Na sua pergunta você menciona {t}",
            "Você conta aqui que {t} te preocupa",
            "Na sua mensagem de hoje você descreve {t}",
            "Como eu te disse da última vez, {t} pode esperar",
            "Como eu sugeri antes, comece por {t}",
            "A planilha que você acabou de mandar mostra {t}",
            "Segundo o print que você enviou, {t} vence na sexta",
            "Então {p} nunca te contou sobre {t}",
            "Você diz que {p} nunca falou de {t}",
            "A busca na minha memória deu erro, então não sei se você me falou de {t}",
            "Só consegui verificar as dez conversas mais recentes sobre {t}",
            "{s} não mostra resultados para {t}",
            "Digamos que {t} seja cancelado",
        ],
        "recollection": [
            "Se bem me lembro, {t} é em junho",
            "Pelas nossas conversas anteriores sei que {t} é importante para você",
            "Lembro que {t} estava te estressando",
            "Da última vez que conversamos, {t} ainda não estava decidido",
            "Outro dia você me falou de {t}",
        ],
    },
}
TOPICS_PER_FRAME = 4


def cap(s: str) -> str:
    return s[0].upper() + s[1:] if s else s


def compose(lang: str) -> list[dict[str, str]]:
    spec = DATA[lang]
    topics, people, systems = spec["topics"], spec["people"], spec["systems"]
    rows: list[dict[str, str]] = []
    for label in ("benign", "recollection"):
        for i, frame in enumerate(spec[label]):
            for k in range(TOPICS_PER_FRAME):
                text = frame.format(
                    t=topics[(i + k * 3) % len(topics)],
                    p=people[(i + k) % len(people)],
                    s=systems[(i + k) % len(systems)],
                )
                rows.append({"lang": lang, "label": label, "text": cap(text)})
    seen: set[str] = set()
    return [r for r in rows if not (r["text"] in seen or seen.add(r["text"]))]


def main() -> None:
    for lang in DATA:
        rows = compose(lang)
        with open(os.path.join(HERE, f"round3_{lang}.jsonl"), "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"round3_{lang}.jsonl: {len(rows)}")


if __name__ == "__main__":
    main()
