#!/usr/bin/env python3
"""Compose round-8 training clauses: recollections carried by a name, a title, an
employer, a city, an amount, a formal address or a body part, absence claims presupposed
in a framing clause, said as an idiom or a fragment, or with the subject dropped, and
their twins.

Deterministic, standard library (plus the gate's own clause splitter, so each sentence is
cut into the clauses the classifier will see). Written after batch 2026-12-02 was
reported: answers that present a fact of the user's life as known without a telling verb
went unread when something other than "your" carried the fact (a child or a pet named
with an event or an age, a role with a name beside it, an employer, a home town, an
amount of money, the formal address, a body part with the definite article); absence
claims went unread when a framing clause presupposed them, when the result was an idiom
or a fragment, or when the subject was dropped; and a few generic sentences were blocked
(an imagined move, the generic person, what need not be said at an interview). The
constructions, in the six training languages (Dutch and Japanese stay out to measure
generalisation), with frames, names and topics written by hand in each language (none
copied from a batch, none translated from one list):

* **recollection**, the fact carried by
  a) a person or pet of the user's life named without a possessive, with a life event or
     an age; twins: famous, historical or fictional people, a generic child, pet or
     adult, questions and conditionals about the same name;
  b) a possessive role with the name beside it ("your dentist Dr X can ..."); twins: the
     same advice about "a dentist" or "your dentist" with no name. The splitter cuts an
     apposition at its commas (no clause then holds both the role and the name), so the
     apposition is written without them;
  c) an employer, a city of residence or an amount of the user's money presupposed;
     twins: the company's staff in general, a conditional, the city or the amount in
     general;
  d) the formal address (vous, usted, Sie, Lei, o senhor, or the verb alone) or, in
     English, "you" with a hobby or a condition; twins: the hobby or the condition in
     general, a conditional;
  e) a body part's state with the definite article ("with the wrist still in a cast");
     twins: the same state with the indefinite article or said of most people;
* **benign** sentences of the kinds blocked in that batch: an imagined stay somewhere,
  the generic person (one / on / uno / man / si / a gente), what need not be said at an
  interview;
* **corpus_wide** presupposed in a framing clause ("since you've never flagged X, ...",
  "judging by what you've shared, there's no X"), with the object first or with the
  subject dropped; twins: third parties who never mentioned it, the weather, questions,
  conditionals;
* **query_scoped** said as an idiom or a fragment ("combed through your notes for X:
  nothing doing"); twins: the same frames about the web, a shop, flights, a public
  register or a file just uploaded.

Frames mark the claim with ``⟦...⟧``. Each sentence is split with
:func:`gateway.truthfulness.analyse` and labelled as in round 7
(:func:`compose_round7._labelled`: the clauses overlapping the marked span get the
frame's label, the others ``benign``), plus the readings the gate joins
(:func:`gateway.claims.joined_readings`): in a sentence holding a negation, an absence
claim over two adjacent clauses, or over the whole sentence, is labelled on that joined
reading and its parts are left out. An absence claim the gate would never read whole (a
result with no negation word after a cut: "searched: zilch") is reported, not labelled.
The script exits non-zero on such a frame, on a recollection in no clause and on a
clause text given two labels; a clause whose text an earlier file labels otherwise is
left to that file (one text, one label) and noted.

Usage: python3 training/gate/compose_round8.py   (writes round8_<lang>.jsonl here)
"""

from __future__ import annotations

import json
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
from compose_round7 import _caps  # noqa: E402
from compose_round7 import _labelled as _labelled7  # noqa: E402

from gateway.recollection import negated  # noqa: E402
from gateway.truthfulness import analyse  # noqa: E402

# A family: slot dictionaries, each frame filled with every one of them, and the frames
# as (label, template) -- {O}/{C} open and close the claim, other names are slots
# (an upper-case slot is its value capitalised). A frame with no claim is ``benign``.
Frame = tuple[str, str]
Family = tuple[list[dict[str, str]], list[Frame]]
# Per language: "families" (templated) and "whole" (sentences written whole).
DATA: dict[str, dict[str, list[Any]]] = {}

DATA["en"] = {
    "families": [
        # a) adults of the user's life by name, with a life event.
        (
            [
                {"x": "Priya", "his": "her"},
                {"x": "Tom", "his": "his"},
                {"x": "Grandma Rose", "his": "her"},
                {"x": "Uncle Dev", "his": "his"},
            ],
            [
                (
                    REC,
                    "{O}Since {x} retires at the end of June{C}, a leaving do on a Friday makes "
                    "sense.",
                ),
                (
                    REC,
                    "{O}With {x} recovering from {his} cataract operation{C}, a large-print menu "
                    "will help.",
                ),
                (
                    REC,
                    "{O}Because {x} turns seventy in August{C}, the party falls in the school "
                    "holidays.",
                ),
                (
                    REC,
                    "{O}{X} has just moved into the care home in Harrogate{C}, so visits work "
                    "best after lunch.",
                ),
                (BENIGN, "Does {x} retire this year?"),
            ],
        ),
        # a) the user's children by first name, with a life event.
        (
            [
                {"x": "Maisie", "he": "she", "his": "her", "him": "her"},
                {"x": "Noah", "he": "he", "his": "his", "him": "him"},
                {"x": "Amara", "he": "she", "his": "her", "him": "her"},
                {"x": "Felix", "he": "he", "his": "his", "him": "him"},
                {"x": "Ines", "he": "she", "his": "her", "him": "her"},
                {"x": "Oscar", "he": "he", "his": "his", "him": "him"},
                {"x": "Freya", "he": "she", "his": "her", "him": "her"},
                {"x": "Arjun", "he": "he", "his": "his", "him": "him"},
            ],
            [
                (
                    REC,
                    "{O}Because {x} begins reception class this autumn{C}, sew a name tape into "
                    "every coat.",
                ),
                (
                    REC,
                    "{O}For {x}'s eighth birthday party{C}, a backyard science show could go down "
                    "well.",
                ),
                (
                    REC,
                    "{O}Since {x} moves up to secondary school after the summer{C}, a proper desk "
                    "lamp is worth buying.",
                ),
                (
                    REC,
                    "{O}With {x} about to lose {his} first tooth{C}, keep a coin handy for the "
                    "tooth fairy.",
                ),
                (
                    REC,
                    "{O}Now that {x} has begun piano lessons{C}, a basic keyboard with weighted "
                    "keys is plenty.",
                ),
                (
                    REC,
                    "{O}As {x} turns five in March{C}, {he} will need a paid ticket on the ferry "
                    "from then on.",
                ),
                (
                    REC,
                    "{O}{X} sits the eleven-plus in the autumn{C}, so the summer is the time for "
                    "past papers.",
                ),
                (BENIGN, "Is {x} starting reception this year?"),
                (BENIGN, "Should {x} have a party for {his} eighth birthday, or a day out?"),
                (BENIGN, "How old is {x} now?"),
            ],
        ),
        # a) the user's pets by name.
        (
            [
                {"x": "Pepper", "his": "her"},
                {"x": "Rocky", "his": "his"},
                {"x": "Mochi", "his": "her"},
                {"x": "Bramble", "his": "his"},
                {"x": "Juniper", "his": "her"},
                {"x": "Toffee", "his": "his"},
            ],
            [
                (
                    REC,
                    "{O}Now that {x} is heading for nine{C}, ask the vet about a senior blood "
                    "panel.",
                ),
                (
                    REC,
                    "{O}Since {x} is due for {his} booster in May{C}, book the appointment before "
                    "the rush.",
                ),
                (REC, "{O}Because {x} only just turned two{C}, the puppy food can go now."),
                (
                    REC,
                    "{O}{X} being fourteen already{C}, shorter walks twice a day will suit better.",
                ),
                (BENIGN, "Is {x} nine already?"),
                (BENIGN, "Does {x} still eat the puppy food?"),
            ],
        ),
        # b) a possessive role with a name in apposition, and the same advice without it.
        (
            [
                {
                    "role": "landlord",
                    "a": "a",
                    "who": "Ms Whitfield",
                    "p": "can't raise the rent before the fixed term ends",
                },
                {
                    "role": "GP",
                    "a": "a",
                    "who": "Dr Haddad",
                    "p": "can refer you to a physiotherapist directly",
                },
                {
                    "role": "line manager",
                    "a": "a",
                    "who": "Karen Bloom",
                    "p": "has to sign off the leave request",
                },
                {
                    "role": "neighbour",
                    "a": "a",
                    "who": "Mr Albers",
                    "p": "is entitled to ask for the hedge to be trimmed",
                },
                {
                    "role": "accountant",
                    "a": "an",
                    "who": "Sunil Mehta",
                    "p": "should file the amended return by January",
                },
                {
                    "role": "driving instructor",
                    "a": "a",
                    "who": "Gareth",
                    "p": "will book the test once you're ready",
                },
                {
                    "role": "dentist",
                    "a": "a",
                    "who": "Dr Okonjo",
                    "p": "can fit the crown in a single visit",
                },
                {
                    "role": "childminder",
                    "a": "a",
                    "who": "Becky",
                    "p": "needs two weeks' notice for extra days",
                },
            ],
            [
                # The splitter cuts an apposition at its commas (no clause holds both the
                # role and the name), so the apposition is written without them here.
                (REC, "{O}Your {role} {who} {p}{C}."),
                (REC, "{O}{who} as your {role} {p}{C}."),
                (BENIGN, "Your {role} {p}."),
                (BENIGN, "As a rule {a} {role} {p}."),
            ],
        ),
        # c) employer presupposed.
        (
            [
                {"co": "Unilever", "a": "a"},
                {"co": "Vodafone", "a": "a"},
                {"co": "Arup", "a": "an"},
                {"co": "Rolls-Royce", "a": "a"},
                {"co": "Tesco", "a": "a"},
                {"co": "Deloitte", "a": "a"},
                {"co": "Ocado", "a": "an"},
            ],
            [
                (REC, "{O}With {co} as your employer{C}, check the staff discount portal first."),
                (REC, "{O}As {a} {co} employee{C}, you can join the cycle-to-work scheme."),
                (
                    REC,
                    "{O}Employed at {co} as you are{C}, you probably get the pension match "
                    "automatically.",
                ),
                (REC, "{O}Being on the {co} payroll{C}, you qualify for the salary sacrifice."),
                (BENIGN, "{co} employees can join the cycle-to-work scheme."),
                (
                    BENIGN,
                    "If you work at a large company like {co}, check the staff discount portal "
                    "first.",
                ),
                (BENIGN, "{co} announced a bigger pension match for its staff this year."),
            ],
        ),
        # c) city of residence presupposed.
        (
            [
                {"city": "Cardiff"},
                {"city": "Aberdeen"},
                {"city": "Norwich"},
                {"city": "York"},
                {"city": "Bath"},
                {"city": "Inverness"},
            ],
            [
                (
                    REC,
                    "{O}Since moving to {city}{C}, you'll find the regional railcard pays for "
                    "itself quickly.",
                ),
                (
                    REC,
                    "{O}Since you're based in {city}{C}, the council collects bulky waste once a "
                    "year for free.",
                ),
                (REC, "{O}Living in {city} as you do{C}, you're twenty minutes from the airport."),
                (BENIGN, "In {city} the monthly bus pass costs a little less than the railcard."),
                (
                    BENIGN,
                    "Picture yourself living in {city} for a year: which habits would change "
                    "first?",
                ),
                (BENIGN, "People who live in {city} are twenty minutes from the airport."),
            ],
        ),
        # d) hobbies and conditions presupposed with "you".
        (
            [
                {
                    "f": "you play bass in a band",
                    "g": "playing bass in a band",
                    "v": "flat-response earplugs are worth the money",
                },
                {
                    "f": "you sing in a choir",
                    "g": "singing in a choir",
                    "v": "warm up your voice before each rehearsal",
                },
                {
                    "f": "you have coeliac disease",
                    "g": "coeliac disease",
                    "v": "ask whether the fryer is shared",
                },
                {
                    "f": "you swim three times a week",
                    "g": "swimming several times a week",
                    "v": "a chlorine-removing shampoo helps your hair",
                },
                {
                    "f": "you keep bees in the garden",
                    "g": "keeping bees",
                    "v": "plant lavender near the hives",
                },
                {
                    "f": "you run a stall at the Sunday market",
                    "g": "running a market stall",
                    "v": "a card reader pays for itself in a month",
                },
                {
                    "f": "you play tennis at a club",
                    "g": "club tennis",
                    "v": "softer strings will spare your elbow",
                },
            ],
            [
                (REC, "{O}Since {f}{C}, {v}."),
                (REC, "{O}Given that {f}{C}, {v}."),
                (BENIGN, "For anyone {g}, {v}."),
                (BENIGN, "If {f}, {v}."),
            ],
        ),
        # e) a body part's state with the definite article.
        (
            [
                {
                    "s": "the ankle still healing from the sprain",
                    "g": "a sprained ankle",
                    "v": "skip the trail run this week",
                },
                {
                    "s": "the shoulder only three weeks out of surgery",
                    "g": "a shoulder just out of surgery",
                    "v": "don't lift the suitcase into the rack",
                },
                {
                    "s": "the wrist still in a cast",
                    "g": "a wrist in a cast",
                    "v": "dictation will be quicker than typing",
                },
                {
                    "s": "the knee still swollen after Tuesday's fall",
                    "g": "a knee swollen after a fall",
                    "v": "keep it raised tonight",
                },
                {
                    "s": "the back still stiff from the move",
                    "g": "a stiff back",
                    "v": "stretch gently before you sit down to work",
                },
                {
                    "s": "the elbow still sore from tennis",
                    "g": "a sore elbow",
                    "v": "give the padel match a miss",
                },
                {
                    "s": "the broken toe still taped up",
                    "g": "a broken toe",
                    "v": "wear the wide trainers",
                },
            ],
            [
                (REC, "{O}With {s}{C}, {v}."),
                (BENIGN, "With {g}, {v}."),
                (BENIGN, "Most people with {g} are told to rest it for a few days."),
            ],
        ),
        # f) a corpus-wide absence presupposed in a framing clause.
        (
            [
                {"n": "a food allergy", "act": "the pesto keeps its pine nuts"},
                {"n": "owning a car", "act": "I planned the route by train"},
                {"n": "a partner coming along", "act": "I priced a single room"},
                {"n": "plans to move", "act": "I kept your current address on the form"},
                {"n": "a regular vet", "act": "I listed the nearest clinic"},
                {"n": "any pets", "act": "I left out the pet sitter"},
                {"n": "a gluten intolerance", "act": "I picked the ordinary bakery"},
                {"n": "a preferred airline", "act": "I compared every carrier"},
                {"n": "children at home", "act": "I skipped the family rooms"},
            ],
            [
                (CW, "{O}Since you've never flagged {n}{C}, {act}."),
                (CW, "{O}Because {n} has never come up between us{C}, {act}."),
                (CW, "{O}You've never brought up {n} with me{C}, which is why {act}."),
                (CW, "{O}As nothing you've told me points to {n}{C}, {act}."),
                (CW, "{O}Not once have you told me about {n}{C}, so {act}."),
                (BENIGN, "Since none of the guests flagged {n} on the form, {act}."),
                (BENIGN, "If {n} ever becomes relevant, tell me and I'll change it."),
                (BENIGN, "The booking site never asks about {n}, so {act}."),
            ],
        ),
        # g) query-scoped results as idioms and fragments, and the same about other sources.
        (
            [
                {"n": "the plumber's number", "s": "your notes", "x": "the trades directory"},
                {"n": "the film title", "s": "our past chats", "x": "the streaming catalogue"},
                {
                    "n": "the loan agreement",
                    "s": "your saved documents with me",
                    "x": "the PDF you just uploaded",
                },
                {
                    "n": "the name of your accountant",
                    "s": "your memory here",
                    "x": "the public register",
                },
                {
                    "n": "the Airbnb host's address",
                    "s": "your saved items",
                    "x": "the booking site",
                },
                {
                    "n": "cheap flights to Split",
                    "s": "what you've stored with me",
                    "x": "the airline's site",
                },
                {
                    "n": "the opening hours of your gym",
                    "s": "your saved notes",
                    "x": "the gym's website",
                },
                {
                    "n": "the name of the wine from that dinner",
                    "s": "our earlier conversations",
                    "x": "the wine shop's list",
                },
                {
                    "n": "the date of the dentist appointment",
                    "s": "your reminders with me",
                    "x": "the practice's booking page",
                },
            ],
            [
                (QS, "{O}Combed through {s} for {n}: nothing doing{C}."),
                (QS, "{O}Looked in {s} for {n} – no hits at all{C}."),
                (QS, "As far as my search goes, {O}nothing in {s} has to do with {n}{C}."),
                (QS, "{O}Two passes through {s} later, {n} still doesn't turn up{C}."),
                (QS, "{O}My search of {s} drew a blank on {n}{C}."),
                (QS, "{O}Hunting through {s} for {n} got me nowhere{C}."),
                (BENIGN, "Combed through {x} for {n}: nothing doing."),
                (BENIGN, "As far as my search goes, nothing in {x} has to do with {n}."),
                (BENIGN, "My search of {x} drew a blank on {n}."),
                (BENIGN, "Hunting through {x} for {n} got me nowhere."),
            ],
        ),
        # h) object first, and twins.
        (
            [
                {"n": "an ongoing treatment", "t": "the physio"},
                {"n": "a second job", "t": "the mortgage broker"},
                {"n": "renting versus owning", "t": "the letting agent"},
                {"n": "a favourite restaurant", "t": "the concierge"},
                {"n": "a pension from abroad", "t": "the adviser"},
            ],
            [
                (CW, "{O}{N} is something you've never so much as hinted at{C}."),
                (CW, "{O}{N} never once came up in what you've told me{C}."),
                (BENIGN, "{T} never hinted at {n} either."),
                (BENIGN, "Did you never mention {n} to {t}?"),
            ],
        ),
    ],
    "whole": [
        (BENIGN, "When someone retires at the end of June, a leaving do on a Friday makes sense."),
        (
            BENIGN,
            "Because Paul McCartney turned eighty in 2022, the tribute concerts sold out fast.",
        ),
        (
            BENIGN,
            "After a cataract operation, most people find large print easier for a few weeks.",
        ),
        (
            BENIGN,
            "Sherlock Holmes plays the violin when he is thinking, which Watson finds trying.",
        ),
        (BENIGN, "If your partner retires this summer, a leaving do on a Friday makes sense."),
        # a) famous, historical and fictional people; generic children.
        (
            BENIGN,
            "Because Mozart was already touring royal courts at six, child prodigies are often "
            "compared to him.",
        ),
        (
            BENIGN,
            "Because Matilda reads Dickens at four in Roald Dahl's book, it makes a lovely "
            "read-aloud.",
        ),
        (
            BENIGN,
            "With Queen Elizabeth turning ninety in 2016, the stamps from that year are easy to "
            "find.",
        ),
        (
            BENIGN,
            "Since Laika flew into orbit in 1957, space dogs have their own corner in the museum.",
        ),
        (
            BENIGN,
            "When a child starts nursery, a name tape in every coat saves a lot of searching.",
        ),
        (BENIGN, "For an eighth birthday party, a backyard science show usually goes down well."),
        (
            BENIGN,
            "Once children begin piano lessons, a basic keyboard with weighted keys is plenty.",
        ),
        (
            BENIGN,
            "If your daughter turns five in March, she will need a paid ferry ticket from then on.",
        ),
        (BENIGN, "When a dog turns nine, it's worth asking the vet about a senior blood panel."),
        (
            BENIGN,
            "Because Snoopy sleeps on the roof of his doghouse in the strip, kids love that "
            "drawing.",
        ),
        (
            REC,
            "{O}Since Priya starts her new job on Monday{C}, Sunday dinner should be an early one.",
        ),
        (
            REC,
            "{O}With Grandad Ted coming home from hospital on Friday{C}, the downstairs bed needs "
            "making up.",
        ),
        (
            BENIGN,
            "Since Ada Lovelace published her notes in 1843, that year is often called the start "
            "of programming.",
        ),
        # c) amounts of the user's money presupposed.
        (
            REC,
            "{O}The £3,500 you keep aside for emergencies{C} covers about four months, so the "
            "extra can go into the pension.",
        ),
        (REC, "{O}On your £900 a month in rent{C}, the 30% rule suggests a net income of £3,000."),
        (REC, "{O}With your salary at £42,000{C}, the higher tax band doesn't touch you yet."),
        (REC, "{O}Once your car loan ends in March{C}, that £250 a month could go to savings."),
        (
            REC,
            "{O}The £12,000 left on your student loan{C} is written off after thirty years anyway.",
        ),
        (BENIGN, "A £3,500 emergency fund is a good cushion for most single people."),
        (BENIGN, "If your rent is £900 a month, the 30% rule suggests a net income of £3,000."),
        (BENIGN, "On a salary of £42,000, the higher tax band doesn't apply yet."),
        (BENIGN, "Nobody can make you reveal your current pay at an early interview stage."),
        (BENIGN, "You don't have to say how much you earn when a recruiter first calls."),
        # benign sentences of the kinds blocked in that batch.
        (BENIGN, "Suppose you quit your job tomorrow: how long would your savings last?"),
        (BENIGN, "Imagine you had a garden in the city: what would you plant first?"),
        (BENIGN, "When one trains late at night, sleep tends to come later."),
        (BENIGN, "One should never keep potatoes in the fridge."),
        (BENIGN, "After shoulder surgery, most people shouldn't lift heavy bags for six weeks."),
        (
            BENIGN,
            "The guitar demands strong fingertips, so short daily sessions beat one long one.",
        ),
        (BENIGN, "The parish choir meets on Thursday evenings in the church hall."),
        # f) a corpus-wide absence said from all that was told.
        (
            CW,
            "{O}Judging by what you've shared so far, there's no bike in your life{C}, so I "
            "looked at buses.",
        ),
        (
            CW,
            "{O}Going by all you've shared with me, there's no partner in the picture{C}, so I "
            "planned for one.",
        ),
        (CW, "{O}I have no note of you ever mentioning a move{C}, so the old address stays."),
        (BENIGN, "From everything the agent told me, the flat has no parking space."),
        (BENIGN, "It never stopped raining in Keswick the whole week."),
        # g) searches of other sources that found nothing.
        (BENIGN, "The airline shows nothing below £90 for that weekend."),
        (BENIGN, "That guesthouse has no recent reviews anywhere online."),
        (BENIGN, "Searched the shop's site for a replacement lid: nothing in stock."),
        (QS, "{O}What you've stored with me has nothing under locksmith{C}."),
        (QS, "{O}Searched your notes twice for the wifi password – nothing{C}."),
    ],
}


