'use strict';
// The client without a server: method kinds are checked, and EngramError
// decodes google.rpc.Status details built here (and survives their absence).

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protobuf = require('protobufjs');
const { connect, EngramError, decodeStatusDetails, PROTO_ROOT } = require('@engram/client');

function statusBytes(details) {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(PROTO_ROOT, target);
  root.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto', 'engram/common/v1/common.proto'],
    { keepCase: true });
  const pack = ([type, value]) => {
    if (Buffer.isBuffer(value)) return { type_url: `type.googleapis.com/${type}`, value };
    const messageType = root.lookupType(type);
    return { type_url: `type.googleapis.com/${type}`, value: messageType.encode(messageType.fromObject(value)).finish() };
  };
  const Status = root.lookupType('google.rpc.Status');
  return Buffer.from(Status.encode(Status.fromObject({
    code: 9, message: 'episode e-1 is already quarantined', details: details.map(pack),
  })).finish());
}

function serviceError(code, details, trailers = new grpc.Metadata()) {
  const error = new Error(`${code} ${details}`);
  return Object.assign(error, { code, details, metadata: trailers });
}

test('a stream method through call() rejects, a unary one through stream() throws', async () => {
  const api = connect('127.0.0.1:1');
  try {
    await assert.rejects(api.call('journal', 'StreamChanges', {}), /JournalService\.StreamChanges: use stream\(\)/);
    await assert.rejects(api.call('journal', 'NoSuchMethod', {}), /has no method NoSuchMethod/);
    assert.throws(() => api.stream('journal', 'CommitTurn', {}), /JournalService\.CommitTurn: use call\(\)/);
  } finally {
    api.close();
  }
});

test('EngramError: ErrorInfo, BadRequest, IllegalTransition and an unknown detail decoded', () => {
  const trailers = new grpc.Metadata();
  trailers.set('grpc-status-details-bin', statusBytes([
    ['google.rpc.ErrorInfo', { reason: 'ALREADY_QUARANTINED', domain: 'engram',
      metadata: { request_id: 'r-42', field: 'record_id' } }],
    ['google.rpc.BadRequest', { field_violations: [{ field: 'record_id', description: 'already quarantined' }] }],
    ['engram.common.v1.IllegalTransition', { entity: 'episode', entity_id: 'e-1', current_state: 'QUARANTINED',
      requested_state: 'QUARANTINED', allowed_states: ['ACTIVE'] }],
    ['acme.v1.NotBundled', Buffer.from([8, 1])],
  ]));
  const error = new EngramError(serviceError(grpc.status.FAILED_PRECONDITION, 'ignored', trailers), 'sent-id');
  assert.equal(error.codeName, 'FAILED_PRECONDITION');
  assert.equal(error.serverMessage, 'episode e-1 is already quarantined');
  assert.equal(error.reason, 'ALREADY_QUARANTINED');
  assert.equal(error.field, 'record_id');
  assert.equal(error.requestId, 'r-42', 'ErrorInfo wins over the id sent');
  assert.deepEqual(error.fieldViolations.map((v) => [v.field, v.description]), [['record_id', 'already quarantined']]);
  assert.deepEqual(error.illegalTransition.allowed_states, ['ACTIVE']);
  assert.equal(error.message, 'FAILED_PRECONDITION: episode e-1 is already quarantined (ALREADY_QUARANTINED)');
  assert.ok(error instanceof Error);
  assert.deepEqual(error.details.map((d) => d.type), ['google.rpc.ErrorInfo', 'google.rpc.BadRequest',
    'engram.common.v1.IllegalTransition', 'acme.v1.NotBundled']);
  assert.deepEqual(error.details[3], { type: 'acme.v1.NotBundled' }, 'a type not bundled keeps its name only');

  assert.deepEqual(decodeStatusDetails(statusBytes([])).details, []);
});

test('EngramError without details: the code, the message and the id that was sent', () => {
  const bare = new EngramError(serviceError(grpc.status.UNAVAILABLE, 'No connection established'), 'sent-id');
  assert.equal(bare.codeName, 'UNAVAILABLE');
  assert.equal(bare.reason, '');
  assert.equal(bare.field, undefined);
  assert.equal(bare.requestId, 'sent-id');
  assert.equal(bare.serverMessage, 'No connection established');

  const trailers = new grpc.Metadata();
  trailers.set('grpc-status-details-bin', Buffer.from([0xff, 0xff, 0xff]));
  trailers.set('x-request-id', 'from-trailer');
  const garbled = new EngramError(serviceError(grpc.status.INTERNAL, 'internal error', trailers), 'sent-id');
  assert.equal(garbled.reason, '', 'undecodable details are ignored, not thrown');
  assert.equal(garbled.requestId, 'from-trailer');
});
