"""Routing of existence questions to the exact lookup."""

from __future__ import annotations

import pytest

from gateway.routing import ExactRoute, key_terms, route


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("did I ever tell you about my sister Zelda?", ("zelda",)),
        ("Did I ever tell you about Zelda?", ("zelda",)),
        ("have we discussed the Lisbon trip?", ("lisbon",)),
        ("Have we ever talked about kubernetes?", ("kubernetes",)),
        ("did I mention my allergy?", ("allergy",)),
        ("do you remember me saying I hate olives?", ("hate", "olives")),
        ("Do you recall if I ever mentioned my dog Rex?", ("rex",)),
        ("have I told you my favourite colour before?", ("favourite", "colour")),
        ("Was Project Falcon ever mentioned?", ("project", "falcon")),
        ("do you have any record of the Berlin move?", ("berlin",)),
        ("Quick one. Did I ever tell you about my surgery?", ("surgery",)),
        ("DID I EVER TELL YOU ABOUT MY SISTER ZELDA", ("sister", "zelda")),
    ],
)
def test_existence_questions_route_to_exact_lookup(text: str, terms: tuple[str, ...]) -> None:
    found = route(text)
    assert found is not None
    assert found.terms == terms


@pytest.mark.parametrize(
    "text",
    [
        "how big is the disk?",
        "What did I tell you about the budget?",
        "did you tell me the weather?",
        "did I ever tell you about it?",
        "Tell me about Zelda.",
        "Preference: always report sizes in gigabytes.",
    ],
)
def test_other_inputs_do_not_route(text: str) -> None:
    assert route(text) is None


def test_topic_and_reply_topic() -> None:
    found = route("did I ever tell you about my sister Zelda before?")
    assert found == ExactRoute(topic="my sister Zelda", terms=("zelda",))
    assert found.reply_topic == "your sister Zelda"


def test_key_terms_drop_stopwords_and_dedupe() -> None:
    assert key_terms("the deadline for the deadline") == ("deadline",)
    assert key_terms("it") == ()
    assert key_terms("Anna's birthday") == ("anna",)
    assert len(key_terms("alpha beta gamma delta epsilon zeta")) == 4