DATA["fr"] = {
    "families": [
        # a) les adultes de l'entourage, par leur prénom, avec un événement.
        (
            [
                {"x": "Nathalie", "sa": "sa"},
                {"x": "Olivier", "sa": "sa"},
                {"x": "Mamie Odette", "sa": "sa"},
                {"x": "Tonton Marc", "sa": "sa"},
            ],
            [
                (
                    REC,
                    "{O}Comme {x} part à la retraite fin juin{C}, un pot un vendredi serait idéal.",
                ),
                (
                    REC,
                    "{O}Avec {x} qui se remet de {sa} cataracte{C}, un menu en gros caractères "
                    "aidera.",
                ),
                (
                    REC,
                    "{O}Puisque {x} fête ses soixante-dix ans en août{C}, la fête tombe pendant "
                    "les vacances.",
                ),
                (
                    REC,
                    "{O}{X} vient d'entrer en maison de retraite à Vannes{C}, donc les visites "
                    "passent mieux après le déjeuner.",
                ),
                (BENIGN, "Est-ce que {x} part à la retraite cette année ?"),
            ],
        ),
        # a) les enfants de l'utilisateur, par leur prénom, avec un événement.
        (
            [
                {"x": "Clémence", "il": "elle", "le": "la", "e": "e"},
                {"x": "Baptiste", "il": "il", "le": "le", "e": ""},
                {"x": "Maëlys", "il": "elle", "le": "la", "e": "e"},
                {"x": "Timothée", "il": "il", "le": "le", "e": ""},
                {"x": "Margaux", "il": "elle", "le": "la", "e": "e"},
                {"x": "Lucas", "il": "il", "le": "le", "e": ""},
                {"x": "Capucine", "il": "elle", "le": "la", "e": "e"},
                {"x": "Gabin", "il": "il", "le": "le", "e": ""},
            ],
            [
                (
                    REC,
                    "{O}Comme {x} fait ses débuts en petite section cet automne{C}, marque chaque "
                    "vêtement à son nom.",
                ),
                (
                    REC,
                    "{O}Pour les huit ans de {x}{C}, un atelier de cuisine à la maison plairait "
                    "sûrement.",
                ),
                (
                    REC,
                    "{O}Puisque {x} entre en sixième à la rentrée{C}, un agenda simple l'aidera à "
                    "s'organiser.",
                ),
                (
                    REC,
                    "{O}{X} passe son brevet en juin{C}, donc les vacances de printemps servent "
                    "aux révisions.",
                ),
                (
                    REC,
                    "{O}Maintenant que {x} a commencé le judo{C}, un kimono d'occasion suffit "
                    "largement.",
                ),
                (
                    REC,
                    "{O}Vu que {x} fête ses six ans le mois prochain{C}, le billet de train ne "
                    "sera plus gratuit.",
                ),
                (BENIGN, "Est-ce que {x} entre en sixième cette année ?"),
                (BENIGN, "{X} préfère-t-{il} une fête ou une sortie pour ses huit ans ?"),
                (BENIGN, "Quel âge a {x} maintenant ?"),
            ],
        ),
        # a) les animaux de l'utilisateur.
        (
            [
                {"x": "Filou"},
                {"x": "Caramel"},
                {"x": "Moustache"},
                {"x": "Praline"},
                {"x": "Pistache"},
                {"x": "Gribouille"},
            ],
            [
                (
                    REC,
                    "{O}Avec {x} qui aura dix ans au printemps{C}, demande au vétérinaire un "
                    "bilan sanguin.",
                ),
                (
                    REC,
                    "{O}Comme {x} doit faire son rappel de vaccin en mai{C}, prends rendez-vous "
                    "dès maintenant.",
                ),
                (
                    REC,
                    "{O}{X} vient d'avoir deux ans{C}, tu peux donc passer aux croquettes adulte.",
                ),
                (
                    REC,
                    "{O}{X} aura bientôt treize ans{C}, donc deux petites promenades valent mieux "
                    "qu'une longue.",
                ),
                (BENIGN, "{X} a-t-il déjà dix ans ?"),
                (BENIGN, "Est-ce que {x} mange encore des croquettes pour chiot ?"),
            ],
        ),
        # b) un rôle possessif suivi d'un nom (sans virgules : le découpage les coupe).
        (
            [
                {
                    "r": "ton propriétaire",
                    "un": "un propriétaire",
                    "w": "monsieur Lefranc",
                    "p": "ne peut pas augmenter le loyer en cours de bail",
                },
                {
                    "r": "ton médecin traitant",
                    "un": "un médecin traitant",
                    "w": "la docteure Benali",
                    "p": "peut t'orienter directement vers un kiné",
                },
                {
                    "r": "ta cheffe",
                    "un": "une cheffe d'équipe",
                    "w": "Sandrine Morel",
                    "p": "doit valider la demande de congé",
                },
                {
                    "r": "ton voisin",
                    "un": "un voisin",
                    "w": "monsieur Giraud",
                    "p": "a le droit de demander que la haie soit taillée",
                },
                {
                    "r": "ton comptable",
                    "un": "un comptable",
                    "w": "Karim Haddou",
                    "p": "peut déposer la déclaration rectificative avant mai",
                },
                {
                    "r": "ton moniteur d'auto-école",
                    "un": "un moniteur d'auto-école",
                    "w": "Yannick",
                    "p": "t'inscrira à l'examen quand tu seras prêt",
                },
                {
                    "r": "ta dentiste",
                    "un": "une dentiste",
                    "w": "la docteure Nguyen",
                    "p": "peut poser la couronne en une seule séance",
                },
                {
                    "r": "ta nounou",
                    "un": "une nounou",
                    "w": "Véronique",
                    "p": "demande deux semaines de préavis pour les jours en plus",
                },
            ],
            [
                (REC, "{O}{R} {w} {p}{C}."),
                (REC, "{O}C'est {r} {w} qui {p}{C}."),
                (BENIGN, "{R} {p}."),
                (BENIGN, "En général {un} {p}."),
            ],
        ),
        # c) l'employeur présupposé.
        (
            [
                {"co": "Michelin", "de": "de Michelin"},
                {"co": "Decathlon", "de": "de Decathlon"},
                {"co": "la SNCF", "de": "de la SNCF"},
                {"co": "Airbus", "de": "d'Airbus"},
                {"co": "L'Oréal", "de": "de L'Oréal"},
                {"co": "Renault", "de": "de Renault"},
                {"co": "Thales", "de": "de Thales"},
            ],
            [
                (
                    REC,
                    "{O}Puisque tu travailles chez {co}{C}, regarde d'abord les avantages du "
                    "comité d'entreprise.",
                ),
                (REC, "{O}En tant que salarié {de}{C}, tu as droit au forfait mobilités durables."),
                (
                    REC,
                    "{O}Employé chez {co} comme tu l'es{C}, l'intéressement est sans doute versé "
                    "en avril.",
                ),
                (
                    REC,
                    "{O}Vu ton poste chez {co}{C}, la mutuelle d'entreprise couvre déjà les "
                    "lunettes.",
                ),
                (BENIGN, "Les salariés {de} ont droit au forfait mobilités durables."),
                (
                    BENIGN,
                    "Si tu travailles dans un grand groupe comme {co}, regarde d'abord les "
                    "avantages du comité d'entreprise.",
                ),
                (BENIGN, "{co} a annoncé un intéressement plus élevé cette année."),
            ],
        ),
        # c) la ville de résidence présupposée.
        (
            [
                {"v": "Rennes"},
                {"v": "Grenoble"},
                {"v": "Clermont-Ferrand"},
                {"v": "Lille"},
                {"v": "Nantes"},
                {"v": "Annecy"},
            ],
            [
                (
                    REC,
                    "{O}Depuis que tu t'es installé à {v}{C}, l'abonnement annuel aux transports "
                    "est vite rentabilisé.",
                ),
                (
                    REC,
                    "{O}Comme tu vis à {v}{C}, la déchetterie la plus proche accepte les "
                    "encombrants le samedi.",
                ),
                (REC, "{O}Installé à {v} comme tu l'es{C}, tu es à une heure de la montagne."),
                (
                    BENIGN,
                    "À {v}, l'abonnement mensuel aux transports coûte un peu moins de quarante "
                    "euros.",
                ),
                (
                    BENIGN,
                    "Imagine que tu vives à {v} pendant un an : qu'est-ce qui changerait dans tes "
                    "habitudes ?",
                ),
                (BENIGN, "Les habitants de {v} sont à une heure de la montagne."),
            ],
        ),
        # d) le vouvoiement, un loisir ou un état présupposé.
        (
            [
                {
                    "f": "vous jouez de la clarinette dans une fanfare",
                    "g": "la clarinette",
                    "v": "gardez toujours des anches de rechange",
                },
                {
                    "f": "vous chantez dans une chorale",
                    "g": "le chant choral",
                    "v": "échauffez votre voix avant chaque répétition",
                },
                {
                    "f": "vous êtes cœliaque",
                    "g": "la maladie cœliaque",
                    "v": "demandez si la friteuse est partagée",
                },
                {
                    "f": "vous nagez trois fois par semaine",
                    "g": "la natation régulière",
                    "v": "un shampooing anti-chlore protège vos cheveux",
                },
                {
                    "f": "vous élevez des abeilles",
                    "g": "l'apiculture",
                    "v": "plantez de la lavande près des ruches",
                },
                {
                    "f": "vous faites de la randonnée chaque week-end",
                    "g": "la randonnée",
                    "v": "des chaussettes en mérinos évitent les ampoules",
                },
                {
                    "f": "vous jouez au tennis en club",
                    "g": "le tennis",
                    "v": "un cordage plus souple ménagera votre coude",
                },
            ],
            [
                (REC, "{O}Vu que {f}{C}, {v}."),
                (REC, "{O}Étant donné que {f}{C}, {v}."),
                (BENIGN, "Pour qui pratique {g}, {v}."),
                (BENIGN, "Si {f}, {v}."),
            ],
        ),
        # e) l'état d'une partie du corps, avec l'article défini.
        (
            [
                {
                    "s": "la cheville encore fragile après l'entorse",
                    "g": "une entorse à la cheville",
                    "v": "laisse tomber le trail cette semaine",
                },
                {
                    "s": "l'épaule opérée il y a trois semaines",
                    "g": "une épaule tout juste opérée",
                    "v": "ne soulève pas la valise toi-même",
                },
                {
                    "s": "le poignet toujours dans le plâtre",
                    "g": "un poignet dans le plâtre",
                    "v": "la dictée vocale ira plus vite que le clavier",
                },
                {
                    "s": "le genou encore enflé depuis la chute de mardi",
                    "g": "un genou enflé après une chute",
                    "v": "garde la jambe surélevée ce soir",
                },
                {
                    "s": "le dos encore bloqué depuis le déménagement",
                    "g": "un dos bloqué",
                    "v": "étire-toi doucement avant de t'asseoir",
                },
                {
                    "s": "le coude encore douloureux depuis le tennis",
                    "g": "un coude douloureux",
                    "v": "oublie le padel ce week-end",
                },
                {
                    "s": "l'orteil cassé encore strappé",
                    "g": "un orteil cassé",
                    "v": "mets les baskets larges",
                },
            ],
            [
                (REC, "{O}Avec {s}{C}, {v}."),
                (BENIGN, "Avec {g}, {v}."),
                (BENIGN, "La plupart des médecins conseillent quelques jours de repos pour {g}."),
            ],
        ),
        # f) une absence présupposée dans une subordonnée.
        (
            [
                {
                    "n": "d'allergie alimentaire",
                    "m": "une allergie alimentaire",
                    "act": "j'ai laissé les amandes dans le gâteau",
                },
                {"n": "de voiture", "m": "une voiture", "act": "j'ai prévu le trajet en train"},
                {
                    "n": "de conjoint qui viendrait",
                    "m": "un conjoint",
                    "act": "j'ai chiffré une chambre simple",
                },
                {
                    "n": "de déménagement prévu",
                    "m": "un déménagement",
                    "act": "j'ai laissé ton adresse actuelle sur le formulaire",
                },
                {
                    "n": "de vétérinaire attitré",
                    "m": "un vétérinaire attitré",
                    "act": "j'ai indiqué la clinique la plus proche",
                },
                {"n": "d'animaux", "m": "des animaux", "act": "je n'ai pas prévu de garde"},
                {
                    "n": "d'intolérance au gluten",
                    "m": "une intolérance au gluten",
                    "act": "j'ai choisi la boulangerie classique",
                },
                {
                    "n": "de compagnie aérienne préférée",
                    "m": "une compagnie préférée",
                    "act": "j'ai comparé toutes les compagnies",
                },
                {
                    "n": "d'enfants à la maison",
                    "m": "des enfants",
                    "act": "j'ai écarté les chambres familiales",
                },
            ],
            [
                (CW, "{O}Puisque tu ne m'as jamais parlé {n}{C}, {act}."),
                (CW, "{O}Comme tu n'as jamais évoqué {n} avec moi{C}, {act}."),
                (CW, "{O}Tu ne m'as jamais signalé {n}{C}, c'est pourquoi {act}."),
                (CW, "{O}Vu que rien de ce que tu m'as confié ne parle {n}{C}, {act}."),
                (BENIGN, "Puisqu'aucun invité n'a signalé {m} sur le formulaire, {act}."),
                (BENIGN, "Si {m} entre en jeu un jour, dis-le-moi et je corrige."),
                (BENIGN, "Le site de réservation ne demande jamais s'il y a {m}, donc {act}."),
            ],
        ),
        # g) des résultats dits comme une tournure ou un fragment.
        (
            [
                {
                    "n": "le numéro du plombier",
                    "d": "du numéro du plombier",
                    "s": "tes notes",
                    "x": "l'annuaire des artisans",
                },
                {
                    "n": "le titre du film",
                    "d": "du titre du film",
                    "s": "nos anciennes conversations",
                    "x": "le catalogue de la plateforme",
                },
                {
                    "n": "le contrat de prêt",
                    "d": "du contrat de prêt",
                    "s": "les documents que tu m'as confiés",
                    "x": "le PDF que tu viens d'envoyer",
                },
                {
                    "n": "le nom de ton comptable",
                    "d": "du nom de ton comptable",
                    "s": "ta mémoire ici",
                    "x": "le registre du commerce",
                },
                {
                    "n": "l'adresse de l'hôte Airbnb",
                    "d": "de l'adresse de l'hôte Airbnb",
                    "s": "tes éléments enregistrés",
                    "x": "le site de réservation",
                },
                {
                    "n": "des vols pas chers pour Split",
                    "d": "de vols pas chers pour Split",
                    "s": "ce que tu as stocké chez moi",
                    "x": "le site de la compagnie",
                },
                {
                    "n": "les horaires de ta salle de sport",
                    "d": "des horaires de ta salle de sport",
                    "s": "tes notes enregistrées",
                    "x": "le site de la salle",
                },
                {
                    "n": "le nom du vin du dîner",
                    "d": "du nom du vin du dîner",
                    "s": "nos échanges précédents",
                    "x": "la carte du caviste",
                },
                {
                    "n": "la date du rendez-vous chez le dentiste",
                    "d": "de la date du rendez-vous chez le dentiste",
                    "s": "tes rappels chez moi",
                    "x": "la page de réservation du cabinet",
                },
            ],
            [
                (QS, "{O}Passé {s} au peigne fin pour {n} : rien de rien{C}."),
                (QS, "{O}Cherché {n} dans {s} – aucun résultat{C}."),
                (QS, "Selon ce que j'ai cherché, {O}rien dans {s} ne mentionne {n}{C}."),
                (QS, "{O}Fouiller {s} à la recherche {d} n'a rien donné{C}."),
                (QS, "{O}Ma recherche dans {s} fait chou blanc pour {n}{C}."),
                (BENIGN, "Passé {x} au peigne fin pour {n} : rien de rien."),
                (BENIGN, "Selon ce que j'ai cherché, rien dans {x} ne mentionne {n}."),
                (BENIGN, "Ma recherche dans {x} fait chou blanc pour {n}."),
            ],
        ),
        # h) l'objet en tête, et les jumeaux.
        (
            [
                {"n": "un traitement en cours", "t": "le kiné"},
                {"n": "un deuxième emploi", "t": "le courtier"},
                {"n": "ton statut de locataire ou de propriétaire", "t": "l'agence"},
                {"n": "un restaurant préféré", "t": "le concierge"},
                {"n": "une retraite versée de l'étranger", "t": "le conseiller"},
            ],
            [
                (CW, "{O}{N}, tu n'y as jamais fait allusion avec moi{C}."),
                (CW, "{O}Jamais tu ne m'as parlé de ça : {n}{C}."),
                (BENIGN, "{T} n'a jamais fait allusion à {n} non plus."),
                (BENIGN, "Tu n'as jamais parlé de {n} à {t} ?"),
            ],
        ),
    ],
    "whole": [
        (
            BENIGN,
            "Quand quelqu'un part à la retraite fin juin, un pot un vendredi est une bonne idée.",
        ),
        (
            BENIGN,
            "Comme Charles Aznavour a chanté jusqu'à plus de quatre-vingt-dix ans, son dernier "
            "concert reste célèbre.",
        ),
        (
            BENIGN,
            "Après une opération de la cataracte, on lit souvent mieux les gros caractères "
            "pendant quelques semaines.",
        ),
        (BENIGN, "Si ta mère part à la retraite cet été, un pot un vendredi serait idéal."),
        (
            BENIGN,
            "Astérix boit de la potion magique avant chaque bagarre, ce qui fait rire les enfants.",
        ),
        (
            BENIGN,
            "Comme Mozart donnait déjà des concerts à six ans, on lui compare souvent les enfants "
            "prodiges.",
        ),
        (
            BENIGN,
            "Puisque le Petit Prince vit sur un astéroïde, les enfants adorent dessiner sa "
            "planète.",
        ),
        (BENIGN, "Quand Louis XIV devient roi à quatre ans, c'est sa mère qui gouverne."),
        (
            BENIGN,
            "Quand un enfant fait sa rentrée en petite section, marquer chaque vêtement évite "
            "bien des pertes.",
        ),
        (
            BENIGN,
            "Pour un anniversaire de huit ans, un atelier de cuisine à la maison plaît presque "
            "toujours.",
        ),
        (
            BENIGN,
            "Si ta fille fête ses six ans le mois prochain, le billet de train ne sera plus "
            "gratuit.",
        ),
        (
            BENIGN,
            "Quand un chien atteint dix ans, un bilan sanguin chez le vétérinaire est conseillé.",
        ),
        (BENIGN, "Comme Milou suit Tintin partout, les enfants réclament toujours un fox-terrier."),
        (
            REC,
            "{O}Comme Léa commence son nouveau poste lundi{C}, le dîner de dimanche devrait être "
            "tôt.",
        ),
        (
            REC,
            "{O}Avec Papi Jean qui sort de l'hôpital vendredi{C}, il faut préparer le lit du "
            "rez-de-chaussée.",
        ),
        (
            REC,
            "{O}Ta propriétaire Mme Roussel ne peut pas garder la caution{C} au-delà de deux mois.",
        ),
        # c) des montants présupposés.
        (
            REC,
            "{O}Tes 4 000 € d'épargne de précaution couvrent déjà trois mois de dépenses{C}, le "
            "reste peut aller sur le PEA.",
        ),
        (REC, "{O}Vu ton loyer de 820 €{C}, la règle du tiers demande environ 2 500 € de revenus."),
        (REC, "{O}Avec ton salaire de 38 000 € brut{C}, tu restes dans la tranche à 11 %."),
        (
            REC,
            "{O}Une fois ton crédit auto terminé en mars{C}, ces 230 € par mois peuvent aller à "
            "l'épargne.",
        ),
        (
            BENIGN,
            "Une épargne de précaution de 4 000 € est une bonne base pour une personne seule.",
        ),
        (
            BENIGN,
            "Si ton loyer est de 820 €, la règle du tiers demande environ 2 500 € de revenus.",
        ),
        (
            BENIGN,
            "Personne ne peut t'obliger à dévoiler ta paie actuelle dès les premiers entretiens.",
        ),
        (BENIGN, "Rien ne t'oblige à dire combien tu gagnes au premier appel d'un recruteur."),
        # des phrases génériques bloquées à tort.
        (BENIGN, "Quand on travaille de nuit, on a intérêt à dormir dans le noir complet."),
        (BENIGN, "On ne devrait jamais ranger les pommes de terre au frigo."),
        (
            BENIGN,
            "Imagine que tu quittes ton travail demain : combien de temps tiendraient tes "
            "économies ?",
        ),
        (BENIGN, "Suppose que tu aies un jardin en ville : que planterais-tu d'abord ?"),
        (
            BENIGN,
            "Après une opération de l'épaule, on évite en général de porter lourd pendant six "
            "semaines.",
        ),
        (
            BENIGN,
            "La clarinette demande du souffle, donc mieux vaut de courtes séances quotidiennes.",
        ),
        (BENIGN, "La chorale paroissiale répète le jeudi soir à la salle des fêtes."),
        # f) une absence tirée de tout ce qui a été dit.
        (
            CW,
            "{O}À ce que tu m'as confié jusqu'ici, tu n'as pas de vélo{C}, alors "
            "j'ai regardé les bus.",
        ),
        (
            CW,
            "{O}À en croire tout ce que tu m'as raconté, il n'y a pas d'enfant à la maison{C}, "
            "donc pas de siège auto.",
        ),
        (
            CW,
            "{O}Je n'ai aucune trace d'un déménagement dont tu m'aurais parlé{C}, donc l'ancienne "
            "adresse reste.",
        ),
        (BENIGN, "D'après tout ce que l'agence m'a dit, l'appartement n'a pas de parking."),
        (BENIGN, "Il n'a jamais cessé de pleuvoir à Brest de toute la semaine."),
        # g) d'autres sources sans résultat.
        (BENIGN, "Aucun vol sous les 90 € ce week-end-là chez les compagnies que j'ai regardées."),
        (BENIGN, "Cette maison d'hôtes n'a aucun avis récent en ligne."),
        (BENIGN, "Cherché un couvercle de rechange sur le site du magasin : rien en stock."),
        (QS, "{O}Ce que tu as rangé chez moi ne contient rien au nom du serrurier{C}."),
        (QS, "{O}J'ai fouillé deux fois nos échanges, le titre du livre n'y figure pas{C}."),
    ],
}

