"""The round-8 corpus files are what their composer writes."""

from __future__ import annotations

import json

import pytest
from gate_corpus import GATE, LANGS, load_composer

COMPOSER = load_composer("compose_round8")


@pytest.mark.parametrize("lang", LANGS)
def test_the_committed_file_is_what_the_composer_writes(lang: str) -> None:
    problems: list[str] = []
    rows = COMPOSER.compose(lang, problems)
    assert problems == []
    # as the composer's main(): a clause an earlier file labels otherwise is left to it
    seen = COMPOSER.earlier_labels()
    rows = [row for row in rows if not seen.get(row["text"], set()) - {row["label"]}]
    committed = [
        json.loads(line)
        for line in (GATE / f"round8_{lang}.jsonl").read_text("utf-8").splitlines()
        if line.strip()
    ]
    assert rows == committed


def test_held_out_languages_stay_out_of_round_8() -> None:
    assert set(COMPOSER.DATA) == set(LANGS)
    assert not list(GATE.glob("round8_nl.jsonl")) and not list(GATE.glob("round8_ja.jsonl"))
