'use strict';
// End to end from Node.js: commit a turn, recall it, assemble a context and
// verify every Coverage seal in JavaScript. Targets ENGRAM_E2E_TARGET
// (host:port, token in ENGRAM_E2E_TOKEN) when set; otherwise starts
// `.venv/bin/engram serve` on a free port with a throwaway data directory.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { connect } = require('../client.js');
const { verifyCoverage } = require('../coverage.js');

const REPO = path.resolve(__dirname, '..', '..', '..');
const STARTUP_TIMEOUT_MS = 45000;
const INDEX_TIMEOUT_MS = 20000;

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
  const child = spawn(
    path.join(REPO, '.venv', 'bin', 'engram'),
    [
      'serve',
      '--listen', `127.0.0.1:${port}`,
      '--data-dir', dataDir,
      '--embedder', 'hashing',
      '--grace-seconds', '1',
      '--log-level', 'WARNING',
    ],
    { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] },
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
      const answers = await Promise.all(services.map((service) => api.call('health', 'Check', { service }, 2000)));
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

test('commit, recall, assemble context and verify coverage seals in JavaScript', async (t) => {
  let server = null;
  let target = process.env.ENGRAM_E2E_TARGET;
  if (!target) {
    server = await startServer();
    target = server.target;
  }
  const api = connect(target, process.env.ENGRAM_E2E_TOKEN || '');
  t.after(async () => {
    api.close();
    if (server) await server.stop();
  });
  await waitServing(api, server);

  const subject = `node-${crypto.randomUUID().slice(0, 8)}`;
  const commit = await api.call('journal', 'CommitTurn', {
    subject,
    session_id: 'node-s1',
    user_text: 'My cat is called Miso and she loves cardboard boxes.',
    assistant_text: 'Noted: your cat Miso loves cardboard boxes.',
    request_id: crypto.randomUUID(),
    learning_eligible: true,
  });
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
  // is refused, whatever the prose says.
  const { declaredClaim, openAiTool } = require('../tools.js');
  assert.equal(openAiTool.function.name, 'declare_memory_claim');
  const verdict = await api.call('gateway', 'ReleaseResponse', {
    context_id: context.context_id,
    candidate_text: 'Here is what I can tell you.',
    attempt: 1,
    request_id: crypto.randomUUID(),
    declared_claims: [
      declaredClaim({ kind: 'recollection', topic_terms: ['cat'], record_ids: ['not-in-context'] }),
    ],
  });
  assert.equal(verdict.verdict, 'VERDICT_REGENERATE');
  assert.ok(
    verdict.violations.some((v) => v.reason === 'VIOLATION_REASON_DECLARED_CLAIM_REFUSED'),
    'the forged recollection is refused',
  );

  // Tampering: "N of M" rewritten breaks the seal.
  const forged = structuredClone(page.coverage);
  forged.cardinality.returned += 1;
  forged.cardinality.matched_before_limit = String(forged.cardinality.returned);
  assert.match(verifyCoverage(forged).reason, /digest mismatch/);
  const flipped = structuredClone(recall.coverage);
  flipped.cardinality.truncated = !flipped.cardinality.truncated;
  assert.equal(verifyCoverage(flipped).ok, false);
});