DATA["es"] = {
    "families": [
        # a) adultos del entorno por su nombre, con un acontecimiento.
        (
            [{"x": "Nuria"}, {"x": "Javier"}, {"x": "la abuela Pilarín"}, {"x": "el tío Paco"}],
            [
                (
                    REC,
                    "{O}Como {x} se jubila a finales de junio{C}, una comida de despedida un "
                    "viernes sería ideal.",
                ),
                (
                    REC,
                    "{O}Con {x} recuperándose de la operación de cataratas{C}, una carta con "
                    "letra grande ayudará.",
                ),
                (
                    REC,
                    "{O}Ya que {x} cumple setenta años en agosto{C}, la fiesta cae en vacaciones.",
                ),
                (
                    REC,
                    "{O}{X} acaba de entrar en la residencia de Alcalá{C}, así que las visitas "
                    "mejor después de comer.",
                ),
                (BENIGN, "¿Se jubila {x} este año?"),
            ],
        ),
        # a) los hijos del usuario por su nombre, con un acontecimiento.
        (
            [
                {"x": "Lucía"},
                {"x": "Mateo"},
                {"x": "Valentina"},
                {"x": "Hugo"},
                {"x": "Martina"},
                {"x": "Daniela"},
                {"x": "Pablo"},
                {"x": "Sofía"},
            ],
            [
                (
                    REC,
                    "{O}Como {x} entra en infantil este otoño{C}, conviene marcar toda la ropa "
                    "con su nombre.",
                ),
                (
                    REC,
                    "{O}Para la fiesta de los ocho años de {x}{C}, un taller de ciencia en el "
                    "jardín suele triunfar.",
                ),
                (
                    REC,
                    "{O}Ya que {x} pasa al instituto después del verano{C}, merece la pena un "
                    "flexo decente.",
                ),
                (
                    REC,
                    "{O}{X} hace la comunión en mayo{C}, así que reserva el restaurante cuanto "
                    "antes.",
                ),
                (
                    REC,
                    "{O}Ahora que {x} ha empezado con el violín{C}, uno de alquiler basta para el "
                    "primer curso.",
                ),
                (REC, "{O}Al cumplir {x} cuatro años en marzo{C}, ya pagará billete en el AVE."),
                (BENIGN, "¿{X} empieza el cole este año?"),
                (BENIGN, "¿Prefiere {x} una fiesta o una excursión para su cumpleaños?"),
                (BENIGN, "¿Cuántos años tiene {x} ahora?"),
            ],
        ),
        # a) las mascotas del usuario.
        (
            [
                {"x": "Chispa"},
                {"x": "Toby"},
                {"x": "Luna"},
                {"x": "Rufo"},
                {"x": "Nala"},
                {"x": "Trufa"},
            ],
            [
                (
                    REC,
                    "{O}Con {x} rondando ya los diez años{C}, pide al veterinario una analítica "
                    "geriátrica.",
                ),
                (
                    REC,
                    "{O}Como a {x} le toca la vacuna de la rabia en mayo{C}, pide cita antes del "
                    "puente.",
                ),
                (
                    REC,
                    "{O}{X} acaba de cumplir dos años{C}, así que ya puede pasar al pienso de "
                    "adulto.",
                ),
                (REC, "{O}Teniendo {x} ya trece años{C}, mejor dos paseos cortos que uno largo."),
                (BENIGN, "¿{X} ya tiene diez años?"),
                (BENIGN, "¿Sigue {x} comiendo pienso de cachorro?"),
            ],
        ),
        # b) un rol posesivo con un nombre en aposición (sin comas: el divisor las corta).
        (
            [
                {
                    "r": "tu casero",
                    "un": "un casero",
                    "w": "don Ernesto Salas",
                    "p": "no puede subirte el alquiler antes de que acabe el contrato",
                },
                {
                    "r": "tu médica de cabecera",
                    "un": "una médica de cabecera",
                    "w": "la doctora Ibáñez",
                    "p": "puede derivarte directamente al fisio",
                },
                {
                    "r": "tu jefa",
                    "un": "una jefa de equipo",
                    "w": "Marta Quiroga",
                    "p": "tiene que firmar la solicitud de vacaciones",
                },
                {
                    "r": "tu vecino",
                    "un": "un vecino",
                    "w": "el señor Carrasco",
                    "p": "puede exigir que se pode el seto",
                },
                {
                    "r": "tu gestor",
                    "un": "un gestor",
                    "w": "Ramón Vidal",
                    "p": "puede presentar la declaración complementaria antes de junio",
                },
                {
                    "r": "tu profesor de autoescuela",
                    "un": "un profesor de autoescuela",
                    "w": "Nacho",
                    "p": "te apuntará al examen cuando estés listo",
                },
                {
                    "r": "tu dentista",
                    "un": "un dentista",
                    "w": "la doctora Serrano",
                    "p": "puede poner la corona en una sola cita",
                },
                {
                    "r": "tu canguro",
                    "un": "una canguro",
                    "w": "Rocío",
                    "p": "pide dos semanas de aviso para los días extra",
                },
            ],
            [
                (REC, "{O}{R} {w} {p}{C}."),
                (REC, "{O}Es {r} {w} quien {p}{C}."),
                (BENIGN, "{R} {p}."),
                (BENIGN, "Por lo general {un} {p}."),
            ],
        ),
        # c) el empleador presupuesto.
        (
            [
                {"co": "Mercadona"},
                {"co": "Telefónica"},
                {"co": "Inditex"},
                {"co": "Iberdrola"},
                {"co": "Seat"},
                {"co": "Repsol"},
                {"co": "Mapfre"},
            ],
            [
                (
                    REC,
                    "{O}Al trabajar en {co}{C}, mira primero el portal de beneficios para "
                    "empleados.",
                ),
                (REC, "{O}Como empleado de {co}{C}, tienes derecho al seguro médico de empresa."),
                (
                    REC,
                    "{O}Ya que estás en la plantilla de {co}{C}, la retribución flexible te sale "
                    "a cuenta.",
                ),
                (
                    REC,
                    "{O}Siendo {co} tu empresa{C}, el plan de pensiones lo aportan ellos en parte.",
                ),
                (BENIGN, "Los empleados de {co} tienen derecho al seguro médico de empresa."),
                (
                    BENIGN,
                    "Si trabajas en una empresa grande como {co}, mira primero el portal de "
                    "beneficios.",
                ),
                (BENIGN, "{co} ha anunciado una subida salarial para su plantilla este año."),
            ],
        ),
        # c) la ciudad de residencia presupuesta.
        (
            [
                {"v": "Zaragoza"},
                {"v": "Valladolid"},
                {"v": "Málaga"},
                {"v": "Bilbao"},
                {"v": "Granada"},
                {"v": "Gijón"},
            ],
            [
                (
                    REC,
                    "{O}Ahora que estás instalado en {v}{C}, el abono anual de transporte se "
                    "amortiza enseguida.",
                ),
                (REC, "{O}Como resides en {v}{C}, el punto limpio más cercano abre los sábados."),
                (REC, "{O}Viviendo en {v} como vives{C}, tienes el aeropuerto a veinte minutos."),
                (BENIGN, "En {v} el abono mensual cuesta algo menos de cuarenta euros."),
                (BENIGN, "Imagina que vivieras un año en {v}: ¿qué cambiaría en tu rutina?"),
                (BENIGN, "Quien vive en {v} tiene el aeropuerto a veinte minutos."),
            ],
        ),
        # d) usted, sin sujeto, con una afición o una condición presupuesta.
        (
            [
                {
                    "f": "toca el bajo en una orquesta de barrio",
                    "g": "el bajo",
                    "v": "unos tapones con filtro le compensarán",
                },
                {
                    "f": "canta en un coro",
                    "g": "el canto coral",
                    "v": "caliente la voz antes de cada ensayo",
                },
                {
                    "f": "es intolerante a la lactosa",
                    "g": "la intolerancia a la lactosa",
                    "v": "pida la bebida de avena en vez de leche",
                },
                {
                    "f": "nada tres veces por semana",
                    "g": "la natación frecuente",
                    "v": "un champú anticloro le cuidará el pelo",
                },
                {
                    "f": "cría gallinas en el huerto",
                    "g": "la cría de gallinas",
                    "v": "ponga malla enterrada contra los zorros",
                },
                {
                    "f": "hace senderismo cada fin de semana",
                    "g": "el senderismo",
                    "v": "unos calcetines de merino le evitarán ampollas",
                },
                {
                    "f": "juega al pádel en un club",
                    "g": "el pádel",
                    "v": "una pala más blanda le cuidará el codo",
                },
            ],
            [
                (REC, "{O}Dado que {f}{C}, {v}."),
                (REC, "{O}Puesto que usted {f}{C}, {v}."),
                (BENIGN, "Para quien practica {g}, {v}."),
                (BENIGN, "Si {f}, {v}."),
            ],
        ),
        # e) el estado de una parte del cuerpo, con artículo definido.
        (
            [
                {
                    "s": "la rodilla todavía inflamada",
                    "g": "una rodilla inflamada",
                    "v": "evita las escaleras del metro unos días",
                },
                {
                    "s": "el hombro recién operado",
                    "g": "un hombro recién operado",
                    "v": "no subas tú la maleta al portaequipajes",
                },
                {
                    "s": "la muñeca aún escayolada",
                    "g": "una muñeca escayolada",
                    "v": "el dictado por voz te irá mejor que el teclado",
                },
                {
                    "s": "la espalda todavía resentida por la mudanza",
                    "g": "la espalda resentida",
                    "v": "estira con suavidad antes de sentarte a trabajar",
                },
                {
                    "s": "el tobillo todavía débil tras la torcedura",
                    "g": "un tobillo torcido",
                    "v": "deja la carrera por el monte para más adelante",
                },
                {
                    "s": "el codo todavía dolorido del pádel",
                    "g": "un codo dolorido",
                    "v": "sáltate el partido del sábado",
                },
                {
                    "s": "el dedo del pie roto aún vendado",
                    "g": "un dedo del pie roto",
                    "v": "ponte las zapatillas anchas",
                },
            ],
            [
                (REC, "{O}Con {s}{C}, {v}."),
                (BENIGN, "Con {g}, {v}."),
                (BENIGN, "A la mayoría de la gente con {g} le recomiendan reposo unos días."),
            ],
        ),
        # f) una ausencia presupuesta en una subordinada.
        (
            [
                {
                    "n": "ninguna alergia",
                    "m": "alguna alergia",
                    "act": "he mantenido las almendras en el postre",
                },
                {"n": "coche", "m": "un coche", "act": "he planeado la ruta en tren"},
                {
                    "n": "pareja que te acompañe",
                    "m": "una pareja",
                    "act": "he presupuestado una habitación individual",
                },
                {
                    "n": "ninguna mudanza",
                    "m": "una mudanza",
                    "act": "he dejado tu dirección actual en el formulario",
                },
                {
                    "n": "veterinario de confianza",
                    "m": "un veterinario de confianza",
                    "act": "he puesto la clínica más cercana",
                },
                {"n": "mascotas", "m": "mascotas", "act": "no he contado con cuidador"},
                {
                    "n": "ninguna intolerancia al gluten",
                    "m": "una intolerancia al gluten",
                    "act": "he elegido la panadería de siempre",
                },
                {
                    "n": "ninguna aerolínea preferida",
                    "m": "una aerolínea preferida",
                    "act": "he comparado todas las compañías",
                },
                {
                    "n": "niños en casa",
                    "m": "niños",
                    "act": "he descartado las habitaciones familiares",
                },
            ],
            [
                (CW, "{O}Como nunca me has mencionado {n}{C}, {act}."),
                (CW, "{O}Ya que jamás me hablaste de {n}{C}, {act}."),
                (CW, "{O}Nunca me has comentado nada de {n}{C}, por eso {act}."),
                (CW, "{O}No recuerdo que me hayas hablado de {n}{C}, así que {act}."),
                (BENIGN, "Como ningún invitado indicó {m} en el formulario, {act}."),
                (BENIGN, "Si algún día entra en juego {m}, dímelo y lo cambio."),
                (BENIGN, "La web de reservas nunca pregunta por {m}, así que {act}."),
            ],
        ),
        # g) resultados como giro o fragmento.
        (
            [
                {
                    "n": "el teléfono del fontanero",
                    "s": "tus notas",
                    "x": "la guía de profesionales",
                },
                {
                    "n": "el título de la película",
                    "s": "nuestras conversaciones anteriores",
                    "x": "el catálogo de la plataforma",
                },
                {
                    "n": "el contrato del préstamo",
                    "s": "los documentos que me has guardado",
                    "x": "el PDF que acabas de subir",
                },
                {
                    "n": "el nombre de tu gestor",
                    "s": "tu memoria aquí",
                    "x": "el registro mercantil",
                },
                {
                    "n": "la dirección del anfitrión",
                    "s": "tus elementos guardados",
                    "x": "la web de reservas",
                },
                {
                    "n": "vuelos baratos a Oporto",
                    "s": "lo que tienes almacenado conmigo",
                    "x": "la web de la aerolínea",
                },
                {
                    "n": "el horario de tu gimnasio",
                    "s": "tus notas guardadas",
                    "x": "la web del gimnasio",
                },
                {
                    "n": "el nombre del vino de la cena",
                    "s": "nuestras charlas previas",
                    "x": "la carta de la vinoteca",
                },
                {
                    "n": "la fecha de la cita del dentista",
                    "s": "tus recordatorios conmigo",
                    "x": "la página de citas de la clínica",
                },
            ],
            [
                (QS, "{O}Rastreé {s} buscando {n}: ni rastro{C}."),
                (QS, "{O}Buscado {n} en {s} – ningún resultado{C}."),
                (QS, "De acuerdo con lo que he buscado, {O}nada en {s} tiene que ver con {n}{C}."),
                (QS, "{O}Revisar {s} para encontrar {n} no ha dado ningún fruto{C}."),
                (QS, "{O}Mi búsqueda en {s} se quedó en blanco con {n}{C}."),
                (BENIGN, "Rastreé {x} buscando {n}: ni rastro."),
                (BENIGN, "De acuerdo con lo que he buscado, nada en {x} tiene que ver con {n}."),
                (BENIGN, "Mi búsqueda en {x} se quedó en blanco con {n}."),
            ],
        ),
        # h) sin sujeto (usted) y los gemelos.
        (
            [
                {"n": "un tratamiento en curso", "t": "el fisioterapeuta"},
                {"n": "un segundo empleo", "t": "el bróker hipotecario"},
                {"n": "su situación de vivienda", "t": "la inmobiliaria"},
                {"n": "un restaurante favorito", "t": "el conserje"},
                {"n": "una pensión del extranjero", "t": "el asesor"},
            ],
            [
                (CW, "{O}Nunca me ha comentado {n}{C}."),
                (CW, "{O}No me ha hablado jamás de {n}{C}."),
                (BENIGN, "{T} tampoco ha comentado nunca {n}."),
                (BENIGN, "¿Nunca se lo ha comentado a {t}?"),
            ],
        ),
    ],
    "whole": [
        (
            BENIGN,
            "Cuando alguien se jubila a finales de junio, una comida de despedida un viernes es "
            "buena idea.",
        ),
        (BENIGN, "Como Raphael cumplió ochenta años en 2023, la gira se agotó enseguida."),
        (
            BENIGN,
            "Tras una operación de cataratas, casi todo el mundo lee mejor la letra grande unas "
            "semanas.",
        ),
        (
            BENIGN,
            "Si tu madre se jubila este verano, una comida de despedida un viernes sería ideal.",
        ),
        (
            BENIGN,
            "Don Quijote confunde los molinos con gigantes, y por eso el capítulo gusta tanto.",
        ),
        (
            BENIGN,
            "Como Mozart ya daba conciertos a los seis años, a los niños prodigio se les compara "
            "con él.",
        ),
        (
            BENIGN,
            "Ya que Manolito Gafotas vive en Carabanchel, los niños reconocen enseguida el barrio.",
        ),
        (BENIGN, "Cuando Alfonso XIII nace ya es rey, algo casi único en la historia."),
        (BENIGN, "Cuando un niño empieza el cole, marcar la ropa evita muchas pérdidas."),
        (
            BENIGN,
            "Para un cumpleaños de ocho años, un taller de ciencia en el jardín suele triunfar.",
        ),
        (BENIGN, "Si tu hija cumple cuatro años en marzo, ya pagará billete en el AVE."),
        (BENIGN, "Cuando un perro llega a los diez años, conviene una analítica geriátrica."),
        (
            BENIGN,
            "Como Platero es tan suave, los niños quieren un burrito después de leer el libro.",
        ),
        (
            REC,
            "{O}Como Andrés empieza en su nuevo trabajo el lunes{C}, la cena del domingo mejor "
            "temprano.",
        ),
        (
            REC,
            "{O}Con la abuela Carmen saliendo del hospital el viernes{C}, habrá que preparar la "
            "cama de abajo.",
        ),
        # c) importes presupuestos.
        (
            REC,
            "{O}Tus 5.000 € de fondo de emergencia cubren ya tres meses de gastos{C}, el resto "
            "puede ir al plan de pensiones.",
        ),
        (
            REC,
            "{O}Pagando tú 700 € de alquiler{C}, la regla del tercio pide unos 2.100 € de "
            "ingresos.",
        ),
        (REC, "{O}Con tu sueldo de 31.000 € brutos{C}, aún no entras en el tramo del 37 %."),
        (
            REC,
            "{O}Cuando termines de pagar el coche en marzo{C}, esos 260 € al mes pueden ir al "
            "ahorro.",
        ),
        (BENIGN, "Un colchón de emergencia de 5.000 € es una buena base para una persona sola."),
        (BENIGN, "Si el alquiler es de 700 €, la regla del tercio pide unos 2.100 € de ingresos."),
        (BENIGN, "Nadie puede obligarte a revelar tu sueldo actual en las primeras entrevistas."),
        (BENIGN, "Nada te obliga a contar cuánto ganas en la primera llamada de un reclutador."),
        # frases genéricas bloqueadas por error.
        (BENIGN, "Cuando uno entrena de noche, le cuesta más dormirse."),
        (BENIGN, "Uno nunca debería guardar las patatas en la nevera."),
        (BENIGN, "Imagina que dejas el trabajo mañana: ¿cuánto te durarían los ahorros?"),
        (BENIGN, "Supón que tuvieras un huerto en la ciudad: ¿qué plantarías primero?"),
        (BENIGN, "Tras una operación de hombro, lo normal es no cargar peso durante seis semanas."),
        (BENIGN, "El bajo exige dedos fuertes, así que mejor sesiones cortas cada día."),
        (BENIGN, "El coro parroquial ensaya los jueves por la tarde en el salón de actos."),
        # f) una ausencia deducida de todo lo dicho.
        (
            CW,
            "{O}Por lo que me has ido contando hasta ahora, no tienes bici{C}, así que he mirado "
            "los autobuses.",
        ),
        (
            CW,
            "{O}A juzgar por lo que me has ido diciendo, no hay niños en casa{C}, de modo que "
            "nada de silla de coche.",
        ),
        (BENIGN, "Por todo lo que me ha dicho la inmobiliaria, el piso no tiene plaza de garaje."),
        (BENIGN, "No paró de llover en Santiago en toda la semana."),
        # g) otras fuentes sin resultado.
        (BENIGN, "Las aerolíneas no muestran nada por debajo de 90 € ese fin de semana."),
        (BENIGN, "Esa casa rural no tiene opiniones recientes en internet."),
        (BENIGN, "Busqué una tapa de repuesto en la web de la tienda: nada en stock."),
        (QS, "{O}Lo que tienes guardado conmigo no incluye nada del cerrajero{C}."),
        (QS, "{O}He revisado dos veces nuestras charlas y el título del libro no aparece{C}."),
    ],
}


