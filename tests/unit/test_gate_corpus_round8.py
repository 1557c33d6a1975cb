"""The round-8 corpus files are what their composer writes."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

GATE = Path(__file__).resolve().parents[2] / "training" / "gate"
LANGS = ("en", "fr", "es", "de", "it", "pt")


def _composer() -> ModuleType:
    sys.path.insert(0, str(GATE))
    spec = importlib.util.spec_from_file_location("compose_round8", GATE / "compose_round8.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPOSER = _composer()


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
