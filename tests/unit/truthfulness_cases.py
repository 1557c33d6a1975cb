"""Labelled table for the post-generation truthfulness gate (gateway.truthfulness).

Each case is an LLM draft and the set of absence-claim scopes a careful human reader
finds ASSERTED in it. The labels follow the product rule and the hedging policy
documented in gateway/truthfulness.py, and were written from the specification before
the classifier existed:

* corpus-wide  - "you never told me X", "I have no record of X", "we haven't discussed X",
  "there's nothing in my memory about X", "I don't remember you ever saying X" ...
* query-scoped - "I couldn't find X", "my search returned nothing", "no results came up",
  "I found no mention of X in our past conversations" ...
* not a claim  - world negation, positive recall, questions, conditionals, honest hedges
  (the qualifier withdraws the claim), quoted text, code, reported speech, first-person
  negation that is not about memory, offers / future tense.

Weak hedges ("as far as I can tell", "I think", "I believe", "it seems", "to my
knowledge", "I'm fairly sure") do NOT withdraw a claim. Strong hedges (incomplete, not
exhaustive, may have missed, can't be sure, not certain, can't confirm, doesn't mean ...)
in the same sentence do; a coverage hedge ("my search isn't exhaustive") also covers the
sentence right before or after it.

`must` marks the cases whose exact label is asserted one by one, so that a regression is
visible by name; the rest feed the aggregate precision / recall.
"""

from __future__ import annotations

from dataclasses import dataclass

from gateway.truthfulness import ClaimScope

N: frozenset[ClaimScope] = frozenset()
C: frozenset[ClaimScope] = frozenset({ClaimScope.CORPUS_WIDE})
Q: frozenset[ClaimScope] = frozenset({ClaimScope.QUERY_SCOPED})
B: frozenset[ClaimScope] = frozenset({ClaimScope.CORPUS_WIDE, ClaimScope.QUERY_SCOPED})


@dataclass(frozen=True)
class Case:
    text: str
    expect: frozenset[ClaimScope]
    kind: str
    must: bool = False


def _c(kind: str, expect: frozenset[ClaimScope], text: str, must: bool = False) -> Case:
    return Case(text=text, expect=expect, kind=kind, must=must)


