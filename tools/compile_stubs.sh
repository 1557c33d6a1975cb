#!/usr/bin/env bash
# Compiles what `buf generate` wrote to gen/: TypeScript with tsc (strict),
# Go with go vet against Debian's protobuf and gRPC modules (GOPATH mode, no
# network), Java with javac against Debian's protobuf-java and grpc-java jars.
set -euo pipefail
cd "$(dirname "$0")/.."
node_modules/.bin/tsc -p tsconfig.stubs.json
echo "typescript: $(find gen/ts -name '*.ts' | wc -l) files compile"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
module="$work/src/engram.dev/api/gen"
mkdir -p "$module"
cp -r gen/go "$module/go"
GOPATH="$work:/usr/share/gocode" GO111MODULE=off GOPROXY=off GOFLAGS= GOCACHE="$work/cache" \
  go vet engram.dev/api/gen/go/...
echo "go: $(find gen/go -name '*.go' | wc -l) files vet clean"

jars=/usr/share/java
classpath="$jars/protobuf.jar:$jars/grpc-api.jar:$jars/grpc-stub.jar:$jars/grpc-protobuf.jar"
classpath+=":$jars/grpc-protobuf-lite.jar:$jars/guava.jar:$jars/geronimo-annotation-1.3-spec.jar"
find gen/java -name '*.java' >"$work/sources"
javac -nowarn -d "$work/classes" -cp "$classpath" @"$work/sources"
echo "java: $(wc -l <"$work/sources") files compile"
