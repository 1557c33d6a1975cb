"""One section as a block: packed under its budget and rendered, with what happened to
it on the way to the model boundary."""

from __future__ import annotations

from dataclasses import dataclass, field

from engram.gateway.v1 import gateway_pb2 as gpb
from gateway import render
from gateway.packing import Entry, framing_cost, pack
from gateway.sections import DROP_ORDERS, SectionInput


@dataclass
class PackedSection:
    source: SectionInput
    budget: int
    kept: tuple[Entry, ...] = ()
    dropped: tuple[Entry, ...] = ()
    rendered: str = ""
    status: int = gpb.SECTION_STATUS_EMPTY
    details: list[str] = field(default_factory=list)
    receipt_id: int = 0

    @property
    def name(self) -> str:
        return self.source.name

    def withhold(self, why: str) -> None:
        """Fail closed: the block leaves the response."""
        if self.status == gpb.SECTION_STATUS_INCLUDED:
            self.details.append(f"{len(self.kept)} packed entries withheld")
        self.status = gpb.SECTION_STATUS_WITHHELD_RECEIPT_FAILED
        self.rendered = ""
        self.details.append(why)


def begin_packing(section: SectionInput, budget: int) -> tuple[PackedSection, bool]:
    """A section's packed form with its input's detail, and whether packing is
    already over: the section was blocked upstream, or has nothing eligible."""
    packed = PackedSection(section, budget)
    if section.detail:
        packed.details.append(section.detail)
    if section.blocked_status:
        packed.status = section.blocked_status
        return packed, True
    if not section.eligible:
        packed.status = gpb.SECTION_STATUS_EMPTY
        return packed, True
    return packed, False


def pack_section(section: SectionInput, budget: int) -> PackedSection:
    packed, done = begin_packing(section, budget)
    if done:
        return packed
    eligible = section.eligible
    framing = framing_cost(render.header(section.name), render.footer(section.name))
    result = pack([c.entry for c in eligible], budget, framing, DROP_ORDERS[section.name])
    packed.kept, packed.dropped = result.kept, result.dropped
    if not result.kept:
        packed.status = gpb.SECTION_STATUS_OMITTED_BUDGET
        packed.details.append(f"nothing fitted {budget} tokens")
        return packed
    packed.rendered = render.render_block(section.name, [e.line for e in result.kept])
    packed.status = gpb.SECTION_STATUS_INCLUDED
    return packed
