"""Named queries of the episode read paths and the embedding worker."""

from __future__ import annotations

from pathlib import Path

from engram.db.queries import Queries

SQ = Queries(Path(__file__).with_name("search.sql"))