CASES: tuple[Case, ...] = (
    # ---- corpus-wide negatives ------------------------------------------------------
    _c("corpus", C, "You never told me about your sister.", must=True),
    _c("corpus", C, "I have no record of your sister's name.", must=True),
    _c("corpus", C, "We have not discussed your travel plans.", must=True),
    _c("corpus", C, "You've never mentioned a dog.", must=True),
    _c("corpus", C, "There is nothing in my memory about your job.", must=True),
    _c("corpus", C, "I don't remember you ever saying you were vegetarian.", must=True),
    _c("corpus", C, "You didn't tell me about the surgery before.", must=True),
    _c("corpus", C, "This is the first time you've mentioned your brother.", must=True),
    _c("corpus", C, "you never told me that you moved to Berlin"),
    _c("corpus", C, "YOU NEVER TOLD ME ABOUT THE PROMOTION!", must=True),
    _c("corpus", C, "I\u2019ve no record of that conversation.", must=True),
    _c("corpus", C, "You haven't mentioned your budget yet, so I'll assume it's flexible."),
    _c("corpus", C, "Honestly, you've never brought up your cat before."),
    _c("corpus", C, "We haven't talked about Kubernetes at all."),
    _c("corpus", C, "I don't have any record of you mentioning a deadline.", must=True),
    _c("corpus", C, "There's no record in my memory of your allergy."),
    _c("corpus", C, "I don't think you've ever told me your favourite colour."),
    _c("corpus", C, "To my knowledge, we've never discussed the merger."),
    _c("corpus", C, "I have no memory of you saying that.", must=True),
    _c("corpus", C, "I don't recall you mentioning a second project.", must=True),
    _c("corpus", C, "You did not tell me about the meeting."),
    _c("corpus", C, "You haven't shared anything about your health with me."),
    _c("corpus", C, "Nothing you've told me mentions a wedding."),
    _c("corpus", C, "You never said a word about Paris."),
    _c("corpus", C, "Not once have you mentioned your manager."),
    _c("corpus", C, "This is the first I've heard about your new car."),
    _c("corpus", C, "My memory has nothing about your kids.", must=True),
    _c("corpus", C, "There's no mention of your sister in our past conversations."),
    _c("corpus", C, "I don't have anything saved about your diet."),
    _c("corpus", C, "I haven't stored anything about your preferences."),
    _c("corpus", C, "We've never spoken about your childhood."),
    _c("corpus", C, "You didn't mention any allergies earlier."),
    _c("corpus", C, "It's never come up between us."),
    _c("corpus", C, "I have no notes on your project."),
    _c("corpus", C, "Your address isn't in my memory."),
    _c("corpus", C, "I don't have your phone number on file."),
    _c("corpus", C, "You mentioned your sister, but you never told me her name.", must=True),
    _c("corpus", C, "You talked about work but never told me what you do."),
    _c("corpus", C, 'I have no record of "Project Falcon".', must=True),
    _c("corpus", C, "You never told me about `config.yaml`."),
    _c("corpus", C, "First sentence is fine. Second: you never mentioned the deadline."),
    _c("corpus", C, "Great question! I don't have any memory of us discussing pricing."),
    _c("corpus", C, "Sure \u2014 you haven't told me your name, so I'll call you friend."),
    _c("corpus", C, "Hmm, I don't remember us ever talking about this."),
    _c("corpus", C, "We did not discuss the contract terms previously."),
    _c(
        "corpus",
        C,
        "I\u2019m afraid there\u2019s nothing in my memory about \u201cthe Lisbon trip\u201d.",
        must=True,
    ),
    _c("corpus", C, "You've not mentioned any dietary restrictions."),
    _c("corpus", C, "None of our past conversations mention your sister."),
    _c("corpus", C, "I have no recollection of you telling me that."),
    _c("corpus", C, "You never once mentioned that you had a sister."),
    _c("corpus", C, "You didn't tell me which format you want, so here are both."),
    _c("corpus", C, "I don't believe we've talked about your thesis."),
    _c("corpus", C, "You haven't told me yet which city you live in."),
    _c("corpus", C, "I haven't heard you mention your partner before."),
    _c("corpus", C, "I don't have any information about your sister."),
    _c("corpus", C, "You\u2019ve never told me what you do for a living."),
    _c("corpus", C, "We haven\u2019t discussed your salary expectations."),
    _c("corpus", C, "I do not have any records of your medication."),
    _c("corpus", C, "There are no records of you telling me your address."),
    _c("corpus", C, "Our chat history contains nothing about your landlord."),
    _c("corpus", C, "My notes don't mention your daughter at all."),
    _c("corpus", C, "I have nothing on file about your car."),
    _c("corpus", C, "You have never told me about your job, and that's fine."),
    _c("corpus", C, "I have no record of your sister, and my records are complete."),
    _c("corpus", C, "You never actually mentioned your deadline."),
    _c("corpus", C, "youve never told me your birthday"),
    _c("corpus", C, "I dont have any record of that"),
    _c("corpus", C, "Actually, we never discussed the refund policy."),
    _c("corpus", C, "I don't remember your sister's name."),
    _c("corpus", C, "I can't recall us ever discussing your move."),
    _c("corpus", C, "We have never talked about this before."),
    _c("corpus", C, "Your allergy isn't on file."),
    _c("corpus", C, "You haven't said anything about the venue."),
    _c("corpus", C, "There's nothing in our past conversations about your vacation."),
    _c("corpus", C, "That's the first time you've brought up the lawsuit."),
    _c("corpus", C, "I have no memories of you mentioning Tom."),
    # weak hedges do not license
    _c("weak-hedge", C, "As far as I can tell, you never told me your address.", must=True),
    _c("weak-hedge", C, "I think you never mentioned your sister.", must=True),
    _c("weak-hedge", C, "It seems we haven't discussed this."),
    _c("weak-hedge", C, "Probably you never told me about it."),
    _c("weak-hedge", C, "I believe I have no record of that.", must=True),
    _c("weak-hedge", C, "As far as I know, there's nothing in my memory about it."),
    _c("weak-hedge", C, "I'm fairly confident you didn't tell me."),
    _c("weak-hedge", C, "I'm pretty sure you never told me that."),
    _c("weak-hedge", C, "Apparently you never told me about the move."),
    _c("weak-hedge", C, "I'm sure you never told me.", must=True),
    _c("weak-hedge", C, "I can be certain: you never told me about it."),
    _c("weak-hedge", C, "From what I can see, you haven't mentioned your team."),
    # conditional / question next to an asserted claim
    _c("corpus-mixed", C, "Unless I'm mistaken, you never told me your age.", must=True),
    _c("corpus-mixed", C, "Even if you told me once, I have no record of it now.", must=True),
    _c("corpus-mixed", C, "I have no record of that; could you remind me?", must=True),
    _c("corpus-mixed", C, "I have no record of your sister's name, could you remind me?"),
    _c("corpus-mixed", C, "You never told me about it \u2014 want to fill me in?"),
    _c("corpus-mixed", C, "You never told me your name \u2014 what is it?"),
    _c("corpus-mixed", C, "I have no record of that unless you told me in another chat."),
    _c("corpus-mixed", C, "You never told me whether you liked it."),
    # ---- query-scoped negatives -----------------------------------------------------
    _c("query", Q, "I couldn't find anything about your sister.", must=True),
    _c("query", Q, "My search returned nothing.", must=True),
    _c("query", Q, "I found no mention of the recipe in our past conversations.", must=True),
    _c("query", Q, "No results came up for 'Falcon'.", must=True),
    _c("query", Q, "I wasn't able to locate any record of the invoice.", must=True),
    _c("query", Q, "I searched my memory and found nothing about your car."),
    _c("query", Q, "Nothing came up when I searched for your address."),
    _c("query", Q, "The memory search came back empty.", must=True),
    _c("query", Q, "I couldn\u2019t find any notes about the trip."),
    _c("query", Q, "I was unable to retrieve anything about the project."),
    _c("query", Q, "Zero results for your query about tennis."),
    _c("query", Q, "I didn't find any record of that in memory."),
    _c("query", Q, "I looked, but nothing turned up."),
    _c("query", Q, "There were no matches for your sister's name."),
    _c("query", Q, "My lookup didn't return anything on that."),
    _c("query", Q, "I don't see any mention of the budget in what I retrieved.", must=True),
    _c("query", Q, "I searched our previous chats; nothing matched."),
    _c("query", Q, "Searching for 'Berlin' turned up no results."),
    _c("query", Q, "After an exhaustive search, I found no record of the meeting.", must=True),
    _c("query", Q, "I can't find your address anywhere."),
    _c("query", Q, "I couldn't locate the file you mentioned."),
    _c("query", Q, "I tried, but I couldn't find it."),
    _c("query", Q, "The search I ran found no entries for your dentist."),
    _c("query", Q, "I got no hits for that name."),
    _c("query", Q, "My memory search didn't surface anything about Rome."),
    _c("query", Q, "I came up empty when searching for your flight details."),
    _c("query", Q, 'No matches were found for "quarterly report".'),
    _c("query", Q, "i couldnt find anything on that"),
    _c("query", Q, "Nothing turned up in my search for your sister's name."),
    _c("query", Q, "I checked, and there were no results."),
    _c("query", Q, "My search was complete and exhaustive; I found nothing.", must=True),
    _c("query", Q, "From what I can see, I couldn't find anything on that."),
    _c("query", Q, "It looks like my search returned nothing."),
    _c("query", Q, "Did you tell me about the trip? I couldn't find it.", must=True),
    _c("query", Q, "Paris is lovely in spring. I couldn't find your travel dates, though."),
    _c("query", Q, "The API never returns null. I found no record of your API key, though."),
    _c("query", Q, "My search was exhaustive. I couldn't find anything about your trip."),
    _c(
        "query",
        Q,
        "Here is a summary of your project notes:\n- Deadline: May 3\n- Owner: you\n\n"
        "I didn't find anything about the budget in my search.",
    ),
    _c("query", Q, "I wasn\u2019t able to find your order number."),
    _c("query", Q, "Unfortunately I could not find any notes on the Oslo office."),
    _c("query", Q, "The lookup for \u201cAcme\u201d returned no results."),
    _c("query", Q, "I haven't been able to find anything about your brother."),
    _c("query", Q, "I'm unable to locate any mention of the contract."),
    _c("query", Q, "I found nothing about your gym membership."),
    _c("query", Q, "NO RESULTS CAME UP FOR YOUR SISTER."),
    # ---- both -------------------------------------------------------------------------
    _c("both", B, "I have no record of your sister, and my search returned nothing.", must=True),
    _c("both", B, "I couldn't find anything about it. You never told me about it.", must=True),
    _c("both", B, "You never mentioned a pet; my search for 'dog' came back empty."),
    _c("both", B, "Nothing came up for your gym. We've never discussed fitness."),
    _c("both", B, "I searched and found nothing, so you never told me about it.", must=True),
    _c("both", B, "My search returned no results and I don't recall you mentioning it."),
    _c(
        "both",
        B,
        "Here's what I know.\n\nI couldn't find your address.\nYou haven't mentioned your "
        "city either.",
    ),
    _c("both", B, "You've never told me your birthday, and I didn't find it in my search."),
    _c("both", B, "I found no trace of it. There's nothing in my memory about it."),
    _c("both", B, "No results for \u201cProject X\u201d; you never brought it up."),
    _c(
        "both",
        B,
        "Sure! I searched for 'gym' and found nothing. Also, you haven't told me your "
        "schedule.",
    ),
    _c("both", B, "I can't find it, and we never discussed it."),
    # ---- multi-sentence with one claim -----------------------------------------------
    _c("mixed", C, "You told me you like tea. You never told me about coffee, though.", must=True),
    _c("mixed", C, "I remember your sister's name is Ana. I have no record of her birthday."),
    _c(
        "mixed",
        C,
        'He wrote: "you never told me that". But honestly, you never told me either.',
        must=True,
    ),
    _c("mixed", C, "If you never told me, I wouldn't know. And in fact you never told me."),
    _c(
        "mixed",
        C,
        "`search()` returned nothing in your test. I have no record of your earlier run.",
    ),
    _c(
        "mixed",
        C,
        "Thanks for asking! Based on what I retrieved, your sister is called Ana and lives "
        "in Oslo. I don't have her birthday, though, since it hasn't come up in our "
        "conversations.",
    ),
    _c("mixed", C, "Did you ever tell me about your sister? I have no record of it."),
    _c(
        "mixed",
        C,
        "```python\nprint('hi')\n```\nBy the way, you never told me which Python version "
        "you use.",
    ),
    # ---- world negation (not about memory) --------------------------------------------
    _c("world", N, "Paris is not the capital of Spain.", must=True),
    _c("world", N, "The API never returns null.", must=True),
    _c("world", N, "There is no record of snowfall in Lima that year.", must=True),
    _c("world", N, "Python didn't have a match statement before 3.10."),
    _c("world", N, "The function never raises an exception."),
    _c("world", N, "There's nothing in the docs about rate limits.", must=True),
    _c("world", N, "The query returned no rows, so the table is empty.", must=True),
    _c("world", N, "Researchers found no link between coffee and longevity."),
    _c("world", N, "I couldn't find a bug in your code; it looks correct."),
    _c("world", N, "The search function returns an empty list when nothing matches."),
    _c("world", N, "Nobody has ever climbed that face in winter."),
    _c("world", N, "The company has never reported a loss."),
    _c("world", N, "Water doesn't burn."),
    _c("world", N, "That library never supported Python 2."),
    _c("world", N, "The log shows no errors after the restart."),
    _c("world", N, "Mars has no liquid water on its surface."),
    _c("world", N, "This approach doesn't scale beyond a few thousand rows."),
    _c("world", N, "The treaty was never ratified by the senate."),
    _c("world", N, "There are no known side effects at that dose."),
    _c("world", N, "The bug never came up in testing."),
    # ---- positive recall ----------------------------------------------------------------
    _c("positive", N, "You told me you like tea.", must=True),
    _c("positive", N, "You mentioned your sister lives in Oslo.", must=True),
    _c("positive", N, "We discussed your travel plans last week."),
    _c("positive", N, "I have a record of your address from March."),
    _c("positive", N, "I remember you saying you were vegetarian.", must=True),
    _c("positive", N, "My search found three notes about your project."),
    _c("positive", N, "I found your sister's name in our chat from June."),
    _c("positive", N, "You've told me about your cat several times."),
    _c("positive", N, "I do have notes on your thesis."),
    _c("positive", N, "We have talked about this before, in April."),
    _c("positive", N, "No worries, I found it: your sister is Ana."),
    # ---- questions --------------------------------------------------------------------------
    _c("question", N, "Did you ever tell me about your sister?", must=True),
    _c("question", N, "Have we discussed this before?", must=True),
    _c("question", N, "You never told me about it?", must=True),
    _c("question", N, "Have I got a record of that anywhere?"),
    _c("question", N, "Didn't you mention a brother at some point?"),
    _c("question", N, "Could it be that you never told me?"),
    _c(
        "question",
        N,
        "Is it possible I have no record of it because you used another account?",
    ),
    _c("question", N, "You never told me, did you?", must=True),
    _c("question", N, "Were there no results for that?"),
    _c("question", N, "Did my search return nothing, or did it fail?"),
    _c("question", N, "What did you tell me about your sister?"),
    _c("question", N, "Haven't we talked about this already?"),
    # ---- conditionals -------------------------------------------------------------------------
    _c("conditional", N, "If you never told me, I wouldn't know.", must=True),
    _c("conditional", N, "If I can't find it, I'll ask.", must=True),
    _c("conditional", N, "I'll ask you again if I can't find it."),
    _c("conditional", N, "Unless you told me in another chat, it won't be in my memory."),
    _c("conditional", N, "In case my search returns nothing, I'll tell you plainly."),
    _c("conditional", N, "Whether you mentioned it or not, I'm happy to help now."),
    _c("conditional", N, "If there's nothing in my memory about it, I'll say so.", must=True),
    _c("conditional", N, "If the search comes back empty, you can tell me directly."),
    _c("conditional", N, "Should I find no record, I'll let you know."),
    _c("conditional", N, "Even if you never mentioned it, I can still help."),
    _c("conditional", N, "If you haven't told me yet, please do."),
    _c("conditional", N, "If we never discussed it, that's fine, just tell me now."),
    # ---- honest hedges --------------------------------------------------------------------
    _c("hedge", N, "I can't say for sure, my search was incomplete.", must=True),
    _c("hedge", N, "I may not have a complete record.", must=True),
    _c(
        "hedge",
        N,
        "I don't see it in what I retrieved, but my search isn't exhaustive.",
        must=True,
    ),
    _c(
        "hedge",
        N,
        "I couldn't find anything about the boat in the search I ran, but it may be "
        "incomplete.",
        must=True,
    ),
    _c("hedge", N, "I don't have a complete record, so I can't be sure.", must=True),
    _c("hedge", N, "I couldn't find it, but that doesn't mean you never mentioned it.", must=True),
    _c("hedge", N, "It's possible you never told me, but I can't be certain."),
    _c("hedge", N, "I couldn't find your address, though my search may have missed it."),
    _c(
        "hedge",
        N,
        "I didn't find a match in the records I checked, which are not exhaustive.",
    ),
    _c("hedge", N, "I couldn't find it. My search isn't exhaustive, though.", must=True),
    _c(
        "hedge",
        N,
        "My search only covers recent notes and may be incomplete. I couldn't find "
        "anything about your trip.",
        must=True,
    ),
    _c("hedge", N, "I'm not certain, but I don't think you've mentioned it."),
    _c("hedge", N, "I can't confirm whether you've told me about your sister."),
    _c("hedge", N, "I can't rule out that you mentioned it in an earlier session."),
    _c(
        "hedge",
        N,
        "I don't have a full history of our chats, so I can't tell whether you mentioned it.",
    ),
    _c("hedge", N, "I might not have everything you've told me."),
    _c("hedge", N, "Nothing came up in a partial search; there may be more."),
    _c("hedge", N, "Nothing turned up, but my memory search is ranked, not exhaustive."),
    _c("hedge", N, "I haven't found it yet, but I may have missed something."),
    _c(
        "hedge",
        N,
        "I didn't see your sister's name in the top results, but the search was not "
        "complete.",
    ),
    _c("hedge", N, "I can't be sure you never told me about it.", must=True),
    _c(
        "hedge",
        N,
        "I couldn't find your sister's name because my memory was unavailable.",
        must=True,
    ),
    _c("hedge", N, "I couldn't search my memory just now, so I can't say."),
    _c("hedge", N, "My search may not be complete, so I won't say you never told me."),
    _c("hedge", N, "I'm not sure whether you've mentioned your sister before."),
    _c(
        "hedge",
        N,
        "I couldn't find anything about the Berlin trip. That doesn't mean you never "
        "mentioned it.",
    ),
    _c("hedge", N, "My search was incomplete."),
    _c("hedge", N, "You may not have told me, or I may have missed it."),
    _c("hedge", N, "I didn\u2019t find anything, but my search wasn\u2019t exhaustive."),
    _c("hedge", N, "I can't say whether we've discussed this; the memory search failed."),
    # ---- quoted text ------------------------------------------------------------------------
    _c("quote", N, 'He wrote: "you never told me that"', must=True),
    _c("quote", N, "Your email said \u201cI have no record of the payment\u201d.", must=True),
    _c("quote", N, "The error message reads 'no results found for query'.", must=True),
    _c("quote", N, 'She replied, "We never discussed that," and left.'),
    _c("quote", N, 'You typed "my search returned nothing" as a test string.'),
    _c("quote", N, "> You never told me about this.\nThat's what the reviewer wrote.", must=True),
    _c(
        "quote",
        N,
        "Don't worry, the phrase 'I couldn't find it' is just a placeholder.",
        must=True,
    ),
    _c("quote", N, "The song is called \u201cYou Never Told Me\u201d."),
    _c(
        "quote",
        N,
        "It's the users' choice; the banner says 'nothing in memory about this topic'.",
    ),
    _c("quote", N, "\u2018You never mentioned it\u2019 is a line from the script."),
    _c("quote", N, 'The subject line was "No record of your order. Sorry!" and nothing else.'),
    # ---- code ---------------------------------------------------------------------------------
    _c(
        "code",
        N,
        "Use `if not results: print('I have no record of that')` in the handler.",
        must=True,
    ),
    _c("code", N, "```python\n# you never told me\nreturn None\n```", must=True),
    _c(
        "code",
        N,
        "Here's the snippet:\n```\nlog('search returned nothing')\n```\nRun it and check "
        "the output.",
        must=True,
    ),
    _c("code", N, "The test asserts `found == []` when the search returns nothing."),
    _c("code", N, "Set `NEVER_TOLD = True` before running."),
    _c(
        "code",
        N,
        "```\nYou never mentioned the config.\n```\nThat line is a fixture in the test suite.",
    ),
    _c("code", N, "~~~\nI couldn't find anything\n~~~"),
    _c("code", N, "The string `I couldn't find anything about X` is the default message."),
    # ---- reported speech --------------------------------------------------------------------
    _c("reported", N, "You said you never liked coffee.", must=True),
    _c("reported", N, "She told me she has never been to Rome.", must=True),
    _c("reported", N, "You mentioned that you've never told your boss about the offer.", must=True),
    _c("reported", N, "You told me you haven't discussed it with your wife."),
    _c("reported", N, "Your sister said she never got the invitation."),
    _c("reported", N, "He claimed that nothing came up in his search."),
    _c("reported", N, "You explained that your search returned nothing on the company site."),
    _c("reported", N, "According to you, the landlord never mentioned the fee."),
    _c("reported", N, "You said you'd never mentioned it to anyone else."),
    _c("reported", N, "You told me last week that you have no record of the payment."),
    _c("reported", N, "Your manager told you he couldn't find the report."),
    _c("reported", N, "You said your doctor never mentioned side effects."),
    # ---- first-person negation not about memory ---------------------------------------------
    _c("first-person", N, "I never drink coffee myself.", must=True),
    _c("first-person", N, "I don't know the answer to that math problem.", must=True),
    _c("first-person", N, "I don't have access to the internet."),
    _c("first-person", N, "I can't find the words to thank you enough."),
    _c("first-person", N, "I don't have an opinion on that."),
    _c("first-person", N, "I have no preference between the two options.", must=True),
    _c("first-person", N, "I never said the plan was perfect."),
    _c("first-person", N, "I don't have feelings the way you do."),
    _c("first-person", N, "I haven't used that library myself."),
    _c("first-person", N, "I didn't find the argument convincing."),
    _c("first-person", N, "I don't remember the exact formula, so let me derive it."),
    _c("first-person", N, "I can't recall the capital of Burkina Faso offhand."),
    _c("first-person", N, "I have no idea what the weather will be tomorrow."),
    _c("first-person", N, "I never store passwords in plain text."),
    _c("first-person", N, "I haven't decided which option is better."),
    _c("first-person", N, "I don't see anything wrong with your code."),
    _c("first-person", N, "I've never seen a bug like this before."),
    _c("first-person", N, "I have no memory between sessions unless you enable it."),
    # ---- offers / future ------------------------------------------------------------------
    _c("offer", N, "Tell me about your sister and I'll remember it.", must=True),
    _c("offer", N, "If you share your address, I'll save it for next time."),
    _c("offer", N, "I'll remember that from now on.", must=True),
    _c("offer", N, "Feel free to tell me more about your project whenever you like."),
    _c("offer", N, "Once you tell me your preferences, I'll keep them in memory."),
    _c("offer", N, "Let me search my memory for that."),
    _c("offer", N, "I'll check whether you've mentioned it before."),
    _c("offer", N, "I'm going to look for any notes about your trip."),
    # ---- memory vocabulary that is not an absence claim ---------------------------------
    _c("memory-talk", N, "I keep a record of everything you tell me in this workspace."),
    _c("memory-talk", N, "My memory stores notes from our past sessions."),
    _c("memory-talk", N, "Searching can take a few seconds."),
    _c("memory-talk", N, "Records without a timestamp are never shown in the summary."),
    _c("memory-talk", N, "The memory service never deletes records without your consent."),
    _c("memory-talk", N, "Nothing is more important than getting this right."),
    _c("memory-talk", N, "There's no need to repeat yourself; I've got it."),
    _c("memory-talk", N, "You never know with these libraries."),
    _c("memory-talk", N, "You didn't do anything wrong."),
    _c("memory-talk", N, "We never recommend storing secrets in git."),
    _c("memory-talk", N, "We haven't shipped that feature yet."),
    _c("memory-talk", N, ""),
    _c("memory-talk", N, "   \n\n  "),
    _c("memory-talk", N, "OK."),
)