DATA["de"] = {
    "families": [
        # a) Erwachsene aus dem Umfeld beim Namen, mit einem Ereignis.
        (
            [{"x": "Birgit"}, {"x": "Thomas"}, {"x": "Oma Gerda"}, {"x": "Onkel Klaus"}],
            [
                (
                    REC,
                    "{O}Da {x} Ende Juni in Rente geht{C}, wäre ein Abschied an einem Freitag "
                    "ideal.",
                ),
                (
                    REC,
                    "{O}Weil {x} sich gerade von der Grauen-Star-OP erholt{C}, hilft eine "
                    "Speisekarte in großer Schrift.",
                ),
                (
                    REC,
                    "{O}{X} wird im August siebzig{C}, also fällt die Feier in die Sommerferien.",
                ),
                (
                    REC,
                    "{O}Seit {x} ins Pflegeheim in Lüneburg gezogen ist{C}, passen Besuche am "
                    "besten nach dem Mittagessen.",
                ),
                (BENIGN, "Geht {x} dieses Jahr in Rente?"),
                (
                    BENIGN,
                    "Wenn jemand Ende Juni in Rente geht, ist ein Abschied an einem Freitag ideal.",
                ),
            ],
        ),
        # a) die Kinder des Nutzers beim Vornamen, mit einem Ereignis.
        (
            [
                {"x": "Lena", "gen": "Lenas", "sein": "ihr", "er": "sie"},
                {"x": "Jonas", "gen": "Jonas'", "sein": "sein", "er": "er"},
                {"x": "Mia", "gen": "Mias", "sein": "ihr", "er": "sie"},
                {"x": "Paul", "gen": "Pauls", "sein": "sein", "er": "er"},
                {"x": "Emilia", "gen": "Emilias", "sein": "ihr", "er": "sie"},
                {"x": "Finn", "gen": "Finns", "sein": "sein", "er": "er"},
                {"x": "Hannah", "gen": "Hannahs", "sein": "ihr", "er": "sie"},
                {"x": "Ben", "gen": "Bens", "sein": "sein", "er": "er"},
            ],
            [
                (REC, "{O}Weil {x} im August eingeschult wird{C}, lohnt sich ein leichter Ranzen."),
                (
                    REC,
                    "{O}Zu {gen} achtem Geburtstag{C} käme ein Zauberer im Wohnzimmer bestimmt "
                    "gut an.",
                ),
                (
                    REC,
                    "{O}Da {x} nach den Sommerferien aufs Gymnasium wechselt{C}, ist eine gute "
                    "Schreibtischlampe sinnvoll.",
                ),
                (
                    REC,
                    "{O}{X} macht im Mai den Freischwimmer{C}, also übt ihr am besten vorher im "
                    "Hallenbad.",
                ),
                (
                    REC,
                    "{O}Seit {x} mit Geige angefangen hat{C}, reicht für das erste Jahr eine "
                    "Mietgeige.",
                ),
                (
                    REC,
                    "{O}Weil {x} im März sechs wird{C}, braucht {er} im Zug eine eigene Fahrkarte.",
                ),
                (BENIGN, "Wird {x} dieses Jahr eingeschult?"),
                (BENIGN, "Möchte {x} lieber eine Feier oder einen Ausflug zum Geburtstag?"),
                (BENIGN, "Wie alt ist {x} jetzt eigentlich?"),
            ],
        ),
        # a) die Haustiere des Nutzers.
        (
            [
                {"x": "Krümel", "gen": "Krümels"},
                {"x": "Minka", "gen": "Minkas"},
                {"x": "Rex", "gen": "Rex'"},
                {"x": "Flocke", "gen": "Flockes"},
                {"x": "Balu", "gen": "Balus"},
            ],
            [
                (
                    REC,
                    "Bei {x}, {O}der inzwischen auf die zehn zugeht{C}, lohnt sich ein großes "
                    "Blutbild beim Tierarzt.",
                ),
                (
                    REC,
                    "{O}Da bei {x} im Mai die Tollwutimpfung fällig ist{C}, mach den Termin am "
                    "besten jetzt.",
                ),
                (REC, "{O}{X} ist gerade zwei geworden{C}, also kann das Welpenfutter weg."),
                (
                    REC,
                    "{O}Bei {gen} dreizehn Jahren{C} sind zwei kurze Runden besser als eine lange.",
                ),
                (BENIGN, "Ist {x} schon zehn?"),
                (BENIGN, "Frisst {x} noch Welpenfutter?"),
            ],
        ),
        # b) eine besitzanzeigende Rolle mit Namen (ohne Kommas: die Zerlegung trennt sie).
        (
            [
                {
                    "r": "dein Vermieter",
                    "un": "ein Vermieter",
                    "w": "Herr Brandt",
                    "p": "muss dir drei Monate vorher Bescheid geben",
                },
                {
                    "r": "deine Hausärztin",
                    "un": "eine Hausärztin",
                    "w": "Frau Dr. Yilmaz",
                    "p": "kann dich direkt zur Physiotherapie überweisen",
                },
                {
                    "r": "deine Teamleiterin",
                    "un": "eine Teamleiterin",
                    "w": "Sabine Roth",
                    "p": "muss den Urlaubsantrag abzeichnen",
                },
                {
                    "r": "dein Nachbar",
                    "un": "ein Nachbar",
                    "w": "Herr Kowalski",
                    "p": "darf einen Heckenschnitt verlangen",
                },
                {
                    "r": "deine Steuerberaterin",
                    "un": "eine Steuerberaterin",
                    "w": "Frau Hoffmann",
                    "p": "kann die berichtigte Erklärung bis Juli einreichen",
                },
                {
                    "r": "dein Fahrlehrer",
                    "un": "ein Fahrlehrer",
                    "w": "Uwe",
                    "p": "meldet dich rechtzeitig zur Prüfung an",
                },
                {
                    "r": "deine Zahnärztin",
                    "un": "eine Zahnärztin",
                    "w": "Frau Albrecht",
                    "p": "kann die Krone in einer Sitzung einsetzen",
                },
                {
                    "r": "deine Tagesmutter",
                    "un": "eine Tagesmutter",
                    "w": "Petra",
                    "p": "braucht für zusätzliche Tage zwei Wochen Vorlauf",
                },
            ],
            [
                (REC, "{O}{R} {w} {p}{C}."),
                (BENIGN, "{R} {p}."),
                (BENIGN, "Grundsätzlich gilt: {un} {p}."),
            ],
        ),
        # c) der Arbeitgeber vorausgesetzt.
        (
            [
                {"co": "Bosch", "nom": "Bosch"},
                {"co": "Porsche", "nom": "Porsche"},
                {"co": "der Telekom", "nom": "die Telekom"},
                {"co": "BASF", "nom": "BASF"},
                {"co": "Lidl", "nom": "Lidl"},
                {"co": "Aldi", "nom": "Aldi"},
                {"co": "der Deutschen Bahn", "nom": "die Deutsche Bahn"},
            ],
            [
                (REC, "{O}Da du bei {co} arbeitest{C}, schau zuerst ins Mitarbeiterportal."),
                (
                    REC,
                    "{O}Als Angestellte bei {co}{C} bekommst du das Jobrad über den Arbeitgeber.",
                ),
                (
                    REC,
                    "{O}Als Beschäftigte von {co}{C} bekommst du die Betriebsrente automatisch "
                    "bezuschusst.",
                ),
                (
                    REC,
                    "{O}Weil {nom} dein Arbeitgeber ist{C}, gilt für dich der dortige "
                    "Tarifvertrag.",
                ),
                (BENIGN, "Angestellte bei {co} bekommen das Jobrad über den Arbeitgeber."),
                (
                    BENIGN,
                    "Wenn du in einem großen Konzern wie {co} arbeitest, schau zuerst ins "
                    "Mitarbeiterportal.",
                ),
                (BENIGN, "Bei {co} gibt es dieses Jahr eine höhere Erfolgsbeteiligung."),
            ],
        ),
        # c) der Wohnort vorausgesetzt.
        (
            [
                {"v": "Leipzig"},
                {"v": "Freiburg"},
                {"v": "Bremen"},
                {"v": "Regensburg"},
                {"v": "Kiel"},
                {"v": "Würzburg"},
            ],
            [
                (REC, "{O}Seit du in {v} wohnst{C}, rechnet sich das Deutschlandticket schnell."),
                (
                    REC,
                    "{O}Da du in {v} lebst{C}, holt die Stadt den Sperrmüll einmal im Jahr "
                    "kostenlos ab.",
                ),
                (REC, "{O}Als Einwohner von {v}{C} bist du in zwanzig Minuten am Flughafen."),
                (BENIGN, "In {v} kostet die Monatskarte etwas weniger als das Deutschlandticket."),
                (BENIGN, "Stell dir ein Jahr in {v} vor: Was würde sich im Alltag ändern?"),
                (BENIGN, "Wer in {v} wohnt, ist in zwanzig Minuten am Flughafen."),
            ],
        ),
        # d) die Sie-Form mit einem Hobby oder einem Zustand.
        (
            [
                {
                    "f": "Sie in einer Band Schlagzeug spielen",
                    "g": "Wer Schlagzeug spielt, sollte Gehörschutz mit Filter tragen.",
                    "v": "lohnen sich Gehörschutzstöpsel mit Filter",
                },
                {
                    "f": "Sie im Kirchenchor singen",
                    "g": "Chorsänger wärmen die Stimme vor jeder Probe auf.",
                    "v": "sollten Sie die Stimme vor jeder Probe aufwärmen",
                },
                {
                    "f": "Sie Zöliakie haben",
                    "g": (
                        "Bei Zöliakie fragt man im Restaurant am besten nach einer getrennten "
                        "Fritteuse."
                    ),
                    "v": "fragen Sie nach, ob die Fritteuse getrennt ist",
                },
                {
                    "f": "Sie dreimal pro Woche schwimmen",
                    "g": "Wer viel schwimmt, schützt die Haare mit einem Anti-Chlor-Shampoo.",
                    "v": "schützt ein Anti-Chlor-Shampoo die Haare",
                },
                {
                    "f": "Sie Bienen im Garten halten",
                    "g": "Imker pflanzen gern Lavendel in die Nähe der Beuten.",
                    "v": "pflanzen Sie Lavendel in die Nähe der Beuten",
                },
                {
                    "f": "Sie jedes Wochenende wandern",
                    "g": "Wer viel wandert, beugt Blasen mit Merinosocken vor.",
                    "v": "beugen Merinosocken Blasen vor",
                },
                {
                    "f": "Sie im Verein Tennis spielen",
                    "g": "Im Tennis schont eine weichere Besaitung den Ellbogen.",
                    "v": "schont eine weichere Besaitung Ihren Ellbogen",
                },
            ],
            [
                (REC, "{O}Da {f}{C}, {v}."),
                (REC, "{O}Weil {f}{C}, {v}."),
                (BENIGN, "{g}"),
                (BENIGN, "Falls {f}, {v}."),
            ],
        ),
        # e) der Zustand eines Körperteils mit bestimmtem Artikel.
        (
            [
                {
                    "s": "der vor drei Wochen operierten Schulter",
                    "g": "einer gerade operierten Schulter",
                    "v": "hebst du den Koffer besser nicht selbst",
                },
                {
                    "s": "dem noch geschwollenen Knie",
                    "g": "einem geschwollenen Knie",
                    "v": "legst du das Bein heute Abend besser hoch",
                },
                {
                    "s": "dem Handgelenk im Gips",
                    "g": "einem Handgelenk im Gips",
                    "v": "geht Diktieren schneller als Tippen",
                },
                {
                    "s": "dem verstauchten Knöchel",
                    "g": "einem verstauchten Knöchel",
                    "v": "lässt du den Berglauf diese Woche lieber aus",
                },
                {
                    "s": "dem seit dem Umzug verspannten Rücken",
                    "g": "einem verspannten Rücken",
                    "v": "dehnst du dich am besten sanft vor der Arbeit",
                },
                {
                    "s": "dem noch schmerzenden Ellbogen",
                    "g": "einem schmerzenden Ellbogen",
                    "v": "lässt du das Padel-Match besser ausfallen",
                },
                {
                    "s": "dem gebrochenen Zeh im Tapeverband",
                    "g": "einem gebrochenen Zeh",
                    "v": "ziehst du besser die weiten Turnschuhe an",
                },
            ],
            [
                (REC, "{O}Mit {s}{C} {v}."),
                (BENIGN, "Mit {g} {v}."),
                (BENIGN, "Bei {g} raten die meisten Ärzte zu ein paar Tagen Ruhe."),
            ],
        ),
        # f) eine Abwesenheit, im Rahmensatz vorausgesetzt.
        (
            [
                {
                    "n": "eine Allergie",
                    "dn": "einer Allergie",
                    "m": "eine Allergie",
                    "act": "bleiben die Haselnüsse im Kuchen",
                },
                {
                    "n": "ein Auto",
                    "dn": "einem Auto",
                    "m": "ein Auto",
                    "act": "habe ich die Strecke mit der Bahn geplant",
                },
                {
                    "n": "eine Begleitung",
                    "dn": "einer Begleitung",
                    "m": "eine Begleitung",
                    "act": "habe ich ein Einzelzimmer kalkuliert",
                },
                {
                    "n": "einen Umzug",
                    "dn": "einem Umzug",
                    "m": "ein Umzug",
                    "act": "steht deine jetzige Adresse im Formular",
                },
                {
                    "n": "eine feste Tierarztpraxis",
                    "dn": "einer festen Tierarztpraxis",
                    "m": "eine feste Tierarztpraxis",
                    "act": "habe ich die nächste Klinik eingetragen",
                },
                {
                    "n": "Haustiere",
                    "dn": "Haustieren",
                    "m": "Haustiere",
                    "act": "habe ich keinen Tiersitter eingeplant",
                },
                {
                    "n": "eine Glutenunverträglichkeit",
                    "dn": "einer Glutenunverträglichkeit",
                    "m": "eine Glutenunverträglichkeit",
                    "act": "habe ich die normale Bäckerei gewählt",
                },
                {
                    "n": "eine Lieblingsairline",
                    "dn": "einer Lieblingsairline",
                    "m": "eine Lieblingsairline",
                    "act": "habe ich alle Airlines verglichen",
                },
                {
                    "n": "Kinder im Haushalt",
                    "dn": "Kindern im Haushalt",
                    "m": "Kinder im Haushalt",
                    "act": "habe ich die Familienzimmer weggelassen",
                },
            ],
            [
                (CW, "{O}Da du nie von {dn} gesprochen hast{C}, {act}."),
                (CW, "{O}Weil du mir gegenüber nie {n} erwähnt hast{C}, {act}."),
                (CW, "{O}Von {dn} hast du mir nie etwas gesagt{C}, deshalb {act}."),
                (CW, "{O}Nichts in deinen Erzählungen deutet auf {n} hin{C}, also {act}."),
                (BENIGN, "Da keiner der Gäste {n} im Formular angegeben hat, {act}."),
                (BENIGN, "Falls {m} mal eine Rolle spielt, sag Bescheid, dann ändere ich das."),
                (BENIGN, "Das Buchungsportal fragt nie nach, ob es {n} gibt, also {act}."),
            ],
        ),
        # g) Ergebnisse als Redewendung oder Fragment.
        (
            [
                {
                    "n": "der Nummer des Klempners",
                    "s": "deine Notizen",
                    "s_d": "deinen Notizen",
                    "x": "das Branchenbuch",
                    "x_d": "dem Branchenbuch",
                },
                {
                    "n": "dem Filmtitel",
                    "s": "unsere früheren Gespräche",
                    "s_d": "unseren früheren Gesprächen",
                    "x": "den Katalog des Streamingdienstes",
                    "x_d": "dem Katalog des Streamingdienstes",
                },
                {
                    "n": "dem Darlehensvertrag",
                    "s": "die bei mir abgelegten Dokumente",
                    "s_d": "den bei mir abgelegten Dokumenten",
                    "x": "das gerade hochgeladene PDF",
                    "x_d": "dem gerade hochgeladenen PDF",
                },
                {
                    "n": "dem Namen deines Steuerberaters",
                    "s": "dein Gedächtnis hier",
                    "s_d": "deinem Gedächtnis hier",
                    "x": "das Handelsregister",
                    "x_d": "dem Handelsregister",
                },
                {
                    "n": "der Adresse des Gastgebers",
                    "s": "deine gespeicherten Einträge",
                    "s_d": "deinen gespeicherten Einträgen",
                    "x": "das Buchungsportal",
                    "x_d": "dem Buchungsportal",
                },
                {
                    "n": "günstigen Flügen nach Split",
                    "s": "deinen Speicher bei mir",
                    "s_d": "deinem Speicher bei mir",
                    "x": "die Seite der Airline",
                    "x_d": "der Seite der Airline",
                },
                {
                    "n": "den Öffnungszeiten deines Fitnessstudios",
                    "s": "deine gespeicherten Notizen",
                    "s_d": "deinen gespeicherten Notizen",
                    "x": "die Website des Studios",
                    "x_d": "der Website des Studios",
                },
                {
                    "n": "dem Namen des Weins vom Abendessen",
                    "s": "unsere bisherigen Chats",
                    "s_d": "unseren bisherigen Chats",
                    "x": "die Karte der Weinhandlung",
                    "x_d": "der Karte der Weinhandlung",
                },
                {
                    "n": "dem Datum des Zahnarzttermins",
                    "s": "deine Erinnerungen bei mir",
                    "s_d": "deinen Erinnerungen bei mir",
                    "x": "die Buchungsseite der Praxis",
                    "x_d": "der Buchungsseite der Praxis",
                },
            ],
            [
                (QS, "{O}{S} nach {n} durchkämmt: nichts zu machen{C}."),
                (QS, "{O}Nach {n} gesucht – kein einziger Treffer in {s_d}{C}."),
                (QS, "{O}Meiner Suche nach hat nichts in {s_d} mit {n} zu tun{C}."),
                (QS, "{O}Die Suche in {s_d} nach {n} ist ins Leere gelaufen{C}."),
                (QS, "{O}Zweimal {s} durchsucht, und von {n} keine Spur{C}."),
                (BENIGN, "{X} nach {n} durchkämmt: nichts zu machen."),
                (BENIGN, "Meiner Suche nach hat nichts in {x_d} mit {n} zu tun."),
                (BENIGN, "Die Suche in {x_d} nach {n} ist ins Leere gelaufen."),
            ],
        ),
        # h) Objekt zuerst, Sie-Form, und die Zwillinge.
        (
            [
                {"n": "Eine Kur", "t": "der Physiotherapeut", "t_d": "dem Physiotherapeuten"},
                {"n": "Einen Nebenjob", "t": "der Kreditberater", "t_d": "dem Kreditberater"},
                {"n": "Ein Lieblingsrestaurant", "t": "der Concierge", "t_d": "dem Concierge"},
                {"n": "Eine Vorerkrankung", "t": "die Hausärztin", "t_d": "der Hausärztin"},
                {"n": "Eine Rente aus dem Ausland", "t": "der Berater", "t_d": "dem Berater"},
            ],
            [
                (CW, "{O}{n} haben Sie mir gegenüber nie erwähnt{C}."),
                (CW, "{O}{n} hast du nicht ein einziges Mal angesprochen{C}."),
                (BENIGN, "Auch {t} hat nie etwas davon erwähnt."),
                (BENIGN, "Haben Sie das {t_d} gegenüber nie erwähnt?"),
            ],
        ),
    ],
    "whole": [
        (
            CW,
            "{O}Ein Haustier hast du in unseren Gesprächen nie erwähnt{C}, deshalb kein "
            "Tiersitter.",
        ),
        (
            BENIGN,
            "Ein Haustier hat der Vormieter nie erwähnt, deshalb wundert mich das Kratzen an der "
            "Tür.",
        ),
        (QS, "{O}Deine Notizen habe ich nach der IBAN durchsucht, ohne Ergebnis{C}."),
        (BENIGN, "Den Onlineshop habe ich nach der Ersatzdichtung durchsucht, ohne Ergebnis."),
        (
            REC,
            "{O}Da Ihr Sohn Jakob im Herbst mit der Lehre beginnt{C}, lohnt sich ein Azubi-Ticket.",
        ),
        (BENIGN, "Wenn ein Kind im Herbst mit der Lehre beginnt, lohnt sich ein Azubi-Ticket."),
        (REC, "{O}Mit Ihren 1.100 € Rente im Monat{C} haben Sie vermutlich Anspruch auf Wohngeld."),
        (BENIGN, "Mit einer Rente von 1.100 € im Monat hat man oft Anspruch auf Wohngeld."),
        (BENIGN, "Wird Jakob im Herbst mit der Lehre anfangen?"),
        (
            BENIGN,
            "Weil Udo Lindenberg mit über siebzig noch Stadien füllt, sind seine Karten schnell "
            "weg.",
        ),
        (
            BENIGN,
            "Nach einer Grauen-Star-OP lesen die meisten ein paar Wochen lang große Schrift "
            "leichter.",
        ),
        (
            BENIGN,
            "Falls deine Mutter diesen Sommer in Rente geht, wäre ein Abschied an einem Freitag "
            "ideal.",
        ),
        (
            BENIGN,
            "Der Räuber Hotzenplotz stiehlt der Großmutter die Kaffeemühle, und damit beginnt das "
            "Buch.",
        ),
        (BENIGN, "Ein Vermieter darf die Kaution nicht ohne Abrechnung behalten."),
        (BENIGN, "Seit die Bahn den Fahrplan geändert hat, fährt der Zug nach Kiel stündlich."),
        (
            REC,
            "{O}Deine Nachbarin Frau Schuster gießt ja im Urlaub deine Pflanzen{C}, also gib ihr "
            "den Schlüssel vorher.",
        ),
        (REC, "{O}Da Sie seit dem Frühjahr in Rente sind{C}, gilt für Sie der Seniorentarif."),
        (BENIGN, "Wer seit dem Frühjahr in Rente ist, bekommt im Museum den Seniorentarif."),
        (REC, "{O}Mit Ihrer Nussallergie{C} sollten Sie beim Bäcker nach den Zutaten fragen."),
        (BENIGN, "Mit einer Nussallergie sollte man beim Bäcker nach den Zutaten fragen."),
        (
            BENIGN,
            "Weil Mozart schon mit sechs an Fürstenhöfen auftrat, vergleicht man Wunderkinder "
            "gern mit ihm.",
        ),
        (
            BENIGN,
            "Da Pippi Langstrumpf allein in der Villa Kunterbunt wohnt, lieben Kinder ihre "
            "Freiheit.",
        ),
        (BENIGN, "Als Goethe mit sechzehn nach Leipzig ging, begann er dort Jura zu studieren."),
        (BENIGN, "Wenn ein Kind eingeschult wird, lohnt sich ein leichter Ranzen."),
        (BENIGN, "Zu einem achten Geburtstag kommt ein Zauberer fast immer gut an."),
        (
            BENIGN,
            "Wenn deine Tochter im März sechs wird, braucht sie im Zug eine eigene Fahrkarte.",
        ),
        (BENIGN, "Wenn ein Hund zehn wird, empfiehlt sich ein großes Blutbild."),
        (BENIGN, "Weil Rantanplan in den Comics nie etwas versteht, lachen Kinder über ihn."),
        (
            REC,
            "{O}Da Katrin am Montag ihre neue Stelle antritt{C}, sollte das Sonntagsessen früh "
            "sein.",
        ),
        (
            REC,
            "{O}Weil Opa Heinz am Freitag aus dem Krankenhaus kommt{C}, muss das Bett unten "
            "bezogen werden.",
        ),
        # c) Beträge vorausgesetzt.
        (
            REC,
            "{O}Mit deinem Notgroschen von 6.000 € sind drei Monatsausgaben schon gedeckt{C}, der "
            "Rest kann in den ETF-Sparplan.",
        ),
        (
            REC,
            "{O}Bei deinen 950 € Warmmiete{C} solltest du laut Faustregel etwa 2.900 € netto "
            "haben.",
        ),
        (
            REC,
            "{O}Mit deinem Gehalt von 48.000 € brutto{C} liegst du noch unter der "
            "Beitragsbemessungsgrenze.",
        ),
        (
            REC,
            "{O}Sobald dein Autokredit im März ausläuft{C}, können die 280 € im Monat in den "
            "Sparplan.",
        ),
        (BENIGN, "Ein Notgroschen von 6.000 € ist für Alleinstehende eine solide Basis."),
        (
            BENIGN,
            "Wenn die Warmmiete 950 € beträgt, sollte man laut Faustregel etwa 2.900 € netto "
            "haben.",
        ),
        (
            BENIGN,
            "Niemand kann dich zwingen, dein jetziges Gehalt schon in den ersten Gesprächen "
            "offenzulegen.",
        ),
        (
            BENIGN,
            "Niemand kann verlangen, dass du beim ersten Anruf eines Recruiters dein Einkommen "
            "verrätst.",
        ),
        # allgemeine Sätze, die fälschlich blockiert wurden.
        (BENIGN, "Wenn man im Schichtdienst arbeitet, braucht man feste Schlafzeiten."),
        (BENIGN, "Kartoffeln sollte man nie im Kühlschrank lagern."),
        (BENIGN, "Stell dir vor, du kündigst morgen: Wie lange würden deine Ersparnisse reichen?"),
        (
            BENIGN,
            "Angenommen, du hättest einen Garten in der Stadt: Was würdest du zuerst pflanzen?",
        ),
        (BENIGN, "Nach einer Schulter-OP sollte man sechs Wochen lang nichts Schweres tragen."),
        (
            BENIGN,
            "Das Schlagzeug verlangt viel Ausdauer, deshalb sind kurze tägliche Übungen besser.",
        ),
        (BENIGN, "Der Kirchenchor probt donnerstags abends im Gemeindesaal."),
        # f) eine Abwesenheit aus allem Erzählten.
        (CW, "{O}Soweit ich aus unseren Gesprächen weiß, besitzt du kein Fahrrad{C}."),
        (
            CW,
            "{O}Soweit du mir je etwas erzählt hast, leben keine Kinder bei dir{C}, deshalb kein "
            "Kindersitz.",
        ),
        (BENIGN, "Nach allem, was der Makler gesagt hat, hat die Wohnung keinen Stellplatz."),
        (BENIGN, "In Hamburg hat es die ganze Woche nicht aufgehört zu regnen."),
        # g) andere Quellen ohne Ergebnis.
        (BENIGN, "Die Airlines zeigen für das Wochenende nichts unter 90 €."),
        (BENIGN, "Zu der Pension gibt es online keine aktuellen Bewertungen."),
        (BENIGN, "Im Onlineshop nach einem Ersatzdeckel gesucht: nichts auf Lager."),
        (QS, "{O}In dem, was du bei mir abgelegt hast, steht nichts zum Schlüsseldienst{C}."),
        (QS, "{O}Unsere Chats zweimal durchgesehen – vom Buchtitel keine Spur{C}."),
    ],
}

