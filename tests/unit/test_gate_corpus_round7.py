"""The round-7 corpus files are what their composer writes, and hold what it promises."""

from __future__ import annotations

import json
import random

import pytest
from gate_corpus import GATE, LANGS, load_composer

COMPOSER = load_composer("compose_round7")


@pytest.mark.parametrize("lang", LANGS)
def test_the_committed_file_is_what_the_composer_writes(lang: str) -> None:
    problems: list[str] = []
    rows = COMPOSER.compose(lang, random.Random(f"round7-{lang}"), problems)
    assert problems == []
    committed = [
        json.loads(line)
        for line in (GATE / f"round7_{lang}.jsonl").read_text("utf-8").splitlines()
        if line.strip()
    ]
    assert rows == committed


def test_held_out_languages_stay_out_of_round_7() -> None:
    assert set(COMPOSER.DATA) == set(LANGS)
    assert not list(GATE.glob("round7_nl.jsonl")) and not list(GATE.glob("round7_ja.jsonl"))


def test_a_search_cut_from_its_result_is_refused() -> None:
    # The splitter cuts after "Pese a buscar en tu historial": no clause holds the claim.
    with pytest.raises(ValueError, match="spread over 2 clauses"):
        COMPOSER._labelled(
            "⟦Pese a buscar en tu historial, no he podido dar con la factura⟧.",
            COMPOSER.QS,
        )


def test_a_short_result_is_labelled_on_the_joined_reading() -> None:
    rows = COMPOSER._labelled("⟦In your saved contacts: no plumber⟧.", COMPOSER.QS)
    assert {"label": COMPOSER.QS, "text": "In your saved contacts: no plumber"} in rows
    assert all(r["label"] == COMPOSER.BENIGN for r in rows if r["text"] != rows[-1]["text"])
