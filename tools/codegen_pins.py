"""Keep the stub generator's pins, the committed stubs and the runtime floors in step.

The committed stubs embed the versions that wrote them (``Protobuf Python Version`` and
``GRPC_GENERATED_VERSION``) and refuse older runtimes at import. So:

python tools/codegen_pins.py check   # the installed generator is the pinned one, the pins
                                     # match the stubs, the runtime floors cover them
python tools/codegen_pins.py bump    # pin grpcio-tools/mypy-protobuf to the newest release
                                     # below their next major (`make upgrade`)
python tools/codegen_pins.py floors  # raise the grpcio/protobuf floors to the stubs' versions
"""

from __future__ import annotations

import argparse
import importlib.metadata
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
GENERATORS = ("grpcio-tools", "mypy-protobuf")
_PROTOBUF_HEADER = re.compile(r"^# Protobuf Python Version: (\S+)$", re.MULTILINE)
_GRPC_HEADER = re.compile(r"^GRPC_GENERATED_VERSION = '([^']+)'$", re.MULTILINE)


def _stub_versions() -> tuple[Version, Version]:
    """(protobuf gencode version, grpc gencode version), the same in every committed stub."""
    found: dict[str, set[str]] = {"protobuf": set(), "grpc": set()}
    for path in sorted(ROOT.glob("engram/*/v1/*_pb2.py")):
        found["protobuf"].update(_PROTOBUF_HEADER.findall(path.read_text()))
    for path in sorted(ROOT.glob("engram/*/v1/*_pb2_grpc.py")):
        found["grpc"].update(_GRPC_HEADER.findall(path.read_text()))
    for kind, versions in found.items():
        if len(versions) != 1:
            raise SystemExit(f"stubs name {len(versions)} {kind} generator versions: {versions}")
    return Version(found["protobuf"].pop()), Version(found["grpc"].pop())


def _requirements() -> dict[str, Requirement]:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    out: dict[str, Requirement] = {}
    for line in [*project["dependencies"], *project["optional-dependencies"]["dev"]]:
        req = Requirement(line)
        out[req.name.lower()] = req
    return out


def _floor(req: Requirement) -> Version | None:
    floors = [Version(s.version) for s in req.specifier if s.operator in (">=", "==")]
    return max(floors) if floors else None


def check() -> int:
    reqs = _requirements()
    protobuf_gen, grpc_gen = _stub_versions()
    errors: list[str] = []
    for name in GENERATORS:
        pins = [s.version for s in reqs[name].specifier if s.operator == "=="]
        installed = importlib.metadata.version(name)
        if len(pins) != 1:
            errors.append(f"{name} must be pinned with == in pyproject.toml")
        elif pins[0] != installed:
            errors.append(f"{name} {installed} is installed, pyproject.toml pins {pins[0]}")
    tools_pin = _floor(reqs["grpcio-tools"])
    if tools_pin != grpc_gen:
        errors.append(f"stubs came from grpcio-tools {grpc_gen}, pyproject.toml pins {tools_pin}")
    for name, needed in (("grpcio", grpc_gen), ("protobuf", protobuf_gen)):
        floor = _floor(reqs[name])
        if floor is None or floor < needed:
            errors.append(f"the stubs need {name}>={needed}; pyproject.toml allows {reqs[name]}")
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print("run `make upgrade` (or fix the pins by hand, then `make lock`)", file=sys.stderr)
        return 1
    print(f"generator pins match the stubs (protobuf {protobuf_gen}, grpc {grpc_gen})")
    return 0


def _replace_requirement(text: str, name: str, new: str) -> str:
    pattern = re.compile(rf'^(\s*)"{re.escape(name)}[<>=!~][^"]*",', re.MULTILINE)
    text, count = pattern.subn(lambda m: f'{m.group(1)}"{new}",', text)
    if count != 1:
        raise SystemExit(f"expected one {name} requirement in pyproject.toml, found {count}")
    return text


def bump() -> int:
    """Resolve the dev environment with the generator pins relaxed to their major."""
    reqs = _requirements()
    with tempfile.TemporaryDirectory() as tmp:
        overrides = Path(tmp) / "overrides.txt"
        lines = []
        for name in GENERATORS:
            current = _floor(reqs[name])
            assert current is not None
            lines.append(f"{name}>={current},<{current.major + 1}")
        overrides.write_text("\n".join(lines) + "\n")
        uv = Path(sys.executable).parent / "uv"
        resolved = subprocess.run(
            [str(uv), "pip", "compile", str(PYPROJECT), "--extra", "dev", "--upgrade",
             "--universal", "--python-version", "3.11", "--override", str(overrides),
             "--no-header", "--no-annotate", "--quiet"],
            check=True, capture_output=True, text=True, cwd=ROOT,
        ).stdout  # fmt: skip
    text = PYPROJECT.read_text()
    for name in GENERATORS:
        match = re.search(rf"^{re.escape(name)}==(\S+)", resolved, re.MULTILINE)
        if match is None:
            raise SystemExit(f"{name} missing from the resolution")
        text = _replace_requirement(text, name, f"{name}=={match.group(1)}")
        print(f"{name}=={match.group(1)}")
    PYPROJECT.write_text(text)
    return 0


def floors() -> int:
    reqs = _requirements()
    protobuf_gen, grpc_gen = _stub_versions()
    text = PYPROJECT.read_text()
    for name, needed in (("grpcio", grpc_gen), ("protobuf", protobuf_gen)):
        floor = _floor(reqs[name])
        if floor is None or floor < needed:
            new = f"{name}>={needed},<{needed.major + 1}"
            text = _replace_requirement(text, name, new)
            print(new)
    PYPROJECT.write_text(text)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("command", choices=("check", "bump", "floors"))
    command = parser.parse_args().command
    return {"check": check, "bump": bump, "floors": floors}[command]()


if __name__ == "__main__":
    raise SystemExit(main())
