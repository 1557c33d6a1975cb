"""grpcio-tools' gRPC Python generator as a protoc plugin, for `buf generate`.

grpcio-tools builds the generator into its own protoc rather than shipping a
plugin binary, so this runs that protoc on the request's descriptors and hands
the files back: the output is the one `make protos` writes.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2


def main() -> int:
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    response = plugin_pb2.CodeGeneratorResponse(
        supported_features=plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL
    )
    with tempfile.TemporaryDirectory() as tmp:
        descriptors = Path(tmp) / "descriptors.binpb"
        descriptors.write_bytes(
            descriptor_pb2.FileDescriptorSet(file=request.proto_file).SerializeToString()
        )
        out = Path(tmp) / "out"
        out.mkdir()
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "grpc_tools.protoc",
                f"--descriptor_set_in={descriptors}",
                f"--grpc_python_out={out}",
                *request.file_to_generate,
            ],
            check=False,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            response.error = result.stderr.strip()
        else:
            for path in sorted(p for p in out.rglob("*") if p.is_file()):
                response.file.add(name=str(path.relative_to(out)), content=path.read_text())
    sys.stdout.buffer.write(response.SerializeToString())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
