"""Regenerate the Python stubs in engram/<service>/v1 from proto/.

python tools/gen_protos.py          # write stubs
python tools/gen_protos.py --check  # exit 1 when committed stubs differ
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", "_pb2_grpc.pyi")


def _protos() -> list[Path]:
    return sorted(PROTO_ROOT.glob("engram/*/v1/*.proto"))


def _generate(out: Path) -> None:
    import grpc_tools

    include = Path(grpc_tools.__file__).parent / "_proto"
    bindir = Path(sys.executable).parent
    cmd = [
        sys.executable,
        "-m",
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        f"--plugin=protoc-gen-mypy={bindir / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={bindir / 'protoc-gen-mypy_grpc'}",
        f"--mypy_out={out}",
        f"--mypy_grpc_out={out}",
        *[str(p.relative_to(PROTO_ROOT)) for p in _protos()],
    ]
    subprocess.run(cmd, check=True, cwd=PROTO_ROOT)
    # Package markers so the stubs import as engram.<service>.v1.
    for proto in _protos():
        package_dir = out / proto.parent.relative_to(PROTO_ROOT)
        for directory in (package_dir, package_dir.parent):
            (directory / "__init__.py").touch()


def _generated_files(base: Path) -> list[Path]:
    return sorted(
        p.relative_to(base)
        for p in base.glob("engram/*/v1/*")
        if p.name.endswith(GENERATED_SUFFIXES)
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail on drift, write nothing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        _generate(fresh)
        fresh_files = _generated_files(fresh)
        if args.check:
            committed = _generated_files(ROOT)
            drift = sorted(set(fresh_files) ^ set(committed))
            drift += [
                f
                for f in fresh_files
                if (ROOT / f).exists() and not filecmp.cmp(fresh / f, ROOT / f, shallow=False)
            ]
            if drift:
                print("generated stubs differ from proto/; run `make protos`:", file=sys.stderr)
                for f in drift:
                    print(f"  {f}", file=sys.stderr)
                return 1
            print(f"stubs up to date ({len(fresh_files)} files)")
            return 0
        for stale in _generated_files(ROOT):
            (ROOT / stale).unlink()
        for f in fresh_files:
            target = ROOT / f
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(fresh / f, target)
            for marker in (target.parent / "__init__.py", target.parent.parent / "__init__.py"):
                marker.touch()
        print(f"wrote {len(fresh_files)} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