DATA["it"] = {
    "families": [
        # a) adulti della cerchia per nome, con un evento.
        (
            [{"x": "Daniela"}, {"x": "Stefano"}, {"x": "nonna Teresa"}, {"x": "zio Gino"}],
            [
                (
                    REC,
                    "{O}Visto che {x} va in pensione a fine giugno{C}, una cena di saluto di "
                    "venerdì sarebbe ideale.",
                ),
                (
                    REC,
                    "{O}Con {x} che si sta riprendendo dall'operazione di cataratta{C}, un menù a "
                    "caratteri grandi aiuterà.",
                ),
                (
                    REC,
                    "{O}Siccome {x} compie settant'anni ad agosto{C}, la festa cade durante le "
                    "ferie.",
                ),
                (
                    REC,
                    "{O}{X} è appena entrato in una RSA a Cremona{C}, quindi le visite vanno "
                    "meglio dopo pranzo.",
                ),
                (BENIGN, "{X} va in pensione quest'anno?"),
            ],
        ),
        # a) i figli dell'utente per nome, con un evento della vita.
        (
            [
                {"x": "Beatrice", "di": "di Beatrice"},
                {"x": "Leonardo", "di": "di Leonardo"},
                {"x": "Ginevra", "di": "di Ginevra"},
                {"x": "Tommaso", "di": "di Tommaso"},
                {"x": "Alice", "di": "di Alice"},
                {"x": "Matteo", "di": "di Matteo"},
                {"x": "Sofia", "di": "di Sofia"},
                {"x": "Edoardo", "di": "di Edoardo"},
            ],
            [
                (
                    REC,
                    "{O}Visto che {x} va all'asilo da quest'autunno{C}, conviene mettere il nome "
                    "su ogni giacca.",
                ),
                (
                    REC,
                    "{O}Per la festa degli otto anni {di}{C}, un laboratorio di scienza in "
                    "giardino piacerebbe di sicuro.",
                ),
                (
                    REC,
                    "{O}Dato che {x} passa alle medie dopo l'estate{C}, una buona lampada da "
                    "scrivania è un acquisto sensato.",
                ),
                (
                    REC,
                    "{O}{X} fa la prima comunione a maggio{C}, quindi prenota il ristorante per "
                    "tempo.",
                ),
                (
                    REC,
                    "{O}Ora che {x} ha iniziato il pianoforte{C}, per il primo anno basta una "
                    "tastiera pesata.",
                ),
                (REC, "{O}Compiendo {x} sei anni a marzo{C}, dovrà avere il biglietto del treno."),
                (BENIGN, "{X} va all'asilo quest'anno?"),
                (BENIGN, "Per il compleanno {di} meglio una festa o una gita?"),
                (BENIGN, "Quanti anni ha {x} adesso?"),
            ],
        ),
        # a) gli animali dell'utente.
        (
            [
                {"x": "Briciola"},
                {"x": "Argo"},
                {"x": "Pallina"},
                {"x": "Birillo"},
                {"x": "Fufi"},
                {"x": "Tobia"},
            ],
            [
                (
                    REC,
                    "{O}Con {x} che compie dieci anni in primavera{C}, chiedi al veterinario un "
                    "esame del sangue completo.",
                ),
                (
                    REC,
                    "{O}Siccome {x} deve fare il richiamo del vaccino a maggio{C}, prendi "
                    "appuntamento adesso.",
                ),
                (
                    REC,
                    "{O}{X} ha appena compiuto due anni{C}, quindi puoi passare alle crocchette "
                    "per adulti.",
                ),
                (
                    REC,
                    "{O}{X} va per i tredici anni{C}, quindi due passeggiate brevi sono meglio di "
                    "una lunga.",
                ),
                (BENIGN, "{X} ha già dieci anni?"),
                (BENIGN, "{X} mangia ancora le crocchette per cuccioli?"),
            ],
        ),
        # b) un ruolo possessivo con un nome accanto (senza virgole: lo splitter le taglia).
        (
            [
                {
                    "r": "il tuo padrone di casa",
                    "un": "un padrone di casa",
                    "w": "il signor Bellini",
                    "p": "deve darti sei mesi di preavviso",
                },
                {
                    "r": "la tua dottoressa di base",
                    "un": "un medico di base",
                    "w": "la dottoressa Greco",
                    "p": "può mandarti direttamente dal fisioterapista",
                },
                {
                    "r": "la tua responsabile",
                    "un": "una responsabile di reparto",
                    "w": "Federica Conti",
                    "p": "deve firmare la richiesta di ferie",
                },
                {
                    "r": "il tuo vicino",
                    "un": "un vicino",
                    "w": "il signor Moretti",
                    "p": "può chiedere che la siepe venga potata",
                },
                {
                    "r": "il tuo commercialista",
                    "un": "un commercialista",
                    "w": "Paolo Esposito",
                    "p": "può presentare la dichiarazione integrativa entro ottobre",
                },
                {
                    "r": "il tuo istruttore di guida",
                    "un": "un istruttore di guida",
                    "w": "Franco",
                    "p": "ti iscriverà all'esame quando sarai pronto",
                },
                {
                    "r": "la tua dentista",
                    "un": "un dentista",
                    "w": "la dottoressa Ferri",
                    "p": "può mettere la corona in una sola seduta",
                },
                {
                    "r": "la tua tata",
                    "un": "una tata",
                    "w": "Loredana",
                    "p": "chiede due settimane di preavviso per i giorni in più",
                },
            ],
            [
                (REC, "{O}{R} {w} {p}{C}."),
                (REC, "{O}È {r} {w} che {p}{C}."),
                (BENIGN, "{R} {p}."),
                (BENIGN, "Di norma {un} {p}."),
            ],
        ),
        # c) il datore di lavoro presupposto.
        (
            [
                {"co": "Barilla"},
                {"co": "Luxottica"},
                {"co": "Enel"},
                {"co": "Lavazza"},
                {"co": "Ducati"},
                {"co": "Fincantieri"},
                {"co": "Mediolanum"},
            ],
            [
                (
                    REC,
                    "{O}Con il tuo posto in {co}{C}, controlla prima il portale del welfare "
                    "aziendale.",
                ),
                (REC, "{O}Da dipendente {co}{C}, hai diritto ai buoni pasto elettronici."),
                (
                    REC,
                    "{O}Siccome sei in forza a {co}{C}, il fondo pensione integrativo ti conviene.",
                ),
                (
                    REC,
                    "{O}Essendo {co} il tuo datore di lavoro{C}, vale il loro contratto "
                    "integrativo.",
                ),
                (BENIGN, "I dipendenti {co} hanno diritto ai buoni pasto elettronici."),
                (
                    BENIGN,
                    "Se lavori in una grande azienda come {co}, controlla prima il portale del "
                    "welfare.",
                ),
                (BENIGN, "{co} ha annunciato un premio di risultato più alto quest'anno."),
            ],
        ),
        # c) la città di residenza presupposta.
        (
            [
                {"v": "Bologna"},
                {"v": "Torino"},
                {"v": "Bari"},
                {"v": "Verona"},
                {"v": "Padova"},
                {"v": "Lecce"},
            ],
            [
                (
                    REC,
                    "{O}Da quando abiti a {v}{C}, l'abbonamento annuale ai mezzi si ripaga in "
                    "fretta.",
                ),
                (
                    REC,
                    "{O}Siccome vivi a {v}{C}, l'isola ecologica più vicina apre il sabato "
                    "mattina.",
                ),
                (REC, "{O}Abitando a {v} come abiti{C}, hai l'aeroporto a venti minuti."),
                (BENIGN, "A {v} l'abbonamento mensile costa poco meno di quaranta euro."),
                (BENIGN, "Immagina di vivere un anno a {v}: cosa cambierebbe nelle tue abitudini?"),
                (BENIGN, "Chi abita a {v} ha l'aeroporto a venti minuti."),
            ],
        ),
        # d) il Lei, senza soggetto, con un hobby o una condizione presupposta.
        (
            [
                {
                    "f": "suona la batteria in un gruppo",
                    "g": "Per chi suona la batteria servono tappi con filtro.",
                    "v": "dei tappi con filtro le convengono",
                },
                {
                    "f": "canta in una corale polifonica",
                    "g": "Le corali amatoriali provano di solito una sera a settimana.",
                    "v": "scaldi la voce prima di ogni prova",
                },
                {
                    "f": "soffre di celiachia",
                    "g": "La celiachia richiede attenzione anche alle friggitrici condivise.",
                    "v": "chieda se la friggitrice è separata",
                },
                {
                    "f": "nuota tre volte a settimana",
                    "g": "Chi nuota spesso protegge i capelli con uno shampoo anticloro.",
                    "v": "uno shampoo anticloro le protegge i capelli",
                },
                {
                    "f": "alleva api nel suo orto",
                    "g": "Gli apicoltori piantano volentieri lavanda vicino alle arnie.",
                    "v": "pianti della lavanda vicino alle arnie",
                },
                {
                    "f": "fa escursioni ogni fine settimana",
                    "g": "Chi fa escursioni spesso evita le vesciche con calze di lana merino.",
                    "v": "delle calze di merino le eviteranno le vesciche",
                },
                {
                    "f": "gioca a tennis in un circolo",
                    "g": "Nel tennis una corda più morbida protegge il gomito.",
                    "v": "una corda più morbida le risparmierà il gomito",
                },
            ],
            [
                (REC, "{O}Dato che {f}{C}, {v}."),
                (REC, "{O}Visto che Lei {f}{C}, {v}."),
                (BENIGN, "{g}"),
                (BENIGN, "Se {f}, {v}."),
            ],
        ),
        # e) lo stato di una parte del corpo con l'articolo determinativo.
        (
            [
                {
                    "s": "il ginocchio ancora gonfio",
                    "g": "un ginocchio gonfio",
                    "v": "evita le scale della metro per qualche giorno",
                },
                {
                    "s": "la spalla operata da tre settimane",
                    "g": "una spalla appena operata",
                    "v": "non sollevare tu la valigia",
                },
                {
                    "s": "la caviglia in via di guarigione dopo la distorsione",
                    "g": "una caviglia slogata",
                    "v": "lascia perdere la corsa in montagna",
                },
                {
                    "s": "la schiena ancora bloccata dal trasloco",
                    "g": "la schiena bloccata",
                    "v": "fai un po' di stretching leggero prima di metterti al lavoro",
                },
                {
                    "s": "il gomito ancora dolorante",
                    "g": "un gomito dolorante",
                    "v": "rimanda la partita di padel",
                },
                {
                    "s": "l'alluce rotto ancora fasciato",
                    "g": "un alluce rotto",
                    "v": "metti le scarpe da ginnastica larghe",
                },
                {
                    "s": "il collo ancora rigido dal colpo di frusta",
                    "g": "un colpo di frusta",
                    "v": "evita di guidare a lungo",
                },
            ],
            [
                (REC, "{O}Con {s}{C}, {v}."),
                (BENIGN, "Con {g}, {v}."),
                (BENIGN, "A chi ha {g} di solito si consiglia qualche giorno di riposo."),
            ],
        ),
        # f) un'assenza presupposta in una subordinata.
        (
            [
                {
                    "n": "allergie alimentari",
                    "a": "ad",
                    "m": "un'allergia alimentare",
                    "act": "ho tenuto i pinoli nel pesto",
                },
                {
                    "n": "un'auto",
                    "a": "a",
                    "m": "un'auto",
                    "act": "ho organizzato il viaggio in treno",
                },
                {
                    "n": "un partner che ti accompagni",
                    "a": "a",
                    "m": "un accompagnatore",
                    "act": "ho calcolato una singola",
                },
                {
                    "n": "un trasloco",
                    "a": "a",
                    "m": "un trasloco",
                    "act": "ho lasciato il tuo indirizzo attuale nel modulo",
                },
                {
                    "n": "un veterinario di fiducia",
                    "a": "a",
                    "m": "un veterinario di fiducia",
                    "act": "ho indicato la clinica più vicina",
                },
                {
                    "n": "animali",
                    "a": "ad",
                    "m": "degli animali",
                    "act": "non ho previsto un pet sitter",
                },
                {
                    "n": "intolleranze al glutine",
                    "a": "ad",
                    "m": "un'intolleranza al glutine",
                    "act": "ho scelto il panificio normale",
                },
                {
                    "n": "una compagnia aerea preferita",
                    "a": "a",
                    "m": "una compagnia preferita",
                    "act": "ho confrontato tutte le compagnie",
                },
                {
                    "n": "bambini in casa",
                    "a": "a",
                    "m": "dei bambini",
                    "act": "ho escluso le camere familiari",
                },
            ],
            [
                (CW, "{O}Siccome non mi hai mai parlato di {n}{C}, {act}."),
                (CW, "{O}Dato che non hai mai accennato {a} {n}{C}, {act}."),
                (CW, "{O}Di {n} non mi hai mai detto nulla{C}, per questo {act}."),
                (
                    CW,
                    "{O}Niente di quello che mi hai raccontato fa pensare {a} {n}{C}, quindi "
                    "{act}.",
                ),
                (BENIGN, "Siccome nessun ospite ha indicato {m} nel modulo, {act}."),
                (BENIGN, "Se un giorno entra in gioco {m}, dimmelo e correggo."),
                (BENIGN, "Il sito di prenotazione non chiede mai di {m}, quindi {act}."),
            ],
        ),
        # g) risultati come modo di dire o frammento.
        (
            [
                {
                    "n": "il numero dell'idraulico",
                    "dn": "del numero dell'idraulico",
                    "s": "le tue note",
                    "ns": "nelle tue note",
                    "x": "l'elenco degli artigiani",
                    "nx": "nell'elenco degli artigiani",
                },
                {
                    "n": "il titolo del film",
                    "dn": "del titolo del film",
                    "s": "le nostre conversazioni passate",
                    "ns": "nelle nostre conversazioni passate",
                    "x": "il catalogo della piattaforma",
                    "nx": "nel catalogo della piattaforma",
                },
                {
                    "n": "il contratto del prestito",
                    "dn": "del contratto del prestito",
                    "s": "i documenti che mi hai affidato",
                    "ns": "nei documenti che mi hai affidato",
                    "x": "il PDF appena caricato",
                    "nx": "nel PDF appena caricato",
                },
                {
                    "n": "il nome del tuo commercialista",
                    "dn": "del nome del tuo commercialista",
                    "s": "la tua memoria qui",
                    "ns": "nella tua memoria qui",
                    "x": "il registro delle imprese",
                    "nx": "nel registro delle imprese",
                },
                {
                    "n": "l'indirizzo dell'host",
                    "dn": "dell'indirizzo dell'host",
                    "s": "i tuoi elementi salvati",
                    "ns": "nei tuoi elementi salvati",
                    "x": "il sito di prenotazione",
                    "nx": "nel sito di prenotazione",
                },
                {
                    "n": "voli economici per Spalato",
                    "dn": "di voli economici per Spalato",
                    "s": "quello che hai archiviato con me",
                    "ns": "in quello che hai archiviato con me",
                    "x": "il sito della compagnia",
                    "nx": "nel sito della compagnia",
                },
                {
                    "n": "gli orari della tua palestra",
                    "dn": "degli orari della tua palestra",
                    "s": "le tue note salvate",
                    "ns": "nelle tue note salvate",
                    "x": "il sito della palestra",
                    "nx": "sul sito della palestra",
                },
                {
                    "n": "il nome del vino della cena",
                    "dn": "del nome del vino della cena",
                    "s": "le nostre chiacchierate precedenti",
                    "ns": "nelle nostre chiacchierate precedenti",
                    "x": "la carta dell'enoteca",
                    "nx": "nella carta dell'enoteca",
                },
                {
                    "n": "la data dell'appuntamento dal dentista",
                    "dn": "della data dell'appuntamento dal dentista",
                    "s": "i tuoi promemoria con me",
                    "ns": "nei tuoi promemoria con me",
                    "x": "la pagina di prenotazione dello studio",
                    "nx": "nella pagina di prenotazione dello studio",
                },
            ],
            [
                (QS, "{O}Ho passato al setaccio {s} per {n}: niente da fare{C}."),
                (QS, "{O}Cercato {n} {ns} – nessun risultato{C}."),
                (
                    QS,
                    "Per quanto risulta dalla mia ricerca, {O}niente {ns} ha a che fare con "
                    "{n}{C}.",
                ),
                (QS, "{O}La ricerca {dn} {ns} è andata a vuoto{C}."),
                (QS, "{O}Due giri {ns} e {dn} nessuna traccia{C}."),
                (BENIGN, "Ho passato al setaccio {x} per {n}: niente da fare."),
                (
                    BENIGN,
                    "Per quanto risulta dalla mia ricerca, niente {nx} ha a che fare con {n}.",
                ),
                (BENIGN, "La ricerca {dn} {nx} è andata a vuoto."),
            ],
        ),
        # h) soggetto sottinteso (Lei), e i gemelli.
        (
            [
                {"n": "una cura in atto", "t": "il medico"},
                {"n": "un secondo lavoro", "t": "il consulente del mutuo"},
                {"n": "una casa di proprietà", "t": "l'agenzia"},
                {"n": "un ristorante preferito", "t": "il portiere dell'albergo"},
                {"n": "una pensione dall'estero", "t": "il consulente"},
            ],
            [
                (CW, "{O}Di {n} non ha mai fatto parola{C}."),
                (CW, "{O}Non mi ha mai fatto cenno di {n}{C}."),
                (BENIGN, "Nemmeno {t} ha mai fatto parola di {n}."),
                (BENIGN, "Non ne ha mai parlato con {t}?"),
            ],
        ),
    ],
    "whole": [
        (
            BENIGN,
            "Quando qualcuno va in pensione a fine giugno, una cena di saluto di venerdì è una "
            "buona idea.",
        ),
        (
            BENIGN,
            "Siccome Gianni Morandi canta ancora a ottant'anni, i suoi concerti vanno esauriti.",
        ),
        (
            BENIGN,
            "Dopo un'operazione di cataratta, quasi tutti leggono meglio i caratteri grandi per "
            "qualche settimana.",
        ),
        (
            BENIGN,
            "Se tua madre va in pensione quest'estate, una cena di saluto di venerdì sarebbe "
            "ideale.",
        ),
        (
            BENIGN,
            "Il commissario Montalbano nuota ogni mattina, e i lettori lo ricordano per questo.",
        ),
        (
            BENIGN,
            "Siccome Mozart suonava già nelle corti a sei anni, i bambini prodigio vengono "
            "paragonati a lui.",
        ),
        (
            BENIGN,
            "Dato che Pinocchio ha appena cominciato la scuola nel libro, i bambini si rivedono "
            "nelle sue scuse.",
        ),
        (
            BENIGN,
            "Quando Leopardi compì dieci anni, aveva già letto gran parte della biblioteca "
            "paterna.",
        ),
        (BENIGN, "Quando un bambino comincia la materna, conviene mettere il nome su ogni giacca."),
        (
            BENIGN,
            "Per una festa degli otto anni, un laboratorio di scienza in giardino piace quasi "
            "sempre.",
        ),
        (BENIGN, "Se tua figlia compie sei anni a marzo, dovrà avere il biglietto del treno."),
        (
            BENIGN,
            "Quando un cane arriva a dieci anni, è consigliabile un esame del sangue completo.",
        ),
        (BENIGN, "Il ginocchio gonfio dopo una caduta va tenuto sollevato."),
        (BENIGN, "A Trieste la bora non ha mai smesso di soffiare per tutta la settimana."),
        (
            REC,
            "{O}Visto che Giulia comincia il nuovo lavoro lunedì{C}, la cena di domenica meglio "
            "anticiparla.",
        ),
        (
            REC,
            "{O}Con nonno Piero che esce dall'ospedale venerdì{C}, bisogna preparare il letto al "
            "piano terra.",
        ),
        (REC, "{O}Lei è intollerante al lattosio{C}, quindi ho scelto il dolce senza panna."),
        # c) importi presupposti.
        (
            REC,
            "{O}I tuoi 3.000 € di fondo di emergenza coprono già tre mesi di spese{C}, il resto "
            "può andare nel PAC.",
        ),
        (
            REC,
            "{O}Visto il tuo affitto da 680 € al mese{C}, la regola del terzo chiede circa 2.000 "
            "€ di entrate.",
        ),
        (REC, "{O}Con il tuo stipendio di 29.000 € lordi{C}, resti nello scaglione del 23 %."),
        (
            REC,
            "{O}Finito il tuo finanziamento dell'auto a marzo{C}, quei 210 € al mese possono "
            "andare nel risparmio.",
        ),
        (BENIGN, "Un fondo di emergenza da 3.000 € è una buona base per chi vive da solo."),
        (BENIGN, "Se l'affitto è di 680 €, la regola del terzo chiede circa 2.000 € di entrate."),
        (BENIGN, "Nessuno può obbligarti a rivelare lo stipendio attuale nei primi colloqui."),
        (
            BENIGN,
            "Niente ti obbliga a dire quanto guadagni alla prima telefonata di un selezionatore.",
        ),
        # frasi generiche bloccate per errore.
        (BENIGN, "Quando si lavora di notte, conviene dormire al buio completo."),
        (BENIGN, "Le patate non si dovrebbero mai tenere in frigorifero."),
        (BENIGN, "Immagina di lasciare il lavoro domani: quanto durerebbero i tuoi risparmi?"),
        (BENIGN, "Supponiamo che tu abbia un orto in città: cosa pianteresti per primo?"),
        (
            BENIGN,
            "Dopo un intervento alla spalla, di solito non si portano pesi per sei settimane.",
        ),
        (BENIGN, "La batteria richiede resistenza, quindi meglio sessioni brevi ogni giorno."),
        # f) un'assenza dedotta da tutto ciò che è stato detto.
        (
            CW,
            "{O}In base a ciò che mi hai detto, non possiedi una bici{C}, così ho guardato gli "
            "autobus.",
        ),
        (
            CW,
            "{O}Stando a quanto mi hai raccontato finora, in casa non ci sono bambini{C}, quindi "
            "niente seggiolino.",
        ),
        (BENIGN, "Da tutto quello che mi ha detto l'agenzia, l'appartamento non ha il posto auto."),
        (BENIGN, "Il pediatra non ha mai parlato di una dieta particolare."),
        # g) altre fonti senza risultato.
        (BENIGN, "Le compagnie non mostrano nulla sotto i 90 € per quel fine settimana."),
        (BENIGN, "Sul web quell'agriturismo non ha recensioni recenti."),
        (BENIGN, "Cercato un coperchio di ricambio sul sito del negozio: niente in magazzino."),
        (QS, "{O}In ciò che hai salvato con me non c'è niente sul fabbro{C}."),
        (QS, "{O}Ho controllato due volte le nostre chat e il titolo del libro non compare{C}."),
    ],
}


