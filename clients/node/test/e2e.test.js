'use strict';
// @engram/client against a live engram: commit, recall, assemble a context and
// verify every Coverage seal in JavaScript; declared claims; the change stream
// (StreamChanges, replayed and followed live); typed errors (reason, field,
// request id); bearer tokens by role; TLS through a terminating proxy.
//
// Starts `engram serve` (ENGRAM_BIN, by default the repository's
// .venv/bin/engram) on a free port with a throwaway data directory and a
// tokens file, or targets ENGRAM_E2E_TARGET (host:port, an operator-role token in
// ENGRAM_E2E_TOKEN) when set; the token and TLS tests need the server started
// here and are skipped otherwise.

const { after, before, test } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync, spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { connect, EngramError, verifyCoverage, declaredClaim, openAiTool } = require('@engram/client');

const REPO = process.env.ENGRAM_REPO || path.resolve(__dirname, '..', '..', '..');
const ENGRAM_BIN = process.env.ENGRAM_BIN || path.join(REPO, '.venv', 'bin', 'engram');
const STARTUP_TIMEOUT_MS = 45000;
const INDEX_TIMEOUT_MS = 20000;
const STREAM_TIMEOUT_MS = 15000;
const OPERATOR_TOKEN = `op-${crypto.randomUUID()}`;
const RUNTIME_TOKEN = `rt-${crypto.randomUUID()}`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const port = await freePort();
  // Under /tmp: as root the embedded PostgreSQL runs as another user that
  // must be able to reach its data directory.
  const dataDir = fs.mkdtempSync(path.join('/tmp', 'engram-node-'));
  const tokensFile = path.join(dataDir, 'tokens.json');
  fs.writeFileSync(
    tokensFile,
    JSON.stringify([
      { name: 'node-operator', role: 'operator', token: OPERATOR_TOKEN },
      { name: 'node-runtime', role: 'runtime', token: RUNTIME_TOKEN },
    ]),
  );
  const child = spawn(
    ENGRAM_BIN,
    [
      'serve',
      '--listen', `127.0.0.1:${port}`,
      '--data-dir', path.join(dataDir, 'data'),
      '--tokens-file', tokensFile,
      '--embedder', 'hashing',
      '--grace-seconds', '1',
      '--log-level', 'WARNING',
    ],
    { cwd: dataDir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { target: `127.0.0.1:${port}`, stop, logs: () => stderr, child };
}

async function waitServing(api, server) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let last = null;
  while (Date.now() < deadline) {
    if (server && server.child.exitCode !== null) {
      throw new Error(`engram serve exited with ${server.child.exitCode}:\n${server.logs()}`);
    }
    try {
      const services = ['', 'engram.journal.v1.JournalService', 'engram.retrieval.v1.RetrievalService',
        'engram.gateway.v1.GatewayService'];
      const answers = await Promise.all(
        services.map((service) => api.call('health', 'Check', { service }, { timeoutMs: 2000 })),
      );
      if (answers.every((a) => a.status === 'SERVING')) return;
      last = answers;
    } catch (error) {
      last = error;
    }
    await sleep(250);
  }
  throw new Error(`not SERVING after ${STARTUP_TIMEOUT_MS} ms: ${last}\n${server ? server.logs() : ''}`);
}

function assertSealed(coverage, what) {
  const result = verifyCoverage(coverage);
  assert.ok(result.ok, `${what}: ${result.reason}`);
}

function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('the call succeeded');
}

// Shared by every test: one server, one client with an operator-role token.
let server = null;
let target;
let api;

before(async () => {
  target = process.env.ENGRAM_E2E_TARGET;
  if (!target) {
    server = await startServer();
    target = server.target;
  }
  api = connect(target, { token: process.env.ENGRAM_E2E_TARGET ? process.env.ENGRAM_E2E_TOKEN || '' : OPERATOR_TOKEN });
  await waitServing(api, server);
});

after(async () => {
  if (api) api.close();
  if (server) await server.stop();
});

function commitTurn(subject, session, userText) {
  return api.call('journal', 'CommitTurn', {
    subject,
    session_id: session,
    user_text: userText,
    assistant_text: 'Noted.',
    request_id: crypto.randomUUID(),
    learning_eligible: true,
  });
}

