#!/usr/bin/env python3
"""Compose round-6 training clauses: telling frames by polarity, absence without a telling
verb, searches of the user's stores, and their twins.

Deterministic, standard library (plus the gate's own clause splitter, so each sentence is
cut into the clauses the classifier will see). Written after batch 2026-12-01h was
reported: the head read a negated telling ("Du hast mir nie gesagt, wo du wohnst") as a
recollection, and absence claims without a telling verb or with an unfamiliar search verb
went unread. Three constructions, in the six languages, with topics and frames written by
hand (none copied from a batch):

* **telling frames as minimal pairs**: the same object told and never told ("you told me
  where you live" -> ``recollection``; "you never told me where you live", "where you
  live, you never told me", "that's something you never said" -> ``corpus_wide``), in
  each language's clitic and word-order forms ("jamás me lo has dicho", "non me l'hai mai
  detto", "tu ne m'en as jamais parlé", "das hattest du nie erzählt", "davon hast du nie
  gesprochen", "isso nunca entrou na conversa"), tenses, informal and formal address, verb-
  final subordinate clauses, and objects as noun phrases or wh-clauses;
* **corpus-wide without a telling verb**: "X never came up", "there's no trace of X in
  what we've discussed", "X isn't something I have on file", impersonal and passive forms;
* **query-scoped**: a search of the user's notes, saved items, lists, favourites or
  history with no result, with many search verbs and result forms, verbal and nominal
  ("Zero results for X in your saved items");
* **benign twins** of each: the same frames about external sources (the web, PubMed, a
  file attached now, a flight or hotel search, a catalogue), third parties and reported
  speech ("your brother says you never told him ..."), world negation, questions and
  conditionals (dropped by the splitter, so only the rest of the sentence is learned), the
  current message ("you just told me ..."), capability statements and instructions.

Frames mark the claim with ``⟦...⟧``. Each sentence is split with
:func:`gateway.truthfulness.analyse`; the clauses overlapping the marked span get the
frame's label, the others ``benign``. An absence claim must fall in exactly one asserted
clause (the splitter cuts "X in your notes: 0 results" at the colon, so such frames are
not written), and every marked claim in at least one; the script stops otherwise.

Usage: python3 training/gate/compose_round6.py   (writes round6_<lang>.jsonl here)
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from gateway.truthfulness import analyse  # noqa: E402

REC, CW, QS, BENIGN = "recollection", "corpus_wide", "query_scoped", "benign"
OPEN, CLOSE = "⟦", "⟧"

# Per language:
#   topics:   something about the user, as {n} a noun phrase, {w} a wh-clause, {fw} its
#             formal-address form; German adds {a} accusative and {d} dative;
#   facts:    a positive second-person fact (German: subordinate word order);
#   tails:    what the assistant did next (benign), {t} in frames;
#   pairs:    (told, never told) frames around one topic;
#   fact_rec / fact_cw: frames around a fact;
#   twins:    benign frames around a topic;
#   cw:       corpus-wide frames without a telling verb;
#   ext:      things in the world or in other documents, {x} (German {xa}, {xd});
#   cw_twins: benign frames around {x};
#   stores:   the user's stores searched, {s} (German {sa}, {sd});
#   sources:  (external source, what was searched there), {s} and {n} in the qs frames;
#   qs:       query-scoped frames, filled with a store (claim) or a source (benign);
#   generic:  benign sentences (capabilities, instructions, world negation).
DATA: dict[str, dict[str, list[Any]]] = {
    "en": {
        "topics": [
            {"n": "your home address", "w": "where you live"},
            {"n": "your job", "w": "what you do for a living"},
            {"n": "your birthday", "w": "when your birthday is"},
            {"n": "your dog's name", "w": "what your dog is called"},
            {"n": "your children's school", "w": "where your children go to school"},
            {"n": "your dentist", "w": "who your dentist is"},
            {"n": "your departure date", "w": "when you're leaving"},
            {"n": "your budget for the sofa", "w": "how much you want to spend on the sofa"},
            {"n": "your partner's name", "w": "what your partner is called"},
            {"n": "your manager", "w": "who your manager is"},
            {"n": "your hometown", "w": "where you grew up"},
        ],
        "facts": [
            "your sister lives in Lyon",
            "you work from home on Fridays",
            "your son plays rugby",
            "you take the bus to work",
            "you're learning the piano",
            "your mother is visiting in May",
            "you started a new job in March",
        ],
        "tails": [
            "so I've noted it in the draft",
            "which matters for the booking",
            "so I've kept the plan as it is",
            "so the form is ready",
        ],
        "pairs": [
            ("{O}You told me {w}{C}, {t}.", "{O}You never told me {w}{C}, {t}."),
            ("{O}You mentioned {n}{C} last week.", "{O}You haven't mentioned {n}{C} so far."),
            ("{W}, {O}you told me{C} once.", "{W}, {O}you never told me{C}."),
            (
                "{N} — {O}that's something you said{C} early on.",
                "{N} — {O}that's something you never said{C}.",
            ),
            ("{O}You did tell me {w}{C}, {t}.", "{O}You didn't tell me {w}{C}, {t}."),
            ("{O}You'd mentioned {n}{C} before, {t}.", "{O}You'd never mentioned {n}{C}, {t}."),
            (
                "{O}You brought up {n}{C} in an earlier chat.",
                "{O}You've never brought up {n}{C} in our chats.",
            ),
            ("{O}You've told me {w}{C} before.", "{O}Not once have you told me {w}{C}."),
            ("Since {O}you told me {w}{C}, {t}.", "Since {O}you never told me {w}{C}, {t}."),
            (
                "I could fill in the form because {O}you told me {w}{C}.",
                "I couldn't fill in the form because {O}you never told me {w}{C}.",
            ),
            ("{O}You said {w}{C} when we last spoke.", "{O}You never said {w}{C} when we spoke."),
            ("{O}You've talked about {n}{C} before.", "{O}You've never talked about {n}{C}."),
        ],
        "fact_rec": [
            "{O}As you said, {f}{C}, {t}.",
            "{O}You told me {f}{C}.",
            "{O}You mentioned that {f}{C}, {t}.",
            "{O}Like you told me, {f}{C}.",
        ],
        "fact_cw": [
            "{O}You never told me {f}{C}.",
            "{O}You never mentioned that {f}{C}.",
        ],
        "twins": [
            "You just told me {w}, {t}.",
            "In this message you mention {n}, {t}.",
            "Your brother says you never told him {w}.",
            "Tell me {w}, and I'll update the plan.",
            "If you tell me {w}, I can narrow it down.",
            "Did you ever tell me {w}? I can check.",
            "You can tell me {w} whenever you like.",
            "You don't have to tell me {w}.",
            "Nobody told the courier {w}.",
            "Your sister says she never told him {w}.",
            "You've just mentioned {n}, {t}.",
        ],
        "cw": [
            "{O}{N} never came up{C}.",
            "{O}Nothing in our conversations points to {n}{C}.",
            "{O}{N} is a blank as far as our chats go{C}.",
            "{O}There's no trace of {n} in what we've discussed{C}.",
            "{O}I have nothing stored about {n}{C}.",
            "{O}{N} isn't something I have on file{C}.",
            "{O}{N} has never been mentioned in our exchanges{C}.",
            "{O}{N} was never part of our conversations{C}.",
            "{O}Our past chats contain nothing on {n}{C}.",
            "{O}Nowhere in our history is there anything about {n}{C}.",
            "{O}{N} has not come up between us{C}, {t}.",
        ],
        "ext": [
            "the refund",
            "the second invoice",
            "a parking permit",
            "the delivery date",
            "the change of venue",
            "the price rise",
        ],
        "cw_twins": [
            "{X} never came up at the meeting.",
            "Nothing in the report points to {x}.",
            "There's no trace of {x} in the file you just attached.",
            "The contract has nothing about {x}.",
            "{X} isn't something the airline has on file.",
            "{X} was never mentioned in the landlord's letter.",
            "The supplier never confirmed {x}.",
            "There's no mention of {x} in the email you pasted.",
            "I have nothing to add about {x}.",
        ],
        "stores": [
            "your notes",
            "your saved items",
            "your memory",
            "your reading list",
            "your favourites",
            "your search history",
            "our chat history",
            "your lists",
            "the notes you've kept with me",
            "your bookmarks",
        ],
        "sources": [
            ("the web", "direct flights to Porto on the 14th"),
            ("PubMed", "trials on magnesium for migraines"),
            ("the spreadsheet you just attached", "rows with a missing invoice date"),
            ("the product catalogue", "a blue raincoat in size M"),
            ("the flight listings", "a direct flight to Porto on the 14th"),
            ("the hotel listings", "rooms under 90 euros near the station"),
            ("this PDF", "the termination clause"),
            ("Google Scholar", "papers on this gene"),
            ("the library catalogue", "the second volume"),
            ("the shop's inventory", "an oak bookshelf under 100 euros"),
        ],
        "qs": [
            "{O}Scouring {s} for {n} turned up nothing{C}.",
            "{O}My search of {s} for {n} returned 0 results{C}.",
            "{O}Combing through {s} for {n} gave an empty list{C}.",
            "{O}A sweep of {s} for {n} found no match{C}.",
            "{O}Querying {s} for {n} comes back blank{C}.",
            "{O}Looking up {n} in {s} returned nothing{C}.",
            "{O}Zero results for {n} in {s}{C}.",
            "{O}No match for {n} anywhere in {s}{C}.",
            "{O}The query on {s} for {n} came back empty{C}.",
            "{O}Nothing matching {n} turned up in {s}{C}.",
            "{O}I went through {s} without finding {n}{C}, {t}.",
        ],
        "generic": [
            "I can search your notes if you'd like.",
            "Ask me to look it up in your saved items at any time.",
            "Search your inbox for the confirmation email.",
            "Try filtering the catalogue by colour.",
            "I can't browse the web from here.",
            "The museum never reopened after the flood.",
            "The train never stops at that station on Sundays.",
            "Nothing in the law forbids it.",
            "Your favourites list is sorted by date.",
            "Type the exact title when you search your history.",
        ],
    },
    "fr": {
        "topics": [
            {"n": "ton adresse", "w": "où tu habites", "fw": "où vous habitez"},
            {"n": "ton métier", "w": "ce que tu fais dans la vie", "fw": "ce que vous faites"},
            {"n": "ta date d'anniversaire", "w": "quand tu es né", "fw": "quand vous êtes né"},
            {
                "n": "le nom de ton chien",
                "w": "comment s'appelle ton chien",
                "fw": "comment s'appelle votre chien",
            },
            {
                "n": "l'âge de tes enfants",
                "w": "quel âge ont tes enfants",
                "fw": "quel âge ont vos enfants",
            },
            {"n": "ton dentiste", "w": "qui est ton dentiste", "fw": "qui est votre dentiste"},
            {
                "n": "ta date de départ",
                "w": "quand tu pars en voyage",
                "fw": "quand vous partez en voyage",
            },
            {
                "n": "ton budget pour le canapé",
                "w": "combien tu veux dépenser pour le canapé",
                "fw": "combien vous voulez dépenser pour le canapé",
            },
            {
                "n": "le prénom de ta compagne",
                "w": "comment s'appelle ta compagne",
                "fw": "comment s'appelle votre compagne",
            },
            {
                "n": "ton responsable",
                "w": "qui est ton responsable",
                "fw": "qui est votre responsable",
            },
        ],
        "facts": [
            "ta sœur habite à Lyon",
            "tu travailles de chez toi le vendredi",
            "ton fils joue au rugby",
            "tu prends le bus pour aller au travail",
            "tu apprends le piano",
            "ta mère vient te voir en mai",
            "tu as commencé un nouveau poste en mars",
        ],
        "tails": [
            "je l'ai noté dans le brouillon",
            "c'est important pour la réservation",
            "j'ai gardé le plan tel quel",
            "le formulaire est prêt",
        ],
        "pairs": [
            ("{O}Tu m'as dit {w}{C}, {t}.", "{O}Tu ne m'as jamais dit {w}{C}, {t}."),
            ("{O}Vous m'avez dit {fw}{C}, {t}.", "{O}Vous ne m'avez jamais dit {fw}{C}, {t}."),
            (
                "{O}Tu m'as parlé {dn}{C} la semaine dernière.",
                "{O}Tu ne m'as jamais parlé {dn}{C}.",
            ),
            (
                "{O}Vous m'avez parlé {dfn}{C} il y a quelque temps.",
                "{O}Vous ne m'avez jamais parlé {dfn}{C}.",
            ),
            ("{N}, {O}tu m'en as parlé{C} une fois.", "{N}, {O}tu ne m'en as jamais parlé{C}."),
            (
                "{FN}, {O}vous m'en avez déjà parlé{C}.",
                "{FN}, {O}vous ne m'en avez jamais parlé{C}.",
            ),
            ("{O}Tu as mentionné {n}{C} l'autre jour.", "{O}Tu n'as jamais mentionné {n}{C}."),
            (
                "{O}Vous avez évoqué {fn}{C} lors d'un échange précédent.",
                "{O}Vous n'avez jamais évoqué {fn}{C} dans nos échanges.",
            ),
            (
                "Puisque {O}tu m'as dit {w}{C}, {t}.",
                "Puisque {O}tu ne m'as jamais dit {w}{C}, {t}.",
            ),
            (
                "{N}, {O}c'est quelque chose que tu m'as dit{C}.",
                "{N}, {O}c'est quelque chose que tu ne m'as jamais dit{C}.",
            ),
            ("{O}Tu m'avais expliqué {w}{C}.", "{O}Tu ne m'avais jamais expliqué {w}{C}."),
            ("{O}Tu me l'as déjà dit{C} : {t}.", "{O}Tu ne me l'as jamais dit{C} : {t}."),
        ],
        "fact_rec": [
            "{O}Comme tu me l'as dit, {f}{C}, {t}.",
            "{O}Tu m'as dit que {f}{C}.",
            "{O}Tu m'avais expliqué que {f}{C}.",
            "{O}D'après ce que tu m'as raconté, {f}{C}.",
        ],
        "fact_cw": ["{O}Tu ne m'as jamais dit que {f}{C}."],
        "twins": [
            "Tu viens de me dire {w}, {t}.",
            "Dans ce message, tu parles {dn}, {t}.",
            "Ton frère dit que tu ne lui as jamais dit {w}.",
            "Dis-moi {w}, et je mettrai le plan à jour.",
            "Si tu me dis {w}, je peux affiner.",
            "M'as-tu déjà dit {w} ? Je peux vérifier.",
            "Tu peux me dire {w} quand tu veux.",
            "Tu n'es pas obligé de me dire {w}.",
            "Personne n'a dit au livreur {w}.",
            "Ta sœur dit qu'elle ne lui a jamais dit {w}.",
            "Vous venez de m'indiquer {fw}, {t}.",
            "Vous pouvez me parler {dfn} si vous le souhaitez.",
        ],
        "cw": [
            "{O}Il n'a jamais été question {dn} entre nous{C}.",
            "{O}Rien dans nos conversations ne concerne {n}{C}.",
            "{O}C'est le néant sur {n} dans nos échanges{C}.",
            "{O}Aucune trace {dn} dans nos échanges passés{C}.",
            "{O}Je n'ai rien d'enregistré sur {n}{C}.",
            "{O}Je n'ai pas {n} dans mes dossiers{C}.",
            "{O}Nos échanges n'ont jamais abordé {n}{C}.",
            "{O}Nulle part dans nos conversations il n'est question {dn}{C}.",
            "{O}Rien sur {n} dans nos discussions passées{C}.",
            "{O}Il n'a jamais été fait mention {dn} dans nos échanges{C}.",
            "{O}Rien n'a été noté sur {n} jusqu'ici{C}, {t}.",
        ],
        "ext": [
            "le remboursement",
            "la deuxième facture",
            "une place de parking",
            "la date de livraison",
            "le changement de salle",
            "la hausse des prix",
        ],
        "cw_twins": [
            "Il n'a jamais été question {dx} à la réunion.",
            "Rien dans le rapport ne concerne {x}.",
            "Aucune trace {dx} dans le fichier que tu viens de joindre.",
            "Le contrat ne dit rien sur {x}.",
            "Il n'est fait mention {dx} nulle part dans le courriel que tu as collé.",
            "La compagnie aérienne n'a rien dans ses dossiers sur {x}.",
            "Le fournisseur n'a jamais confirmé {x}.",
            "Je n'ai rien à ajouter sur {x}.",
        ],
        "stores": [
            "tes notes",
            "tes éléments enregistrés",
            "ton historique",
            "tes listes",
            "tes favoris",
            "nos conversations passées",
            "les notes que tu as enregistrées chez moi",
            "ta liste de lecture",
            "ta mémoire chez moi",
        ],
        "sources": [
            ("les pages web", "un vol direct pour Porto le 14"),
            ("PubMed", "des essais sur le magnésium contre la migraine"),
            ("le tableur que tu viens de joindre", "des lignes sans date de facture"),
            ("le catalogue", "un imperméable bleu en taille M"),
            ("les vols disponibles", "un vol direct pour Porto le 14"),
            ("les offres d'hôtels", "une chambre à moins de 90 euros près de la gare"),
            ("ce PDF", "la clause de résiliation"),
            ("Google Scholar", "des articles sur ce gène"),
            ("le catalogue de la bibliothèque", "le deuxième tome"),
            ("le stock du magasin", "une bibliothèque en chêne à moins de 100 euros"),
        ],
        "qs": [
            "{O}Ma recherche {dn} dans {s} n'a rien donné{C}.",
            "{O}J'ai parcouru {s} sans rien trouver sur {n}{C}.",
            "{O}J'ai interrogé {s} sur {n} sans aucun résultat{C}.",
            "{O}Fouiller {s} pour trouver {n} n'a rien donné{C}.",
            "{O}Rien ne correspond {an} dans {s}{C}.",
            "{O}La requête sur {s} pour {n} revient vide{C}.",
            "{O}Aucun résultat pour {n} dans {s}{C}.",
            "{O}Zéro résultat dans {s} pour {n}{C}.",
            "{O}Une recherche {dn} dans {s} renvoie une liste vide{C}.",
            "{O}J'ai passé {s} au peigne fin sans trouver {n}{C}.",
        ],
        "generic": [
            "Je peux chercher dans tes notes si tu veux.",
            "Demande-moi de vérifier tes favoris quand tu veux.",
            "Cherche l'e-mail de confirmation dans ta boîte de réception.",
            "Essaie de filtrer le catalogue par couleur.",
            "Je ne peux pas naviguer sur le web d'ici.",
            "Le musée n'a jamais rouvert après l'inondation.",
            "Le train ne s'arrête jamais à cette gare le dimanche.",
            "Rien dans la loi ne l'interdit.",
            "Ta liste de favoris est triée par date.",
        ],
    },
    "es": {
        "topics": [
            {"n": "tu dirección", "w": "dónde vives", "fw": "dónde vive"},
            {"n": "tu trabajo", "w": "a qué te dedicas", "fw": "a qué se dedica"},
            {
                "n": "tu fecha de cumpleaños",
                "w": "cuándo es tu cumpleaños",
                "fw": "cuándo es su cumpleaños",
            },
            {
                "n": "el nombre de tu perro",
                "w": "cómo se llama tu perro",
                "fw": "cómo se llama su perro",
            },
            {
                "n": "la edad de tus hijos",
                "w": "cuántos años tienen tus hijos",
                "fw": "cuántos años tienen sus hijos",
            },
            {"n": "tu dentista", "w": "quién es tu dentista", "fw": "quién es su dentista"},
            {"n": "la fecha de tu viaje", "w": "cuándo te vas de viaje", "fw": "cuándo se va"},
            {
                "n": "tu presupuesto para el sofá",
                "w": "cuánto quieres gastar en el sofá",
                "fw": "cuánto quiere gastar en el sofá",
            },
            {
                "n": "el nombre de tu pareja",
                "w": "cómo se llama tu pareja",
                "fw": "cómo se llama su pareja",
            },
            {"n": "tu jefa", "w": "quién es tu jefa", "fw": "quién es su jefa"},
        ],
        "facts": [
            "tu hermana vive en Lyon",
            "trabajas desde casa los viernes",
            "tu hijo juega al rugby",
            "vas al trabajo en autobús",
            "estás aprendiendo piano",
            "tu madre viene de visita en mayo",
            "empezaste un trabajo nuevo en marzo",
        ],
        "tails": [
            "así que lo he anotado en el borrador",
            "y eso importa para la reserva",
            "así que he dejado el plan como estaba",
            "así que el formulario está listo",
        ],
        "pairs": [
            ("{O}Me dijiste {w}{C}, {t}.", "{O}Nunca me dijiste {w}{C}, {t}."),
            ("{N}: {O}me lo has dicho{C} alguna vez.", "{N}: {O}jamás me lo has dicho{C}."),
            ("{O}Usted me dijo {fw}{C}, {t}.", "{O}Usted nunca me dijo {fw}{C}, {t}."),
            ("{O}Me hablaste {dn}{C} la semana pasada.", "{O}Nunca me hablaste {dn}{C}."),
            ("{O}Me has mencionado {n}{C} antes.", "{O}No me has mencionado nunca {n}{C}."),
            (
                "{O}Usted me había comentado {fn}{C}.",
                "{O}Usted nunca me había comentado {fn}{C}.",
            ),
            ("{N}, {O}me lo contaste{C} una vez.", "{N}, {O}nunca me lo contaste{C}."),
            ("Como {O}me dijiste {w}{C}, {t}.", "Como {O}nunca me dijiste {w}{C}, {t}."),
            ("{O}Ya me habías dicho {w}{C}.", "{O}Jamás me habías dicho {w}{C}."),
            ("{N} {O}es algo que me contaste{C}.", "{N} {O}es algo que nunca me contaste{C}."),
            ("{O}Me comentaste {w}{C} hace poco.", "{O}No me comentaste nunca {w}{C}."),
            (
                "{O}Usted me habló {dfn}{C} en otra ocasión.",
                "{O}Usted jamás me habló {dfn}{C}.",
            ),
        ],
        "fact_rec": [
            "{O}Como me dijiste, {f}{C}, {t}.",
            "{O}Me contaste que {f}{C}.",
            "{O}Según me comentaste, {f}{C}.",
            "{O}Me habías dicho que {f}{C}.",
        ],
        "fact_cw": ["{O}Nunca me dijiste que {f}{C}."],
        "twins": [
            "Me acabas de decir {w}, {t}.",
            "En este mensaje hablas {dn}, {t}.",
            "Tu hermano dice que nunca le dijiste {w}.",
            "Dime {w} y actualizo el plan.",
            "Si me dices {w}, puedo afinar.",
            "¿Me has dicho alguna vez {w}? Puedo comprobarlo.",
            "Puedes decirme {w} cuando quieras.",
            "No hace falta que me digas {w}.",
            "Nadie le dijo al mensajero {w}.",
            "Tu hermana dice que ella nunca le dijo {w}.",
            "Usted me acaba de indicar {fw}, {t}.",
        ],
        "cw": [
            "{O}{N} nunca salió en nuestras conversaciones{C}.",
            "{O}Nada en nuestras conversaciones apunta {an}{C}.",
            "{O}Nuestras charlas están en blanco sobre {n}{C}.",
            "{O}No hay rastro {dn} en lo que hemos hablado{C}.",
            "{O}No tengo nada guardado sobre {n}{C}.",
            "{O}{N} no es algo que tenga registrado{C}.",
            "{O}Nunca se ha mencionado {n} en nuestras conversaciones{C}.",
            "{O}En nuestro historial no consta nada sobre {n}{C}.",
            "{O}{N} jamás ha aparecido en nuestras charlas{C}.",
            "{O}No se habló nunca {dn} entre nosotros{C}.",
            "{O}Nada de lo que hemos hablado menciona {n}{C}, {t}.",
        ],
        "ext": [
            "el reembolso",
            "la segunda factura",
            "una plaza de aparcamiento",
            "la fecha de entrega",
            "el cambio de sala",
            "la subida de precios",
        ],
        "cw_twins": [
            "{X} nunca salió en la reunión.",
            "Nada en el informe apunta {ax}.",
            "No hay rastro {dx} en el archivo que acabas de adjuntar.",
            "El contrato no dice nada sobre {x}.",
            "No se menciona {x} en el correo que pegaste.",
            "La aerolínea no tiene nada registrado sobre {x}.",
            "El proveedor nunca confirmó {x}.",
            "No tengo nada que añadir sobre {x}.",
        ],
        "stores": [
            "tus notas",
            "tus elementos guardados",
            "tu historial",
            "tus listas",
            "tus favoritos",
            "nuestras conversaciones anteriores",
            "las notas que guardaste conmigo",
            "tu lista de lectura",
            "tu memoria conmigo",
        ],
        "sources": [
            ("la web", "vuelos directos a Oporto el día 14"),
            ("PubMed", "ensayos sobre magnesio y migraña"),
            ("la hoja de cálculo que acabas de adjuntar", "filas sin fecha de factura"),
            ("el catálogo", "un chubasquero azul de talla M"),
            ("el buscador de vuelos", "un vuelo directo a Oporto el 14"),
            ("el buscador de hoteles", "una habitación por menos de 90 euros"),
            ("este PDF", "la cláusula de rescisión"),
            ("Google Scholar", "artículos sobre este gen"),
            ("el catálogo de la biblioteca", "el segundo tomo"),
            ("el inventario de la tienda", "una estantería de roble por menos de 100 euros"),
        ],
        "qs": [
            "{O}Busqué {n} en {s} y no apareció nada{C}.",
            "{O}Mi búsqueda {dn} en {s} no dio ningún resultado{C}.",
            "{O}Consultar {s} sobre {n} devuelve una lista vacía{C}.",
            "{O}Al rastrear {s} no encontré nada sobre {n}{C}.",
            "{O}La consulta de {s} para {n} sale en blanco{C}.",
            "{O}Ninguna coincidencia para {n} en {s}{C}.",
            "{O}Cero resultados para {n} en {s}{C}.",
            "{O}He buscado en {s} sin encontrar {n}{C}.",
            "{O}Revisé {s} a fondo sin dar con {n}{C}.",
            "{O}Nada coincide con {n} en {s}{C}.",
        ],
        "generic": [
            "Puedo buscar en tus notas si quieres.",
            "Pídeme que revise tus favoritos cuando quieras.",
            "Busca el correo de confirmación en tu bandeja de entrada.",
            "Prueba a filtrar el catálogo por color.",
            "Desde aquí no puedo navegar por la web.",
            "El museo nunca reabrió tras la inundación.",
            "El tren nunca para en esa estación los domingos.",
            "Nada en la ley lo prohíbe.",
            "Tu lista de favoritos está ordenada por fecha.",
        ],
    },
    "de": {
        "topics": [
            {
                "n": "deine Adresse",
                "a": "deine Adresse",
                "d": "deiner Adresse",
                "w": "wo du wohnst",
                "fw": "wo Sie wohnen",
            },
            {
                "n": "deine Arbeit",
                "a": "deine Arbeit",
                "d": "deiner Arbeit",
                "w": "was du beruflich machst",
                "fw": "was Sie beruflich machen",
            },
            {
                "n": "dein Geburtsdatum",
                "a": "dein Geburtsdatum",
                "d": "deinem Geburtsdatum",
                "w": "wann du Geburtstag hast",
                "fw": "wann Sie Geburtstag haben",
            },
            {
                "n": "der Name deines Hundes",
                "a": "den Namen deines Hundes",
                "d": "dem Namen deines Hundes",
                "w": "wie dein Hund heißt",
                "fw": "wie Ihr Hund heißt",
            },
            {
                "n": "das Alter deiner Kinder",
                "a": "das Alter deiner Kinder",
                "d": "dem Alter deiner Kinder",
                "w": "wie alt deine Kinder sind",
                "fw": "wie alt Ihre Kinder sind",
            },
            {
                "n": "dein Zahnarzt",
                "a": "deinen Zahnarzt",
                "d": "deinem Zahnarzt",
                "w": "wer dein Zahnarzt ist",
                "fw": "wer Ihr Zahnarzt ist",
            },
            {
                "n": "dein Reisetermin",
                "a": "deinen Reisetermin",
                "d": "deinem Reisetermin",
                "w": "wann du verreist",
                "fw": "wann Sie verreisen",
            },
            {
                "n": "dein Budget für das Sofa",
                "a": "dein Budget für das Sofa",
                "d": "deinem Budget für das Sofa",
                "w": "wie viel du für das Sofa ausgeben willst",
                "fw": "wie viel Sie für das Sofa ausgeben wollen",
            },
            {
                "n": "der Name deiner Partnerin",
                "a": "den Namen deiner Partnerin",
                "d": "dem Namen deiner Partnerin",
                "w": "wie deine Partnerin heißt",
                "fw": "wie Ihre Partnerin heißt",
            },
            {
                "n": "deine Chefin",
                "a": "deine Chefin",
                "d": "deiner Chefin",
                "w": "wer deine Chefin ist",
                "fw": "wer Ihre Chefin ist",
            },
        ],
        "facts": [
            "deine Schwester in Lyon wohnt",
            "du freitags von zu Hause arbeitest",
            "dein Sohn Rugby spielt",
            "du mit dem Bus zur Arbeit fährst",
            "du Klavier lernst",
            "deine Mutter im Mai zu Besuch kommt",
            "du im März eine neue Stelle angefangen hast",
        ],
        "tails": [
            "deshalb habe ich das im Entwurf vermerkt",
            "das ist für die Buchung wichtig",
            "also lasse ich den Plan, wie er ist",
            "das Formular ist jetzt fertig",
        ],
        "pairs": [
            ("{O}Du hast mir gesagt{C}, {w}, {t}.", "{O}Du hast mir nie gesagt{C}, {w}, {t}."),
            ("{O}Sie haben mir gesagt{C}, {fw}.", "{O}Sie haben mir nie gesagt{C}, {fw}."),
            ("{O}Du hast {a} letzte Woche erwähnt{C}.", "{O}Du hast {a} nie erwähnt{C}."),
            ("{O}Von {d} hast du mir erzählt{C}.", "{O}Von {d} hast du mir nie erzählt{C}."),
            (
                "{N} – {O}davon hast du schon gesprochen{C}.",
                "{N} – {O}davon hast du nie gesprochen{C}.",
            ),
            ("{N} – {O}das hattest du mir erzählt{C}.", "{N} – {O}das hattest du nie erzählt{C}."),
            (
                "Ich kenne {a}, weil {O}du es mir gesagt hast{C}.",
                "Ich kenne {a} nicht, weil {O}du es mir nie gesagt hast{C}.",
            ),
            (
                "Ich weiß, {w}, weil {O}du es mir erzählt hast{C}.",
                "Ich weiß nicht, {w}, weil {O}du es mir nie erzählt hast{C}.",
            ),
            ("{O}Du hattest mir erzählt{C}, {w}.", "{O}Du hattest mir nie erzählt{C}, {w}."),
            (
                "{O}Über {a} hast du schon gesprochen{C}.",
                "{O}Über {a} hast du nie gesprochen{C}.",
            ),
            (
                "{O}Sie hatten mir erklärt{C}, {fw}.",
                "{O}Sie hatten mir nie erklärt{C}, {fw}.",
            ),
            (
                "{O}Das haben Sie mir erzählt{C}: {fw}.",
                "{O}Das haben Sie mir nie erzählt{C}: {fw}.",
            ),
        ],
        "fact_rec": [
            "{O}Du hast mir erzählt{C}, dass {f}.",
            "{O}Du hattest erwähnt{C}, dass {f}.",
            "Ich weiß, dass {f}, weil {O}du es mir erzählt hast{C}.",
        ],
        "fact_cw": ["{O}Du hast mir nie erzählt{C}, dass {f}."],
        "twins": [
            "Du hast mir gerade gesagt, {w}, {t}.",
            "In dieser Nachricht erwähnst du {a}.",
            "Dein Bruder sagt, du hättest ihm nie gesagt, {w}.",
            "Sag mir, {w}, dann passe ich den Plan an.",
            "Wenn du mir sagst, {w}, kann ich es eingrenzen.",
            "Hast du mir je gesagt, {w}? Ich kann nachsehen.",
            "Du kannst mir jederzeit sagen, {w}.",
            "Du musst mir nicht sagen, {w}.",
            "Niemand hat dem Kurier gesagt, {w}.",
            "Deine Schwester sagt, sie habe ihm nie gesagt, {w}.",
            "Sie haben mir gerade mitgeteilt, {fw}.",
            "Sie können mir gern sagen, {fw}.",
        ],
        "cw": [
            "{O}{N} ist nie zur Sprache gekommen{C}.",
            "{O}Nichts in unseren Gesprächen deutet auf {a} hin{C}.",
            "{O}{N} ist in unseren Chats ein weißer Fleck{C}.",
            "{O}Von {d} gibt es in unseren Gesprächen keine Spur{C}.",
            "{O}Ich habe nichts zu {d} gespeichert{C}.",
            "{O}{N} wurde in unserem Austausch nie erwähnt{C}.",
            "{O}Über {a} wurde zwischen uns nie gesprochen{C}.",
            "{O}In unseren bisherigen Gesprächen findet sich nichts zu {d}{C}.",
            "{O}Nirgends in unserem Verlauf taucht {n} auf{C}.",
            "{O}Zu {d} liegt mir aus unseren Gesprächen nichts vor{C}.",
            "{O}{N} kam bei uns bisher nicht vor{C}, {t}.",
        ],
        "ext": [
            {"x": "die Erstattung", "xa": "die Erstattung", "xd": "der Erstattung"},
            {"x": "die zweite Rechnung", "xa": "die zweite Rechnung", "xd": "der zweiten Rechnung"},
            {"x": "ein Parkplatz", "xa": "einen Parkplatz", "xd": "einem Parkplatz"},
            {"x": "der Liefertermin", "xa": "den Liefertermin", "xd": "dem Liefertermin"},
            {"x": "der Raumwechsel", "xa": "den Raumwechsel", "xd": "dem Raumwechsel"},
            {"x": "die Preiserhöhung", "xa": "die Preiserhöhung", "xd": "der Preiserhöhung"},
        ],
        "cw_twins": [
            "{X} ist in der Besprechung nie zur Sprache gekommen.",
            "Nichts im Bericht deutet auf {xa} hin.",
            "Von {xd} gibt es in der gerade angehängten Datei keine Spur.",
            "Der Vertrag sagt nichts zu {xd}.",
            "In der eingefügten E-Mail wird {x} nicht erwähnt.",
            "Die Fluggesellschaft hat zu {xd} nichts gespeichert.",
            "Der Lieferant hat {xa} nie bestätigt.",
            "Zu {xd} habe ich nichts hinzuzufügen.",
        ],
        "stores": [
            {"sa": "deine Notizen", "sd": "deinen Notizen"},
            {"sa": "deine gespeicherten Einträge", "sd": "deinen gespeicherten Einträgen"},
            {"sa": "deinen Verlauf", "sd": "deinem Verlauf"},
            {"sa": "deine Listen", "sd": "deinen Listen"},
            {"sa": "deine Favoriten", "sd": "deinen Favoriten"},
            {"sa": "unsere früheren Gespräche", "sd": "unseren früheren Gesprächen"},
            {"sa": "deine Leseliste", "sd": "deiner Leseliste"},
            {"sa": "deine Merkliste", "sd": "deiner Merkliste"},
            {"sa": "dein Gedächtnis bei mir", "sd": "deinem Gedächtnis bei mir"},
        ],
        "sources": [
            (
                {"sa": "die Websuche", "sd": "der Websuche"},
                {
                    "a": "Direktflüge nach Porto am Freitag",
                    "d": "Direktflügen nach Porto am Freitag",
                },
            ),
            (
                {"sa": "PubMed", "sd": "PubMed"},
                {"a": "Studien zu Magnesium bei Migräne", "d": "Studien zu Magnesium bei Migräne"},
            ),
            (
                {"sa": "die gerade angehängte Tabelle", "sd": "der gerade angehängten Tabelle"},
                {"a": "Zeilen ohne Rechnungsdatum", "d": "Zeilen ohne Rechnungsdatum"},
            ),
            (
                {"sa": "den Katalog", "sd": "dem Katalog"},
                {"a": "eine blaue Regenjacke in M", "d": "einer blauen Regenjacke in M"},
            ),
            (
                {"sa": "die Flugsuche", "sd": "der Flugsuche"},
                {"a": "einen Direktflug nach Porto", "d": "einem Direktflug nach Porto"},
            ),
            (
                {"sa": "die Hotelangebote", "sd": "den Hotelangeboten"},
                {"a": "Zimmer unter 90 Euro am Bahnhof", "d": "Zimmern unter 90 Euro am Bahnhof"},
            ),
            (
                {"sa": "dieses PDF", "sd": "diesem PDF"},
                {"a": "die Kündigungsklausel", "d": "der Kündigungsklausel"},
            ),
            (
                {"sa": "Google Scholar", "sd": "Google Scholar"},
                {"a": "Artikel zu diesem Gen", "d": "Artikeln zu diesem Gen"},
            ),
            (
                {"sa": "den Bibliothekskatalog", "sd": "dem Bibliothekskatalog"},
                {"a": "den zweiten Band", "d": "dem zweiten Band"},
            ),
            (
                {"sa": "das Lager des Ladens", "sd": "dem Lager des Ladens"},
                {"a": "ein Eichenregal unter 100 Euro", "d": "einem Eichenregal unter 100 Euro"},
            ),
        ],
        "qs": [
            "{O}Meine Suche nach {d} in {sd} blieb ohne Ergebnis{C}.",
            "{O}Eine Abfrage nach {d} in {sd} lieferte eine leere Liste{C}.",
            "{O}In {sd} ergab die Suche nach {d} keinen Treffer{C}.",
            "{O}Null Treffer für {a} in {sd}{C}.",
            "{O}Kein Treffer für {a} in {sd}{C}.",
            "{O}Die Abfrage in {sd} nach {d} kam leer zurück{C}.",
            "{O}Bei der Suche in {sd} fand ich nichts zu {d}{C}.",
            "{O}In {sd} passt nichts zu {d}{C}.",
            "{O}Die Suche in {sd} nach {d} ist leer ausgegangen{C}.",
            "{O}Ich habe in {sd} vergeblich nach {d} gesucht{C}.",
            "{O}Ich habe {sa} erfolglos nach {d} durchsucht{C}.",
        ],
        "generic": [
            "Ich kann deine Notizen durchsuchen, wenn du möchtest.",
            "Bitte mich jederzeit, deine Favoriten zu prüfen.",
            "Such die Bestätigungsmail in deinem Posteingang.",
            "Filtere den Katalog am besten nach Farbe.",
            "Von hier aus kann ich nicht im Web suchen.",
            "Das Museum hat nach dem Hochwasser nie wieder geöffnet.",
            "Der Zug hält sonntags nie an diesem Bahnhof.",
            "Nichts im Gesetz verbietet das.",
            "Deine Favoritenliste ist nach Datum sortiert.",
        ],
    },
    "it": {
        "topics": [
            {"n": "il tuo indirizzo", "w": "dove abiti", "fw": "dove abita"},
            {"n": "il tuo lavoro", "w": "che lavoro fai", "fw": "che lavoro fa"},
            {"n": "la tua data di nascita", "w": "quando sei nato", "fw": "quando è nato"},
            {
                "n": "il nome del tuo cane",
                "w": "come si chiama il tuo cane",
                "fw": "come si chiama il Suo cane",
            },
            {
                "n": "l'età dei tuoi figli",
                "w": "quanti anni hanno i tuoi figli",
                "fw": "quanti anni hanno i Suoi figli",
            },
            {"n": "il tuo dentista", "w": "chi è il tuo dentista", "fw": "chi è il Suo dentista"},
            {"n": "la data del tuo viaggio", "w": "quando parti", "fw": "quando parte"},
            {
                "n": "il tuo budget per il divano",
                "w": "quanto vuoi spendere per il divano",
                "fw": "quanto vuole spendere per il divano",
            },
            {
                "n": "il nome della tua compagna",
                "w": "come si chiama la tua compagna",
                "fw": "come si chiama la Sua compagna",
            },
            {
                "n": "la tua responsabile",
                "w": "chi è la tua responsabile",
                "fw": "chi è la Sua responsabile",
            },
        ],
        "facts": [
            "tua sorella abita a Lione",
            "lavori da casa il venerdì",
            "tuo figlio gioca a rugby",
            "vai al lavoro in autobus",
            "stai imparando il pianoforte",
            "tua madre viene a trovarti a maggio",
            "hai iniziato un nuovo lavoro a marzo",
        ],
        "tails": [
            "quindi l'ho segnato nella bozza",
            "e questo conta per la prenotazione",
            "quindi ho lasciato il piano com'era",
            "quindi il modulo è pronto",
        ],
        "pairs": [
            ("{O}Mi hai detto {w}{C}, {t}.", "{O}Non mi hai mai detto {w}{C}, {t}."),
            ("{O}Lei mi ha detto {fw}{C}, {t}.", "{O}Lei non mi ha mai detto {fw}{C}, {t}."),
            ("{N}: {O}me l'hai detto{C} tempo fa.", "{N}: {O}non me l'hai mai detto{C}."),
            (
                "{O}Mi hai parlato {dn}{C} la settimana scorsa.",
                "{O}Non mi hai mai parlato {dn}{C}.",
            ),
            ("{O}Lei mi aveva parlato {dfn}{C}.", "{O}Lei non mi aveva mai parlato {dfn}{C}."),
            ("{O}Hai accennato {an}{C} l'altro giorno.", "{O}Non hai mai accennato {an}{C}."),
            ("{N}, {O}me ne hai parlato{C} una volta.", "{N}, {O}non me ne hai mai parlato{C}."),
            (
                "Visto che {O}mi hai detto {w}{C}, {t}.",
                "Visto che {O}non mi hai mai detto {w}{C}, {t}.",
            ),
            ("{O}Mi avevi raccontato {w}{C}.", "{O}Non mi avevi mai raccontato {w}{C}."),
            (
                "{N} {O}è una cosa che mi hai detto{C}.",
                "{N} {O}è una cosa che non mi hai mai detto{C}.",
            ),
            ("{O}Mi hai spiegato {w}{C} di recente.", "{O}Non mi hai spiegato mai {w}{C}."),
            ("{O}Lei mi aveva accennato {afn}{C}.", "{O}Lei non mi ha mai accennato {afn}{C}."),
        ],
        "fact_rec": [
            "{O}Come mi hai detto, {f}{C}, {t}.",
            "{O}Mi hai raccontato che {f}{C}.",
            "{O}Come mi avevi spiegato, {f}{C}.",
            "{O}Mi avevi detto che {f}{C}.",
        ],
        "fact_cw": ["{O}Non mi hai mai detto che {f}{C}."],
        "twins": [
            "Mi hai appena detto {w}, {t}.",
            "In questo messaggio parli {dn}, {t}.",
            "Tuo fratello dice che non gli hai mai detto {w}.",
            "Dimmi {w} e aggiorno il piano.",
            "Se mi dici {w}, posso restringere le opzioni.",
            "Mi hai mai detto {w}? Posso controllare.",
            "Puoi dirmi {w} quando vuoi.",
            "Non sei obbligato a dirmi {w}.",
            "Nessuno ha detto al corriere {w}.",
            "Tua sorella dice che lei non gli ha mai detto {w}.",
            "Lei mi ha appena indicato {fw}, {t}.",
        ],
        "cw": [
            "{O}{DN} non si è mai parlato nelle nostre conversazioni{C}.",
            "{O}Niente nelle nostre conversazioni rimanda {an}{C}.",
            "{O}Le nostre chat sono una pagina bianca riguardo {an}{C}.",
            "{O}Non c'è traccia {dn} in ciò di cui abbiamo parlato{C}.",
            "{O}Non ho niente in memoria riguardo {an}{C}.",
            "{O}{N} non è qualcosa che ho in archivio{C}.",
            "{O}{DN} non si è mai fatto cenno nei nostri scambi{C}.",
            "{O}Nei nostri scambi non si è mai fatto cenno {an}{C}.",
            "{O}Da nessuna parte nelle nostre chat si parla {dn}{C}.",
            "{O}Finora non è mai emerso niente {dn} tra noi{C}, {t}.",
        ],
        "ext": [
            "il rimborso",
            "la seconda fattura",
            "un posto auto",
            "la data di consegna",
            "il cambio di sala",
            "l'aumento dei prezzi",
        ],
        "cw_twins": [
            "{DX} non si è mai parlato alla riunione.",
            "Niente nel rapporto rimanda {ax}.",
            "Non c'è traccia {dx} nel file che hai appena allegato.",
            "Il contratto non dice niente riguardo {ax}.",
            "Nell'e-mail che hai incollato non si fa cenno {ax}.",
            "La compagnia aerea non ha nulla in archivio riguardo {ax}.",
            "Il fornitore non ha mai confermato {x}.",
            "Non ho niente da aggiungere riguardo {ax}.",
        ],
        "stores": [
            "le tue note",
            "i tuoi elementi salvati",
            "la tua cronologia",
            "le tue liste",
            "i tuoi preferiti",
            "le nostre conversazioni passate",
            "la tua lista di lettura",
            "la tua memoria qui",
        ],
        "sources": [
            ("il web", "voli diretti per Porto il 14"),
            ("PubMed", "studi sul magnesio contro l'emicrania"),
            ("il foglio di calcolo che hai appena allegato", "righe senza data di fattura"),
            ("il catalogo", "un impermeabile blu taglia M"),
            ("la ricerca voli", "un volo diretto per Porto il 14"),
            ("le offerte degli hotel", "una camera sotto i 90 euro vicino alla stazione"),
            ("questo PDF", "la clausola di recesso"),
            ("Google Scholar", "articoli su questo gene"),
            ("il catalogo della biblioteca", "il secondo volume"),
            ("l'inventario del negozio", "una libreria in rovere sotto i 100 euro"),
        ],
        "qs": [
            "{O}Ho scandagliato {s} alla ricerca {dn} senza risultati{C}.",
            "{O}La mia ricerca {dn} {ins} è tornata a vuoto{C}.",
            "{O}Interrogare {s} riguardo {an} non ha dato alcun risultato{C}.",
            "{O}Ho cercato {n} {ins} senza trovare niente{C}.",
            "{O}Nessuna corrispondenza per {n} {ins}{C}.",
            "{O}Zero risultati {ins} per {n}{C}.",
            "{O}La ricerca {ins} restituisce una lista vuota per {n}{C}.",
            "{O}Ho passato al setaccio {s} senza trovare {n}{C}.",
            "{O}Niente corrisponde {an} {ins}{C}.",
            "{O}Una ricerca {dn} {ins} non ha prodotto nulla{C}.",
        ],
        "generic": [
            "Posso cercare nelle tue note, se vuoi.",
            "Chiedimi di controllare i tuoi preferiti quando vuoi.",
            "Cerca l'e-mail di conferma nella tua casella di posta.",
            "Prova a filtrare il catalogo per colore.",
            "Da qui non posso navigare sul web.",
            "Il museo non ha mai riaperto dopo l'alluvione.",
            "Il treno non si ferma mai in quella stazione la domenica.",
            "Niente nella legge lo vieta.",
            "La tua lista dei preferiti è ordinata per data.",
        ],
    },
    "pt": {
        "topics": [
            {"n": "o teu endereço", "w": "onde moras", "fw": "onde mora"},
            {"n": "o teu trabalho", "w": "o que fazes na vida", "fw": "o que faz na vida"},
            {"n": "a tua data de nascimento", "w": "quando fazes anos", "fw": "quando faz anos"},
            {
                "n": "o nome do teu cão",
                "w": "como se chama o teu cão",
                "fw": "como se chama o seu cão",
            },
            {
                "n": "a idade dos teus filhos",
                "w": "quantos anos têm os teus filhos",
                "fw": "quantos anos têm os seus filhos",
            },
            {"n": "o teu dentista", "w": "quem é o teu dentista", "fw": "quem é o seu dentista"},
            {"n": "a data da tua viagem", "w": "quando vais viajar", "fw": "quando vai viajar"},
            {
                "n": "o teu orçamento para o sofá",
                "w": "quanto queres gastar no sofá",
                "fw": "quanto quer gastar no sofá",
            },
            {
                "n": "o nome da tua companheira",
                "w": "como se chama a tua companheira",
                "fw": "como se chama a sua companheira",
            },
            {"n": "a tua chefe", "w": "quem é a tua chefe", "fw": "quem é a sua chefe"},
        ],
        "facts": [
            "a tua irmã mora em Lyon",
            "trabalhas a partir de casa às sextas",
            "o teu filho joga râguebi",
            "vais para o trabalho de autocarro",
            "estás a aprender piano",
            "a tua mãe vem visitar-te em maio",
            "começaste um emprego novo em março",
        ],
        "tails": [
            "por isso anotei no rascunho",
            "e isso conta para a reserva",
            "por isso deixei o plano como estava",
            "por isso o formulário está pronto",
        ],
        "pairs": [
            ("{O}Disseste-me {w}{C}, {t}.", "{O}Nunca me disseste {w}{C}, {t}."),
            ("{O}Você me disse {fw}{C}, {t}.", "{O}Você nunca me disse {fw}{C}, {t}."),
            ("{O}O senhor disse-me {fw}{C}.", "{O}O senhor nunca me disse {fw}{C}."),
            ("{O}Falaste-me {dn}{C} na semana passada.", "{O}Nunca me falaste {dn}{C}."),
            ("{O}Você mencionou {fn}{C} outro dia.", "{O}Você nunca mencionou {fn}{C}."),
            ("{N}, {O}já me tinhas dito{C}.", "{N}, {O}nunca me tinhas dito{C}."),
            (
                "{N}: {O}isso já entrou na conversa{C} antes.",
                "{N}: {O}isso nunca entrou na conversa{C}.",
            ),
            ("Como {O}me disseste {w}{C}, {t}.", "Como {O}nunca me disseste {w}{C}, {t}."),
            ("{O}Tinhas-me contado {w}{C}.", "{O}Nunca me tinhas contado {w}{C}."),
            (
                "{FN} {O}é algo que você me contou{C}.",
                "{FN} {O}é algo que você nunca me contou{C}.",
            ),
            (
                "{O}Você comentou comigo {fw}{C}.",
                "{O}Você não comentou comigo {fw}{C} em momento nenhum.",
            ),
            ("{O}Já me falaste {dn}{C}, {t}.", "{O}Jamais me falaste {dn}{C}, {t}."),
        ],
        "fact_rec": [
            "{O}Como me disseste, {f}{C}, {t}.",
            "{O}Contaste-me que {f}{C}.",
            "{O}Pelo que me contaste, {f}{C}.",
            "{O}Tinhas-me dito que {f}{C}.",
        ],
        "fact_cw": ["{O}Nunca me disseste que {f}{C}."],
        "twins": [
            "Acabaste de me dizer {w}, {t}.",
            "Nesta mensagem falas {dn}, {t}.",
            "O teu irmão diz que nunca lhe disseste {w}.",
            "Diz-me {w} e eu atualizo o plano.",
            "Se me disseres {w}, posso afinar.",
            "Já me disseste alguma vez {w}? Posso verificar.",
            "Podes dizer-me {w} quando quiseres.",
            "Não precisas de me dizer {w}.",
            "Ninguém disse ao estafeta {w}.",
            "A tua irmã diz que ela nunca lhe disse {w}.",
            "Você acabou de me indicar {fw}, {t}.",
        ],
        "cw": [
            "{O}{N} nunca veio à baila{C}.",
            "{O}Nada nas nossas conversas aponta para {n}{C}.",
            "{O}As nossas conversas estão em branco sobre {n}{C}.",
            "{O}Não há rasto {dn} no que falámos{C}.",
            "{O}Não tenho nada guardado sobre {n}{C}.",
            "{O}{N} não é algo que eu tenha registado{C}.",
            "{O}Nunca se mencionou {n} nas nossas conversas{C}.",
            "{O}Nas nossas trocas de mensagens nunca foi referido nada sobre {n}{C}.",
            "{O}{N} nunca apareceu nas nossas conversas{C}.",
            "{O}Não se falou nunca {dn} entre nós{C}.",
            "{O}Nada do que conversámos menciona {n}{C}, {t}.",
        ],
        "ext": [
            "o reembolso",
            "a segunda fatura",
            "um lugar de estacionamento",
            "a data de entrega",
            "a mudança de sala",
            "o aumento dos preços",
        ],
        "cw_twins": [
            "{X} nunca veio à baila na reunião.",
            "Nada no relatório aponta para {x}.",
            "Não há rasto {dx} no ficheiro que acabaste de anexar.",
            "O contrato não diz nada sobre {x}.",
            "Não se menciona {x} no e-mail que colaste.",
            "A companhia aérea não tem nada registado sobre {x}.",
            "O fornecedor nunca confirmou {x}.",
            "Não tenho nada a acrescentar sobre {x}.",
        ],
        "stores": [
            "as tuas notas",
            "os teus itens guardados",
            "o teu histórico",
            "as tuas listas",
            "os teus favoritos",
            "as nossas conversas anteriores",
            "a tua lista de leitura",
            "a tua memória comigo",
        ],
        "sources": [
            ("a web", "voos diretos para o Porto no dia 14"),
            ("o PubMed", "ensaios sobre magnésio e enxaqueca"),
            ("a folha de cálculo que acabaste de anexar", "linhas sem data de fatura"),
            ("o catálogo", "um impermeável azul tamanho M"),
            ("a pesquisa de voos", "um voo direto para o Porto no dia 14"),
            ("as ofertas de hotéis", "um quarto abaixo de 90 euros perto da estação"),
            ("este PDF", "a cláusula de rescisão"),
            ("o Google Académico", "artigos sobre este gene"),
            ("o catálogo da biblioteca", "o segundo volume"),
            ("o inventário da loja", "uma estante de carvalho abaixo de 100 euros"),
        ],
        "qs": [
            "{O}Varri {s} à procura {dn} sem resultado{C}.",
            "{O}A minha pesquisa {dn} {ins} não deu nenhum resultado{C}.",
            "{O}Pesquisar {n} {ins} devolve uma lista vazia{C}.",
            "{O}Procurei {n} {ins} sem encontrar nada{C}.",
            "{O}A consulta {ins} sobre {n} veio vazia{C}.",
            "{O}Nenhuma correspondência para {n} {ins}{C}.",
            "{O}Zero resultados para {n} {ins}{C}.",
            "{O}Vasculhei {s} sem encontrar {n}{C}.",
            "{O}Nada corresponde {an} {ins}{C}.",
            "{O}A busca {dn} {ins} voltou em branco{C}.",
        ],
        "generic": [
            "Posso procurar nas tuas notas, se quiseres.",
            "Pede-me para verificar os teus favoritos quando quiseres.",
            "Procura o e-mail de confirmação na tua caixa de entrada.",
            "Experimenta filtrar o catálogo por cor.",
            "Daqui não consigo navegar na web.",
            "O museu nunca reabriu depois da cheia.",
            "O comboio nunca para nessa estação ao domingo.",
            "Nada na lei o proíbe.",
            "A tua lista de favoritos está ordenada por data.",
        ],
    },
}

# Formal address for a noun phrase: the second-person possessive in its polite form.
_FORMAL: dict[str, dict[str, str]] = {
    "fr": {"ton": "votre", "ta": "votre", "tes": "vos"},
    "es": {"tu": "su", "tus": "sus"},
    "de": {
        "dein": "Ihr",
        "deine": "Ihre",
        "deiner": "Ihrer",
        "deinem": "Ihrem",
        "deinen": "Ihren",
        "deines": "Ihres",
    },
    "it": {"tuo": "Suo", "tua": "Sua", "tuoi": "Suoi", "tue": "Sue"},
    "pt": {"teu": "seu", "tua": "sua", "teus": "seus", "tuas": "suas"},
}

# Preposition + article contractions ("de" + "le" -> "du"), keyed by the article.
_CONTRACT: dict[str, dict[str, dict[str, str]]] = {
    "fr": {
        "de": {"le": "du", "les": "des", "l'": "de l'"},
        "à": {"le": "au", "les": "aux", "l'": "à l'"},
    },
    "es": {"de": {"el": "del"}, "a": {"el": "al"}},
    "it": {
        "di": {
            "il": "del",
            "lo": "dello",
            "la": "della",
            "l'": "dell'",
            "i": "dei",
            "gli": "degli",
            "le": "delle",
        },
        "a": {
            "il": "al",
            "lo": "allo",
            "la": "alla",
            "l'": "all'",
            "i": "ai",
            "gli": "agli",
            "le": "alle",
        },
        "in": {
            "il": "nel",
            "lo": "nello",
            "la": "nella",
            "l'": "nell'",
            "i": "nei",
            "gli": "negli",
            "le": "nelle",
        },
    },
    "pt": {
        "de": {"o": "do", "a": "da", "os": "dos", "as": "das", "este": "deste"},
        "a": {"o": "ao", "a": "à", "os": "aos", "as": "às"},
        "em": {"o": "no", "a": "na", "os": "nos", "as": "nas", "este": "neste"},
    },
}
_ARTICLE_RX = re.compile(r"(l'|\w+)\s*", re.UNICODE)


def _with(lang: str, prep: str, phrase: str) -> str:
    """``prep`` before ``phrase`` as the language writes it (contractions, elision)."""
    table = _CONTRACT.get(lang, {}).get(prep, {})
    m = _ARTICLE_RX.match(phrase)
    if m and m.group(1).casefold() in table:
        joined = table[m.group(1).casefold()]
        rest = phrase[m.end() :]
        return f"{joined}{rest}" if joined.endswith("'") else f"{joined} {rest}"
    if lang == "fr" and prep == "de" and m and m.group(1).casefold() == "des":
        phrase = phrase[m.end() :]  # "de" + "des essais" -> "d'essais"
    if lang == "fr" and prep == "de" and phrase[:1].casefold() in "aeiouéèêh":
        return "d'" + phrase
    return f"{prep} {phrase}"


# German preposition + dative article ("in dem Katalog" -> "im Katalog").
_DE_CONTRACT_RX = re.compile(r"\b(in|In|zu|Zu|von|Von) (dem|der) ")
_DE_CONTRACTED = {"in dem": "im", "zu dem": "zum", "zu der": "zur", "von dem": "vom"}


def _de_contract(sentence: str) -> str:
    def joined(m: re.Match[str]) -> str:
        short = _DE_CONTRACTED.get(f"{m.group(1).lower()} {m.group(2)}")
        if short is None:
            return m.group(0)
        return (short.capitalize() if m.group(1)[0].isupper() else short) + " "

    return _DE_CONTRACT_RX.sub(joined, sentence)


def _formal(lang: str, phrase: str) -> str:
    table = _FORMAL.get(lang, {})
    return " ".join(table.get(word, word) for word in phrase.split(" "))


# Which preposition each language's {dn} ("about X", "of X") and {an} ("to X") use.
_DE = {"fr": "de", "es": "de", "it": "di", "pt": "de"}
_TO = {"fr": "à", "es": "a", "it": "a", "pt": "a"}
_IN = {"it": "in", "pt": "em"}


def _cap(s: str) -> str:
    i = 1 if s.startswith(OPEN) else 0
    return s[:i] + s[i : i + 1].upper() + s[i + 1 :]


def _slots(lang: str, topic: dict[str, str]) -> dict[str, str]:
    """Every placeholder a frame may use for ``topic``, capitalised forms included."""
    slots = dict(topic)
    n = topic.get("n", "")
    if lang in _DE:
        slots["dn"] = _with(lang, _DE[lang], n)
        slots["an"] = _with(lang, _TO[lang], n)
    if lang in _FORMAL and n:
        slots["fn"] = _formal(lang, n)
        if lang in _DE:
            slots["dfn"] = _with(lang, _DE[lang], slots["fn"])
            slots["afn"] = _with(lang, _TO[lang], slots["fn"])
    for key in list(slots):
        slots[key.upper()] = _cap(slots[key])
    return slots


def _split(template: str) -> tuple[str, tuple[int, int] | None]:
    """The sentence without its markers and the marked span."""
    if OPEN not in template:
        return template, None
    lo = template.index(OPEN)
    rest = template[:lo] + template[lo + 1 :]
    hi = rest.index(CLOSE)
    return rest[:hi] + rest[hi + 1 :], (lo, hi)


def _labelled(sentence: str, label: str) -> list[dict[str, str]]:
    """The asserted clauses of ``sentence`` (markers in it), the marked ones labelled."""
    clean, span = _split(sentence)
    analysis = analyse(clean)
    out = []
    hits = 0
    for _, info in analysis.asserted():
        text = analysis.masked[info.start : info.end].strip()
        if not any(ch.isalnum() for ch in text):
            continue
        start, end = info.start, info.end
        if analysis.offsets:
            start, end = analysis.offsets[start], analysis.offsets[end]
        hit = span is not None and start < span[1] and end > span[0]
        hits += hit
        out.append({"label": label if hit else BENIGN, "text": text})
    if span is not None and (hits == 0 or (label in (CW, QS) and hits > 1)):
        raise ValueError(f"{label} spread over {hits} clauses: {clean!r}")
    return out


def compose(lang: str, rng: random.Random, problems: list[str]) -> list[dict[str, str]]:
    """The clauses of ``lang``; a frame whose claim the splitter cuts apart is reported in
    ``problems`` instead."""
    d = DATA[lang]
    rows: list[dict[str, str]] = []

    def add(template: str, label: str, **slots: str) -> None:
        sentence = _cap(template.format(O=OPEN, C=CLOSE, **slots))
        if lang == "de":
            sentence = _de_contract(sentence)
        try:
            labelled = _labelled(sentence, label)
        except ValueError as exc:
            problems.append(f"{lang}: {exc}")
            return
        rows.extend({"lang": lang, **row} for row in labelled)

    def tail() -> str:
        return str(rng.choice(d["tails"]))

    def pick(items: list[Any], k: int) -> list[Any]:
        return rng.sample(items, min(k, len(items)))

    for topic in d["topics"]:
        slots = _slots(lang, topic)
        for told, never in pick(d["pairs"], 5):
            t = tail()
            add(told, REC, t=t, **slots)
            add(never, CW, t=t, **slots)
        for frame in pick(d["twins"], 4):
            add(frame, BENIGN, t=tail(), **slots)
        for frame in pick(d["cw"], 4):
            add(frame, CW, t=tail(), **slots)
        for frame in pick(d["qs"], 4):
            add(frame, QS, t=tail(), **slots, **_store(lang, rng.choice(d["stores"])))
    for fact in d["facts"]:
        for frame in pick(d["fact_rec"], 2):
            add(frame, REC, f=fact, t=tail())
        add(rng.choice(d["fact_cw"]), CW, f=fact)
    for ext in d["ext"]:
        x = ext if isinstance(ext, dict) else _ext_slots(lang, ext)
        x = {**x, **{k.upper(): _cap(v) for k, v in x.items()}}
        for frame in pick(d["cw_twins"], 4):
            add(frame, BENIGN, **x)
    for source, wanted in d["sources"]:
        what = wanted if isinstance(wanted, dict) else {"n": wanted}
        slots = {**_slots(lang, what), **_store(lang, source)}
        for frame in pick(d["qs"], 4):
            add(frame, BENIGN, t=tail(), **slots)
    # A file attached now, searched for the user's own topic, is still not memory.
    attached = d["sources"][2][0]
    for topic in pick(d["topics"], 4):
        add(rng.choice(d["qs"]), BENIGN, t=tail(), **_slots(lang, topic), **_store(lang, attached))
    for sentence in d["generic"]:
        add(sentence, BENIGN)
    for t in d["tails"]:
        add(_cap(t) + ".", BENIGN)
    return distinct(lang, rows, problems)


def distinct(lang: str, rows: list[dict[str, str]], problems: list[str]) -> list[dict[str, str]]:
    """One copy of each labelled clause (its first place kept); a text given two labels is
    reported in ``problems``."""
    unique = {(row["label"], row["text"]): row for row in rows}
    labels: dict[str, set[str]] = {}
    for label, text in unique:
        labels.setdefault(text, set()).add(label)
    problems.extend(
        f"{lang}: {text!r} labelled {sorted(both)}"
        for text, both in labels.items()
        if len(both) > 1
    )
    return list(unique.values())


def write(path: Path, rows: list[dict[str, str]]) -> None:
    """``rows`` as JSON lines at ``path``, and a count per label on stdout."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    counts = {label: 0 for label in (BENIGN, CW, QS, REC)}
    for row in rows:
        counts[row["label"]] += 1
    print(f"{path.name}: {len(rows)} clauses " + " ".join(f"{k} {v}" for k, v in counts.items()))


def _store(lang: str, store: str | dict[str, str]) -> dict[str, str]:
    """Slots for a store or source searched: {s}, and {ins} ("in" + it) where it contracts."""
    if isinstance(store, dict):
        return {**store, "SA": _cap(store["sa"]), "SD": _cap(store["sd"])}
    slots = {"s": store, "S": _cap(store)}
    if lang in _IN:
        slots["ins"] = _with(lang, _IN[lang], store)
    return slots


def _ext_slots(lang: str, x: str) -> dict[str, str]:
    slots = {"x": x}
    if lang in _DE:
        slots["dx"] = _with(lang, _DE[lang], x)
        slots["ax"] = _with(lang, _TO[lang], x)
    return slots


def main() -> int:
    problems: list[str] = []
    for lang in DATA:
        rows = compose(lang, random.Random(f"round6-{lang}"), problems)
        path = HERE / f"round6_{lang}.jsonl"
        write(path, rows)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