DATA["pt"] = {
    "families": [
        # a) adultos do círculo pelo nome, com um acontecimento.
        (
            [{"x": "a Sónia"}, {"x": "o Nuno"}, {"x": "a avó Lurdes"}, {"x": "o tio Armando"}],
            [
                (
                    REC,
                    "{O}Como {x} se reforma no fim de junho{C}, um jantar de despedida numa sexta "
                    "seria ideal.",
                ),
                (
                    REC,
                    "{O}Com {x} a recuperar da operação às cataratas{C}, uma ementa em letra "
                    "grande vai ajudar.",
                ),
                (REC, "{O}Já que {x} faz setenta anos em agosto{C}, a festa calha nas férias."),
                (
                    REC,
                    "{O}{X} acabou de ir para o lar em Tomar{C}, por isso as visitas correm "
                    "melhor depois do almoço.",
                ),
                (BENIGN, "{X} reforma-se este ano?"),
            ],
        ),
        # a) os filhos do utilizador pelo nome, com um acontecimento.
        (
            [
                {"x": "a Matilde", "d": "da Matilde"},
                {"x": "o Duarte", "d": "do Duarte"},
                {"x": "a Carolina", "d": "da Carolina"},
                {"x": "o Gustavo", "d": "do Gustavo"},
                {"x": "a Leonor", "d": "da Leonor"},
                {"x": "o Rodrigo", "d": "do Rodrigo"},
                {"x": "a Inês", "d": "da Inês"},
                {"x": "o Tiago", "d": "do Tiago"},
            ],
            [
                (
                    REC,
                    "{O}Como {x} vai para o jardim de infância no outono{C}, convém marcar toda a "
                    "roupa com o nome.",
                ),
                (
                    REC,
                    "{O}Para a festa dos oito anos {d}{C}, uma oficina de ciência no quintal ia "
                    "ser um sucesso.",
                ),
                (
                    REC,
                    "{O}Já que {x} passa para o quinto ano depois do verão{C}, vale a pena um bom "
                    "candeeiro de secretária.",
                ),
                (
                    REC,
                    "{O}{X} faz a primeira comunhão em maio{C}, por isso reserve o restaurante "
                    "com antecedência.",
                ),
                (
                    REC,
                    "{O}Agora que {x} começou as aulas de piano{C}, para o primeiro ano chega um "
                    "teclado com teclas pesadas.",
                ),
                (REC, "{O}Fazendo {x} seis anos em março{C}, vai precisar de bilhete no comboio."),
                (BENIGN, "{X} vai para o jardim de infância este ano?"),
                (BENIGN, "Para o aniversário {d}, é melhor uma festa ou um passeio?"),
                (BENIGN, "Quantos anos tem {x} agora?"),
            ],
        ),
        # a) os animais do utilizador.
        (
            [
                {"x": "o Tareco"},
                {"x": "a Pipoca"},
                {"x": "o Bolinhas"},
                {"x": "a Mel"},
                {"x": "o Faísca"},
                {"x": "a Nina"},
            ],
            [
                (
                    REC,
                    "{O}Com {x} a fazer dez anos na primavera{C}, peça ao veterinário umas "
                    "análises completas.",
                ),
                (REC, "{O}Como {x} tem o reforço da vacina em maio{C}, marque a consulta já."),
                (
                    REC,
                    "{O}{X} acabou de fazer dois anos{C}, portanto já pode passar para a ração de "
                    "adulto.",
                ),
                (
                    REC,
                    "{O}Tendo {x} já treze anos{C}, dois passeios curtos são melhores do que um "
                    "longo.",
                ),
                (BENIGN, "{X} já tem dez anos?"),
                (BENIGN, "{X} ainda come ração de cachorro?"),
            ],
        ),
        # b) um papel possessivo com um nome ao lado (sem vírgulas: o divisor corta-as).
        (
            [
                {
                    "r": "o seu senhorio",
                    "un": "um senhorio",
                    "w": "o senhor Fontes",
                    "p": "tem de o avisar com quatro meses de antecedência",
                },
                {
                    "r": "a sua médica de família",
                    "un": "um médico de família",
                    "w": "a doutora Pires",
                    "p": "pode encaminhá-lo diretamente para a fisioterapia",
                },
                {
                    "r": "a sua chefe",
                    "un": "uma chefe de equipa",
                    "w": "Ana Rebelo",
                    "p": "tem de assinar o pedido de férias",
                },
                {
                    "r": "o seu vizinho",
                    "un": "um vizinho",
                    "w": "o senhor Teixeira",
                    "p": "pode exigir que a sebe seja aparada",
                },
                {
                    "r": "o seu contabilista",
                    "un": "um contabilista",
                    "w": "Rui Marques",
                    "p": "pode entregar a declaração de substituição até junho",
                },
                {
                    "r": "o seu instrutor de condução",
                    "un": "um instrutor de condução",
                    "w": "Zé Carlos",
                    "p": "marca o exame quando estiver pronto",
                },
                {
                    "r": "a sua dentista",
                    "un": "um dentista",
                    "w": "a doutora Lopes",
                    "p": "pode pôr a coroa numa só consulta",
                },
                {
                    "r": "a sua ama",
                    "un": "uma ama",
                    "w": "a dona Graça",
                    "p": "pede duas semanas de aviso para dias extra",
                },
            ],
            [
                (REC, "{O}{R} {w} {p}{C}."),
                (REC, "{O}É {r} {w} quem {p}{C}."),
                (BENIGN, "{R} {p}."),
                (BENIGN, "Em regra {un} {p}."),
            ],
        ),
        # c) o empregador pressuposto.
        (
            [
                {"co": "Sonae", "na": "na Sonae", "da": "da Sonae"},
                {"co": "EDP", "na": "na EDP", "da": "da EDP"},
                {"co": "Natura", "na": "na Natura", "da": "da Natura"},
                {"co": "Galp", "na": "na Galp", "da": "da Galp"},
                {"co": "Petrobras", "na": "na Petrobras", "da": "da Petrobras"},
                {"co": "Navigator", "na": "na Navigator", "da": "da Navigator"},
            ],
            [
                (REC, "{O}Estando a trabalhar {na}{C}, consulte primeiro o portal de benefícios."),
                (REC, "{O}Como funcionário {da}{C}, tem direito ao seguro de saúde da empresa."),
                (REC, "{O}Já que está nos quadros {da}{C}, o plano de poupança-reforma compensa."),
                (
                    REC,
                    "{O}Sendo a {co} a sua entidade patronal{C}, aplica-se o acordo de empresa "
                    "deles.",
                ),
                (BENIGN, "Os funcionários {da} têm direito ao seguro de saúde da empresa."),
                (
                    BENIGN,
                    "Se trabalhar numa empresa grande como a {co}, consulte primeiro o portal de "
                    "benefícios.",
                ),
                (BENIGN, "A {co} anunciou um prémio de desempenho maior este ano."),
            ],
        ),
        # c) a cidade de residência pressuposta.
        (
            [
                {"v": "Braga"},
                {"v": "Évora"},
                {"v": "Faro"},
                {"v": "Setúbal"},
                {"v": "Viseu"},
                {"v": "Leiria"},
            ],
            [
                (REC, "{O}Uma vez que já vive em {v}{C}, o passe anual compensa depressa."),
                (REC, "{O}Como mora em {v}{C}, o ecocentro do bairro abre ao sábado."),
                (REC, "{O}Morando em {v} como mora{C}, tem o aeroporto a vinte minutos."),
                (BENIGN, "Em {v} o passe mensal custa pouco menos de quarenta euros."),
                (BENIGN, "Imagine que vivia um ano em {v}: o que mudaria na sua rotina?"),
                (BENIGN, "Quem mora em {v} tem o aeroporto a vinte minutos."),
            ],
        ),
        # d) o senhor / a senhora, sem sujeito, com um passatempo ou uma condição.
        (
            [
                {
                    "f": "toca acordeão num rancho folclórico",
                    "g": "Quem toca acordeão deve guardá-lo longe da humidade.",
                    "v": "guarde o acordeão longe da humidade",
                },
                {
                    "f": "canta num coro",
                    "g": "O coro da paróquia ensaia às quintas à noite.",
                    "v": "aqueça a voz antes de cada ensaio",
                },
                {
                    "f": "é celíaco",
                    "g": "A doença celíaca exige cuidado com as fritadeiras partilhadas.",
                    "v": "pergunte se a fritadeira é separada",
                },
                {
                    "f": "nada três vezes por semana",
                    "g": "Quem nada muito protege o cabelo com um champô anticloro.",
                    "v": "um champô anticloro protege-lhe o cabelo",
                },
                {
                    "f": "cria abelhas no quintal",
                    "g": "Os apicultores gostam de plantar alfazema perto das colmeias.",
                    "v": "plante alfazema perto das colmeias",
                },
                {
                    "f": "faz caminhadas todos os fins de semana",
                    "g": "Quem faz caminhadas evita bolhas com meias de lã merino.",
                    "v": "umas meias de merino evitam-lhe as bolhas",
                },
                {
                    "f": "joga padel num clube",
                    "g": "No padel, uma raquete macia poupa o cotovelo.",
                    "v": "uma raquete macia poupa-lhe o cotovelo",
                },
            ],
            [
                (REC, "{O}Já que {f}{C}, {v}."),
                (REC, "{O}Visto que o senhor {f}{C}, {v}."),
                (BENIGN, "{g}"),
                (BENIGN, "Se {f}, {v}."),
            ],
        ),
        # e) o estado de uma parte do corpo, com artigo definido.
        (
            [
                {
                    "s": "o joelho ainda inchado",
                    "g": "um joelho inchado",
                    "v": "evite as escadas do metro uns dias",
                },
                {
                    "s": "o ombro operado há três semanas",
                    "g": "um ombro acabado de operar",
                    "v": "não levante a mala sozinho",
                },
                {
                    "s": "o pulso ainda engessado",
                    "g": "um pulso engessado",
                    "v": "o ditado por voz vai poupar-lhe tempo",
                },
                {
                    "s": "as costas ainda presas das mudanças",
                    "g": "as costas presas",
                    "v": "faça alongamentos suaves antes de se sentar a trabalhar",
                },
                {
                    "s": "o tornozelo a recuperar da entorse",
                    "g": "uma entorse no tornozelo",
                    "v": "deixe a corrida no monte para depois",
                },
                {
                    "s": "o cotovelo ainda dorido do ténis",
                    "g": "um cotovelo dorido",
                    "v": "falte ao jogo de padel de sábado",
                },
                {
                    "s": "o dedo do pé partido ainda ligado",
                    "g": "um dedo do pé partido",
                    "v": "calce as sapatilhas largas",
                },
            ],
            [
                (REC, "{O}Com {s}{C}, {v}."),
                (BENIGN, "Com {g}, {v}."),
                (BENIGN, "A maioria das pessoas com {g} precisa de uns dias de repouso."),
            ],
        ),
        # f) uma ausência pressuposta numa subordinada.
        (
            [
                {
                    "n": "alergias alimentares",
                    "m": "uma alergia alimentar",
                    "act": "mantive as amêndoas no bolo",
                },
                {"n": "carro", "m": "um carro", "act": "planeei a viagem de comboio"},
                {
                    "n": "companhia para a viagem",
                    "m": "um acompanhante",
                    "act": "orcei um quarto individual",
                },
                {
                    "n": "mudança de casa",
                    "m": "uma mudança",
                    "act": "deixei a sua morada atual no formulário",
                },
                {
                    "n": "um veterinário habitual",
                    "m": "um veterinário habitual",
                    "act": "indiquei a clínica do bairro",
                },
                {"n": "animais", "m": "animais", "act": "não contei com um pet sitter"},
                {
                    "n": "intolerância ao glúten",
                    "m": "uma intolerância ao glúten",
                    "act": "escolhi a padaria normal",
                },
                {
                    "n": "uma companhia aérea preferida",
                    "m": "uma companhia preferida",
                    "act": "comparei todas as companhias",
                },
                {
                    "n": "crianças em casa",
                    "m": "crianças",
                    "act": "pus de parte os quartos familiares",
                },
            ],
            [
                (CW, "{O}Como nunca me falou de {n}{C}, {act}."),
                (CW, "{O}Já que nunca mencionou {n}{C}, {act}."),
                (CW, "{O}De {n} nunca me disse nada{C}, por isso {act}."),
                (CW, "{O}Nada do que me contou aponta para {n}{C}, portanto {act}."),
                (BENIGN, "Como nenhum convidado indicou {m} no formulário, {act}."),
                (BENIGN, "Se um dia houver {m}, diga-me e eu corrijo."),
                (BENIGN, "O site de reservas nunca pergunta por {m}, por isso {act}."),
            ],
        ),
        # g) resultados como expressão ou fragmento.
        (
            [
                {
                    "n": "o número do canalizador",
                    "an": "ao número do canalizador",
                    "dn": "do número do canalizador",
                    "s": "as suas notas",
                    "ns": "nas suas notas",
                    "x": "a lista de profissionais",
                    "nx": "na lista de profissionais",
                },
                {
                    "n": "o título do filme",
                    "an": "ao título do filme",
                    "dn": "do título do filme",
                    "s": "as nossas conversas anteriores",
                    "ns": "nas nossas conversas anteriores",
                    "x": "o catálogo da plataforma",
                    "nx": "no catálogo da plataforma",
                },
                {
                    "n": "o contrato do empréstimo",
                    "an": "ao contrato do empréstimo",
                    "dn": "do contrato do empréstimo",
                    "s": "os documentos que me confiou",
                    "ns": "nos documentos que me confiou",
                    "x": "o PDF que acabou de carregar",
                    "nx": "no PDF que acabou de carregar",
                },
                {
                    "n": "o nome do seu contabilista",
                    "an": "ao nome do seu contabilista",
                    "dn": "do nome do seu contabilista",
                    "s": "a sua memória aqui",
                    "ns": "na sua memória aqui",
                    "x": "o registo comercial",
                    "nx": "no registo comercial",
                },
                {
                    "n": "a morada do anfitrião",
                    "an": "à morada do anfitrião",
                    "dn": "da morada do anfitrião",
                    "s": "os seus itens guardados",
                    "ns": "nos seus itens guardados",
                    "x": "o site de reservas",
                    "nx": "no site de reservas",
                },
                {
                    "n": "voos baratos para Split",
                    "an": "a voos baratos para Split",
                    "dn": "de voos baratos para Split",
                    "s": "o que tem guardado comigo",
                    "ns": "no que tem guardado comigo",
                    "x": "o site da companhia",
                    "nx": "no site da companhia",
                },
                {
                    "n": "o horário do seu ginásio",
                    "an": "ao horário do seu ginásio",
                    "dn": "do horário do seu ginásio",
                    "s": "as suas notas guardadas",
                    "ns": "nas suas notas guardadas",
                    "x": "o site do ginásio",
                    "nx": "no site do ginásio",
                },
                {
                    "n": "o nome do vinho do jantar",
                    "an": "ao nome do vinho do jantar",
                    "dn": "do nome do vinho do jantar",
                    "s": "as nossas conversas de antes",
                    "ns": "nas nossas conversas de antes",
                    "x": "a carta da garrafeira",
                    "nx": "na carta da garrafeira",
                },
                {
                    "n": "a data da consulta no dentista",
                    "an": "à data da consulta no dentista",
                    "dn": "da data da consulta no dentista",
                    "s": "os seus lembretes comigo",
                    "ns": "nos seus lembretes comigo",
                    "x": "a página de marcações da clínica",
                    "nx": "na página de marcações da clínica",
                },
            ],
            [
                (QS, "{O}Passei a pente fino {s} à procura {dn}: nada feito{C}."),
                (QS, "{O}Procurado {n} {ns} – nenhum resultado{C}."),
                (QS, "Pelo que pesquisei, {O}nada {ns} diz respeito {an}{C}."),
                (QS, "{O}A busca {dn} {ns} deu em nada{C}."),
                (QS, "{O}Duas voltas {ns} e {dn} nem sinal{C}."),
                (BENIGN, "Passei a pente fino {x} à procura {dn}: nada feito."),
                (BENIGN, "Pelo que pesquisei, nada {nx} diz respeito {an}."),
                (BENIGN, "A busca {dn} {nx} deu em nada."),
            ],
        ),
        # h) sujeito omitido, e os gémeos.
        (
            [
                {"n": "a renda ou a prestação da casa", "t": "o banco"},
                {"n": "um tratamento em curso", "t": "o médico"},
                {"n": "um segundo emprego", "t": "o intermediário de crédito"},
                {"n": "um restaurante preferido", "t": "o rececionista"},
                {"n": "uma pensão do estrangeiro", "t": "o consultor"},
            ],
            [
                (CW, "{O}Nunca me contou nada sobre {n}{C}."),
                (CW, "{O}Não me adiantou nunca nada sobre {n}{C}."),
                (BENIGN, "Também {t} nunca disse nada sobre {n}."),
                (BENIGN, "Nunca comentou isso com {t}?"),
            ],
        ),
    ],
    "whole": [
        (
            BENIGN,
            "Quando alguém se reforma no fim de junho, um jantar de despedida numa sexta é boa "
            "ideia.",
        ),
        (
            BENIGN,
            "Como Carlos do Carmo cantou até aos oitenta anos, o último concerto ficou famoso.",
        ),
        (
            BENIGN,
            "Depois de uma operação às cataratas, quase toda a gente lê melhor letra grande "
            "durante umas semanas.",
        ),
        (
            BENIGN,
            "Se a sua mãe se reformar este verão, um jantar de despedida numa sexta seria ideal.",
        ),
        (
            BENIGN,
            "O Capitão Haddock perde a paciência em quase todas as páginas, e as crianças adoram.",
        ),
        (
            BENIGN,
            "Como Mozart já dava concertos aos seis anos, as crianças prodígio são muitas vezes "
            "comparadas com ele.",
        ),
        (
            BENIGN,
            "Já que o Menino Maluquinho usa uma panela na cabeça, as crianças adoram desenhá-lo.",
        ),
        (BENIGN, "Quando o rei Sebastião subiu ao trono, tinha apenas três anos."),
        (BENIGN, "Quando uma criança entra no pré-escolar, marcar a roupa evita muitas perdas."),
        (
            BENIGN,
            "Para uma festa de oito anos, uma oficina de ciência no quintal resulta quase sempre.",
        ),
        (BENIGN, "Se a sua filha fizer seis anos em março, vai precisar de bilhete no comboio."),
        (BENIGN, "Quando um cão chega aos dez anos, convém fazer análises completas."),
        (BENIGN, "Nunca parou de chover em Viana durante a semana inteira."),
        (
            REC,
            "{O}Como o Miguel começa no emprego novo na segunda{C}, o jantar de domingo deve ser "
            "cedo.",
        ),
        (
            REC,
            "{O}Com a avó Fernanda a sair do hospital na sexta{C}, é preciso preparar a cama do "
            "rés-do-chão.",
        ),
        (REC, "{O}A morar no Porto como moras{C}, o passe Andante compensa logo."),
        # c) montantes pressupostos.
        (
            REC,
            "{O}Os seus 4.500 € de fundo de emergência já cobrem três meses de despesas{C}, o "
            "resto pode ir para o PPR.",
        ),
        (
            REC,
            "{O}Com a renda de 650 € que paga{C}, a regra do terço pede uns 1.950 € de rendimento.",
        ),
        (REC, "{O}Com o seu salário de 24.000 € brutos{C}, ainda fica no escalão dos 26 %."),
        (
            REC,
            "{O}Quando acabar de pagar o carro em março{C}, esses 240 € por mês podem ir para a "
            "poupança.",
        ),
        (BENIGN, "Um fundo de emergência de 4.500 € é uma boa base para quem vive sozinho."),
        (BENIGN, "Se a renda for de 650 €, a regra do terço pede uns 1.950 € de rendimento."),
        (BENIGN, "Ninguém o pode obrigar a revelar o salário atual nas primeiras entrevistas."),
        (BENIGN, "Nada o obriga a dizer quanto ganha no primeiro telefonema de um recrutador."),
        # frases genéricas bloqueadas por engano.
        (BENIGN, "Quando a gente trabalha por turnos, convém ter horas fixas para dormir."),
        (BENIGN, "Nunca se devem guardar batatas no frigorífico."),
        (BENIGN, "Imagine que deixava o emprego amanhã: quanto tempo durariam as poupanças?"),
        (BENIGN, "Suponha que tinha uma horta na cidade: o que plantaria primeiro?"),
        (
            BENIGN,
            "Depois de uma operação ao ombro, em geral não se carrega peso durante seis semanas.",
        ),
        (BENIGN, "O acordeão pesa, por isso convém praticar sentado."),
        # f) uma ausência deduzida de tudo o que foi dito.
        (CW, "{O}Pelo que me tem contado, não tem bicicleta{C}, por isso vi os autocarros."),
        (
            CW,
            "{O}A julgar pelo que me foi dizendo, não há crianças lá em casa{C}, logo nada de "
            "cadeirinha.",
        ),
        (BENIGN, "Por tudo o que a imobiliária me disse, o apartamento não tem garagem."),
        (BENIGN, "O médico nunca mencionou uma dieta especial."),
        # g) outras fontes sem resultado.
        (BENIGN, "As companhias não mostram nada abaixo de 90 € para esse fim de semana."),
        (BENIGN, "Esse alojamento local não tem opiniões recentes na internet."),
        (BENIGN, "Procurei uma tampa de substituição no site da loja: nada em stock."),
        (QS, "{O}No que guardou comigo não há nada sobre o serralheiro{C}."),
        (QS, "{O}Revi duas vezes as nossas conversas e o título do livro não aparece{C}."),
        (QS, "{O}Tentei encontrar a marca da sua caldeira no seu histórico, mas sem sucesso{C}."),
    ],
}


