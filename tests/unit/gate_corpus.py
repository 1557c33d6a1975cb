"""Loads a gate-corpus composer script (training/gate/compose_*.py) as a module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

GATE = Path(__file__).resolve().parents[2] / "training" / "gate"
LANGS = ("en", "fr", "es", "de", "it", "pt")


def load_composer(name: str) -> ModuleType:
    """``training/gate/<name>.py`` as a module (the scripts import each other by name)."""
    if str(GATE) not in sys.path:
        sys.path.insert(0, str(GATE))
    spec = importlib.util.spec_from_file_location(name, GATE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
