#!/usr/bin/env python3
"""Compose round-7 training clauses: the user's stores as a place, searches as subjects,
memory metaphors, presupposed recollections, and their twins.

Deterministic, standard library (plus the gate's own clause splitter, so each sentence is
cut into the clauses the classifier will see). Written after batch 2026-12-01j was
reported: absence claims that put the topic *in* a store of the user's ("the invoice is
not in your notes"), that make the search itself the subject ("a pass through your
history brings up nothing on the invoice"), or that speak of memory without a telling
verb ("what I hold about you is silent on your pension") went unread, and so did facts
about the user's life presupposed in a sentence-initial frame ("with your move to Porto
in June, ..."). Four constructions, in the six training languages (Dutch and Japanese
stay out to measure generalisation), with topics and frames written by hand (none copied
from a batch):

* **query-scoped, topic-locative**: a topic said not to be in, or nowhere in, one of the
  user's stores (notes, saved lists, contacts, history, past conversations); the same
  frames about a file just sent, a web page, a catalogue, the user's code or
  configuration, a menu or a contract are ``benign``;
* the same frames about the user's own mail, drive or phone gallery (other systems
  than this memory) are ``benign`` too;
* **query-scoped, the search as subject or participle** ("searching your history for X
  yields nothing", "a look through your notes turns up nothing on X", "in your saved
  contacts: no plumber" -- a result of at most three words is read with the clause before
  it, as the gate does); searches of the web, a shop or a public database are ``benign``;
* **corpus-wide without a telling verb**: memory metaphors and idioms ("my memory of you
  is blank on X", "X never came to the table", "I have nothing on file about X"); twins
  about third parties, the world or the future;
* **recollections presupposed in a sentence-initial frame** ("now that your daughter has
  started judo, ...", "given your knee surgery in February, ...", "as a vegetarian, you
  ..."): the clause holding the fact is ``recollection``; twins give the same advice with
  no fact about this user (a conditional, a generic person, a fact from the current
  message said as such).

Frames mark the claim with ``⟦...⟧``. Each sentence is split with
:func:`gateway.truthfulness.analyse`; the clauses overlapping the marked span get the
frame's label, the others ``benign``. An absence claim must fall in exactly one asserted
clause, or in one clause and a short result after it that the gate reads together with it
(then the joined reading carries the label and both parts are ``benign``); every marked
recollection must fall in at least one. The script stops otherwise, and on a clause text
given two labels.

Usage: python3 training/gate/compose_round7.py   (writes round7_<lang>.jsonl here)
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE))

from compose_round6 import (  # noqa: E402
    BENIGN,
    CLOSE,
    CW,
    OPEN,
    QS,
    REC,
    _cap,
    _split,
    distinct,
    write,
)

from gateway.truthfulness import analyse  # noqa: E402

# Per language:
#   topics:    what was looked for: {n} a noun phrase, {a} "about"/"on" it;
#   wanted:    a bare noun for "no X" results ({w});
#   stores:    the user's stores, {s} a noun phrase, {l} "in" it ({g}: German genitive);
#   own_external: the user's own systems that are not this memory (mail, drive, phone),
#              in the same slots (benign);
#   external:  things that are not the user's memory, in the same slots (benign);
#   loc:       frames putting {n} (not) {l};
#   search:    frames with the search as subject or participle, {s} or {l};
#   short:     frames ending in a result of at most three words;
#   qs_pairs:  (claim, benign twin) frames around {n}/{a};
#   mine:      something of the user's that memory could hold, {n} and {a};
#   cw_pairs:  (claim, benign twin) frames around {n}/{a} of ``mine``;
#   facts:     (the user's fact as {p}, a generic one as {q}, advice {v});
#   fact_frames: (recollection, benign twin) frames around {p}/{q} and {v};
#   rec_pairs: (recollection, benign twin) sentences written whole;
#   benign:    sentences about the user's own artefacts or the world, all benign.
DATA: dict[str, dict[str, list[Any]]] = {
    "en": {
        "topics": [
            {"n": "the rent", "a": "the rent"},
            {"n": "the guest list", "a": "the guest list"},
            {"n": "the PIN", "a": "the PIN"},
            {"n": "the itinerary", "a": "the itinerary"},
            {"n": "the receipt", "a": "the receipt"},
            {"n": "the warranty", "a": "the warranty"},
            {"n": "the meal plan", "a": "the meal plan"},
            {"n": "the deposit", "a": "the deposit"},
            {"n": "the invoice from the roofer", "a": "the invoice from the roofer"},
            {"n": "the wifi password", "a": "the wifi password"},
            {"n": "the vet's phone number", "a": "the vet's phone number"},
            {"n": "the recipe for the lemon cake", "a": "the recipe for the lemon cake"},
            {"n": "the name of the hotel in Rome", "a": "the hotel in Rome"},
            {"n": "the gym timetable", "a": "the gym timetable"},
            {"n": "the insurance policy number", "a": "the insurance policy number"},
            {"n": "the address of the new office", "a": "the new office"},
        ],
        "wanted": ["electrician", "babysitter", "locksmith", "driving instructor", "tutor"],
        "stores": [
            {"s": "your notes", "l": "in your notes"},
            {"s": "your saved lists", "l": "in your saved lists"},
            {"s": "your contacts", "l": "among your contacts"},
            {"s": "your history", "l": "in your history"},
            {"s": "our past conversations", "l": "in our past conversations"},
            {"s": "your saved items", "l": "in your saved items"},
            {"s": "your reminders", "l": "in your reminders"},
            {"s": "what you've saved with me", "l": "in what you've saved with me"},
        ],
        "own_external": [
            {"s": "your inbox", "l": "in your inbox"},
            {"s": "your Google Drive", "l": "in your Google Drive"},
            {"s": "your phone's photo gallery", "l": "in your phone's photo gallery"},
        ],
        "external": [
            {"s": "the PDF you sent", "l": "in the PDF you sent"},
            {"s": "the spreadsheet you just uploaded", "l": "in the spreadsheet you just uploaded"},
            {"s": "the web", "l": "on the web"},
            {"s": "the shop's catalogue", "l": "in the shop's catalogue"},
            {"s": "the contract you attached", "l": "in the contract you attached"},
            {"s": "the public register", "l": "in the public register"},
            {"s": "this web page", "l": "on this web page"},
            {"s": "your config file", "l": "in your config file"},
        ],
        "loc": [
            "{O}{N} isn't {l}{C}, I checked it twice.",
            "{O}{N} is nowhere to be found {l}{C}.",
            "{O}{N} doesn't appear anywhere {l}{C}, sorry.",
            "{O}{N} shows up nowhere {l}{C}.",
            "{O}I can't see {n} {l}{C}, so I left that line empty.",
            "{O}There's no trace of {n} {l}{C}.",
            "{O}{N} is not {l}{C}, as far as I can see.",
            "Sadly, {O}{n} isn't anywhere {l}{C}.",
            "{O}{L} there is nothing about {a}{C}.",
        ],
        "search": [
            "{O}Searching {s} for {n} yields nothing{C}.",
            "{O}A look through {s} turns up nothing on {a}{C}.",
            "{O}Going through {s} brought up nothing about {a}{C}.",
            "{O}My pass over {s} found no sign of {n}{C}.",
            "{O}A search {l} for {n} came back with nothing{C}, {t}.",
            "{O}I went through {s} without locating {n}{C}.",
            "{O}Digging through {s} produced nothing on {a}{C}.",
            "{O}The search I ran {l} has no hit for {n}{C}.",
        ],
        "short": [
            "{O}{L}: no {w}{C}.",
            "{O}Checked {s} for a {w}: nothing{C}.",
            "{O}Searched {s} for a {w} — no luck{C}.",
        ],
        "qs_pairs": [
            (
                "{O}Your notes contain no reference to {a}{C}.",
                "The notes from the meeting contain no reference to {a}.",
            ),
            (
                "{O}Your saved lists say nothing about {a}{C}, {t}.",
                "The seller's listing says nothing about {a}, {t}.",
            ),
            (
                "{O}Nothing you've saved mentions {n}{C}.",
                "Nothing on the receipt you photographed mentions {n}.",
            ),
            (
                "{O}Your history holds no entry for {n}{C}.",
                "The hotel's website holds no entry for {n}.",
            ),
            (
                "{O}{N} isn't among the entries in your contacts{C}.",
                "{N} isn't among the entries in the parish register.",
            ),
            (
                "{O}Not one of your saved notes has {n} in it{C}.",
                "Not one of the pages you linked has {n} in it.",
            ),
        ],
        "mine": [
            {"n": "your mortgage", "a": "your mortgage"},
            {"n": "your diet", "a": "your diet"},
            {"n": "your employer", "a": "your employer"},
            {"n": "your wedding", "a": "your wedding"},
            {"n": "your car", "a": "your car"},
            {"n": "your hay fever", "a": "your hay fever"},
            {"n": "your pension", "a": "your pension"},
            {"n": "your landlord", "a": "your landlord"},
        ],
        "cw_pairs": [
            (
                "{O}My memory of you is empty when it comes to {a}{C}.",
                "My memory for dates is poor when it comes to history exams.",
            ),
            (
                "{O}In what I know about you there's nothing about {a}{C}.",
                "In what the bank has published there's nothing about {a}.",
            ),
            (
                "{O}{N} never came to the table between us{C}.",
                "{N} never came to the table at the council meeting.",
            ),
            (
                "{O}I have nothing on file about {a}{C}.",
                "The agency has nothing on file about the previous tenant.",
            ),
            (
                "{O}What I hold about you is silent on {a}{C}.",
                "The law is silent on {a} in this case.",
            ),
            (
                "{O}{N} is a blank page in my memory of you{C}, {t}.",
                "{N} is a blank page for now, {t}.",
            ),
            (
                "{O}{N} was never part of anything we covered{C}.",
                "{N} was never part of the deal the agent offered.",
            ),
            (
                "{O}I know nothing about {a} from you{C}.",
                "Nothing about {a} is decided yet.",
            ),
            (
                "{O}{N} is uncharted territory in our chats{C}.",
                "{N} is uncharted territory for most first-time buyers.",
            ),
            (
                "{O}Nothing about {a} has ever reached me from you{C}.",
                "Nothing about {a} has reached the bank from the notary yet.",
            ),
            (
                "{O}{N} doesn't figure in anything I remember of you{C}.",
                "{N} doesn't figure in the landlord's list of repairs.",
            ),
            (
                "{O}My picture of you is blank on {a}{C}.",
                "The forecast for next year is unclear on {a}.",
            ),
            (
                "{O}I've got nothing in my records about {a}{C}, {t}.",
                "The council has nothing in its records about the old well, {t}.",
            ),
            (
                "{O}{N} has stayed off our conversations entirely{C}.",
                "{N} has stayed off the agenda at work entirely.",
            ),
            (
                "{O}The topic of {a} has never surfaced with me{C}.",
                "The topic of {a} will surface again next year.",
            ),
        ],
        "facts": [
            (
                "your knee surgery in February",
                "a knee operation",
                "start with short, flat walks",
            ),
            (
                "your move to Glasgow next month",
                "a move to a new city",
                "book the removal van early",
            ),
            (
                "your lactose intolerance",
                "a lactose intolerance",
                "pick the oat milk version",
            ),
            (
                "your marathon in October",
                "a marathon in autumn",
                "build up the long runs slowly",
            ),
            (
                "your night shifts at the care home",
                "night shifts",
                "keep the bedroom dark in the daytime",
            ),
            (
                "your twins starting school",
                "children starting school",
                "label every jumper",
            ),
            (
                "your B1 level in Spanish",
                "an intermediate level",
                "read short novels with a glossary",
            ),
        ],
        "fact_frames": [
            ("{O}Given {p}{C}, {v}.", "Given {q}, {v}."),
            ("{O}With {p}{C}, {v}.", "With {q}, {v}."),
            ("{O}In view of {p}{C}, it's wise to {v}.", "In view of {q}, it's wise to {v}."),
            ("{O}Ahead of {p}{C}, {v}.", "Ahead of {q}, most people {v}."),
            ("{O}Considering {p}{C}, I'd {v}.", "For anyone facing {q}, I'd {v}."),
        ],
        "rec_pairs": [
            (
                "{O}Now that your daughter has started judo{C}, a light gym bag is handy.",
                "When a child starts judo, a light gym bag is handy.",
            ),
            (
                "{O}For Leo's birthday{C}, something for his climbing would suit him.",
                "For a ten-year-old's birthday, something for climbing is a safe bet.",
            ),
            (
                "{O}Your new flat in Leeds will need{C} curtains before winter.",
                "A new flat in Leeds will usually need curtains before winter.",
            ),
            (
                "{O}Having grown up in Marseille{C}, you'll find the fish soup familiar.",
                "People who grew up in Marseille often find the fish soup familiar.",
            ),
            (
                "{O}With Biscuit turning six{C}, it's time for a senior food.",
                "Dogs around six can move to a senior food.",
            ),
            (
                "{O}As a nurse on rotating shifts{C}, you'll want the late class.",
                "If you work rotating shifts, the late class is the easier one.",
            ),
            (
                "{O}Your experience as a carpenter{C} will make the course easy.",
                "Experience as a carpenter makes this course easy.",
            ),
            (
                "{O}Since your sister moved in with you{C}, the spare room is taken.",
                "You just said your sister is moving in, so the spare room is taken.",
            ),
            (
                "{O}Being allergic to penicillin{C}, you should remind the dentist.",
                "When you're allergic to penicillin, you should remind the dentist.",
            ),
            (
                "{O}With your Italian at A2{C}, the B1 exam is a stretch this year.",
                "When you're learning a language, the jump from A2 to B1 is hard.",
            ),
            (
                "{O}Now that you've retired from the post office{C}, mornings are free.",
                "Once people retire, mornings are suddenly free.",
            ),
            (
                "{O}Your trip to Lisbon in May{C} falls in the festival week.",
                "A trip to Lisbon in May falls in the festival week.",
            ),
            (
                "{O}As a vegan{C}, you'll want the lentil version.",
                "If you're vegan, the lentil version is the one to order.",
            ),
            (
                "{O}Your son's football on Saturdays{C} rules out the morning slot.",
                "Football on Saturdays rules out the morning slot for many families.",
            ),
            (
                "{O}After your hip replacement last year{C}, swimming is the gentler choice.",
                "After a hip replacement, swimming is the gentler choice.",
            ),
            (
                "{O}Your landlord in Bristol{C} will have to sign the form.",
                "A landlord has to sign the form in most cities.",
            ),
            (
                "{O}With your shop closing on Mondays{C}, that's your best day for it.",
                "With most shops closing on Mondays, that's a quiet day for it.",
            ),
            (
                "{O}For your grandmother's ninetieth{C}, a photo book would touch her.",
                "For a ninetieth birthday, a photo book is a touching present.",
            ),
            (
                "{O}Being diabetic{C}, you'll want to check the sugar in that sauce.",
                "You just told me you're diabetic, so check the sugar in that sauce.",
            ),
        ],
        "tails": ["so I left the field blank", "so I used a placeholder", "I'll keep looking"],
        "benign": [
            "There's nothing wrong in your code.",
            "Nothing in your configuration needs to change.",
            "The deadline isn't in the contract you attached.",
            "The allergen list isn't on the menu you photographed.",
            "I searched the internet and found nothing about that supplier.",
            "The web has nothing recent on that model.",
            "A search of the shop's site turns up no spare parts.",
            "The public database has no record of that company.",
        ],
    },
}


DATA["fr"] = {
    "topics": [
        {"n": "le loyer", "d": "du loyer", "a": "au loyer"},
        {
            "n": "la liste des invités",
            "d": "de la liste des invités",
            "a": "à la liste des invités",
        },
        {"n": "le code PIN", "d": "du code PIN", "a": "au code PIN"},
        {"n": "l'itinéraire", "d": "de l'itinéraire", "a": "à l'itinéraire"},
        {"n": "le reçu", "d": "du reçu", "a": "au reçu"},
        {"n": "la garantie", "d": "de la garantie", "a": "à la garantie"},
        {"n": "le menu de la semaine", "d": "du menu de la semaine", "a": "au menu de la semaine"},
        {"n": "la caution", "d": "de la caution", "a": "à la caution"},
        {
            "n": "la facture du couvreur",
            "d": "de la facture du couvreur",
            "a": "à la facture du couvreur",
        },
        {"n": "le code wifi", "d": "du code wifi", "a": "au code wifi"},
        {
            "n": "le numéro du vétérinaire",
            "d": "du numéro du vétérinaire",
            "a": "au numéro du vétérinaire",
        },
        {
            "n": "la recette du gâteau au citron",
            "d": "de la recette du gâteau au citron",
            "a": "à la recette du gâteau au citron",
        },
        {
            "n": "le nom de l'hôtel à Rome",
            "d": "du nom de l'hôtel à Rome",
            "a": "au nom de l'hôtel à Rome",
        },
        {
            "n": "le planning de la salle de sport",
            "d": "du planning de la salle de sport",
            "a": "au planning de la salle de sport",
        },
        {
            "n": "le numéro de contrat d'assurance",
            "d": "du numéro de contrat d'assurance",
            "a": "au numéro de contrat d'assurance",
        },
        {
            "n": "l'adresse du nouveau bureau",
            "d": "de l'adresse du nouveau bureau",
            "a": "à l'adresse du nouveau bureau",
        },
    ],
    "wanted": ["électricien", "serrurier", "couvreur", "traiteur", "ostéopathe"],
    "stores": [
        {"s": "tes notes", "l": "dans tes notes", "ds": "de tes notes"},
        {
            "s": "tes listes enregistrées",
            "l": "dans tes listes enregistrées",
            "ds": "de tes listes enregistrées",
        },
        {"s": "tes contacts", "l": "dans tes contacts", "ds": "de tes contacts"},
        {"s": "ton historique", "l": "dans ton historique", "ds": "de ton historique"},
        {
            "s": "nos conversations passées",
            "l": "dans nos conversations passées",
            "ds": "de nos conversations passées",
        },
        {"s": "vos notes", "l": "dans vos notes", "ds": "de vos notes"},
        {"s": "tes rappels", "l": "dans tes rappels", "ds": "de tes rappels"},
        {
            "s": "ce que tu as enregistré chez moi",
            "l": "dans ce que tu as enregistré chez moi",
            "ds": "de ce que tu as enregistré chez moi",
        },
    ],
    "own_external": [
        {"s": "ta boîte mail", "l": "dans ta boîte mail", "ds": "de ta boîte mail"},
        {"s": "ton Drive", "l": "dans ton Drive", "ds": "de ton Drive"},
        {
            "s": "la galerie de ton téléphone",
            "l": "dans la galerie de ton téléphone",
            "ds": "de la galerie de ton téléphone",
        },
    ],
    "external": [
        {
            "s": "le PDF que tu as envoyé",
            "l": "dans le PDF que tu as envoyé",
            "ds": "du PDF que tu as envoyé",
        },
        {
            "s": "le tableur que tu viens de joindre",
            "l": "dans le tableur que tu viens de joindre",
            "ds": "du tableur que tu viens de joindre",
        },
        {"s": "le web", "l": "sur le web", "ds": "du web"},
        {
            "s": "le catalogue de la boutique",
            "l": "dans le catalogue de la boutique",
            "ds": "du catalogue de la boutique",
        },
        {
            "s": "le contrat que vous avez joint",
            "l": "dans le contrat que vous avez joint",
            "ds": "du contrat que vous avez joint",
        },
        {"s": "le registre public", "l": "dans le registre public", "ds": "du registre public"},
        {"s": "cette page web", "l": "sur cette page web", "ds": "de cette page web"},
        {
            "s": "ton fichier de configuration",
            "l": "dans ton fichier de configuration",
            "ds": "de ton fichier de configuration",
        },
    ],
    "loc": [
        "{O}{N} n'est pas {l}{C}, j'ai vérifié deux fois.",
        "{O}{N} est introuvable {l}{C}.",
        "{O}{N} n'apparaît nulle part {l}{C}, désolé.",
        "{O}Je ne vois {n} nulle part {l}{C}, donc j'ai laissé la case vide.",
        "{O}Aucune trace {d} {l}{C}.",
        "{O}Il n'y a rien sur {n} {l}{C}.",
        "{O}{N} ne figure pas {l}{C}.",
        "Malheureusement, {O}{n} ne se trouve pas {l}{C}.",
        "{O}{N} reste introuvable {l}{C}, même en cherchant autrement.",
    ],
    "search": [
        "{O}Chercher {n} {l} ne donne rien{C}.",
        "{O}Un passage en revue {ds} ne donne rien sur {n}{C}.",
        "{O}Une recherche {l} sur {n} n'a rien donné{C}.",
        "{O}J'ai parcouru {s} sans trouver {n}{C}.",
        "{O}Ma recherche {l} ne renvoie aucun résultat pour {n}{C}.",
        "{O}Fouiller {s} n'a rien fait remonter sur {n}{C}, {t}.",
        "{O}L'examen {ds} ne révèle rien sur {n}{C}.",
    ],
    "short": [
        "{O}Recherche faite {l} : aucun {w}{C}.",
        "{O}{L} : pas de {w}{C}.",
        "{O}J'ai regardé {l} pour un {w} : rien{C}.",
    ],
    "qs_pairs": [
        (
            "{O}Tes notes ne font aucune référence {a}{C}.",
            "Le compte rendu ne fait aucune référence {a}.",
        ),
        (
            "{O}Tes listes enregistrées ne disent rien sur {n}{C}, {t}.",
            "L'annonce du vendeur ne dit rien sur {n}, {t}.",
        ),
        (
            "{O}Rien de ce que tu as enregistré ne mentionne {n}{C}.",
            "Rien sur le ticket que tu as photographié ne mentionne {n}.",
        ),
        (
            "{O}Ton historique ne contient aucune entrée pour {n}{C}.",
            "Le site de l'hôtel ne contient aucune entrée pour {n}.",
        ),
        (
            "{O}Aucune de tes notes enregistrées ne contient {n}{C}.",
            "Aucune des pages que tu as mises en lien ne contient {n}.",
        ),
        (
            "{O}Je ne retrouve pas {n} dans vos favoris{C}.",
            "Je ne retrouve pas {n} dans la brochure.",
        ),
    ],
    "mine": [
        {"n": "ton prêt immobilier", "d": "de ton prêt immobilier"},
        {"n": "ton régime alimentaire", "d": "de ton régime alimentaire"},
        {"n": "ton employeur", "d": "de ton employeur"},
        {"n": "ton mariage", "d": "de ton mariage"},
        {"n": "ton voisin", "d": "de ton voisin"},
        {"n": "ton rhume des foins", "d": "de ton rhume des foins"},
        {"n": "ton dossier de retraite", "d": "de ton dossier de retraite"},
        {"n": "ton propriétaire", "d": "de ton propriétaire"},
    ],
    "cw_pairs": [
        (
            "{O}Ma mémoire de toi est vide quand il s'agit {d}{C}.",
            "Ma mémoire des dates est vide quand il s'agit des examens d'histoire.",
        ),
        (
            "{O}Il n'y a rien sur {n} dans ce que je sais de toi{C}.",
            "Il n'y a rien sur {n} dans ce que la banque a publié.",
        ),
        (
            "{O}{N} n'est jamais venu sur la table entre nous{C}.",
            "{N} n'est jamais venu sur la table lors du conseil municipal.",
        ),
        (
            "{O}Je n'ai rien dans mes dossiers sur {n}{C}.",
            "L'agence n'a rien dans ses dossiers sur l'ancien locataire.",
        ),
        (
            "{O}Ce que je garde de toi est muet sur {n}{C}.",
            "La loi est muette sur {n} dans ce cas.",
        ),
        (
            "{O}{N} est une page blanche dans mon souvenir de toi{C}, {t}.",
            "{N} est une page blanche pour l'instant, {t}.",
        ),
        (
            "{O}{N} n'a jamais fait partie de ce qu'on a abordé{C}.",
            "{N} n'a jamais fait partie de l'offre de l'agent.",
        ),
        ("{O}Je ne sais rien {d} de ta part{C}.", "Rien n'est encore décidé au sujet {d}."),
        (
            "{O}Ce sujet n'est jamais venu sur le tapis entre nous{C}.",
            "Ce sujet n'est jamais venu sur le tapis au conseil.",
        ),
        (
            "{O}Rien au sujet {d} ne m'est jamais parvenu de ta part{C}.",
            "Rien au sujet {d} n'est encore parvenu du notaire.",
        ),
        (
            "{O}{N} ne figure dans aucun de mes souvenirs de nos échanges{C}.",
            "{N} ne figure pas dans la liste des travaux du propriétaire.",
        ),
        (
            "{O}{N} est resté totalement absent de nos conversations{C}.",
            "{N} est resté totalement absent de l'ordre du jour au travail.",
        ),
        (
            "{O}Je n'ai rien en mémoire à propos {d}{C}, {t}.",
            "La mairie n'a rien en archive à propos du vieux puits, {t}.",
        ),
    ],
    "facts": [
        (
            "ton opération du genou en février",
            "une opération du genou",
            "commence par de courtes marches à plat",
        ),
        ("ton déménagement à Lille le mois prochain", "un déménagement", "réserve le camion tôt"),
        (
            "ton intolérance au lactose",
            "une intolérance au lactose",
            "prends la version au lait d'avoine",
        ),
        (
            "ton marathon en octobre",
            "un marathon d'automne",
            "allonge les sorties longues petit à petit",
        ),
        ("tes gardes de nuit à l'hôpital", "des gardes de nuit", "garde la chambre sombre le jour"),
        ("la rentrée de tes jumeaux", "une rentrée scolaire", "marque chaque vêtement à leur nom"),
        (
            "ton niveau B1 en espagnol",
            "un niveau intermédiaire",
            "lis de courts romans avec un lexique",
        ),
    ],
    "fact_frames": [
        ("{O}Vu {p}{C}, {v}.", "Après {q}, {v}."),
        ("{O}Avec {p}{C}, {v}.", "Avec {q}, {v}."),
        ("{O}Étant donné {p}{C}, {v}.", "Pour {q}, en général, {v}."),
    ],
    "rec_pairs": [
        (
            "{O}Maintenant que ton fils a commencé la natation{C}, un bonnet en silicone sera "
            "utile.",
            "Quand un enfant commence la natation, un bonnet en silicone est utile.",
        ),
        (
            "{O}Pour l'anniversaire de Chloé{C}, un kit de peinture lui plairait.",
            "Pour l'anniversaire d'une enfant de huit ans, un kit de peinture plaît souvent.",
        ),
        (
            "{O}Ton nouvel appartement à Nantes aura besoin{C} de rideaux avant l'hiver.",
            "Un nouvel appartement à Nantes a souvent besoin de rideaux avant l'hiver.",
        ),
        (
            "{O}Ayant grandi à Bordeaux{C}, tu connais sûrement les canelés.",
            "Les gens qui ont grandi à Bordeaux connaissent souvent les canelés.",
        ),
        (
            "{O}Comme Pixel a maintenant huit ans{C}, des croquettes senior s'imposent.",
            "Vers huit ans, un chat peut passer aux croquettes senior.",
        ),
        (
            "{O}En tant qu'infirmière de nuit{C}, tu préféreras le cours du soir.",
            "Si tu travailles de nuit, le cours du soir est le plus simple.",
        ),
        (
            "{O}Ton expérience de menuisier{C} te rendra ce stage facile.",
            "Une expérience de menuisier rend ce stage facile.",
        ),
        (
            "{O}Depuis que ta sœur vit chez toi{C}, la chambre d'amis est prise.",
            "Tu dis à l'instant que ta sœur emménage, donc la chambre d'amis sera prise.",
        ),
        (
            "{O}Allergique à la pénicilline comme tu l'es{C}, rappelle-le au dentiste.",
            "Quand on est allergique à la pénicilline, il faut le rappeler au dentiste.",
        ),
        (
            "{O}Avec ton italien au niveau A2{C}, l'examen B1 sera ambitieux cette année.",
            "Quand on apprend une langue, le passage de A2 à B1 est difficile.",
        ),
        (
            "{O}Maintenant que tu es à la retraite{C}, tes matinées sont libres.",
            "Une fois à la retraite, on a souvent ses matinées libres.",
        ),
        (
            "{O}Ton voyage à Séville en avril{C} tombe pendant la Feria.",
            "Un voyage à Séville en avril tombe souvent pendant la Feria.",
        ),
        (
            "{O}Végétarien comme tu l'es{C}, prends plutôt le plat aux lentilles.",
            "Si tu es végétarien, prends plutôt le plat aux lentilles.",
        ),
        (
            "{O}Le foot de ton fils le samedi{C} exclut le créneau du matin.",
            "Le foot du samedi exclut le créneau du matin pour beaucoup de familles.",
        ),
        (
            "{O}Tu habites à Rennes depuis l'an dernier{C}, donc le marché des Lices est tout "
            "près.",
            "Tu viens de dire que tu es à Rennes, donc le marché des Lices est tout près.",
        ),
        (
            "{O}Pour les quatre-vingt-dix ans de ta grand-mère{C}, un album photo la toucherait.",
            "Pour des quatre-vingt-dix ans, un album photo est un cadeau touchant.",
        ),
        (
            "{O}Étant diabétique{C}, vérifie le sucre dans cette sauce.",
            "Tu me dis à l'instant être diabétique, alors vérifie le sucre dans cette sauce.",
        ),
        (
            "{O}Votre cabinet d'avocat à Lyon{C} pourra déduire ces frais.",
            "Un cabinet d'avocat peut en général déduire ces frais.",
        ),
    ],
    "tails": [
        "j'ai laissé le champ vide",
        "j'ai mis un texte provisoire",
        "je continue à chercher",
    ],
    "benign": [
        "Il n'y a rien de faux dans ton code.",
        "Rien dans ta configuration n'est à changer.",
        "La date limite n'est pas dans le contrat que tu as joint.",
        "La liste des allergènes n'est pas sur le menu que tu as photographié.",
        "J'ai cherché sur internet et je n'ai rien trouvé sur ce fournisseur.",
        "Le web n'a rien de récent sur ce modèle.",
        "Une recherche sur le site de la boutique ne donne aucune pièce détachée.",
        "La base de données publique n'a aucune trace de cette entreprise.",
    ],
}

DATA["es"] = {
    "topics": [
        {"n": "el alquiler", "d": "del alquiler"},
        {"n": "la lista de invitados", "d": "de la lista de invitados"},
        {"n": "el PIN", "d": "del PIN"},
        {"n": "el itinerario", "d": "del itinerario"},
        {"n": "el recibo", "d": "del recibo"},
        {"n": "la garantía", "d": "de la garantía"},
        {"n": "el menú semanal", "d": "del menú semanal"},
        {"n": "la fianza", "d": "de la fianza"},
        {"n": "la factura del fontanero", "d": "de la factura del fontanero"},
        {"n": "la contraseña del wifi", "d": "de la contraseña del wifi"},
        {"n": "el teléfono de la veterinaria", "d": "del teléfono de la veterinaria"},
        {"n": "la receta del bizcocho de limón", "d": "de la receta del bizcocho de limón"},
        {"n": "el nombre del hotel de Roma", "d": "del nombre del hotel de Roma"},
        {"n": "el horario del gimnasio", "d": "del horario del gimnasio"},
        {"n": "el número de la póliza", "d": "del número de la póliza"},
        {"n": "la dirección de la nueva oficina", "d": "de la dirección de la nueva oficina"},
    ],
    "wanted": ["electricista", "cerrajero", "pintor", "canguro", "fisioterapeuta"],
    "stores": [
        {"s": "tus notas", "l": "en tus notas", "ds": "de tus notas"},
        {
            "s": "tus listas guardadas",
            "l": "en tus listas guardadas",
            "ds": "de tus listas guardadas",
        },
        {"s": "tus contactos", "l": "entre tus contactos", "ds": "de tus contactos"},
        {"s": "tu historial", "l": "en tu historial", "ds": "de tu historial"},
        {
            "s": "nuestras conversaciones anteriores",
            "l": "en nuestras conversaciones anteriores",
            "ds": "de nuestras conversaciones anteriores",
        },
        {"s": "su historial", "l": "en su historial", "ds": "de su historial"},
        {"s": "tus recordatorios", "l": "en tus recordatorios", "ds": "de tus recordatorios"},
        {
            "s": "lo que has guardado conmigo",
            "l": "en lo que has guardado conmigo",
            "ds": "de lo que has guardado conmigo",
        },
    ],
    "own_external": [
        {
            "s": "tu bandeja de entrada",
            "l": "en tu bandeja de entrada",
            "ds": "de tu bandeja de entrada",
        },
        {"s": "tu Drive", "l": "en tu Drive", "ds": "de tu Drive"},
        {
            "s": "la galería de tu móvil",
            "l": "en la galería de tu móvil",
            "ds": "de la galería de tu móvil",
        },
    ],
    "external": [
        {"s": "el PDF que enviaste", "l": "en el PDF que enviaste", "ds": "del PDF que enviaste"},
        {
            "s": "la hoja de cálculo que acabas de subir",
            "l": "en la hoja de cálculo que acabas de subir",
            "ds": "de la hoja de cálculo que acabas de subir",
        },
        {"s": "internet", "l": "en internet", "ds": "de internet"},
        {
            "s": "el catálogo de la tienda",
            "l": "en el catálogo de la tienda",
            "ds": "del catálogo de la tienda",
        },
        {
            "s": "el contrato que adjuntaste",
            "l": "en el contrato que adjuntaste",
            "ds": "del contrato que adjuntaste",
        },
        {"s": "el registro público", "l": "en el registro público", "ds": "del registro público"},
        {"s": "esta página web", "l": "en esta página web", "ds": "de esta página web"},
        {
            "s": "tu archivo de configuración",
            "l": "en tu archivo de configuración",
            "ds": "de tu archivo de configuración",
        },
    ],
    "loc": [
        "{O}{N} no está {l}{C}, lo he mirado dos veces.",
        "{O}{N} no aparece por ningún lado {l}{C}.",
        "{O}No hay rastro {d} {l}{C}, lo siento.",
        "{O}No encuentro {n} {l}{C}, así que dejé la casilla vacía.",
        "{O}{N} no figura {l}{C}.",
        "{O}No hay nada sobre {n} {l}{C}.",
        "Por desgracia, {O}{n} no se encuentra {l}{C}.",
        "{O}{N} no sale {l}{C}, ni buscando de otra forma.",
        "{O}{L} no consta nada sobre {n}{C}.",
    ],
    "search": [
        "{O}Buscar {n} {l} no da ningún resultado{C}.",
        "{O}Un repaso {ds} no arroja nada sobre {n}{C}.",
        "{O}La búsqueda {l} de {n} no ha dado nada{C}.",
        "{O}He recorrido {s} sin dar con {n}{C}.",
        "{O}Mi búsqueda {l} no devuelve resultados para {n}{C}.",
        "{O}Rebuscar {l} no ha sacado nada sobre {n}{C}, {t}.",
        "{O}Una revisión {ds} no muestra nada {d}{C}.",
    ],
    "short": [
        "{O}Búsqueda hecha {l}: ningún {w}{C}.",
        "{O}{L}: ni un {w}{C}.",
        "{O}He mirado {l} buscando un {w}: nada{C}.",
    ],
    "qs_pairs": [
        (
            "{O}Tus notas no hacen ninguna referencia a {n}{C}.",
            "El acta de la reunión no hace ninguna referencia a {n}.",
        ),
        (
            "{O}Tus listas guardadas no dicen nada sobre {n}{C}, {t}.",
            "El anuncio del vendedor no dice nada sobre {n}, {t}.",
        ),
        (
            "{O}Nada de lo que has guardado menciona {n}{C}.",
            "Nada del tique que fotografiaste menciona {n}.",
        ),
        (
            "{O}Tu historial no tiene ninguna entrada para {n}{C}.",
            "La web del hotel no tiene ninguna entrada para {n}.",
        ),
        (
            "{O}Ninguna de tus notas guardadas contiene {n}{C}.",
            "Ninguna de las páginas que enlazaste contiene {n}.",
        ),
        ("{O}En sus favoritos no logro localizar {n}{C}.", "En el folleto no logro localizar {n}."),
    ],
    "mine": [
        {"n": "tu hipoteca", "d": "de tu hipoteca"},
        {"n": "tu dieta", "d": "de tu dieta"},
        {"n": "tu empresa", "d": "de tu empresa"},
        {"n": "tu boda", "d": "de tu boda"},
        {"n": "tu vecino", "d": "de tu vecino"},
        {"n": "tu alergia al polen", "d": "de tu alergia al polen"},
        {"n": "tu jubilación", "d": "de tu jubilación"},
        {"n": "tu casero", "d": "de tu casero"},
    ],
    "cw_pairs": [
        (
            "{O}Mi memoria sobre ti está vacía en lo que respecta a {n}{C}.",
            "Mi memoria para las fechas está vacía en lo que respecta a los exámenes.",
        ),
        (
            "{O}No hay nada sobre {n} en lo que sé de ti{C}.",
            "No hay nada sobre {n} en lo que ha publicado el banco.",
        ),
        (
            "{O}{N} nunca salió a la mesa entre nosotros{C}.",
            "{N} nunca salió a la mesa en el pleno del ayuntamiento.",
        ),
        (
            "{O}No tengo nada archivado sobre {n}{C}.",
            "La agencia no tiene nada archivado sobre el inquilino anterior.",
        ),
        ("{O}Lo que guardo de ti no dice nada {d}{C}.", "La ley no dice nada {d} en este caso."),
        (
            "{O}{N} es una página en blanco en lo que recuerdo de ti{C}, {t}.",
            "{N} es una página en blanco por ahora, {t}.",
        ),
        (
            "{O}{N} nunca formó parte de lo que hemos hablado{C}.",
            "{N} nunca formó parte de la oferta del agente.",
        ),
        ("{O}No sé nada {d} por ti{C}.", "Todavía no hay nada decidido acerca {d}."),
        (
            "{O}Ese tema jamás ha salido entre nosotros{C}.",
            "Ese tema jamás ha salido en el consejo.",
        ),
        (
            "{O}Nada acerca {d} me ha llegado nunca de tu parte{C}.",
            "Nada acerca {d} ha llegado todavía del notario.",
        ),
        (
            "{O}{N} no figura en nada de lo que recuerdo de nuestras charlas{C}.",
            "{N} no figura en la lista de reparaciones del casero.",
        ),
        (
            "{O}{N} se ha quedado completamente fuera de nuestras conversaciones{C}.",
            "{N} se ha quedado completamente fuera del orden del día.",
        ),
        (
            "{O}No me consta nada {d}{C}, {t}.",
            "Al ayuntamiento no le consta nada del pozo viejo, {t}.",
        ),
    ],
    "facts": [
        (
            "tu operación de rodilla en febrero",
            "una operación de rodilla",
            "empieza con paseos cortos y llanos",
        ),
        ("tu mudanza a Valencia el mes que viene", "una mudanza", "reserva la furgoneta pronto"),
        (
            "tu intolerancia a la lactosa",
            "una intolerancia a la lactosa",
            "pide la versión con bebida de avena",
        ),
        ("tu maratón en octubre", "un maratón en otoño", "alarga las tiradas largas poco a poco"),
        (
            "tus guardias de noche en el hospital",
            "unas guardias de noche",
            "mantén el dormitorio a oscuras de día",
        ),
        (
            "el primer curso de tus mellizos",
            "el primer curso escolar",
            "marca cada prenda con su nombre",
        ),
        ("tu nivel B1 de francés", "un nivel intermedio", "lee novelas cortas con un glosario"),
    ],
    "fact_frames": [
        ("{O}Con {p}{C}, {v}.", "Con {q}, {v}."),
        ("{O}Teniendo en cuenta {p}{C}, {v}.", "Tras {q}, {v}."),
        ("{O}Por {p}{C}, {v}.", "Ante {q}, en general, {v}."),
    ],
    "rec_pairs": [
        (
            "{O}Ahora que tu hijo ha empezado natación{C}, un gorro de silicona le vendrá bien.",
            "Cuando un niño empieza natación, un gorro de silicona viene bien.",
        ),
        (
            "{O}Para el cumpleaños de Lucía{C}, un set de acuarelas le encantaría.",
            "Para el cumpleaños de una niña de ocho años, un set de acuarelas suele gustar.",
        ),
        (
            "{O}Tu piso nuevo en Zaragoza va a necesitar{C} cortinas antes del invierno.",
            "Un piso nuevo en Zaragoza suele necesitar cortinas antes del invierno.",
        ),
        (
            "{O}Habiéndote criado en Cádiz{C}, ya conocerás el pescaíto frito.",
            "Quienes se criaron en Cádiz suelen conocer el pescaíto frito.",
        ),
        (
            "{O}Como Chispa ya tiene nueve años{C}, le toca pienso senior.",
            "Hacia los nueve años, un perro puede pasar a pienso senior.",
        ),
        (
            "{O}Tu experiencia como electricista{C} te hará fácil el curso.",
            "La experiencia como electricista hace fácil el curso.",
        ),
        (
            "{O}Siendo enfermera de turno de noche{C}, te convendrá la clase de tarde.",
            "Si trabajas de noche, la clase de tarde es la más cómoda.",
        ),
        (
            "{O}Con tu hermana viviendo contigo{C}, el cuarto de invitados está ocupado.",
            "Acabas de decir que tu hermana se muda contigo, así que el cuarto de invitados "
            "estará ocupado.",
        ),
        (
            "{O}Alérgico a la penicilina como eres{C}, recuérdaselo al dentista.",
            "Si eres alérgico a la penicilina, recuérdaselo al dentista.",
        ),
        (
            "{O}Con tu alemán en un A2{C}, el examen de B1 este año es ambicioso.",
            "Cuando aprendes un idioma, el salto de A2 a B1 cuesta.",
        ),
        (
            "{O}Ahora que te has jubilado{C}, tienes las mañanas libres.",
            "Al jubilarse, uno suele tener las mañanas libres.",
        ),
        (
            "{O}Tu viaje a Sevilla en abril{C} coincide con la Feria.",
            "Un viaje a Sevilla en abril suele coincidir con la Feria.",
        ),
        (
            "{O}Siendo vegetariana{C}, pide mejor el plato de lentejas.",
            "Si eres vegetariana, pide mejor el plato de lentejas.",
        ),
        (
            "{O}El fútbol de tu hijo los sábados{C} descarta la franja de la mañana.",
            "El fútbol de los sábados descarta la franja de la mañana para muchas familias.",
        ),
        (
            "{O}Llevas en Bilbao desde el año pasado{C}, así que el mercado de la Ribera te "
            "queda cerca.",
            "Me dices ahora mismo que estás en Bilbao, así que el mercado de la Ribera te queda "
            "cerca.",
        ),
        (
            "{O}Para los noventa años de tu abuela{C}, un álbum de fotos la emocionaría.",
            "Para unos noventa años, un álbum de fotos es un regalo emotivo.",
        ),
        (
            "{O}Siendo diabético{C}, revisa el azúcar de esa salsa.",
            "Me cuentas en este mensaje que eres diabético, así que revisa el azúcar de esa salsa.",
        ),
        (
            "{O}Su despacho de abogados en Málaga{C} podrá deducir esos gastos.",
            "Un despacho de abogados suele poder deducir esos gastos.",
        ),
    ],
    "tails": ["dejé el campo en blanco", "puse un texto provisional", "sigo buscando"],
    "benign": [
        "No hay nada mal en tu código.",
        "No hace falta cambiar nada en tu configuración.",
        "La fecha límite no está en el contrato que adjuntaste.",
        "La lista de alérgenos no aparece en la carta que fotografiaste.",
        "Busqué en internet y no encontré nada sobre ese distribuidor.",
        "En la web no hay nada reciente sobre ese modelo.",
        "Una búsqueda en la web de la tienda no da ningún repuesto.",
        "La base de datos pública no tiene constancia de esa empresa.",
    ],
}


DATA["de"] = {
    "topics": [
        {"n": "die Miete", "a": "die Miete", "d": "der Miete", "zu": "zur Miete"},
        {
            "n": "die Gästeliste",
            "a": "die Gästeliste",
            "d": "der Gästeliste",
            "zu": "zur Gästeliste",
        },
        {"n": "die PIN", "a": "die PIN", "d": "der PIN", "zu": "zur PIN"},
        {
            "n": "die Reiseroute",
            "a": "die Reiseroute",
            "d": "der Reiseroute",
            "zu": "zur Reiseroute",
        },
        {"n": "der Kassenbon", "a": "den Kassenbon", "d": "dem Kassenbon", "zu": "zum Kassenbon"},
        {"n": "die Garantie", "a": "die Garantie", "d": "der Garantie", "zu": "zur Garantie"},
        {
            "n": "der Wochenplan",
            "a": "den Wochenplan",
            "d": "dem Wochenplan",
            "zu": "zum Wochenplan",
        },
        {"n": "die Kaution", "a": "die Kaution", "d": "der Kaution", "zu": "zur Kaution"},
        {
            "n": "die Rechnung vom Dachdecker",
            "a": "die Rechnung vom Dachdecker",
            "d": "der Rechnung vom Dachdecker",
            "zu": "zur Rechnung vom Dachdecker",
        },
        {
            "n": "das WLAN-Passwort",
            "a": "das WLAN-Passwort",
            "d": "dem WLAN-Passwort",
            "zu": "zum WLAN-Passwort",
        },
        {
            "n": "die Nummer der Tierärztin",
            "a": "die Nummer der Tierärztin",
            "d": "der Nummer der Tierärztin",
            "zu": "zur Nummer der Tierärztin",
        },
        {
            "n": "das Rezept für den Zitronenkuchen",
            "a": "das Rezept für den Zitronenkuchen",
            "d": "dem Rezept für den Zitronenkuchen",
            "zu": "zum Rezept für den Zitronenkuchen",
        },
        {
            "n": "der Name des Hotels in Rom",
            "a": "den Namen des Hotels in Rom",
            "d": "dem Namen des Hotels in Rom",
            "zu": "zum Namen des Hotels in Rom",
        },
        {
            "n": "der Kursplan vom Fitnessstudio",
            "a": "den Kursplan vom Fitnessstudio",
            "d": "dem Kursplan vom Fitnessstudio",
            "zu": "zum Kursplan vom Fitnessstudio",
        },
        {
            "n": "die Versicherungsnummer",
            "a": "die Versicherungsnummer",
            "d": "der Versicherungsnummer",
            "zu": "zur Versicherungsnummer",
        },
        {
            "n": "die Adresse des neuen Büros",
            "a": "die Adresse des neuen Büros",
            "d": "der Adresse des neuen Büros",
            "zu": "zur Adresse des neuen Büros",
        },
    ],
    "wanted": ["Elektriker", "Schlüsseldienst", "Maler", "Babysitter", "Physiotherapeut"],
    "stores": [
        {"s": "deine Notizen", "l": "in deinen Notizen", "g": "deiner Notizen"},
        {
            "s": "deine gespeicherten Listen",
            "l": "in deinen gespeicherten Listen",
            "g": "deiner gespeicherten Listen",
        },
        {"s": "deine Kontakte", "l": "in deinen Kontakten", "g": "deiner Kontakte"},
        {"s": "deinen Verlauf", "l": "in deinem Verlauf", "g": "deines Verlaufs"},
        {
            "s": "unsere früheren Gespräche",
            "l": "in unseren früheren Gesprächen",
            "g": "unserer früheren Gespräche",
        },
        {"s": "Ihre Notizen", "l": "in Ihren Notizen", "g": "Ihrer Notizen"},
        {"s": "deine Erinnerungen", "l": "in deinen Erinnerungen", "g": "deiner Erinnerungen"},
        {
            "s": "deine gespeicherten Einträge",
            "l": "in deinen gespeicherten Einträgen",
            "g": "deiner gespeicherten Einträge",
        },
    ],
    "own_external": [
        {"s": "deinen Posteingang", "l": "in deinem Posteingang", "g": "deines Posteingangs"},
        {"s": "dein Google Drive", "l": "in deinem Google Drive", "g": "deines Google Drive"},
        {
            "s": "die Galerie deines Handys",
            "l": "in der Galerie deines Handys",
            "g": "der Galerie deines Handys",
        },
    ],
    "external": [
        {
            "s": "dein angehängtes PDF",
            "l": "in deinem angehängten PDF",
            "g": "deines angehängten PDFs",
        },
        {"s": "die Tabelle von eben", "l": "in der Tabelle von eben", "g": "der Tabelle von eben"},
        {"s": "das Internet", "l": "im Internet", "g": "des Internets"},
        {"s": "den Shop-Katalog", "l": "im Shop-Katalog", "g": "des Shop-Katalogs"},
        {
            "s": "den beigefügten Vertrag",
            "l": "im beigefügten Vertrag",
            "g": "des beigefügten Vertrags",
        },
        {"s": "das Handelsregister", "l": "im Handelsregister", "g": "des Handelsregisters"},
        {"s": "diese Webseite", "l": "auf dieser Webseite", "g": "dieser Webseite"},
        {
            "s": "deine Konfigurationsdatei",
            "l": "in deiner Konfigurationsdatei",
            "g": "deiner Konfigurationsdatei",
        },
    ],
    "loc": [
        "{O}{N} steht nicht {l}{C}, ich habe zweimal nachgesehen.",
        "{O}{N} ist {l} nirgends zu finden{C}.",
        "{O}{N} taucht {l} nirgends auf{C}, tut mir leid.",
        "{O}Ich sehe {a} {l} nirgends{C}, also habe ich das Feld leer gelassen.",
        "{O}{L} findet sich nichts {zu}{C}.",
        "{O}{N} ist {l} nicht vermerkt{C}.",
        "Leider {O}ist {n} {l} nicht zu finden{C}.",
        "{O}{L} gibt es keine Spur von {d}{C}.",
        "{O}{N} bleibt {l} unauffindbar{C}, auch mit anderen Suchbegriffen.",
    ],
    "search": [
        "{O}Eine Suche {l} nach {d} ergibt nichts{C}.",
        "{O}Die Durchsicht {g} bringt nichts {zu}{C}.",
        "{O}Beim Durchsuchen {g} kam nichts {zu} heraus{C}.",
        "{O}Meine Suche {l} liefert keinen Treffer für {a}{C}.",
        "{O}Das Durchforsten {g} hat nichts {zu} ergeben{C}, {t}.",
        "{O}Nach Durchsicht {g} gibt es keinen Eintrag {zu}{C}.",
        "{O}Eine Abfrage {l} nach {d} blieb ohne Ergebnis{C}.",
    ],
    "short": [
        "{O}{L} gesucht: kein {w}{C}.",
        "{O}{L}: kein {w}{C}.",
        "{O}Ich habe {l} nach einem {w} geschaut: nichts{C}.",
    ],
    "qs_pairs": [
        (
            "{O}Deine Notizen enthalten keinen Hinweis auf {a}{C}.",
            "Das Protokoll der Sitzung enthält keinen Hinweis auf {a}.",
        ),
        (
            "{O}Deine gespeicherten Listen sagen nichts über {a}{C}, {t}.",
            "Die Anzeige des Verkäufers sagt nichts über {a}, {t}.",
        ),
        (
            "{O}Keiner deiner gespeicherten Einträge erwähnt {a}{C}.",
            "Keiner der verlinkten Artikel erwähnt {a}.",
        ),
        (
            "{O}Dein Verlauf hat keinen Eintrag {zu}{C}.",
            "Die Webseite des Hotels hat keinen Eintrag {zu}.",
        ),
        ("{O}In Ihren Favoriten finde ich {a} nicht{C}.", "In der Broschüre finde ich {a} nicht."),
        ("{O}{N} fehlt in deinen Notizen{C}.", "{N} fehlt in der Broschüre."),
    ],
    "mine": [
        {"n": "deine Hypothek", "zu": "zu deiner Hypothek", "ueber": "über deine Hypothek"},
        {"n": "deine Ernährung", "zu": "zu deiner Ernährung", "ueber": "über deine Ernährung"},
        {
            "n": "dein Arbeitgeber",
            "zu": "zu deinem Arbeitgeber",
            "ueber": "über deinen Arbeitgeber",
        },
        {"n": "deine Hochzeit", "zu": "zu deiner Hochzeit", "ueber": "über deine Hochzeit"},
        {"n": "dein Nachbar", "zu": "zu deinem Nachbarn", "ueber": "über deinen Nachbarn"},
        {
            "n": "dein Heuschnupfen",
            "zu": "zu deinem Heuschnupfen",
            "ueber": "über deinen Heuschnupfen",
        },
        {"n": "deine Rente", "zu": "zu deiner Rente", "ueber": "über deine Rente"},
        {"n": "dein Vermieter", "zu": "zu deinem Vermieter", "ueber": "über deinen Vermieter"},
    ],
    "cw_pairs": [
        (
            "{O}In meinem Wissen über dich gibt es nichts {zu}{C}.",
            "In den Unterlagen der Bank gibt es nichts {zu}.",
        ),
        (
            "{O}{N} kam zwischen uns nie auf den Tisch{C}.",
            "{N} kam im Gemeinderat nie auf den Tisch.",
        ),
        (
            "{O}Ich habe nichts {zu} in meinen Akten{C}.",
            "Die Agentur hat nichts zum Vormieter in den Akten.",
        ),
        ("{O}Mein Wissen über dich schweigt {zu}{C}.", "Das Gesetz schweigt {zu} in diesem Fall."),
        (
            "{O}{N} ist in meiner Erinnerung an dich ein weißes Blatt{C}, {t}.",
            "{N} ist vorerst ein weißes Blatt, {t}.",
        ),
        ("{O}{N} war nie Teil unserer Gespräche{C}.", "{N} war nie Teil des Angebots vom Makler."),
        ("{O}Von dir weiß ich nichts {zu}{C}.", "{ZU} ist noch nichts entschieden."),
        (
            "{O}Dieses Thema kam bei uns nie zur Sprache{C}.",
            "Dieses Thema kam im Vorstand nie zur Sprache.",
        ),
        (
            "{O}{UEBER} ist mir von dir nie etwas zu Ohren gekommen{C}.",
            "{UEBER} ist vom Notar noch nichts gekommen.",
        ),
        (
            "{O}{N} kommt in meiner Erinnerung an unsere Gespräche nicht vor{C}.",
            "{N} kommt in der Mängelliste des Vermieters nicht vor.",
        ),
        (
            "{O}{N} blieb in unseren Unterhaltungen völlig außen vor{C}.",
            "{N} blieb auf der Tagesordnung völlig außen vor.",
        ),
        (
            "{O}Mir ist {zu} nichts bekannt{C}, {t}.",
            "Der Gemeinde ist zum alten Brunnen nichts bekannt, {t}.",
        ),
        ("{O}Mein Gedächtnis ist {zu} leer{C}.", "Mein Gedächtnis für Namen ist schlecht."),
    ],
    "facts": [
        ("deiner Knie-OP im Februar", "einer Knie-OP", "mit kurzen flachen Spaziergängen anfangen"),
        (
            "deinem Umzug nach Leipzig nächsten Monat",
            "einem Umzug",
            "den Transporter früh reservieren",
        ),
        (
            "deiner Laktoseintoleranz",
            "einer Laktoseintoleranz",
            "die Variante mit Haferdrink nehmen",
        ),
        ("deinem Marathon im Oktober", "einem Herbstmarathon", "die langen Läufe langsam steigern"),
        (
            "deinen Nachtdiensten in der Klinik",
            "Nachtdiensten",
            "das Schlafzimmer tagsüber abdunkeln",
        ),
        (
            "der Einschulung deiner Zwillinge",
            "einer Einschulung",
            "jedes Kleidungsstück beschriften",
        ),
        (
            "deinem B1-Niveau in Spanisch",
            "einem mittleren Niveau",
            "kurze Romane mit Glossar lesen",
        ),
    ],
    "fact_frames": [
        ("{O}Mit {p}{C} solltest du {v}.", "Mit {q} sollte man {v}."),
        ("{O}Wegen {p}{C} solltest du {v}.", "Wegen {q} sollte man meist {v}."),
        ("{O}Bei {p}{C} würde ich {v}.", "Bei {q} würde ich allgemein {v}."),
    ],
    "rec_pairs": [
        (
            "{O}Jetzt wo dein Sohn mit dem Schwimmen angefangen hat{C}, ist eine Silikonkappe "
            "praktisch.",
            "Wenn ein Kind mit dem Schwimmen anfängt, ist eine Silikonkappe praktisch.",
        ),
        (
            "{O}Zu Lenas Geburtstag{C} würde ihr ein Aquarellkasten gefallen.",
            "Zum Geburtstag einer Achtjährigen kommt ein Aquarellkasten meist gut an.",
        ),
        (
            "{O}Deine neue Wohnung in Bremen braucht{C} vor dem Winter Vorhänge.",
            "Eine neue Wohnung in Bremen braucht vor dem Winter meist Vorhänge.",
        ),
        (
            "{O}Da du in Köln aufgewachsen bist{C}, kennst du den Karneval sicher.",
            "Wer in Köln aufgewachsen ist, kennt den Karneval meist.",
        ),
        (
            "{O}Da Bello jetzt neun ist{C}, passt Seniorenfutter.",
            "Ab neun Jahren passt für viele Hunde Seniorenfutter.",
        ),
        (
            "{O}Als Vegetarierin{C} nimmst du am besten das Linsengericht.",
            "Wenn du Vegetarierin bist, nimm am besten das Linsengericht.",
        ),
        (
            "{O}Deine Erfahrung als Elektriker{C} macht dir den Kurs leicht.",
            "Erfahrung als Elektriker macht den Kurs leicht.",
        ),
        (
            "{O}Als Krankenpfleger im Nachtdienst{C} passt dir der Abendkurs besser.",
            "Für Leute im Nachtdienst passt der Abendkurs besser.",
        ),
        (
            "{O}Seit deine Schwester bei dir wohnt{C}, ist das Gästezimmer belegt.",
            "Du hast gerade geschrieben, dass deine Schwester einzieht, also ist das Gästezimmer "
            "bald belegt.",
        ),
        (
            "{O}Wegen deiner Penicillinallergie{C} erinnere den Zahnarzt daran.",
            "Bei einer Penicillinallergie sollte man den Zahnarzt daran erinnern.",
        ),
        (
            "{O}Mit deinem Italienisch auf A2{C} ist die B1-Prüfung dieses Jahr ehrgeizig.",
            "Beim Sprachenlernen ist der Sprung von A2 auf B1 schwer.",
        ),
        (
            "{O}Jetzt wo du in Rente bist{C}, hast du die Vormittage frei.",
            "In der Rente hat man die Vormittage oft frei.",
        ),
        (
            "{O}Deine Reise nach Sevilla im April{C} fällt in die Feria.",
            "Eine Reise nach Sevilla im April fällt oft in die Feria.",
        ),
        (
            "{O}Das Fußballtraining deines Sohnes am Samstag{C} schließt den Vormittag aus.",
            "Fußballtraining am Samstag schließt für viele Familien den Vormittag aus.",
        ),
        (
            "{O}Du wohnst seit letztem Jahr in Freiburg{C}, also ist der Münstermarkt ganz nah.",
            "Du schreibst gerade, dass du in Freiburg bist, also ist der Münstermarkt ganz nah.",
        ),
        (
            "{O}Zum Neunzigsten deiner Oma{C} würde sie ein Fotobuch rühren.",
            "Zu einem neunzigsten Geburtstag ist ein Fotobuch ein rührendes Geschenk.",
        ),
        (
            "{O}Als Diabetiker{C} solltest du den Zucker in der Soße prüfen.",
            "Du sagst in dieser Nachricht, dass du Diabetiker bist, also prüfe den Zucker in der "
            "Soße.",
        ),
        (
            "{O}Ihre Kanzlei in Hamburg{C} kann diese Kosten absetzen.",
            "Eine Kanzlei kann diese Kosten in der Regel absetzen.",
        ),
    ],
    "tails": [
        "deshalb habe ich das Feld leer gelassen",
        "ich habe einen Platzhalter eingesetzt",
        "ich suche weiter",
    ],
    "benign": [
        "An deinem Code ist nichts fehlerhaft.",
        "In deiner Konfiguration muss nichts geändert werden.",
        "Die Frist steht nicht im Vertrag, den du angehängt hast.",
        "Die Allergene stehen nicht auf der Speisekarte, die du fotografiert hast.",
        "Ich habe im Internet gesucht und nichts über diesen Anbieter gefunden.",
        "Im Netz gibt es nichts Aktuelles zu diesem Modell.",
        "Eine Suche im Shop ergibt keine Ersatzteile.",
        "Die öffentliche Datenbank kennt diese Firma nicht.",
    ],
}

DATA["it"] = {
    "topics": [
        {"n": "l'affitto", "d": "dell'affitto", "su": "sull'affitto"},
        {
            "n": "la lista degli invitati",
            "d": "della lista degli invitati",
            "su": "sulla lista degli invitati",
        },
        {"n": "il PIN", "d": "del PIN", "su": "sul PIN"},
        {"n": "l'itinerario", "d": "dell'itinerario", "su": "sull'itinerario"},
        {"n": "la ricevuta", "d": "della ricevuta", "su": "sulla ricevuta"},
        {"n": "la garanzia", "d": "della garanzia", "su": "sulla garanzia"},
        {
            "n": "il menù della settimana",
            "d": "del menù della settimana",
            "su": "sul menù della settimana",
        },
        {"n": "la caparra", "d": "della caparra", "su": "sulla caparra"},
        {
            "n": "la fattura dell'idraulico",
            "d": "della fattura dell'idraulico",
            "su": "sulla fattura dell'idraulico",
        },
        {
            "n": "la password del wifi",
            "d": "della password del wifi",
            "su": "sulla password del wifi",
        },
        {
            "n": "il numero della veterinaria",
            "d": "del numero della veterinaria",
            "su": "sul numero della veterinaria",
        },
        {
            "n": "la ricetta della torta al limone",
            "d": "della ricetta della torta al limone",
            "su": "sulla ricetta della torta al limone",
        },
        {
            "n": "il nome dell'albergo a Roma",
            "d": "del nome dell'albergo a Roma",
            "su": "sul nome dell'albergo a Roma",
        },
        {
            "n": "l'orario della palestra",
            "d": "dell'orario della palestra",
            "su": "sull'orario della palestra",
        },
        {"n": "il numero di polizza", "d": "del numero di polizza", "su": "sul numero di polizza"},
        {
            "n": "l'indirizzo del nuovo ufficio",
            "d": "dell'indirizzo del nuovo ufficio",
            "su": "sull'indirizzo del nuovo ufficio",
        },
    ],
    "wanted": ["elettricista", "fabbro", "imbianchino", "babysitter", "fisioterapista"],
    "stores": [
        {"s": "le tue note", "l": "nelle tue note", "ds": "delle tue note"},
        {
            "s": "le tue liste salvate",
            "l": "nelle tue liste salvate",
            "ds": "delle tue liste salvate",
        },
        {"s": "i tuoi contatti", "l": "tra i tuoi contatti", "ds": "dei tuoi contatti"},
        {"s": "la tua cronologia", "l": "nella tua cronologia", "ds": "della tua cronologia"},
        {
            "s": "le nostre conversazioni passate",
            "l": "nelle nostre conversazioni passate",
            "ds": "delle nostre conversazioni passate",
        },
        {"s": "le sue note", "l": "nelle sue note", "ds": "delle sue note"},
        {"s": "i tuoi promemoria", "l": "nei tuoi promemoria", "ds": "dei tuoi promemoria"},
        {
            "s": "ciò che hai salvato con me",
            "l": "in ciò che hai salvato con me",
            "ds": "di ciò che hai salvato con me",
        },
    ],
    "own_external": [
        {
            "s": "la tua casella di posta",
            "l": "nella tua casella di posta",
            "ds": "della tua casella di posta",
        },
        {"s": "il tuo Drive", "l": "nel tuo Drive", "ds": "del tuo Drive"},
        {
            "s": "la galleria del tuo telefono",
            "l": "nella galleria del tuo telefono",
            "ds": "della galleria del tuo telefono",
        },
    ],
    "external": [
        {
            "s": "il PDF che hai inviato",
            "l": "nel PDF che hai inviato",
            "ds": "del PDF che hai inviato",
        },
        {
            "s": "il foglio di calcolo che hai appena caricato",
            "l": "nel foglio di calcolo che hai appena caricato",
            "ds": "del foglio di calcolo che hai appena caricato",
        },
        {"s": "il web", "l": "sul web", "ds": "del web"},
        {
            "s": "il catalogo del negozio",
            "l": "nel catalogo del negozio",
            "ds": "del catalogo del negozio",
        },
        {
            "s": "il contratto che hai allegato",
            "l": "nel contratto che hai allegato",
            "ds": "del contratto che hai allegato",
        },
        {"s": "il registro pubblico", "l": "nel registro pubblico", "ds": "del registro pubblico"},
        {"s": "questa pagina web", "l": "in questa pagina web", "ds": "di questa pagina web"},
        {
            "s": "la tua configurazione",
            "l": "nella tua configurazione",
            "ds": "della tua configurazione",
        },
    ],
    "loc": [
        "{O}{N} non è {l}{C}, ho controllato due volte.",
        "{O}{N} non c'è da nessuna parte {l}{C}.",
        "{O}{N} non compare {l}{C}, mi dispiace.",
        "{O}Non vedo {n} {l}{C}, quindi ho lasciato il campo vuoto.",
        "{O}Nessuna traccia {d} {l}{C}.",
        "{O}Non c'è niente {su} {l}{C}.",
        "{O}{N} non figura {l}{C}.",
        "Purtroppo {O}{n} non è presente {l}{C}.",
        "{O}{L} non c'è nulla {su}{C}.",
    ],
    "search": [
        "{O}Cercare {n} {l} non dà alcun risultato{C}.",
        "{O}Una scorsa {ds} non fa emergere nulla {su}{C}.",
        "{O}La ricerca {l} non ha dato niente {su}{C}.",
        "{O}Ho passato in rassegna {s} senza trovare {n}{C}.",
        "{O}La mia ricerca {l} non restituisce risultati per {n}{C}.",
        "{O}Frugare {l} non ha tirato fuori nulla {su}{C}, {t}.",
        "{O}Dall'esame {ds} non emerge niente {su}{C}.",
    ],
    "short": [
        "{O}Ricerca fatta {l}: nessun {w}{C}.",
        "{O}{L}: niente {w}{C}.",
        "{O}Ho guardato {l} per un {w}: niente{C}.",
    ],
    "qs_pairs": [
        (
            "{O}Le tue note non contengono nulla {su}{C}.",
            "Il verbale della riunione non contiene nulla {su}.",
        ),
        (
            "{O}Le tue liste salvate non dicono niente {su}{C}, {t}.",
            "L'annuncio del venditore non dice niente {su}, {t}.",
        ),
        (
            "{O}Niente di ciò che hai salvato menziona {n}{C}.",
            "Niente sullo scontrino che hai fotografato menziona {n}.",
        ),
        (
            "{O}La tua cronologia non ha nessuna voce per {n}{C}.",
            "Il sito dell'albergo non ha nessuna voce per {n}.",
        ),
        (
            "{O}Nessuna delle tue note salvate contiene {n}{C}.",
            "Nessuna delle pagine che hai linkato contiene {n}.",
        ),
        (
            "{O}Nei suoi preferiti non riesco a trovare {n}{C}.",
            "Nell'opuscolo non riesco a trovare {n}.",
        ),
    ],
    "mine": [
        {"n": "il tuo mutuo", "d": "del tuo mutuo", "su": "sul tuo mutuo"},
        {"n": "la tua dieta", "d": "della tua dieta", "su": "sulla tua dieta"},
        {
            "n": "il tuo datore di lavoro",
            "d": "del tuo datore di lavoro",
            "su": "sul tuo datore di lavoro",
        },
        {"n": "il tuo matrimonio", "d": "del tuo matrimonio", "su": "sul tuo matrimonio"},
        {"n": "il tuo vicino", "d": "del tuo vicino", "su": "sul tuo vicino"},
        {
            "n": "la tua allergia ai pollini",
            "d": "della tua allergia ai pollini",
            "su": "sulla tua allergia ai pollini",
        },
        {"n": "la tua pensione", "d": "della tua pensione", "su": "sulla tua pensione"},
        {
            "n": "il tuo padrone di casa",
            "d": "del tuo padrone di casa",
            "su": "sul tuo padrone di casa",
        },
    ],
    "cw_pairs": [
        (
            "{O}La mia memoria di te è vuota per quanto riguarda {n}{C}.",
            "La mia memoria per le date è vuota per quanto riguarda gli esami.",
        ),
        (
            "{O}Non c'è niente {su} in quello che so di te{C}.",
            "Non c'è niente {su} in quello che ha pubblicato la banca.",
        ),
        (
            "{O}Tra noi non si è mai parlato {d}{C}.",
            "In consiglio comunale non si è mai parlato {d}.",
        ),
        (
            "{O}Non ho niente in archivio {su}{C}.",
            "L'agenzia non ha niente in archivio sul vecchio inquilino.",
        ),
        ("{O}Quello che conservo di te tace {su}{C}.", "La legge tace {su} in questo caso."),
        (
            "{O}Non mi risulta nulla {d}{C}, {t}.",
            "Al comune non risulta nulla del vecchio pozzo, {t}.",
        ),
        ("{O}Non so niente {d} da parte tua{C}.", "Niente è ancora deciso {su}."),
        (
            "{O}Questo argomento non è mai saltato fuori tra noi{C}.",
            "Questo argomento non è mai saltato fuori in consiglio.",
        ),
        (
            "{O}Da te non mi è mai arrivato nulla {su}{C}.",
            "Dal notaio non è ancora arrivato nulla {su}.",
        ),
        (
            "{O}Nei miei ricordi delle nostre conversazioni non c'è traccia {d}{C}.",
            "Nell'elenco dei lavori del padrone di casa non c'è traccia {d}.",
        ),
        (
            "{O}Su di te non ho nulla che riguardi {n}{C}.",
            "Sul mercato non c'è nulla che riguardi {n}.",
        ),
        ("{O}{D} non abbiamo mai discusso{C}.", "{D} non hanno mai discusso in banca."),
    ],
    "facts": [
        (
            "il tuo intervento al ginocchio a febbraio",
            "un intervento al ginocchio",
            "comincia con brevi passeggiate in piano",
        ),
        (
            "il tuo trasloco a Bologna il mese prossimo",
            "un trasloco",
            "prenota il furgone in anticipo",
        ),
        (
            "la tua intolleranza al lattosio",
            "un'intolleranza al lattosio",
            "prendi la versione con latte d'avena",
        ),
        ("la tua maratona a ottobre", "una maratona autunnale", "allunga i lunghi poco alla volta"),
        (
            "i tuoi turni di notte in ospedale",
            "i turni di notte",
            "tieni la camera al buio di giorno",
        ),
        (
            "l'inizio della scuola dei tuoi gemelli",
            "l'inizio della scuola",
            "segna ogni capo con il nome",
        ),
        (
            "il tuo livello B1 di spagnolo",
            "un livello intermedio",
            "leggi romanzi brevi con un glossario",
        ),
    ],
    "fact_frames": [
        ("{O}Con {p}{C}, {v}.", "Con {q}, {v}."),
        ("{O}Considerando {p}{C}, {v}.", "Dopo {q}, {v}."),
        ("{O}Per {p}{C}, {v}.", "Per {q}, di solito, {v}."),
    ],
    "rec_pairs": [
        (
            "{O}Ora che tuo figlio ha cominciato nuoto{C}, una cuffia in silicone gli sarà utile.",
            "Quando un bambino comincia nuoto, una cuffia in silicone è utile.",
        ),
        (
            "{O}Per il compleanno di Giulia{C}, un set di acquerelli le piacerebbe.",
            "Per il compleanno di una bambina di otto anni, un set di acquerelli piace sempre.",
        ),
        (
            "{O}Il tuo nuovo appartamento a Torino avrà bisogno{C} di tende prima dell'inverno.",
            "Un appartamento nuovo a Torino di solito ha bisogno di tende prima dell'inverno.",
        ),
        (
            "{O}Essendo cresciuto a Napoli{C}, conoscerai bene la pizza fritta.",
            "Chi è cresciuto a Napoli di solito conosce bene la pizza fritta.",
        ),
        (
            "{O}Visto che Briciola ha ormai nove anni{C}, le serve un cibo senior.",
            "Verso i nove anni un cane può passare a un cibo senior.",
        ),
        (
            "{O}La tua esperienza da falegname{C} ti renderà facile il corso.",
            "L'esperienza da falegname rende facile il corso.",
        ),
        (
            "{O}Facendo l'infermiera di notte{C}, ti conviene il corso serale.",
            "Se lavori di notte, il corso serale è il più comodo.",
        ),
        (
            "{O}Con tua sorella che vive da te{C}, la camera degli ospiti è occupata.",
            "Mi hai appena scritto che tua sorella si trasferisce da te, quindi la camera degli "
            "ospiti sarà occupata.",
        ),
        (
            "{O}Allergico alla penicillina come sei{C}, ricordalo al dentista.",
            "Se sei allergico alla penicillina, ricordalo al dentista.",
        ),
        (
            "{O}Con il tuo tedesco al livello A2{C}, l'esame B1 quest'anno è ambizioso.",
            "Quando si impara una lingua, il salto da A2 a B1 è faticoso.",
        ),
        (
            "{O}Ora che sei in pensione{C}, hai le mattine libere.",
            "Una volta in pensione, spesso si hanno le mattine libere.",
        ),
        (
            "{O}Il tuo viaggio a Siviglia ad aprile{C} coincide con la Feria.",
            "Un viaggio a Siviglia ad aprile spesso coincide con la Feria.",
        ),
        (
            "{O}Da vegetariana quale sei{C}, prendi il piatto di lenticchie.",
            "Se sei vegetariana, prendi il piatto di lenticchie.",
        ),
        (
            "{O}Le partite di calcio di tuo figlio il sabato{C} escludono la mattina.",
            "Le partite del sabato escludono la mattina per molte famiglie.",
        ),
        (
            "{O}Abiti a Padova dall'anno scorso{C}, quindi il mercato di Piazza delle Erbe è "
            "vicino.",
            "Mi dici proprio ora che sei a Padova, quindi il mercato di Piazza delle Erbe è "
            "vicino.",
        ),
        (
            "{O}Per i novant'anni di tua nonna{C}, un album di foto la commuoverebbe.",
            "Per dei novant'anni, un album di foto è un regalo commovente.",
        ),
        (
            "{O}Con il matrimonio di tua figlia a settembre{C}, conviene prenotare presto.",
            "Con un matrimonio a settembre, conviene prenotare presto.",
        ),
        (
            "{O}Il suo studio legale a Milano{C} potrà dedurre queste spese.",
            "Uno studio legale di solito può dedurre queste spese.",
        ),
    ],
    "tails": ["ho lasciato il campo vuoto", "ho messo un testo provvisorio", "continuo a cercare"],
    "benign": [
        "Nel tuo codice non c'è niente di sbagliato.",
        "Nella tua configurazione non va toccato nulla.",
        "La scadenza non è nel contratto che hai allegato.",
        "L'elenco degli allergeni non è nel menù che hai fotografato.",
        "Ho cercato su internet e non ho trovato niente su quel fornitore.",
        "Sul web non c'è niente di recente su quel modello.",
        "Una ricerca sul sito del negozio non trova ricambi.",
        "La banca dati pubblica non ha traccia di quell'azienda.",
    ],
}

DATA["pt"] = {
    "topics": [
        {"n": "a renda", "d": "da renda"},
        {"n": "a lista de convidados", "d": "da lista de convidados"},
        {"n": "o PIN", "d": "do PIN"},
        {"n": "o itinerário", "d": "do itinerário"},
        {"n": "o recibo", "d": "do recibo"},
        {"n": "a garantia", "d": "da garantia"},
        {"n": "a ementa da semana", "d": "da ementa da semana"},
        {"n": "a caução", "d": "da caução"},
        {"n": "a fatura do canalizador", "d": "da fatura do canalizador"},
        {"n": "a senha do wifi", "d": "da senha do wifi"},
        {"n": "o telefone da veterinária", "d": "do telefone da veterinária"},
        {"n": "a receita do bolo de limão", "d": "da receita do bolo de limão"},
        {"n": "o nome do hotel em Roma", "d": "do nome do hotel em Roma"},
        {"n": "o horário do ginásio", "d": "do horário do ginásio"},
        {"n": "o número da apólice", "d": "do número da apólice"},
        {"n": "a morada do novo escritório", "d": "da morada do novo escritório"},
    ],
    "wanted": ["eletricista", "serralheiro", "pintor", "babysitter", "fisioterapeuta"],
    "stores": [
        {"s": "as suas notas", "l": "nas suas notas", "ds": "das suas notas"},
        {
            "s": "as suas listas guardadas",
            "l": "nas suas listas guardadas",
            "ds": "das suas listas guardadas",
        },
        {"s": "os seus contactos", "l": "nos seus contactos", "ds": "dos seus contactos"},
        {"s": "o seu histórico", "l": "no seu histórico", "ds": "do seu histórico"},
        {
            "s": "as nossas conversas anteriores",
            "l": "nas nossas conversas anteriores",
            "ds": "das nossas conversas anteriores",
        },
        {"s": "as tuas notas", "l": "nas tuas notas", "ds": "das tuas notas"},
        {"s": "os seus lembretes", "l": "nos seus lembretes", "ds": "dos seus lembretes"},
        {"s": "o que guardou comigo", "l": "no que guardou comigo", "ds": "do que guardou comigo"},
    ],
    "own_external": [
        {
            "s": "a sua caixa de entrada",
            "l": "na sua caixa de entrada",
            "ds": "da sua caixa de entrada",
        },
        {"s": "o seu Drive", "l": "no seu Drive", "ds": "do seu Drive"},
        {
            "s": "a galeria do seu telemóvel",
            "l": "na galeria do seu telemóvel",
            "ds": "da galeria do seu telemóvel",
        },
    ],
    "external": [
        {"s": "o PDF que enviou", "l": "no PDF que enviou", "ds": "do PDF que enviou"},
        {
            "s": "a folha de cálculo que acabou de carregar",
            "l": "na folha de cálculo que acabou de carregar",
            "ds": "da folha de cálculo que acabou de carregar",
        },
        {"s": "a internet", "l": "na internet", "ds": "da internet"},
        {"s": "o catálogo da loja", "l": "no catálogo da loja", "ds": "do catálogo da loja"},
        {
            "s": "o contrato que anexou",
            "l": "no contrato que anexou",
            "ds": "do contrato que anexou",
        },
        {"s": "o registo público", "l": "no registo público", "ds": "do registo público"},
        {"s": "esta página web", "l": "nesta página web", "ds": "desta página web"},
        {"s": "a sua configuração", "l": "na sua configuração", "ds": "da sua configuração"},
    ],
    "loc": [
        "{O}{N} não está {l}{C}, verifiquei duas vezes.",
        "{O}{N} não aparece em lado nenhum {l}{C}.",
        "{O}Não há rasto {d} {l}{C}, lamento.",
        "{O}Não encontro {n} {l}{C}, por isso deixei o campo vazio.",
        "{O}{N} não consta {l}{C}.",
        "{O}Não há nada sobre {n} {l}{C}.",
        "Infelizmente, {O}{n} não se encontra {l}{C}.",
        "{O}{L} não existe nada sobre {n}{C}.",
        "{O}{N} não surge {l}{C}, nem procurando de outra forma.",
    ],
    "search": [
        "{O}Procurar {n} {l} não dá resultado nenhum{C}.",
        "{O}Uma revisão {ds} não revela nada sobre {n}{C}.",
        "{O}A pesquisa {l} sobre {n} não deu em nada{C}.",
        "{O}Percorri {s} sem encontrar {n}{C}.",
        "{O}A minha pesquisa {l} não devolve resultados para {n}{C}.",
        "{O}Vasculhar {s} não trouxe nada sobre {n}{C}, {t}.",
        "{O}Uma busca {l} não mostra nada {d}{C}.",
    ],
    "short": [
        "{O}Pesquisa feita {l}: nenhum {w}{C}.",
        "{O}{L}: nem um {w}{C}.",
        "{O}Olhei {l} à procura de um {w}: nada{C}.",
    ],
    "qs_pairs": [
        (
            "{O}As suas notas não contêm qualquer menção {d}{C}.",
            "A ata da reunião não contém qualquer menção {d}.",
        ),
        (
            "{O}As suas listas guardadas não dizem nada sobre {n}{C}, {t}.",
            "O anúncio do vendedor não diz nada sobre {n}, {t}.",
        ),
        ("{O}Nada do que guardou menciona {n}{C}.", "Nada no talão que fotografou menciona {n}."),
        (
            "{O}O seu histórico não tem nenhuma entrada para {n}{C}.",
            "O site do hotel não tem nenhuma entrada para {n}.",
        ),
        (
            "{O}Nenhuma das suas notas guardadas contém {n}{C}.",
            "Nenhuma das páginas que partilhou contém {n}.",
        ),
        (
            "{O}Nos seus favoritos não consigo localizar {n}{C}.",
            "No folheto não consigo localizar {n}.",
        ),
    ],
    "mine": [
        {"n": "o seu crédito à habitação", "d": "do seu crédito à habitação"},
        {"n": "a sua dieta", "d": "da sua dieta"},
        {"n": "o seu empregador", "d": "do seu empregador"},
        {"n": "o seu casamento", "d": "do seu casamento"},
        {"n": "o seu vizinho", "d": "do seu vizinho"},
        {"n": "a sua rinite alérgica", "d": "da sua rinite alérgica"},
        {"n": "a sua reforma", "d": "da sua reforma"},
        {"n": "o seu senhorio", "d": "do seu senhorio"},
    ],
    "cw_pairs": [
        (
            "{O}Na minha memória das nossas conversas não há nada sobre {n}{C}.",
            "Na memória do antigo sistema não há nada sobre {n}.",
        ),
        (
            "{O}Não há nada sobre {n} no que sei a seu respeito{C}.",
            "Não há nada sobre {n} no que o banco publicou.",
        ),
        ("{O}{N} nunca veio à baila entre nós{C}.", "{N} nunca veio à baila na reunião da câmara."),
        (
            "{O}Não tenho nada arquivado sobre {n}{C}.",
            "A agência não tem nada arquivado sobre o inquilino anterior.",
        ),
        (
            "{O}O que guardo a seu respeito é omisso sobre {n}{C}.",
            "A lei é omissa sobre {n} neste caso.",
        ),
        (
            "{O}{N} nunca fez parte do que conversámos{C}.",
            "{N} nunca fez parte da proposta do agente.",
        ),
        ("{O}Não sei nada {d} vindo de você{C}.", "Ainda não há nada decidido acerca {d}."),
        ("{O}Esse assunto nunca surgiu entre nós{C}.", "Esse assunto nunca surgiu no conselho."),
        (
            "{O}Nada acerca {d} me chegou alguma vez da sua parte{C}.",
            "Nada acerca {d} chegou ainda do notário.",
        ),
        (
            "{O}{N} não figura em nada do que recordo das nossas conversas{C}.",
            "{N} não figura na lista de obras do senhorio.",
        ),
        (
            "{O}{N} ficou completamente de fora das nossas conversas{C}.",
            "{N} ficou completamente de fora da ordem do dia.",
        ),
        ("{O}Não me consta nada {d}{C}, {t}.", "À câmara não consta nada do poço velho, {t}."),
    ],
    "facts": [
        (
            "a sua operação ao joelho em fevereiro",
            "uma operação ao joelho",
            "comece com caminhadas curtas e planas",
        ),
        (
            "a sua mudança para o Porto no próximo mês",
            "uma mudança de casa",
            "reserve a carrinha cedo",
        ),
        (
            "a sua intolerância à lactose",
            "uma intolerância à lactose",
            "escolha a versão com bebida de aveia",
        ),
        (
            "a sua maratona em outubro",
            "uma maratona de outono",
            "aumente os treinos longos aos poucos",
        ),
        (
            "os seus turnos da noite no hospital",
            "turnos da noite",
            "mantenha o quarto escuro durante o dia",
        ),
        (
            "a entrada dos seus gémeos na escola",
            "uma entrada na escola",
            "marque cada peça de roupa com o nome",
        ),
        (
            "o seu nível B1 de espanhol",
            "um nível intermédio",
            "leia romances curtos com um glossário",
        ),
    ],
    "fact_frames": [
        ("{O}Com {p}{C}, {v}.", "Com {q}, {v}."),
        ("{O}Tendo em conta {p}{C}, {v}.", "Depois de {q}, {v}."),
        ("{O}Considerando {p}{C}, {v}.", "Perante {q}, em geral, {v}."),
    ],
    "rec_pairs": [
        (
            "{O}Agora que o seu filho começou a natação{C}, uma touca de silicone vai dar jeito.",
            "Quando uma criança começa a natação, uma touca de silicone dá jeito.",
        ),
        (
            "{O}Para o aniversário da Beatriz{C}, um estojo de aguarelas ia agradar-lhe.",
            "Para o aniversário de uma menina de oito anos, um estojo de aguarelas costuma "
            "agradar.",
        ),
        (
            "{O}O seu novo apartamento em Braga vai precisar{C} de cortinas antes do inverno.",
            "Um apartamento novo em Braga costuma precisar de cortinas antes do inverno.",
        ),
        (
            "{O}Tendo crescido em Coimbra{C}, conhece bem os pastéis de Santa Clara.",
            "Quem cresceu em Coimbra costuma conhecer bem os pastéis de Santa Clara.",
        ),
        (
            "{O}Como o Tobias já tem nove anos{C}, convém uma ração sénior.",
            "Por volta dos nove anos, um cão pode passar para ração sénior.",
        ),
        (
            "{O}A sua experiência como canalizador{C} vai facilitar-lhe o curso.",
            "A experiência como canalizador facilita o curso.",
        ),
        (
            "{O}Sendo enfermeira no turno da noite{C}, a aula ao fim da tarde convém-lhe mais.",
            "Se trabalhar à noite, a aula ao fim da tarde é a mais cómoda.",
        ),
        (
            "{O}Com a sua irmã a viver consigo{C}, o quarto de hóspedes está ocupado.",
            "Acabou de dizer que a sua irmã se vai mudar, por isso o quarto de hóspedes vai "
            "ficar ocupado.",
        ),
        (
            "{O}Alérgico à penicilina como é{C}, lembre o dentista disso.",
            "Se for alérgico à penicilina, lembre o dentista disso.",
        ),
        (
            "{O}Com o seu francês no nível A2{C}, o exame B1 este ano é ambicioso.",
            "Quando se aprende uma língua, o salto de A2 para B1 custa.",
        ),
        (
            "{O}Agora que se reformou{C}, tem as manhãs livres.",
            "Depois da reforma, as pessoas costumam ter as manhãs livres.",
        ),
        (
            "{O}A sua viagem a Sevilha em abril{C} coincide com a Feira.",
            "Uma viagem a Sevilha em abril costuma coincidir com a Feira.",
        ),
        (
            "{O}Sendo vegetariana{C}, escolha antes o prato de lentilhas.",
            "Se for vegetariana, escolha antes o prato de lentilhas.",
        ),
        (
            "{O}O futebol do seu filho aos sábados{C} exclui a manhã.",
            "O futebol aos sábados exclui a manhã para muitas famílias.",
        ),
        (
            "{O}Vive em Aveiro desde o ano passado{C}, por isso o mercado Manuel Firmino fica "
            "perto.",
            "Diz-me agora mesmo que está em Aveiro, por isso o mercado Manuel Firmino fica perto.",
        ),
        (
            "{O}Para os noventa anos da sua avó{C}, um álbum de fotografias ia comovê-la.",
            "Para uns noventa anos, um álbum de fotografias é uma prenda comovente.",
        ),
        (
            "{O}Sendo diabético{C}, veja o açúcar desse molho.",
            "Conta-me nesta mensagem que é diabético, por isso veja o açúcar desse molho.",
        ),
        (
            "{O}O teu escritório de advogados em Lisboa{C} pode deduzir essas despesas.",
            "Um escritório de advogados pode em geral deduzir essas despesas.",
        ),
    ],
    "tails": ["deixei o campo em branco", "pus um texto provisório", "continuo à procura"],
    "benign": [
        "Não há nada de errado no seu código.",
        "Na sua configuração não é preciso mudar nada.",
        "O prazo não está no contrato que anexou.",
        "A lista de alergénios não está na ementa que fotografou.",
        "Pesquisei na internet e não encontrei nada sobre esse fornecedor.",
        "Na web não há nada recente sobre esse modelo.",
        "Uma pesquisa no site da loja não encontra peças.",
        "A base de dados pública não tem registo dessa empresa.",
    ],
}


# This round's elliptic-result frames: a result of at most three words after its search
# clause, across punctuation and one connecting word. The gate reads the two clauses
# together (gateway.claims.joined_readings), so the claim is labelled on that reading.
_SHORT_WORDS = 3
_SHORT_GAP_RX = re.compile(r"[\s,;:\u2013\u2014-]*(?:[^\W\d_]+)?[\s,;:\u2013\u2014-]*")
_WORD_RX = re.compile(r"[^\W_]+")


def _is_short(clause: str) -> bool:
    words = _WORD_RX.findall(clause)
    return bool(words) and len(words) <= _SHORT_WORDS and len(clause.strip()) <= 24


def _labelled(sentence: str, label: str) -> list[dict[str, str]]:
    """The asserted clauses of ``sentence`` (markers in it), the marked ones labelled; a
    marked span over a clause and the short result after it is labelled on the joined
    reading (the gate's elliptic-result reading), its two parts ``benign``."""
    clean, span = _split(sentence)
    analysis = analyse(clean)
    clauses: list[tuple[str, int, int, bool]] = []
    for _, info in analysis.asserted():
        text = analysis.masked[info.start : info.end].strip()
        if not any(ch.isalnum() for ch in text):
            continue
        start, end = info.start, info.end
        if analysis.offsets:
            start, end = analysis.offsets[start], analysis.offsets[end]
        hit = span is not None and start < span[1] and end > span[0]
        clauses.append((text, info.start, info.end, hit))
    hits = [i for i, clause in enumerate(clauses) if clause[3]]
    if span is not None and not hits:
        raise ValueError(f"{label} in no clause: {clean!r}")
    joined = None
    if len(hits) > 1 and (label in (CW, QS) or label == BENIGN):
        first, last = clauses[hits[0]], clauses[hits[-1]]
        gap = analysis.masked[first[2] : last[1]]
        if len(hits) == 2 and _is_short(last[0]) and _SHORT_GAP_RX.fullmatch(gap):
            joined = analysis.masked[first[1] : last[2]].strip()
        elif label != BENIGN:
            raise ValueError(f"{label} spread over {len(hits)} clauses: {clean!r}")
    out = [
        {"label": label if hit and joined is None else BENIGN, "text": text}
        for text, _, _, hit in clauses
    ]
    if joined is not None:
        out.append({"label": label, "text": joined})
    return out


def compose(lang: str, rng: random.Random, problems: list[str]) -> list[dict[str, str]]:
    """The clauses of ``lang``; a frame whose claim the splitter cuts apart is reported in
    ``problems`` instead."""
    d = DATA[lang]
    rows: list[dict[str, str]] = []

    def add(template: str, label: str, **slots: str) -> None:
        sentence = _cap(template.format(O=OPEN, C=CLOSE, **_caps(slots)))
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
        # The same frame, about a store of the user's (a claim) and about something
        # else (its twin).
        for frame in pick(d["loc"], 4):
            add(frame, QS, t=tail(), **topic, **rng.choice(d["stores"]))
            add(frame, BENIGN, t=tail(), **topic, **rng.choice(d["external"]))
        for frame in pick(d["search"], 3):
            add(frame, QS, t=tail(), **topic, **rng.choice(d["stores"]))
            add(frame, BENIGN, t=tail(), **topic, **rng.choice(d["external"]))
        # A search of the user's own mail or drive is not a search of this memory.
        for frame in pick(d["loc"] + d["search"], 2):
            add(frame, BENIGN, t=tail(), **topic, **rng.choice(d["own_external"]))
        for claim, twin in pick(d["qs_pairs"], 3):
            add(claim, QS, t=tail(), **topic)
            add(twin, BENIGN, t=tail(), **topic)
    for wanted in d["wanted"]:
        for frame in pick(d["short"], 2):
            add(frame, QS, w=wanted, **rng.choice(d["stores"]))
            add(frame, BENIGN, w=wanted, **rng.choice(d["external"]))
        add(rng.choice(d["short"]), BENIGN, w=wanted, **rng.choice(d["own_external"]))
    for mine in d["mine"]:
        for claim, twin in pick(d["cw_pairs"], 7):
            add(claim, CW, t=tail(), **mine)
            add(twin, BENIGN, t=tail(), **mine)
    for mine, generic, advice in d["facts"]:
        for rec, twin in pick(d["fact_frames"], 3):
            add(rec, REC, p=mine, q=generic, v=advice)
            add(twin, BENIGN, p=mine, q=generic, v=advice)
    for rec, twin in d["rec_pairs"]:
        add(rec, REC)
        add(twin, BENIGN)
    for sentence in d["benign"]:
        add(sentence, BENIGN)
    return distinct(lang, rows, problems)


def _caps(slots: dict[str, str]) -> dict[str, str]:
    """``slots`` with a capitalised form of each under its upper-case name."""
    return {**slots, **{key.upper(): _cap(value) for key, value in slots.items()}}


def main() -> int:
    problems: list[str] = []
    for lang in DATA:
        rows = compose(lang, random.Random(f"round7-{lang}"), problems)
        path = HERE / f"round7_{lang}.jsonl"
        write(path, rows)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
