// Failed calls as typed errors: the google.rpc.Status that engram sends in the
// `grpc-status-details-bin` trailer is decoded, and its ErrorInfo (reason,
// domain, metadata with the request id and, for bad input, the field) and the
// other details it carries are surfaced as fields.

import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protobuf from 'protobufjs';
import { PROTO_ROOT } from './protos';
import type { ConflictDetail__Output } from './generated/engram/common/v1/ConflictDetail';
import type { IllegalTransition__Output } from './generated/engram/common/v1/IllegalTransition';
import type { _google_rpc_BadRequest_FieldViolation__Output as FieldViolation__Output } from './generated/google/rpc/BadRequest';
import type { ErrorInfo__Output } from './generated/google/rpc/ErrorInfo';

const STATUS_DETAILS_TRAILER = 'grpc-status-details-bin';
export const REQUEST_ID_HEADER = 'x-request-id';
const DETAIL_FILES = ['google/rpc/status.proto', 'google/rpc/error_details.proto', 'engram/common/v1/common.proto'];
// The loader's representation (protos.ts LOADER_OPTIONS), for details too.
const CONVERSION: protobuf.IConversionOptions = { longs: String, enums: String, defaults: true, oneofs: true };

/** One decoded entry of google.rpc.Status.details. */
export interface StatusDetail {
  /** Full message name, e.g. `google.rpc.ErrorInfo`. */
  type: string;
  /** The message in the loader's shape; undefined for a type not in the bundled protos. */
  value?: Record<string, unknown>;
}

const STATUS_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(grpc.status)
    .filter(([, value]) => typeof value === 'number')
    .map(([name, value]) => [value, name]),
);

let detailsRoot: protobuf.Root | undefined;

function root(): protobuf.Root {
  if (!detailsRoot) {
    const loaded = new protobuf.Root();
    // google/protobuf/* resolve to protobufjs's own copies of those files.
    loaded.resolvePath = (_origin, target) => path.join(PROTO_ROOT, target);
    loaded.loadSync(DETAIL_FILES, { keepCase: true });
    detailsRoot = loaded;
  }
  return detailsRoot;
}

interface DecodedStatus {
  code: number;
  message: string;
  details: StatusDetail[];
}

/** google.rpc.Status from the trailer's bytes, each detail unpacked by its type URL. */
export function decodeStatusDetails(bytes: Uint8Array): DecodedStatus {
  const types = root();
  const status = types.lookupType('google.rpc.Status').decode(bytes) as unknown as {
    code: number;
    message: string;
    details: { type_url: string; value: Uint8Array }[];
  };
  const details = status.details.map((any): StatusDetail => {
    const type = any.type_url.slice(any.type_url.lastIndexOf('/') + 1);
    let messageType: protobuf.Type;
    try {
      messageType = types.lookupType(type);
    } catch {
      return { type };
    }
    return { type, value: messageType.toObject(messageType.decode(any.value), CONVERSION) };
  });
  return { code: status.code, message: status.message, details };
}

/** A failed engram call: the gRPC status with the ErrorInfo and other details decoded. */
export class EngramError extends Error {
  override readonly name = 'EngramError';
  /** The gRPC status code (grpc.status.INVALID_ARGUMENT is 3). */
  readonly code: grpc.status;
  /** Its name: `INVALID_ARGUMENT`, `NOT_FOUND`, ... */
  readonly codeName: string;
  /** The server's message (also in `message`, after the code name). */
  readonly serverMessage: string;
  /** ErrorInfo.reason: the UPPER_SNAKE machine-readable cause; empty without an ErrorInfo. */
  readonly reason: string;
  /** ErrorInfo.domain (`engram`); empty without an ErrorInfo. */
  readonly domain: string;
  /** ErrorInfo.metadata. */
  readonly errorMetadata: Readonly<Record<string, string>>;
  /** The offending request field for INVALID_ARGUMENT. */
  readonly field?: string;
  /** google.rpc.BadRequest.field_violations. */
  readonly fieldViolations: readonly FieldViolation__Output[];
  /** The call's request id (ErrorInfo, the `x-request-id` trailer, or the one sent). */
  readonly requestId: string;
  /** FAILED_PRECONDITION on a verb RPC: the state machine's answer. */
  readonly illegalTransition?: IllegalTransition__Output;
  /** ALREADY_EXISTS: the record that already holds the key. */
  readonly conflict?: ConflictDetail__Output;
  /** Every entry of google.rpc.Status.details, decoded. */
  readonly details: readonly StatusDetail[];
  /** The trailing metadata of the call. */
  readonly trailers: grpc.Metadata;

  constructor(error: grpc.ServiceError, sentRequestId = '') {
    const trailers = error.metadata ?? new grpc.Metadata();
    const detailBytes = trailers.get(STATUS_DETAILS_TRAILER)[0];
    let decoded: DecodedStatus | undefined;
    if (Buffer.isBuffer(detailBytes)) {
      try {
        decoded = decodeStatusDetails(detailBytes);
      } catch {
        decoded = undefined;
      }
    }
    const details = decoded?.details ?? [];
    const find = <T>(type: string): T | undefined => details.find((d) => d.type === type)?.value as T | undefined;
    const info = find<ErrorInfo__Output>('google.rpc.ErrorInfo');
    const violations = find<{ field_violations: FieldViolation__Output[] }>('google.rpc.BadRequest')?.field_violations ?? [];
    const codeName = STATUS_NAMES[error.code] ?? String(error.code);
    const serverMessage = decoded?.message ?? error.details ?? '';
    super(`${codeName}: ${serverMessage}${info?.reason ? ` (${info.reason})` : ''}`, { cause: error });
    this.code = error.code;
    this.codeName = codeName;
    this.serverMessage = serverMessage;
    this.reason = info?.reason ?? '';
    this.domain = info?.domain ?? '';
    this.errorMetadata = { ...(info?.metadata ?? {}) };
    this.field = info?.metadata?.field || violations[0]?.field || undefined;
    this.fieldViolations = violations;
    const trailerId = trailers.get(REQUEST_ID_HEADER)[0];
    this.requestId = info?.metadata?.request_id || (typeof trailerId === 'string' ? trailerId : '') || sentRequestId;
    this.illegalTransition = find<IllegalTransition__Output>('engram.common.v1.IllegalTransition');
    this.conflict = find<ConflictDetail__Output>('engram.common.v1.ConflictDetail');
    this.details = details;
    this.trailers = trailers;
  }
}

/** True for an error a failed grpc-js call produced (a status code and trailers). */
export function isServiceError(error: unknown): error is grpc.ServiceError {
  return error instanceof Error && typeof (error as Partial<grpc.ServiceError>).code === 'number' && 'metadata' in error;
}
