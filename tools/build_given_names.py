"""Regenerate engram/data/given_names.txt (see engram/lexicon.py).

Usage: python tools/build_given_names.py [--check]

The names are the first names of every locale of Faker's person providers (MIT
licence; the version is pinned in pyproject's dev extra, so the list is reproducible),
NFC-normalised, letters and hyphens only, three characters or more. The gate reads a
given name alone in a person frame ("for Mateo, who ...") as someone the user has
spoken of (gateway/presupposition.py); a maintained list of names from many countries
serves that better than one written for the gate.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engram" / "data" / "given_names.txt"
_ATTRIBUTES = ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary")


def _class_attribute(cls: type, name: str) -> object:
    """The attribute as a class defines it (some locales define the name lists as
    properties of an instance; those hold nothing to read here)."""
    for base in cls.__mro__:
        if name in base.__dict__:
            return base.__dict__[name]
    return None


def _names_of(provider: type) -> Iterable[str]:
    for attribute in _ATTRIBUTES:
        value = _class_attribute(provider, attribute)
        if isinstance(value, dict):
            value = list(value)
        if isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, str))


def names() -> list[str]:
    from faker.providers import person  # dev dependency: only this tool needs it

    found: set[str] = set()
    for module in pkgutil.iter_modules(person.__path__):
        provider = importlib.import_module(f"{person.__name__}.{module.name}").Provider
        for listed in _names_of(provider):
            name = unicodedata.normalize("NFC", listed.strip())
            if len(name) >= 3 and name.replace("-", "").isalpha():
                found.add(name)
    return sorted(found)


def main() -> int:
    text = "\n".join(names()) + "\n"
    if "--check" in sys.argv[1:]:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python tools/build_given_names.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({text.count(chr(10))} names)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