test('commit, recall, assemble context and verify coverage seals in JavaScript', async () => {
  const subject = `node-${crypto.randomUUID().slice(0, 8)}`;
  const commit = await commitTurn(subject, 'node-s1', 'My cat is called Miso and she loves cardboard boxes.');
  const receipt = commit.receipt;
  assert.ok(receipt.episode_id, 'a learning-eligible turn has an episode');
  assert.equal(receipt.replayed, false);
  assert.match(receipt.event_id, /^[1-9]\d*$/, 'int64 arrives as a decimal string');

  // The session journal: an exact count, so matched_before_limit is present.
  const page = await api.call('journal', 'ReadSessionJournal', { subject, session_id: 'node-s1' });
  assert.equal(page.events.length, 1);
  assertSealed(page.coverage, 'ReadSessionJournal');
  assert.equal(page.coverage.cardinality.matched_before_limit, '1');

  // Recall: the episode is embedded and indexed after commit; poll until it is.
  const deadline = Date.now() + INDEX_TIMEOUT_MS;
  let recall;
  for (;;) {
    recall = await api.call('retrieval', 'Recall', { subject, query_text: 'what is my cat called', limit: 5 });
    assertSealed(recall.coverage, 'Recall');
    if (recall.hits.some((hit) => hit.episode_id === receipt.episode_id)) break;
    assert.ok(Date.now() < deadline, `episode not recalled within ${INDEX_TIMEOUT_MS} ms`);
    await sleep(200);
  }
  assert.equal(recall.absence_state, 'ABSENCE_STATE_NOT_ABSENT');
  assert.equal(recall.coverage.cardinality.matched_before_limit, undefined,
    'ranked recall never knows its total: matched_before_limit stays unset');

  // A new session's context recalls the earlier one.
  const context = await api.call('gateway', 'AssembleContext', {
    subject,
    session_id: 'node-s2',
    input_text: 'Remind me, what is my cat called?',
    request_id: crypto.randomUUID(),
  });
  assert.ok(context.context_id);
  const traces = context.trace.sections;
  assert.ok(traces.length >= 3, 'learned_context, recovered_memory and episodic_recall');
  for (const section of traces) assertSealed(section.coverage, `section ${section.name}`);
  const episodic = traces.find((s) => s.name === 'episodic_recall');
  assert.ok(episodic.record_ids.includes(receipt.episode_id), 'the committed episode is in context');

  // Declared claims: a recollection citing a record that is not in the context
  // is refused, whatever the prose says; one citing the recalled episode is not.
  assert.equal(openAiTool.function.name, 'declare_memory_claim');
  const release = (claim) => api.call('gateway', 'ReleaseResponse', {
    context_id: context.context_id,
    candidate_text: 'Here is what I can tell you.',
    attempt: 1,
    request_id: crypto.randomUUID(),
    declared_claims: [declaredClaim(claim)],
  });
  const forgedClaim = await release({ kind: 'recollection', topic_terms: ['cat'], record_ids: ['not-in-context'] });
  assert.equal(forgedClaim.verdict, 'VERDICT_REGENERATE');
  assert.ok(
    forgedClaim.violations.some((v) => v.reason === 'VIOLATION_REASON_DECLARED_CLAIM_REFUSED'),
    'the forged recollection is refused',
  );
  const supported = await release({ kind: 'recollection', topic_terms: ['cat'], record_ids: [receipt.episode_id] });
  assert.equal(supported.verdict, 'VERDICT_RELEASE', JSON.stringify(supported.violations));

  // Tampering: "N of M" rewritten breaks the seal.
  const forged = structuredClone(page.coverage);
  forged.cardinality.returned += 1;
  forged.cardinality.matched_before_limit = String(forged.cardinality.returned);
  assert.match(verifyCoverage(forged).reason, /digest mismatch/);
  const flipped = structuredClone(recall.coverage);
  flipped.cardinality.truncated = !flipped.cardinality.truncated;
  assert.equal(verifyCoverage(flipped).ok, false);
});

