'use strict';
// The digest rule against the repository's golden vectors (no server needed).

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');
const coverage = require('@engram/client');

const REPO = process.env.ENGRAM_REPO || path.resolve(__dirname, '..', '..', '..');

const GOLDEN = JSON.parse(
  fs.readFileSync(path.join(REPO, 'tests', 'fixtures', 'coverage_golden.json'), 'utf8'),
);

test('golden vectors: canonical text and digest match', () => {
  assert.equal(GOLDEN.rule, 'engram.coverage.v1');
  assert.ok(GOLDEN.vectors.length >= 2);
  for (const vector of GOLDEN.vectors) {
    const parsed = coverage.fromProto3Json(vector.coverage);
    assert.equal(coverage.canonicalText(parsed), vector.canonical, vector.name);
    assert.equal(coverage.computeDigest(parsed), vector.digest, vector.name);
    assert.equal(vector.coverage.digest, vector.digest, vector.name);
    assert.deepEqual(coverage.verifyCoverage(parsed), { ok: true, reason: '' }, vector.name);
  }
});

test('golden vectors: "4 of 47, truncated" rewritten as "4 of 4, complete" breaks the seal', () => {
  const vector = GOLDEN.vectors.find((v) => v.name === 'searched_exact_truncated_escaped');
  const forged = coverage.fromProto3Json(vector.coverage);
  forged.cardinality.matched_before_limit = '4';
  forged.cardinality.truncated = false;
  forged.verifier.count = '4';
  const result = coverage.verifyCoverage(forged);
  assert.equal(result.ok, false);
  assert.match(result.reason, /digest mismatch/);
});

test('unset and explicit-zero matched_before_limit are different canonical forms', () => {
  const vector = GOLDEN.vectors.find((v) => v.name === 'unavailable_all_unknown');
  const unset = coverage.fromProto3Json(vector.coverage);
  const zero = coverage.fromProto3Json(vector.coverage);
  zero.cardinality.matched_before_limit = '0';
  assert.match(coverage.canonicalText(unset), /\nmatched_before_limit=-\n/);
  assert.match(coverage.canonicalText(zero), /\nmatched_before_limit=0\n/);
  assert.notEqual(coverage.computeDigest(unset), coverage.computeDigest(zero));
});

test('unknown enum values have no canonical form', () => {
  const vector = GOLDEN.vectors.find((v) => v.name === 'unavailable_all_unknown');
  const bad = coverage.fromProto3Json(vector.coverage);
  bad.outcome = 'SEARCH_OUTCOME_MAYBE';
  assert.throws(() => coverage.canonicalText(bad), coverage.CoverageError);
  assert.equal(coverage.verifyCoverage(bad).ok, false);
});
