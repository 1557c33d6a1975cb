"""Snapshots on disk under <data_dir>/index/.

Layout::

    index/
      manifest.json            the current snapshot: cursor, model, segment list
      state-<generation>.npz   tombstones (dead rows) per segment of that snapshot
      strings-<generation>.json  the interner's strings
      segments/<uid>/          one immutable segment: meta.npz, terms.json,
                               dense.faiss (faiss.write_index) or vectors.npy

Segments are immutable, so each is written once (to a temporary directory,
then renamed) and shared by every later manifest that still lists it; a save
after a feed batch writes only the new small segments and the tombstones.
The manifest is replaced atomically (temp file, fsync, rename), so a crash
leaves either the old or the new snapshot, never a mix; files no manifest
references are removed after the rename.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from engram.terms import VERSION as TERMS_VERSION
from retrieval_service import dense as dense_mod
from retrieval_service.lexical import LexicalSegment
from retrieval_service.records import Interner
from retrieval_service.segment import Segment
from retrieval_service.snapshot import Snapshot

log = logging.getLogger("engram.retrieval.persist")

# v2: segments carry rank_meta (engram.ranking metadata per row).
# v3: and the episodes' bodies (texts, content hash, body columns).
FORMAT = "engram.retrieval.snapshot.v3"
_META_FIELDS = (
    "key_hi",
    "key_lo",
    "lo_sorted",
    "lo_order",
    "scope",
    "subject",
    "workspace",
    "session",
    "last_seen_us",
    "has_vector",
    "sess_offsets",
    "sess_values",
    "rank_meta",
    "text_offsets",
    "text_bytes",
    "sha256",
    "body",
)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _save_segment(segment: Segment, directory: Path) -> None:
    final = directory / segment.uid
    if final.exists():
        return
    tmp = directory / f".{segment.uid}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    lexical = segment.lexical
    with open(tmp / "meta.npz", "wb") as handle:
        np.savez(
            handle,
            **{name: getattr(segment, name) for name in _META_FIELDS},
            lex_offsets=lexical.offsets,
            lex_rows=lexical.rows,
            lex_tf=lexical.tf,
            lex_doc_len=lexical.doc_len,
        )
    (tmp / "terms.json").write_text(json.dumps(lexical.term_list()), encoding="utf-8")
    dense_mod.save_dense(segment.dense, str(tmp))
    (tmp / "segment.json").write_text(
        json.dumps(
            {
                "uid": segment.uid,
                "rows": segment.rows,
                "dense_kind": segment.dense.kind,
                "vectors_missing": segment.vectors_missing,
            }
        ),
        encoding="utf-8",
    )
    for child in tmp.iterdir():
        with open(child, "rb") as handle:
            os.fsync(handle.fileno())
    os.replace(tmp, final)


def _load_segment(directory: Path, dim: int) -> Segment:
    info = json.loads((directory / "segment.json").read_text(encoding="utf-8"))
    with np.load(directory / "meta.npz") as meta:
        arrays: dict[str, Any] = {name: meta[name] for name in meta.files}
    for array in arrays.values():
        array.flags.writeable = False
    terms = json.loads((directory / "terms.json").read_text(encoding="utf-8"))
    lexical = LexicalSegment(
        {t: i for i, t in enumerate(terms)},
        arrays.pop("lex_offsets"),
        arrays.pop("lex_rows"),
        arrays.pop("lex_tf"),
        arrays.pop("lex_doc_len"),
    )
    dense = dense_mod.load_dense(info["dense_kind"], dim, int(info["rows"]), str(directory))
    return Segment(
        uid=info["uid"],
        dense=dense,
        lexical=lexical,
        vectors_missing=int(info["vectors_missing"]),
        **{name: arrays[name] for name in _META_FIELDS},
    )


def save(snapshot: Snapshot, root: Path, workspaces: frozenset[str] = frozenset()) -> None:
    """Write `snapshot` (holding `workspaces` only, empty: all) durably and
    make it the current one."""
    segments_dir = root / "segments"
    segments_dir.mkdir(parents=True, exist_ok=True)
    for segment in snapshot.segments:
        _save_segment(segment, segments_dir)
    _fsync_dir(segments_dir)
    generation = snapshot.generation
    state_name = f"state-{generation}.npz"
    strings_name = f"strings-{generation}.json"
    with open(root / f"{state_name}.tmp", "wb") as handle:
        dead: dict[str, Any] = {f"dead_{i}": d for i, d in enumerate(snapshot.dead)}
        np.savez(handle, **dead)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(root / f"{state_name}.tmp", root / state_name)
    _write_atomic(root / strings_name, json.dumps(snapshot.interner.values()).encode("utf-8"))
    manifest = {
        "format": FORMAT,
        "terms": TERMS_VERSION,
        "generation": generation,
        "applied_cursor": snapshot.applied_cursor,
        "model": snapshot.model,
        "dim": snapshot.dim,
        "segments": [s.uid for s in snapshot.segments],
        "state": state_name,
        "strings": strings_name,
        "workspaces": sorted(workspaces),
    }
    _write_atomic(root / "manifest.json", json.dumps(manifest, indent=1).encode("utf-8"))
    _fsync_dir(root)
    _collect_garbage(root, {s.uid for s in snapshot.segments}, {state_name, strings_name})


def _collect_garbage(root: Path, segments: set[str], keep_files: set[str]) -> None:
    for child in (root / "segments").iterdir():
        if child.name not in segments:
            shutil.rmtree(child, ignore_errors=True)
    for child in root.iterdir():
        if (
            child.is_file()
            and child.name.startswith(("state-", "strings-"))
            and child.name not in keep_files
        ):
            child.unlink(missing_ok=True)


def load(
    root: Path, dim: int, model: str, workspaces: frozenset[str] = frozenset()
) -> tuple[Snapshot, Interner] | None:
    """The persisted snapshot, or None when absent, unreadable or built with
    another embedding model or dimension, another term normaliser version
    (engram.terms.VERSION: its postings hold another tokenisation) or for
    another set of served workspaces; then a rebuild is needed."""
    path = root / "manifest.json"
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        if (
            manifest.get("format") != FORMAT
            or manifest.get("terms") != TERMS_VERSION
            or manifest["model"] != model
            or int(manifest["dim"]) != dim
            or manifest.get("workspaces", []) != sorted(workspaces)
        ):
            log.info(
                "persisted snapshot is for another model, format, terms or workspaces; rebuilding"
            )
            return None
        interner = Interner(json.loads((root / manifest["strings"]).read_text(encoding="utf-8")))
        segments = tuple(
            _load_segment(root / "segments" / uid, dim) for uid in manifest["segments"]
        )
        with np.load(root / manifest["state"]) as state:
            dead = tuple(
                np.asarray(state[f"dead_{i}"], dtype=np.int64) for i in range(len(segments))
            )
        alive_list = []
        for segment, rows in zip(segments, dead, strict=True):
            mask = np.ones(segment.rows, dtype=np.bool_)
            mask[rows] = False
            mask.flags.writeable = False
            alive_list.append(mask)
        snapshot = Snapshot(
            int(manifest["generation"]),
            int(manifest["applied_cursor"]),
            segments,
            tuple(alive_list),
            dead,
            interner,
            dim,
            model,
        )
    except (OSError, ValueError, KeyError, RuntimeError) as error:
        log.warning("cannot load the persisted snapshot (%s); rebuilding", error)
        return None
    return snapshot, interner


def discard(root: Path) -> None:
    (root / "manifest.json").unlink(missing_ok=True)
