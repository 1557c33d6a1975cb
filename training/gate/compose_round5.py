#!/usr/bin/env python3
"""Compose round-5 training clauses: remembered facts presented as known, and their twins.

Deterministic, standard library (plus the gate's own clause splitter, so each sentence is
cut into the clauses the classifier will see). Written after batch 2026-12-01e was
reported: its recollections mostly state a remembered personal fact without a telling
verb. Round 5 teaches that construction in general, in the six languages, with facts and
frames written by hand (none copied from a batch):

* **recollection**: a second-person fact about the user's life used as known -- a
  causal or concessive frame ("since you're ...", "because you have ...", "given that
  ..."), a possessive noun phrase ("given your ...", "with your ...", "ahead of your
  ...", "going by your ...", "considering your ..."), a bare statement followed by what
  the assistant did with it ("You ..., so I ...");
* **benign twins** built from the same facts and frames: the same fact stated in the
  current message ("you just said ...", "in your message ..."), hypotheticals (dropped by
  the splitter, so only the rest of the sentence is learned), advice addressed to a
  generic "you", remarks on what the user pasted or uploaded now, third parties' facts,
  the assistant's own actions.

Facts are stated positively: a negated one ("you don't drink") reads like an absence
claim ("you never told me") and pulled those towards the recollection label on the folds.

Each sentence is split with :func:`gateway.truthfulness.analyse`; in a recollection
sentence the clause that holds the fact is labelled ``recollection`` and the others
``benign``.

Usage: python3 training/gate/compose_round5.py   (writes round5_<lang>.jsonl here)
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from gateway.truthfulness import analyse  # noqa: E402

# Per language:
#   facts: a second-person fact, or (main-clause form, subordinate form) where word
#          order changes (German);
#   nps:   possessive noun phrases about the user's life;
#   acts:  what the assistant did or suggests;
#   rec_p: frames around a fact ({p} main form, {s} subordinate form, {a} an act);
#   rec_np: frames around a noun phrase ({n}, {a});
#   twin_p / twin_np: benign frames around the same material;
#   generic: benign sentences (advice to a generic "you", the current artefact, others).
DATA: dict[str, dict[str, list]] = {
    "en": {
        "facts": [
            "you're vegan",
            "you work weekends at the bakery",
            "you have two kids under five",
            "your husband is diabetic",
            "you're learning Portuguese",
            "you live on the fourth floor without a lift",
            "your budget for the trip is about 2,000 euros",
            "you ride your bike to work",
            "your daughter plays the cello",
            "you're recovering from a broken wrist",
            "you teach maths at a secondary school",
            "you prefer aisle seats",
            "your laptop runs Linux",
            "you're saving for a deposit",
            "your dad turns seventy in June",
            "you get migraines from bright screens",
            "you've switched to the night shift",
            "your team uses Jira",
            "you're gluten intolerant",
        ],
        "nps": [
            "your back problems",
            "your trip to Kyoto next month",
            "your son's asthma",
            "your new job at the clinic",
            "your 30-minute lunch break",
            "your shellfish allergy",
            "your move to Glasgow",
            "your half-marathon in May",
            "your wife's pregnancy",
            "your tight budget this month",
            "your fear of flying",
            "your hip replacement",
            "your small balcony",
            "your sister's wedding in August",
            "your dairy-free diet",
            "your old Android phone",
            "your two cats",
            "your commute across town",
            "the 500-euro limit you set",
            "the fixed-rate loan you picked",
        ],
        "acts": [
            "I picked recipes without any meat",
            "I moved the reminders to the evening",
            "I'd go for the lighter option",
            "I left out the stairs-heavy routes",
            "here are three options that fit",
            "I kept the plan short",
            "I'd book the earlier train",
            "I chose the smaller model",
            "the second flat is probably out",
            "I'd skip the group class for now",
            "I set the font larger",
            "this version should suit you better",
        ],
        "rec_p": [
            "Since {s}, {a}.",
            "Because {s}, {a}.",
            "Given that {s}, {a}.",
            "As {s}, {a}.",
            "{P}, so {a}.",
            "Knowing {s}, {a}.",
            "Remembering that {s}, {a}.",
            "Seeing as {s}, {a}.",
            "{a}, since {s}.",
            "{a} because {s}.",
            "Now that {s}, {a}.",
            "{P} — {a}.",
        ],
        "rec_np": [
            "Given {n}, {a}.",
            "With {n}, {a}.",
            "Ahead of {n}, {a}.",
            "Going by {n}, {a}.",
            "Considering {n}, {a}.",
            "Because of {n}, {a}.",
            "In light of {n}, {a}.",
            "With {n} in mind, {a}.",
            "{a}, given {n}.",
            "Keeping {n} in mind, {a}.",
        ],
        "twin_p": [
            "You just said {s}, so {a}.",
            "In your message you say {s}; {a}.",
            "If {s}, {a}.",
            "Are you sure {s}? {a}.",
            "Since you've just told me {s}, {a}.",
            "Your note here says {s}, so {a}.",
            "Many people find that {s} is tiring.",
            "Supposing {s}, {a}.",
        ],
        "twin_np": [
            "Tell me more about {n} and I'll adjust.",
            "If you mention {n}, I can adapt the plan.",
            "Should I take {n} into account?",
        ],
        "generic": [
            "You'll want to book early in summer.",
            "You can freeze the dough for a month.",
            "Your code has an off-by-one error on line 12.",
            "Your draft reads well overall.",
            "The spreadsheet you just uploaded has two duplicate rows.",
            "Your question is a common one.",
            "If your landlord refuses, you can appeal.",
            "You should rest the knee for a few days after a sprain.",
            "Most people who work nights sleep better with blackout curtains.",
            "Her son starts school in September.",
            "Vegetarians often need more iron.",
            "I've moved the meeting to Thursday.",
            "Your function returns None for empty lists.",
            "You can swap chicken for tofu in most stir-fries.",
            "Your best bet is the 8:15 train.",
            "Your password must have at least twelve characters.",
            "The client says the deadline is Friday.",
            "You may need a visa for stays over 90 days.",
            "I've added a column for the totals.",
            "Your email here is polite and clear.",
        ],
    },
    "fr": {
        "facts": [
            "tu es vegan",
            "tu travailles le week-end à la boulangerie",
            "tu as deux enfants de moins de cinq ans",
            "ton mari est diabétique",
            "tu apprends le portugais",
            "vous habitez au quatrième sans ascenseur",
            "votre budget pour le voyage est d'environ 2 000 euros",
            "tu vas au travail à vélo",
            "ta fille joue du violoncelle",
            "vous vous remettez d'une fracture du poignet",
            "vous enseignez les maths au collège",
            "vous préférez les places côté couloir",
            "ton portable tourne sous Linux",
            "vous économisez pour un apport",
            "ton père fête ses soixante-dix ans en juin",
            "tu as des migraines avec les écrans trop lumineux",
            "vous êtes intolérante au gluten",
        ],
        "nps": [
            "tes problèmes de dos",
            "ton voyage à Kyoto le mois prochain",
            "l'asthme de ton fils",
            "ton nouveau poste à la clinique",
            "ta pause déjeuner de trente minutes",
            "votre allergie aux fruits de mer",
            "ton déménagement à Nantes",
            "ton semi-marathon en mai",
            "la grossesse de ta femme",
            "ton budget serré ce mois-ci",
            "votre peur de l'avion",
            "votre prothèse de hanche",
            "ton petit balcon",
            "le mariage de ta sœur en août",
            "ton régime sans lactose",
            "tes deux chats",
            "le plafond de 500 euros que tu as fixé",
            "le prêt à taux fixe que vous avez choisi",
        ],
        "acts": [
            "j'ai choisi des recettes sans viande",
            "j'ai déplacé les rappels au soir",
            "je partirais sur l'option la plus légère",
            "j'ai écarté les trajets avec escaliers",
            "voici trois options qui conviennent",
            "j'ai gardé un plan court",
            "je prendrais le train plus tôt",
            "le deuxième appartement est sans doute exclu",
            "j'éviterais le cours collectif pour l'instant",
            "cette version devrait mieux te convenir",
        ],
        "rec_p": [
            "Comme {s}, {a}.",
            "Puisque {s}, {a}.",
            "Étant donné que {s}, {a}.",
            "Vu que {s}, {a}.",
            "{P}, donc {a}.",
            "Sachant que {s}, {a}.",
            "{a}, puisque {s}.",
            "{a} parce que {s}.",
            "Maintenant que {s}, {a}.",
            "{P} : {a}.",
        ],
        "rec_np": [
            "Vu {n}, {a}.",
            "Avec {n}, {a}.",
            "En vue de {n}, {a}.",
            "Compte tenu de {n}, {a}.",
            "À cause de {n}, {a}.",
            "Étant donné {n}, {a}.",
            "En tenant compte de {n}, {a}.",
            "{a}, vu {n}.",
        ],
        "twin_p": [
            "Tu viens de dire que {s}, donc {a}.",
            "Dans ton message, tu écris que {s} ; {a}.",
            "Si {s}, {a}.",
            "Es-tu sûr que {s} ? {a}.",
            "Puisque tu viens de m'écrire que {s}, {a}.",
            "Beaucoup de gens trouvent que c'est fatigant quand {s}.",
        ],
        "twin_np": [
            "Parle-moi de {n} et j'adapterai.",
            "Si tu me parles de {n}, je peux ajuster le plan.",
            "Dois-je tenir compte de {n} ?",
        ],
        "generic": [
            "Tu as intérêt à réserver tôt en été.",
            "Tu peux congeler la pâte un mois.",
            "Ton code a une erreur de décalage à la ligne 12.",
            "Ton brouillon se lit bien.",
            "Le tableur que tu viens d'envoyer contient deux lignes en double.",
            "Ta question est fréquente.",
            "Si ton propriétaire refuse, tu peux faire appel.",
            "Il faut reposer le genou quelques jours après une entorse.",
            "Son fils entre à l'école en septembre.",
            "Les végétariens manquent souvent de fer.",
            "J'ai déplacé la réunion à jeudi.",
            "Ta fonction renvoie None pour une liste vide.",
            "Le mieux est de prendre le train de 8 h 15.",
            "Le client dit que l'échéance est vendredi.",
            "Vous aurez peut-être besoin d'un visa au-delà de 90 jours.",
            "J'ai ajouté une colonne pour les totaux.",
            "Votre courriel est clair et poli.",
        ],
    },
    "es": {
        "facts": [
            "eres vegano",
            "trabajas los fines de semana en la panadería",
            "tienes dos hijos menores de cinco años",
            "tu marido es diabético",
            "estás aprendiendo portugués",
            "vive en un cuarto piso sin ascensor",
            "tu presupuesto para el viaje es de unos 2.000 euros",
            "vas al trabajo en bici",
            "tu hija toca el violonchelo",
            "te estás recuperando de una fractura de muñeca",
            "das clases de matemáticas en un instituto",
            "prefiere los asientos de pasillo",
            "tu portátil usa Linux",
            "estás ahorrando para la entrada de un piso",
            "tu padre cumple setenta años en junio",
            "te dan migrañas las pantallas muy brillantes",
            "es celíaca",
        ],
        "nps": [
            "tus problemas de espalda",
            "tu viaje a Kioto el mes que viene",
            "el asma de tu hijo",
            "tu nuevo trabajo en la clínica",
            "tu descanso de media hora para comer",
            "su alergia al marisco",
            "tu mudanza a Valencia",
            "tu media maratón de mayo",
            "el embarazo de tu mujer",
            "tu presupuesto ajustado de este mes",
            "su miedo a volar",
            "su prótesis de cadera",
            "tu balcón pequeño",
            "la boda de tu hermana en agosto",
            "tu dieta sin lácteos",
            "tus dos gatos",
            "el tope de 500 euros que fijaste",
            "la hipoteca a tipo fijo que elegisteis",
        ],
        "acts": [
            "he elegido recetas sin carne",
            "he pasado los recordatorios a la tarde",
            "yo iría por la opción más ligera",
            "he descartado las rutas con escaleras",
            "aquí tienes tres opciones que encajan",
            "he dejado el plan corto",
            "cogería el tren de antes",
            "el segundo piso probablemente queda fuera",
            "me saltaría la clase en grupo por ahora",
            "esta versión te irá mejor",
        ],
        "rec_p": [
            "Como {s}, {a}.",
            "Ya que {s}, {a}.",
            "Dado que {s}, {a}.",
            "Puesto que {s}, {a}.",
            "{P}, así que {a}.",
            "Sabiendo que {s}, {a}.",
            "{a}, ya que {s}.",
            "{a} porque {s}.",
            "Ahora que {s}, {a}.",
            "{P}: {a}.",
        ],
        "rec_np": [
            "Dado {n}, {a}.",
            "Con {n}, {a}.",
            "De cara a {n}, {a}.",
            "Teniendo en cuenta {n}, {a}.",
            "Por {n}, {a}.",
            "En vista de {n}, {a}.",
            "Pensando en {n}, {a}.",
            "{a}, dado {n}.",
        ],
        "twin_p": [
            "Acabas de decir que {s}, así que {a}.",
            "En tu mensaje dices que {s}; {a}.",
            "Si {s}, {a}.",
            "¿Seguro que {s}? {a}.",
            "Ya que me acabas de escribir que {s}, {a}.",
            "A mucha gente le cansa cuando {s}.",
        ],
        "twin_np": [
            "Cuéntame más sobre {n} y lo ajusto.",
            "Si me hablas de {n}, puedo adaptar el plan.",
            "¿Tengo en cuenta {n}?",
        ],
        "generic": [
            "Conviene reservar pronto en verano.",
            "Puedes congelar la masa un mes.",
            "Tu código tiene un error de índice en la línea 12.",
            "Tu borrador se lee bien.",
            "La hoja de cálculo que acabas de subir tiene dos filas duplicadas.",
            "Tu pregunta es muy habitual.",
            "Si tu casero se niega, puedes reclamar.",
            "Hay que descansar la rodilla unos días tras un esguince.",
            "Su hijo empieza el colegio en septiembre.",
            "Los vegetarianos suelen necesitar más hierro.",
            "He pasado la reunión al jueves.",
            "Tu función devuelve None con listas vacías.",
            "Lo mejor es el tren de las 8:15.",
            "El cliente dice que el plazo es el viernes.",
            "Puede que necesites visado para más de 90 días.",
            "He añadido una columna con los totales.",
            "Su correo es claro y educado.",
        ],
    },
    "de": {
        "facts": [
            ("du bist Veganer", "du Veganer bist"),
            (
                "du arbeitest am Wochenende in der Bäckerei",
                "du am Wochenende in der Bäckerei arbeitest",
            ),
            ("du hast zwei Kinder unter fünf", "du zwei Kinder unter fünf hast"),
            ("dein Mann ist Diabetiker", "dein Mann Diabetiker ist"),
            ("du lernst Portugiesisch", "du Portugiesisch lernst"),
            ("Sie wohnen im vierten Stock ohne Aufzug", "Sie im vierten Stock ohne Aufzug wohnen"),
            (
                "Ihr Budget für die Reise liegt bei etwa 2.000 Euro",
                "Ihr Budget für die Reise bei etwa 2.000 Euro liegt",
            ),
            ("du fährst mit dem Rad zur Arbeit", "du mit dem Rad zur Arbeit fährst"),
            ("deine Tochter spielt Cello", "deine Tochter Cello spielt"),
            (
                "Sie erholen sich von einem Handgelenksbruch",
                "Sie sich von einem Handgelenksbruch erholen",
            ),
            (
                "Sie unterrichten Mathe an einer Realschule",
                "Sie Mathe an einer Realschule unterrichten",
            ),
            ("Sie sitzen lieber am Gang", "Sie lieber am Gang sitzen"),
            ("dein Laptop läuft mit Linux", "dein Laptop mit Linux läuft"),
            ("ihr spart auf eine Eigentumswohnung", "ihr auf eine Eigentumswohnung spart"),
            ("dein Vater wird im Juni siebzig", "dein Vater im Juni siebzig wird"),
            (
                "du bekommst von hellen Bildschirmen Migräne",
                "du von hellen Bildschirmen Migräne bekommst",
            ),
            ("Sie haben Zöliakie", "Sie Zöliakie haben"),
        ],
        "nps": [
            "deiner Rückenprobleme",
            "deiner Reise nach Kyoto nächsten Monat",
            "dem Asthma deines Sohnes",
            "deiner neuen Stelle in der Klinik",
            "deiner halbstündigen Mittagspause",
            "Ihrer Allergie gegen Meeresfrüchte",
            "deinem Umzug nach Leipzig",
            "deinem Halbmarathon im Mai",
            "der Schwangerschaft deiner Frau",
            "deinem knappen Budget diesen Monat",
            "Ihrer Flugangst",
            "Ihrer Hüftprothese",
            "deinem kleinen Balkon",
            "der Hochzeit deiner Schwester im August",
            "deiner laktosefreien Ernährung",
            "deinen zwei Katzen",
            "der Obergrenze von 500 Euro, die du gesetzt hast",
        ],
        "acts": [
            "habe ich Rezepte ohne Fleisch gewählt",
            "habe ich die Erinnerungen auf den Abend gelegt",
            "würde ich die leichtere Variante nehmen",
            "habe ich Strecken mit Treppen weggelassen",
            "passen diese drei Optionen",
            "habe ich den Plan kurz gehalten",
            "würde ich den früheren Zug nehmen",
            "fällt die zweite Wohnung wohl raus",
            "würde ich den Gruppenkurs erstmal auslassen",
            "sollte diese Version besser passen",
        ],
        "rec_p": [
            "Da {s}, {a}.",
            "Weil {s}, {a}.",
            "Nachdem {s}, {a}.",
            "Wo {s}, {a}.",
            "{P}, deshalb {a}.",
            "Da ja {s}, {a}.",
            "{P} – deshalb {a}.",
            "Jetzt, wo {s}, {a}.",
        ],
        "rec_np": [
            "Wegen {n} {a}.",
            "Bei {n} {a}.",
            "Vor {n} {a}.",
            "Angesichts {n} {a}.",
            "Mit Blick auf {n} {a}.",
            "Im Hinblick auf {n} {a}.",
        ],
        "twin_p": [
            "Du schreibst gerade, dass {s}, also {a}.",
            "In deiner Nachricht steht, dass {s}; also {a}.",
            "Falls {s}, {a}.",
            "Wenn {s}, {a}.",
            "Bist du sicher, dass {s}? Dann {a}.",
            "Viele finden es anstrengend, wenn {s}.",
        ],
        "twin_np": [
            "Erzähl mir mehr zu {n}, dann passe ich es an.",
            "Soll ich {n} berücksichtigen?",
        ],
        "generic": [
            "Im Sommer sollte man früh buchen.",
            "Den Teig kannst du einen Monat einfrieren.",
            "Dein Code hat in Zeile 12 einen Off-by-one-Fehler.",
            "Dein Entwurf liest sich gut.",
            "Die Tabelle, die du gerade hochgeladen hast, hat zwei doppelte Zeilen.",
            "Deine Frage ist häufig.",
            "Wenn dein Vermieter ablehnt, kannst du widersprechen.",
            "Nach einer Verstauchung sollte man das Knie ein paar Tage schonen.",
            "Ihr Sohn kommt im September in die Schule.",
            "Vegetarier brauchen oft mehr Eisen.",
            "Ich habe das Meeting auf Donnerstag verschoben.",
            "Deine Funktion gibt bei leeren Listen None zurück.",
            "Am besten nimmst du den Zug um 8:15.",
            "Der Kunde sagt, die Frist ist Freitag.",
            "Für mehr als 90 Tage brauchen Sie eventuell ein Visum.",
            "Ich habe eine Spalte für die Summen ergänzt.",
            "Ihre E-Mail ist klar und höflich.",
        ],
    },
    "it": {
        "facts": [
            "sei vegano",
            "lavori nel fine settimana al panificio",
            "hai due figli sotto i cinque anni",
            "tuo marito è diabetico",
            "stai imparando il portoghese",
            "abita al quarto piano senza ascensore",
            "il tuo budget per il viaggio è di circa 2.000 euro",
            "vai al lavoro in bici",
            "tua figlia suona il violoncello",
            "ti stai riprendendo da una frattura al polso",
            "insegna matematica alle medie",
            "preferisce i posti lato corridoio",
            "il tuo portatile usa Linux",
            "state risparmiando per l'anticipo di una casa",
            "tuo padre compie settant'anni a giugno",
            "ti vengono le emicranie con gli schermi luminosi",
            "è celiaca",
        ],
        "nps": [
            "i tuoi problemi di schiena",
            "il tuo viaggio a Kyoto il mese prossimo",
            "l'asma di tuo figlio",
            "il tuo nuovo lavoro in clinica",
            "la tua pausa pranzo di mezz'ora",
            "la sua allergia ai frutti di mare",
            "il tuo trasloco a Torino",
            "la tua mezza maratona di maggio",
            "la gravidanza di tua moglie",
            "il tuo budget ridotto di questo mese",
            "la sua paura di volare",
            "la sua protesi all'anca",
            "il tuo balcone piccolo",
            "il matrimonio di tua sorella ad agosto",
            "la tua dieta senza latticini",
            "i tuoi due gatti",
            "il tetto di 500 euro che hai fissato",
        ],
        "acts": [
            "ho scelto ricette senza carne",
            "ho spostato i promemoria alla sera",
            "andrei sull'opzione più leggera",
            "ho escluso i percorsi con scale",
            "ecco tre opzioni adatte",
            "ho tenuto il piano breve",
            "prenderei il treno prima",
            "il secondo appartamento probabilmente è escluso",
            "per ora salterei il corso di gruppo",
            "questa versione dovrebbe andarti meglio",
        ],
        "rec_p": [
            "Visto che {s}, {a}.",
            "Siccome {s}, {a}.",
            "Dato che {s}, {a}.",
            "Poiché {s}, {a}.",
            "{P}, quindi {a}.",
            "Sapendo che {s}, {a}.",
            "{a}, visto che {s}.",
            "{a} perché {s}.",
            "Ora che {s}, {a}.",
            "{P}: {a}.",
        ],
        "rec_np": [
            "Visto {n}, {a}.",
            "Con {n}, {a}.",
            "In vista de{n2}, {a}.",
            "Considerando {n}, {a}.",
            "Per via de{n2}, {a}.",
            "Tenendo conto de{n2}, {a}.",
            "{a}, visto {n}.",
        ],
        "twin_p": [
            "Hai appena detto che {s}, quindi {a}.",
            "Nel tuo messaggio scrivi che {s}; {a}.",
            "Se {s}, {a}.",
            "Sei sicuro che {s}? {a}.",
            "Visto che mi hai appena scritto che {s}, {a}.",
            "Molti trovano stancante quando {s}.",
        ],
        "twin_np": [
            "Raccontami di più su {n} e adatto il piano.",
            "Devo tenere conto de{n2}?",
        ],
        "generic": [
            "Conviene prenotare presto d'estate.",
            "Puoi congelare l'impasto per un mese.",
            "Il tuo codice ha un errore di indice alla riga 12.",
            "La tua bozza si legge bene.",
            "Il foglio che hai appena caricato ha due righe duplicate.",
            "La tua domanda è frequente.",
            "Se il padrone di casa rifiuta, puoi fare ricorso.",
            "Dopo una distorsione conviene riposare il ginocchio qualche giorno.",
            "Suo figlio inizia la scuola a settembre.",
            "I vegetariani spesso hanno bisogno di più ferro.",
            "Ho spostato la riunione a giovedì.",
            "La tua funzione restituisce None con liste vuote.",
            "La scelta migliore è il treno delle 8:15.",
            "Il cliente dice che la scadenza è venerdì.",
            "Per soggiorni oltre i 90 giorni potrebbe servire un visto.",
            "Ho aggiunto una colonna per i totali.",
            "La sua email è chiara ed educata.",
        ],
    },
    "pt": {
        "facts": [
            "você é vegano",
            "trabalhas aos fins de semana na padaria",
            "você tem dois filhos com menos de cinco anos",
            "o teu marido é diabético",
            "você está aprendendo espanhol",
            "moras num quarto andar sem elevador",
            "o seu orçamento para a viagem é de uns 2.000 euros",
            "vais para o trabalho de bicicleta",
            "a sua filha toca violoncelo",
            "você está se recuperando de uma fratura no pulso",
            "dás aulas de matemática numa escola secundária",
            "você prefere lugares no corredor",
            "o teu portátil usa Linux",
            "vocês estão juntando dinheiro para a entrada de um apartamento",
            "o seu pai faz setenta anos em junho",
            "você tem enxaqueca com telas muito claras",
            "você é celíaca",
        ],
        "nps": [
            "os seus problemas de coluna",
            "a sua viagem a Quioto no mês que vem",
            "a asma do teu filho",
            "o seu novo emprego na clínica",
            "a tua pausa de meia hora para o almoço",
            "a sua alergia a frutos do mar",
            "a tua mudança para o Porto",
            "a sua meia maratona em maio",
            "a gravidez da tua mulher",
            "o seu orçamento apertado este mês",
            "o seu medo de voar",
            "a sua prótese de anca",
            "a tua varanda pequena",
            "o casamento da sua irmã em agosto",
            "a tua dieta sem lactose",
            "os seus dois gatos",
            "o teto de 500 euros que definiste",
        ],
        "acts": [
            "escolhi receitas sem carne",
            "passei os lembretes para a noite",
            "eu iria pela opção mais leve",
            "deixei de fora os percursos com escadas",
            "aqui estão três opções que servem",
            "mantive o plano curto",
            "eu apanharia o comboio mais cedo",
            "o segundo apartamento provavelmente fica de fora",
            "por enquanto eu pularia a aula em grupo",
            "esta versão deve servir melhor",
        ],
        "rec_p": [
            "Como {s}, {a}.",
            "Já que {s}, {a}.",
            "Visto que {s}, {a}.",
            "Uma vez que {s}, {a}.",
            "{P}, então {a}.",
            "Sabendo que {s}, {a}.",
            "{a}, já que {s}.",
            "{a} porque {s}.",
            "Agora que {s}, {a}.",
            "{P}: {a}.",
        ],
        "rec_np": [
            "Dada {n}, {a}.",
            "Com {n}, {a}.",
            "Tendo em conta {n}, {a}.",
            "Considerando {n}, {a}.",
            "Por causa de {n}, {a}.",
            "Pensando em {n}, {a}.",
            "{a}, dado {n}.",
        ],
        "twin_p": [
            "Você acabou de dizer que {s}, então {a}.",
            "Na tua mensagem dizes que {s}; {a}.",
            "Se {s}, {a}.",
            "Tem certeza de que {s}? {a}.",
            "Já que acabaste de me escrever que {s}, {a}.",
            "Muita gente acha cansativo quando {s}.",
        ],
        "twin_np": [
            "Conta-me mais sobre {n} e eu ajusto.",
            "Devo ter em conta {n}?",
        ],
        "generic": [
            "Vale a pena reservar cedo no verão.",
            "Você pode congelar a massa por um mês.",
            "O seu código tem um erro de índice na linha 12.",
            "O teu rascunho lê-se bem.",
            "A planilha que você acabou de enviar tem duas linhas duplicadas.",
            "A sua pergunta é comum.",
            "Se o senhorio recusar, pode recorrer.",
            "Depois de uma entorse convém descansar o joelho alguns dias.",
            "O filho dela entra na escola em setembro.",
            "Vegetarianos muitas vezes precisam de mais ferro.",
            "Passei a reunião para quinta-feira.",
            "A tua função devolve None para listas vazias.",
            "O melhor é o comboio das 8h15.",
            "O cliente diz que o prazo é sexta-feira.",
            "Pode precisar de visto para estadias acima de 90 dias.",
            "Acrescentei uma coluna para os totais.",
            "O seu e-mail está claro e educado.",
        ],
    },
}

# Italian "de" + article contraction for {n2}.
_IT_DE = {"il ": "l ", "i ": "i ", "la ": "lla ", "l'": "ll'", "le ": "lle ", "lo ": "llo "}


def _it_de(np: str) -> str:
    for art, tail in _IT_DE.items():
        if np.startswith(art):
            return tail + np[len(art) :]
    return "i " + np


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _labelled(sentence: str, fact: str | None) -> list[dict[str, str]]:
    analysis = analyse(sentence)
    out = []
    lo = sentence.casefold().find(fact.casefold()) if fact else -1
    hi = lo + len(fact) if fact and lo >= 0 else -1
    for _, info in analysis.asserted():
        text = analysis.masked[info.start : info.end].strip()
        if not any(ch.isalnum() for ch in text):
            continue
        hit = lo >= 0 and info.start < hi and info.end > lo
        out.append({"label": "recollection" if hit else "benign", "text": text})
    return out


def compose(lang: str, rng: random.Random) -> list[dict[str, str]]:
    d = DATA[lang]
    rows: list[dict[str, str]] = []

    def add(sentence: str, fact: str | None) -> None:
        for row in _labelled(sentence, fact):
            rows.append({"lang": lang, **row})

    for entry in d["facts"]:
        main, sub = entry if isinstance(entry, tuple) else (entry, entry)
        for frame in rng.sample(d["rec_p"], min(5, len(d["rec_p"]))):
            act = rng.choice(d["acts"])
            fact = main if "{P}" in frame else sub
            s = frame.format(P=_cap(main), s=sub, a=act)
            add(_cap(s), fact)
        for frame in rng.sample(d["twin_p"], min(3, len(d["twin_p"]))):
            s = frame.format(s=sub, a=rng.choice(d["acts"]))
            add(_cap(s), None)
    for np in d["nps"]:
        n2 = _it_de(np) if lang == "it" else np
        for frame in rng.sample(d["rec_np"], min(4, len(d["rec_np"]))):
            act = rng.choice(d["acts"])
            s = _cap(frame.format(n=np, n2=n2, a=act))
            add(s, np if "{n}" in frame else n2)
        frame = rng.choice(d["twin_np"])
        add(_cap(frame.format(n=np, n2=n2)), None)
    for sentence in d["generic"]:
        add(sentence, None)
    for act in d["acts"]:
        add(_cap(act) + ".", None)
    seen: set[tuple[str, str]] = set()
    unique = []
    for row in rows:
        key = (row["label"], row["text"])
        if key not in seen:
            seen.add(key)
            unique.append(row)
    return unique


def main() -> int:
    for lang in DATA:
        rows = compose(lang, random.Random(f"round5-{lang}"))
        path = HERE / f"round5_{lang}.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
        n_rec = sum(1 for r in rows if r["label"] == "recollection")
        print(f"{path.name}: {len(rows)} clauses ({n_rec} recollection)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
