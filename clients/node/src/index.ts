// @engram/client: engram's gRPC services from Node.js.

export { connect, EngramClient } from './client';
export type { CallOptions, ConnectOptions, ServerStream, TlsOptions } from './client';
export { EngramError, decodeStatusDetails, REQUEST_ID_HEADER } from './errors';
export type { StatusDetail } from './errors';
export { LOADER_OPTIONS, PROTO_ROOT, SERVICE_NAMES } from './protos';
export type { MethodName, RequestOf, ResponseOf, ServiceClients, ServiceDefinitions, ServiceName } from './protos';
export {
  CoverageError,
  canonicalBytes,
  canonicalText,
  computeDigest,
  fromProto3Json,
  invariantProblems,
  parseTimestamp,
  verifyCoverage,
} from './coverage';
export type { CoverageLike } from './coverage';
export { anthropicTool, declaredClaim, openAiTool } from './tools';
export type { DeclareMemoryClaimArguments } from './tools';
// Every generated message and enum type under its package's name:
// `import type { journal } from '@engram/client'`, then
// `journal.CommitTurnRequest` (what a call accepts) and
// `journal.CommitTurnResponse__Output` (what it returns).
export type * as common from './generated/engram/common/v1';
export type * as gateway from './generated/engram/gateway/v1';
export type * as journal from './generated/engram/journal/v1';
export type * as learning from './generated/engram/learning/v1';
export type * as retrieval from './generated/engram/retrieval/v1';
