#!/usr/bin/env bash
# @engram/client as its users get it: `npm pack`, the tarball installed in a
# scratch directory outside the repository, the README's example compiled
# against the installed types, and the client's tests (live ones included, the
# example among them) run from there against the repository's `engram`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
package="$repo/clients/node"
scratch="$(mktemp -d /tmp/engram-node-package-XXXXXX)"
trap 'rm -rf "$scratch"' EXIT

tarball="$(cd "$package" && npm pack --silent --pack-destination "$scratch" | tail -n 1)"
tar -tzf "$scratch/$tarball" >"$scratch/contents"
grep -qx 'package/proto/engram/journal/v1/journal.proto' "$scratch/contents"
grep -qx 'package/dist/index.d.ts' "$scratch/contents"
if grep -q -e '^package/src/' -e '^package/test/' "$scratch/contents"; then
  echo "the tarball carries sources or tests" >&2
  exit 1
fi

cd "$scratch"
printf '{"name": "engram-client-consumer", "private": true}\n' >package.json
npm install --no-audit --no-fund --prefer-offline --silent "./$tarball"
cp -r "$package/test" test

# The README's example, compiled as a consumer's TypeScript.
awk '/^```ts$/ {keep=1; next} /^```$/ {keep=0} keep' "$package/README.md" >example.ts
test -s example.ts
"$package/node_modules/.bin/tsc" --strict --target ES2022 --module commonjs \
  --moduleResolution node10 --types node --typeRoots "$package/node_modules/@types" example.ts
echo "README example: compiles against the installed package (run by the tests)"

ENGRAM_REPO="$repo" ENGRAM_BIN="$repo/.venv/bin/engram" ENGRAM_README_EXAMPLE="$scratch/example.js" \
  node --test test/
