"""Named queries kept in .sql files.

A file holds blocks introduced by a `-- name: <query_name>` line; the block's
text up to the next such line is the statement, with psycopg %(param)s
placeholders.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

_HEADER = re.compile(r"^--\s*name:\s*([a-z_][a-z0-9_]*)\s*$", re.MULTILINE)


class Queries(Mapping[str, str]):
    def __init__(self, path: Path) -> None:
        text = path.read_text()
        self._queries: dict[str, str] = {}
        headers = list(_HEADER.finditer(text))
        for i, match in enumerate(headers):
            end = headers[i + 1].start() if i + 1 < len(headers) else len(text)
            body = text[match.end() : end].strip()
            name = match.group(1)
            if name in self._queries:
                raise ValueError(f"{path.name}: duplicate query name {name}")
            self._queries[name] = body
        self.source = path

    def __getitem__(self, name: str) -> str:
        try:
            return self._queries[name]
        except KeyError:
            raise KeyError(f"{self.source.name} has no query named {name!r}") from None

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._queries)

    def __len__(self) -> int:
        return len(self._queries)
