#!/usr/bin/env bash
# The Go and Java code generators and toolchains `make stubs-check` uses, from
# Debian's packages (npm and PyPI carry none of them). Installs only what is
# missing; needs root and apt-get. Prints the versions in use.
set -euo pipefail
# binary:package
needed=(
  protoc:protobuf-compiler
  protoc-gen-go:protoc-gen-go
  protoc-gen-go-grpc:protoc-gen-go-grpc
  grpc_java_plugin:protobuf-compiler-grpc-java-plugin
  go:golang-go
  javac:default-jdk-headless
  /usr/share/gocode/src/google.golang.org/protobuf:golang-google-protobuf-dev
  /usr/share/gocode/src/google.golang.org/grpc:golang-google-grpc-dev
  /usr/share/java/protobuf.jar:libprotobuf-java
  /usr/share/java/grpc-stub.jar:libgrpc-java
  /usr/share/java/guava.jar:libguava-java
  /usr/share/java/geronimo-annotation-1.3-spec.jar:libgeronimo-annotation-1.3-spec-java
)
missing=()
for entry in "${needed[@]}"; do
  what="${entry%%:*}"
  if [[ "$what" == /* ]]; then test -e "$what" || missing+=("${entry#*:}")
  else command -v "$what" >/dev/null || missing+=("${entry#*:}"); fi
done
if ((${#missing[@]})); then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "protoc $(protoc --version | cut -d' ' -f2), protoc-gen-go $(protoc-gen-go --version | cut -d' ' -f2)," \
  "protoc-gen-go-grpc $(protoc-gen-go-grpc --version | cut -d' ' -f2)," \
  "grpc-java $(dpkg-query -W -f '${Version}' protobuf-compiler-grpc-java-plugin), $(go version | cut -d' ' -f3)"
