'use strict';
// engram's gRPC services from Node.js: the .proto files are loaded at run time
// from the repository's proto/ directory (no generated code to keep in sync).

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');
const PROTO_FILES = [
  'engram/common/v1/common.proto',
  'engram/journal/v1/journal.proto',
  'engram/learning/v1/learning.proto',
  'engram/retrieval/v1/retrieval.proto',
  'engram/gateway/v1/gateway.proto',
];
// Enum values as names and 64-bit integers as decimal strings: exactly what
// the Coverage digest rule needs, with no precision loss.
const LOADER_OPTIONS = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

// grpc.health.v1 is not in proto/; its three messages are small enough to
// declare here.
const HEALTH_JSON = {
  nested: {
    grpc: {
      nested: {
        health: {
          nested: {
            v1: {
              nested: {
                HealthCheckRequest: { fields: { service: { type: 'string', id: 1 } } },
                HealthCheckResponse: {
                  fields: { status: { type: 'ServingStatus', id: 1 } },
                  nested: {
                    ServingStatus: {
                      values: { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 },
                    },
                  },
                },
                Health: {
                  methods: {
                    Check: { requestType: 'HealthCheckRequest', responseType: 'HealthCheckResponse' },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

function loadPackage() {
  const definition = protoLoader.loadSync(PROTO_FILES, LOADER_OPTIONS);
  return grpc.loadPackageDefinition(definition);
}

function loadHealth() {
  const definition = protoLoader.fromJSON(HEALTH_JSON, LOADER_OPTIONS);
  return grpc.loadPackageDefinition(definition).grpc.health.v1;
}

/** Clients for every engram service at `target`, presenting `token` if given. */
function connect(target, token = '') {
  const engram = loadPackage().engram;
  const health = loadHealth();
  const credentials = grpc.credentials.createInsecure();
  const make = (Service) => new Service(target, credentials);
  const clients = {
    journal: make(engram.journal.v1.JournalService),
    learning: make(engram.learning.v1.LearningService),
    retrieval: make(engram.retrieval.v1.RetrievalService),
    gateway: make(engram.gateway.v1.GatewayService),
    health: make(health.Health),
  };
  const metadata = () => {
    const md = new grpc.Metadata();
    if (token) md.set('authorization', `Bearer ${token}`);
    return md;
  };
  /** Promise-returning unary call: call('journal', 'CommitTurn', {...}). */
  const call = (service, method, request, timeoutMs = 10000) =>
    new Promise((resolve, reject) => {
      const deadline = new Date(Date.now() + timeoutMs);
      clients[service][method](request, metadata(), { deadline }, (error, response) =>
        error ? reject(error) : resolve(response),
      );
    });
  const close = () => Object.values(clients).forEach((c) => c.close());
  return { clients, call, close };
}

module.exports = { connect, PROTO_ROOT, LOADER_OPTIONS };
