"""Episode bodies held by the resident index (retrieval_service.bodies): what
a row returns survives the builder's deduplication, a segment's sort, merges
and a persisted snapshot, in any script; rows made without a content hash hold
none (Recall re-reads those)."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path

import numpy as np

from retrieval_service import bodies, persist
from retrieval_service import dense as dense_mod
from retrieval_service.records import EpisodeRecord, Interner, make_record, split_key
from retrieval_service.segment import SegmentBuilder, merge
from retrieval_service.snapshot import Snapshot

DIM = 8
TEXTS = [
    ("Mi hermana vive en Lisboa.", "Anotado."),
    ("我的猫叫像素。", "好的"),
    ("", "assistant only"),
    ("Ünïcödé and emoji 🐈‍⬛ together", ""),
    ("שלום עולם", "مرحبا بالعالم"),
]


def _record(interner: Interner, index: int, user: str, assistant: str) -> EpisodeRecord:
    vector = np.zeros(DIM, dtype=np.float32)
    vector[index % DIM] = 1.0
    return make_record(
        interner,
        episode_id=str(uuid.UUID(int=(index * 7919) << 64 | index)),
        subject=f"subject-{index % 2}",
        workspace="default",
        session_id=f"s{index}",
        session_ids=["s0", f"s{index}"],
        last_seen_us=1_700_000_000_000_000 + index,
        user_text=user,
        assistant_text=assistant,
        vector=vector,
        first_seen_us=1_600_000_000_000_000 + index,
        user_name=f" Maya {index} ",
        assistant_name="",
        content_sha256=hashlib.sha256(f"{user}\x00{assistant}".encode()).hexdigest(),
        occurrence_count=index + 1,
        embedding_model="hashing-v1-8",
    )


def _expected(record: EpisodeRecord, index: int) -> dict[str, object]:
    user, assistant = TEXTS[index]
    return {
        "episode_id": record.episode_id,
        "subject": f"subject-{index % 2}",
        "session_id": f"s{index}",
        "session_ids": ["s0", f"s{index}"],
        "user_text": user,
        "assistant_text": assistant,
        "content_sha256": hashlib.sha256(f"{user}\x00{assistant}".encode()).hexdigest(),
        "occurrence_count": index + 1,
        "first_seen_at": 1_600_000_000 + 0,
        "last_seen_nanos": index * 1000,
        "user_name": f" Maya {index} ",
        "embedding_model": "hashing-v1-8",
    }


def _check(snapshot: Snapshot, records: list[EpisodeRecord]) -> None:
    for index, record in enumerate(records):
        found = snapshot.locate(*split_key(record.episode_id))
        assert found is not None
        episode = bodies.episode(snapshot, *found)
        assert episode is not None
        want = _expected(record, index)
        assert episode.episode_id == want["episode_id"]
        assert episode.subject == want["subject"] and episode.workspace == "default"
        assert episode.session_id == want["session_id"]
        assert list(episode.session_ids) == want["session_ids"]
        assert (episode.user_text, episode.assistant_text) == (
            want["user_text"],
            want["assistant_text"],
        )
        assert episode.content_sha256 == want["content_sha256"]
        assert episode.occurrence_count == want["occurrence_count"]
        assert episode.first_seen_at.seconds == want["first_seen_at"]
        assert episode.last_seen_at.nanos == want["last_seen_nanos"]
        assert episode.user_name == want["user_name"] and episode.assistant_name == ""
        assert episode.embedding_model == want["embedding_model"]


def test_bodies_survive_build_merge_and_persistence(tmp_path: Path) -> None:
    interner = Interner()
    records = [_record(interner, i, *texts) for i, texts in enumerate(TEXTS)]
    builder = SegmentBuilder(DIM)
    builder.add(_record(interner, 0, "replaced", "soon"))  # deduplicated: last write wins
    for record in records[:3]:
        builder.add(record)
    first = builder.build(dense_mod.KIND_EXACT)
    second = SegmentBuilder(DIM)
    for record in records[3:]:
        second.add(record)
    snapshot = Snapshot.from_base(first, interner, DIM, "m", 1, 1)
    snapshot = Snapshot(
        2,
        2,
        (first, second.build(dense_mod.KIND_EXACT)),
        (snapshot.alive[0], np.ones(2, dtype=np.bool_)),
        (np.empty(0, np.int64), np.empty(0, np.int64)),
        interner,
        DIM,
        "m",
    )
    _check(snapshot, records)
    merged = snapshot.merged(3)
    assert len(merged.segments) == 1
    _check(merged, records)

    alive = np.ones(merged.base.rows, dtype=np.bool_)
    alive[0] = False  # a merge drops dead rows' bodies with them
    smaller = merge(merged.segments, [alive], dense_mod.KIND_EXACT, DIM)
    assert smaller.rows == len(records) - 1
    assert int(smaller.text_offsets[-1]) == smaller.text_bytes.size

    persist.save(merged, tmp_path)
    loaded = persist.load(tmp_path, DIM, "m")
    assert loaded is not None
    _check(loaded[0], records)


def test_a_row_without_a_content_hash_holds_no_body() -> None:
    interner = Interner()
    record = make_record(
        interner,
        episode_id=str(uuid.uuid4()),
        subject="a",
        workspace="default",
        session_id="s",
        session_ids=["s"],
        last_seen_us=0,
        user_text="some words",
        assistant_text="more",
        vector=None,
    )
    builder = SegmentBuilder(DIM)
    builder.add(record)
    snapshot = Snapshot.from_base(builder.build(dense_mod.KIND_EXACT), interner, DIM, "m", 1, 1)
    assert bodies.episode(snapshot, 0, 0) is None
    assert snapshot.base.text_bytes.size == 0