test('StreamChanges: replays committed changes, then follows new commits live until cancelled', async () => {
  const subject = `node-stream-${crypto.randomUUID().slice(0, 8)}`;
  const first = await commitTurn(subject, 'node-s1', 'The boiler was serviced in March.');

  // Replay from the beginning without following: the stream ends by itself.
  const replay = api.streamChanges({ after_cursor: '0', follow: false, kinds: ['CHANGE_KIND_EVENT_APPENDED'] });
  assert.match(replay.requestId, /^[0-9a-f-]{36}$/);
  let watermark = '0';
  const replayed = [];
  for await (const batch of replay) {
    replayed.push(...batch.changes);
    watermark = batch.watermark;
  }
  const mine = replayed.filter((c) => c.subject === subject);
  assert.deepEqual(mine.map((c) => c.event_id), [first.receipt.event_id]);
  assert.ok(mine.every((c) => c.kind === 'CHANGE_KIND_EVENT_APPENDED'));
  assert.match(watermark, /^\d+$/);

  // Follow from the watermark: a commit made after the stream opened arrives.
  const live = api.streamChanges({ after_cursor: watermark, follow: true, kinds: ['CHANGE_KIND_EVENT_APPENDED'] });
  const timer = setTimeout(() => live.cancel(), STREAM_TIMEOUT_MS);
  let second;
  const committing = sleep(300).then(async () => {
    second = await commitTurn(subject, 'node-s1', 'The boiler pressure was low in April.');
  });
  let arrived = null;
  for await (const batch of live) {
    arrived = batch.changes.find((c) => c.subject === subject) ?? null;
    if (arrived) break; // leaving the loop cancels the call
  }
  clearTimeout(timer);
  await committing;
  assert.ok(arrived, `no change for the new commit within ${STREAM_TIMEOUT_MS} ms`);
  assert.equal(arrived.event_id, second.receipt.event_id);
  assert.ok(BigInt(arrived.cursor) > BigInt(watermark));
  assert.equal(await within(live.finished, 5000, 'the followed call'), 1, 'leaving the loop cancelled it (CANCELLED)');
  assert.equal(await within(replay.finished, 5000, 'the replay'), 0, 'the replay ended by itself (OK)');
});

test('errors: INVALID_ARGUMENT decoded into EngramError with reason, field and request id', async () => {
  const requestId = `node-${crypto.randomUUID()}`;
  const error = await rejection(
    api.call('journal', 'CommitTurn', { subject: '', session_id: 's', user_text: 'x', request_id: crypto.randomUUID() },
      { requestId }),
  );
  assert.ok(error instanceof EngramError, String(error));
  assert.equal(error.codeName, 'INVALID_ARGUMENT');
  assert.equal(error.code, 3);
  assert.equal(error.field, 'subject');
  assert.ok(error.reason, 'ErrorInfo.reason is set');
  assert.equal(error.domain, 'engram');
  assert.equal(error.requestId, requestId, 'the id sent as x-request-id comes back in ErrorInfo');
  assert.equal(error.errorMetadata.request_id, requestId);
  assert.deepEqual(error.fieldViolations.map((v) => v.field), ['subject']);
  assert.ok(error.details.some((d) => d.type === 'google.rpc.ErrorInfo'));
  assert.match(error.message, /^INVALID_ARGUMENT: subject/);
});

test('errors: NOT_FOUND, and FAILED_PRECONDITION with its IllegalTransition detail', async () => {
  const missing = await rejection(
    api.call('journal', 'Restore', { record_kind: 'RECORD_KIND_EPISODE', record_id: crypto.randomUUID(),
      reason: 'node test', request_id: crypto.randomUUID() }),
  );
  assert.ok(missing instanceof EngramError, String(missing));
  assert.equal(missing.codeName, 'NOT_FOUND', missing.message);
  assert.ok(missing.reason);

  const commit = await commitTurn(`node-q-${crypto.randomUUID().slice(0, 8)}`, 's', 'A turn to quarantine.');
  const quarantine = () => api.call('journal', 'Quarantine', { record_kind: 'RECORD_KIND_EPISODE',
    record_id: commit.receipt.episode_id, reason: 'node test', request_id: crypto.randomUUID() });
  await quarantine();
  const again = await rejection(quarantine());
  assert.ok(again instanceof EngramError, String(again));
  assert.equal(again.codeName, 'FAILED_PRECONDITION');
  assert.ok(again.illegalTransition, JSON.stringify(again.details));
  assert.equal(again.illegalTransition.entity_id, commit.receipt.episode_id);
  assert.ok(again.details.some((d) => d.type === 'engram.common.v1.IllegalTransition'));
});

