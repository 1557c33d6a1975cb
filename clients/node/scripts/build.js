'use strict';
// Builds the package: bundles the .proto files into proto/ (engram's from the
// repository's proto/, plus the google.rpc and grpc.health.v1 files in
// vendor/), generates TypeScript types for them with proto-loader-gen-types
// (in the shape the client loads messages in) and compiles src/ to dist/.
// `npm pack` runs it (prepack); the tarball carries dist/ and proto/.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE = path.resolve(__dirname, '..');
const REPO_PROTO = path.resolve(PACKAGE, '..', '..', 'proto');
const BUNDLED = path.join(PACKAGE, 'proto');
const GENERATED = path.join(PACKAGE, 'src', 'generated');
const BIN = path.join(PACKAGE, 'node_modules', '.bin');
// The same options as LOADER_OPTIONS in src/protos.ts, so the types describe
// exactly the objects the client hands out.
// One generated root per file, named after the file's base name: the service
// files and the error details (the plugin contracts are bundled, untyped).
const TYPED_ROOTS = [
  'engram/common/v1/common.proto',
  'engram/journal/v1/journal.proto',
  'engram/learning/v1/learning.proto',
  'engram/retrieval/v1/retrieval.proto',
  'engram/gateway/v1/gateway.proto',
  'grpc/health/v1/health.proto',
  'google/rpc/status.proto',
  'google/rpc/error_details.proto',
];
const TYPE_OPTIONS = ['--keepCase', '--longs=String', '--enums=String', '--defaults', '--oneofs'];

function protoFiles(root, dir = root) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return protoFiles(root, full);
    return entry.name.endsWith('.proto') ? [path.relative(root, full)] : [];
  });
}

function copyTree(from, to) {
  for (const file of protoFiles(from)) {
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(path.join(from, file), path.join(to, file));
  }
}

// One index.ts per engram package (src/generated/engram/<service>/v1), so
// src/index.ts can export every message type under its package's name.
function writeBarrels() {
  const engram = path.join(GENERATED, 'engram');
  for (const service of fs.readdirSync(engram)) {
    const dir = path.join(engram, service, 'v1');
    const modules = fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();
    const lines = modules.map((m) => `export type * from './${m}';`);
    fs.writeFileSync(path.join(dir, 'index.ts'), `${lines.join('\n')}\n`);
  }
}

function main() {
  if (!fs.existsSync(path.join(REPO_PROTO, 'engram'))) {
    throw new Error(`no engram protos at ${REPO_PROTO}: build the package inside the engram repository`);
  }
  for (const dir of [BUNDLED, GENERATED, path.join(PACKAGE, 'dist')]) fs.rmSync(dir, { recursive: true, force: true });
  copyTree(path.join(REPO_PROTO, 'engram'), path.join(BUNDLED, 'engram'));
  copyTree(path.join(PACKAGE, 'vendor'), BUNDLED);
  // Run from proto/ so the generated files name their .proto relative to it.
  execFileSync(
    path.join(BIN, 'proto-loader-gen-types'),
    [...TYPE_OPTIONS, '--grpcLib=@grpc/grpc-js', '--includeComments', '-I', '.', '-O', GENERATED, ...TYPED_ROOTS],
    { cwd: BUNDLED, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  writeBarrels();
  execFileSync(path.join(BIN, 'tsc'), ['-p', path.join(PACKAGE, 'tsconfig.json')], { stdio: 'inherit' });
}

main();