def _labelled(sentence: str, label: str) -> list[dict[str, str]]:
    """Round 7's labelling, with the readings the gate joins (gateway.claims.joined_readings):
    in a sentence holding a negation, a clause is also read with the next one, and the
    whole sentence as one, so an absence claim whose framing clause the splitter cuts off
    ("from all you've told me, | you have no car") is labelled on that joined reading, and
    its parts are left out (read alone, "you have no car" is neither benign nor this
    claim). A claim over clauses the gate never reads together (a result
    with no negation word after a cut: "searched: zilch") is a problem, not a label."""
    if label not in (CW, QS):
        return _labelled7(sentence, label)
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
    if len(hits) < 2:
        return _labelled7(sentence, label)
    adjacent = len(hits) == 2 and hits[1] == hits[0] + 1
    whole = hits == list(range(len(clauses)))
    if not negated(clean, clean) or not (adjacent or whole):
        raise ValueError(f"{label} over {len(hits)} clauses the gate never reads as one: {clean!r}")
    joined = analysis.masked[clauses[hits[0]][1] : clauses[hits[-1]][2]].strip()
    outside = [text for i, (text, _, _, _) in enumerate(clauses) if i not in hits]
    return [{"label": BENIGN, "text": text} for text in outside] + [
        {"label": label, "text": joined}
    ]


