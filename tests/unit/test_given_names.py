"""The given-name list is what its tool makes from the pinned source."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engram.lexicon import is_given_name, is_place_name

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_list_is_what_the_tool_writes() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_given_names.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_names_of_many_countries_are_listed_as_written() -> None:
    for name in ("Mateo", "Júlia", "Jeroen", "Henrike", "Ugo", "Aarav"):
        assert is_given_name(name), name
    assert not is_given_name("mateo")  # case matters: a capitalised word in running text
    assert not is_given_name("Zürich")


def test_large_places_are_listed_as_written() -> None:
    for place in ("Paris", "Florence", "Sydney", "Zürich", "Brazil"):
        assert is_place_name(place), place
    assert not is_place_name("Mateo")