test('tokens: none is UNAUTHENTICATED, a runtime token may not read the change feed', async (t) => {
  if (!server) return t.skip('needs the server started by this test');
  const anonymous = connect(target);
  const runtime = connect(target, { token: RUNTIME_TOKEN });
  t.after(() => {
    anonymous.close();
    runtime.close();
  });
  const unauthenticated = await rejection(anonymous.call('journal', 'GetStatus', {}));
  assert.ok(unauthenticated instanceof EngramError);
  assert.equal(unauthenticated.codeName, 'UNAUTHENTICATED');
  assert.ok(unauthenticated.reason);

  const denied = await rejection((async () => {
    for await (const batch of runtime.streamChanges({ after_cursor: '0' })) void batch;
  })());
  assert.ok(denied instanceof EngramError, String(denied));
  assert.equal(denied.codeName, 'PERMISSION_DENIED');
  assert.ok(denied.reason);
  // The same token commits a turn: its role allows that.
  const ok = await runtime.call('journal', 'CommitTurn', {
    subject: `node-rt-${crypto.randomUUID().slice(0, 8)}`, session_id: 's', user_text: 'hello',
    assistant_text: 'hi', request_id: crypto.randomUUID(),
  });
  assert.match(ok.receipt.event_id, /^\d+$/);
});

// A TLS listener (ALPN h2, a certificate made here) that forwards to the
// plaintext server: the client's TLS options end to end.
async function tlsProxy(upstream, key, cert) {
  const [host, port] = upstream.split(':');
  const proxy = tls.createServer({ key, cert, ALPNProtocols: ['h2'] }, (socket) => {
    const plain = net.connect(Number(port), host);
    socket.pipe(plain).pipe(socket);
    socket.on('error', () => plain.destroy());
    plain.on('error', () => socket.destroy());
  });
  proxy.on('tlsClientError', () => {});
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { target: `127.0.0.1:${proxy.address().port}`, close: () => new Promise((r) => proxy.close(r)) };
}

test('TLS: a client trusting the certificate works, one trusting only the system roots is refused', async (t) => {
  if (!server) return t.skip('needs the server started by this test');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-node-tls-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=engram.test', '-addext', 'subjectAltName=DNS:engram.test',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  const key = fs.readFileSync(path.join(dir, 'key.pem'));
  const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
  const proxy = await tlsProxy(target, key, cert);
  const trusted = connect(proxy.target, { token: OPERATOR_TOKEN, tls: { ca: cert, serverName: 'engram.test' } });
  const untrusted = connect(proxy.target, { token: OPERATOR_TOKEN, tls: { serverName: 'engram.test' } });
  t.after(async () => {
    trusted.close();
    untrusted.close();
    await proxy.close();
  });
  const status = await trusted.call('journal', 'GetStatus', {});
  assert.match(status.feed_watermark, /^\d+$/);
  const refused = await rejection(untrusted.call('health', 'Check', { service: '' }, { timeoutMs: 5000 }));
  assert.ok(refused instanceof EngramError);
  assert.equal(refused.codeName, 'UNAVAILABLE');
});

// tools/node_package_test.sh compiles this package's README example against
// the installed tarball and points ENGRAM_README_EXAMPLE at the result.
test('the README example runs', async (t) => {
  const example = process.env.ENGRAM_README_EXAMPLE;
  if (!example || !server) return t.skip('run by make node-package');
  const child = spawn(process.execPath, [example], {
    env: { ...process.env, ENGRAM_TARGET: target, ENGRAM_TOKEN: OPERATOR_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), STREAM_TIMEOUT_MS + 15000);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  assert.equal(code, 0, output);
  assert.match(output, /^event \d+ episode \S+$/m);
  assert.match(output, /^ABSENCE_STATE_\w+ \d+ hits$/m);
  assert.match(output, /^VERDICT_(RELEASE|REGENERATE|FALLBACK) /m);
  assert.match(output, /^\d+ conversation\.turn\.completed alice$/m);
});