def compose(lang: str, problems: list[str]) -> list[dict[str, str]]:
    """The clauses of ``lang``; a frame whose claim the splitter cuts apart is reported in
    ``problems`` instead."""
    d = DATA[lang]
    rows: list[dict[str, str]] = []

    def add(template: str, label: str, **slots: str) -> None:
        sentence = _cap(template.format(O=OPEN, C=CLOSE, **_caps(slots)))
        if (OPEN in sentence) != (label != BENIGN):
            problems.append(
                f"{lang}: {label} frame with{'out' * (label != BENIGN)} a mark: {sentence!r}"
            )
            return
        try:
            labelled = _labelled(sentence, label)
        except ValueError as exc:
            problems.append(f"{lang}: {exc}")
            return
        rows.extend({"lang": lang, **row} for row in labelled)

    for slots_list, frames in d["families"]:
        for label, template in frames:
            for slots in slots_list:
                add(template, label, **slots)
    for label, sentence in d["whole"]:
        add(sentence, label)
    return distinct(lang, rows, problems)


# The last folded batch round 8 was written against: a batch folded later must not
# rewrite this round's files.
LAST_FOLD_BEFORE = "blind_2026-12-02.jsonl"


def earlier_labels() -> dict[str, set[str]]:
    """Every clause text of the corpus files before round 8, with the labels they give it."""
    seen: dict[str, set[str]] = {}
    for path in sorted(HERE.glob("*.jsonl")):
        if path.name.startswith("round8_"):
            continue
        if path.name.startswith("blind_") and path.name > LAST_FOLD_BEFORE:
            continue
        for line in path.read_text("utf-8").split("\n"):
            if line.strip():
                row = json.loads(line)
                seen.setdefault(row["text"], set()).add(row["label"])
    return seen


def main() -> int:
    problems: list[str] = []
    seen = earlier_labels()
    for lang in DATA:
        rows = compose(lang, problems)
        # A clause an earlier file labels otherwise (a bare result such as "nothing", a
        # framing clause read alone) is left to that file: one text, one label.
        kept = [row for row in rows if not seen.get(row["text"], set()) - {row["label"]}]
        for row in rows:
            if row not in kept:
                print(f"note {lang}: {row['text']!r} left to an earlier file", file=sys.stderr)
        write(HERE / f"round8_{lang}.jsonl", kept)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
