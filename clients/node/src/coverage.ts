// The Coverage seal (DIGEST RULE "engram.coverage.v1" in
// proto/engram/common/v1/common.proto), implemented independently of the
// Python server so a Node.js runtime can check every coverage it receives.
//
// Coverage objects are in the client's shape (protos.ts LOADER_OPTIONS): enum
// values are names, uint64/int64 are decimal strings, unset messages are null,
// and the proto3 `optional` matched_before_limit is absent (or null) when
// unset. Numbers and enum numbers are accepted too.

import * as crypto from 'node:crypto';

const RULE = 'engram.coverage.v1';
const DIMENSIONS = ['semantic', 'field', 'temporal', 'visibility', 'normalization'] as const;
const ENUMS = {
  exactness: ['EXACTNESS_UNSPECIFIED', 'EXACTNESS_EXACT', 'EXACTNESS_ESTIMATED', 'EXACTNESS_UNKNOWN'],
  dimension: [
    'DIMENSION_STATE_UNSPECIFIED',
    'DIMENSION_STATE_COMPLETE',
    'DIMENSION_STATE_PARTIAL',
    'DIMENSION_STATE_UNKNOWN',
  ],
  outcome: [
    'SEARCH_OUTCOME_UNSPECIFIED',
    'SEARCH_OUTCOME_SEARCHED',
    'SEARCH_OUTCOME_UNAVAILABLE',
    'SEARCH_OUTCOME_FAILED',
    'SEARCH_OUTCOME_NOT_SEARCHED',
  ],
};
const NANOS_MAX = 999999999;

type Scalar = string | number | bigint | boolean | null | undefined;
type Integer = string | number | bigint | null | undefined;

/** A Coverage message as the client returns it (or as fromProto3Json builds it). */
export interface CoverageLike {
  read_path?: string | null;
  source_systems?: readonly string[] | null;
  query_digest?: string | null;
  cardinality?: {
    returned?: Integer;
    limit?: Integer;
    matched_before_limit?: Integer;
    truncated?: boolean | null;
    exactness?: string | number | null;
  } | null;
  dimensions?: { [dimension in (typeof DIMENSIONS)[number]]?: string | number | null } | null;
  outcome?: string | number | null;
  verifier?: {
    ran?: boolean | null;
    read_path?: string | null;
    source_system?: string | null;
    count?: Integer;
    agrees?: boolean | null;
  } | null;
  snapshot_version?: string | null;
  computed_at?: { seconds?: Integer; nanos?: number | string | null } | null;
  digest?: string | null;
}

/** A coverage that has no canonical form (bad integer, unknown enum value, ...). */
export class CoverageError extends Error {
  override readonly name = 'CoverageError';
}

function isSet<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

// Backslash first, so the escapes written for LF and CR are not escaped again.
function escape(value: Scalar): string {
  return String(value ?? '').replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function bool(value: unknown): string {
  return value ? 'true' : 'false';
}

// Base-10 without sign or leading zeros; accepts numbers and int64 strings.
function uint(value: Integer, what: string): string {
  if (!isSet(value) || value === '') return '0';
  let big: bigint;
  try {
    big = BigInt(value);
  } catch {
    throw new CoverageError(`${what}: not an integer: ${value}`);
  }
  if (big < 0n) throw new CoverageError(`${what}: negative: ${value}`);
  return big.toString(10);
}

function enumName(names: readonly string[], value: string | number | null | undefined, what: string): string {
  if (!isSet(value)) return names[0];
  if (typeof value === 'number') {
    const name = names[value];
    if (name !== undefined) return name;
    throw new CoverageError(`${what}: unknown enum value ${value}`);
  }
  if (names.includes(value)) return value;
  throw new CoverageError(`${what}: unknown enum value ${value}`);
}

function hasMatched(card: CoverageLike['cardinality']): boolean {
  return isSet(card) && isSet(card.matched_before_limit);
}

/** The exact canonical text the digest is computed over. */
export function canonicalText(coverage: CoverageLike): string {
  const card: NonNullable<CoverageLike['cardinality']> = coverage.cardinality ?? {};
  const dims: NonNullable<CoverageLike['dimensions']> = coverage.dimensions ?? {};
  const ver: NonNullable<CoverageLike['verifier']> = coverage.verifier ?? {};
  const ts: NonNullable<CoverageLike['computed_at']> = coverage.computed_at ?? {};
  const seconds = uint(ts.seconds, 'computed_at.seconds');
  const nanos = Number(ts.nanos ?? 0);
  if (!Number.isInteger(nanos) || nanos < 0 || nanos > NANOS_MAX) {
    throw new CoverageError(`computed_at.nanos out of range: ${ts.nanos}`);
  }
  const sources = coverage.source_systems ?? [];
  const lines = [
    RULE,
    `read_path=${escape(coverage.read_path)}`,
    `source_systems=${sources.length}`,
    ...sources.map((s) => `source_system=${escape(s)}`),
    `query_digest=${escape(coverage.query_digest)}`,
    `returned=${uint(card.returned, 'returned')}`,
    `limit=${uint(card.limit, 'limit')}`,
    `matched_before_limit=${hasMatched(card) ? uint(card.matched_before_limit, 'matched_before_limit') : '-'}`,
    `truncated=${bool(card.truncated)}`,
    `exactness=${enumName(ENUMS.exactness, card.exactness, 'exactness')}`,
    ...DIMENSIONS.map((d) => `${d}=${enumName(ENUMS.dimension, dims[d], d)}`),
    `outcome=${enumName(ENUMS.outcome, coverage.outcome, 'outcome')}`,
    `verifier_ran=${bool(ver.ran)}`,
    `verifier_read_path=${escape(ver.read_path)}`,
    `verifier_source_system=${escape(ver.source_system)}`,
    `verifier_count=${uint(ver.count, 'verifier.count')}`,
    `verifier_agrees=${bool(ver.agrees)}`,
    `snapshot_version=${escape(coverage.snapshot_version)}`,
    `computed_at=${seconds}.${String(nanos).padStart(9, '0')}`,
  ];
  return lines.map((line) => `${line}\n`).join('');
}

/** UTF-8 bytes of the canonical text. */
export function canonicalBytes(coverage: CoverageLike): Buffer {
  return Buffer.from(canonicalText(coverage), 'utf8');
}

/** Lowercase hex SHA-256 of the canonical bytes (coverage.digest is ignored). */
export function computeDigest(coverage: CoverageLike): string {
  return crypto.createHash('sha256').update(canonicalBytes(coverage)).digest('hex');
}

/** The cardinality invariants every consumer checks; returns a list of problems. */
export function invariantProblems(coverage: CoverageLike): string[] {
  const problems: string[] = [];
  const card: NonNullable<CoverageLike['cardinality']> = coverage.cardinality ?? {};
  const returned = BigInt(uint(card.returned, 'returned'));
  const limit = BigInt(uint(card.limit, 'limit'));
  if (limit > 0n && returned > limit) problems.push(`returned ${returned} > limit ${limit}`);
  if (hasMatched(card)) {
    const matched = BigInt(uint(card.matched_before_limit, 'matched_before_limit'));
    if (returned > matched) problems.push(`returned ${returned} > matched_before_limit ${matched}`);
    if (Boolean(card.truncated) !== returned < matched) {
      problems.push(`truncated=${Boolean(card.truncated)} contradicts ${returned} of ${matched}`);
    }
  }
  const exactness = enumName(ENUMS.exactness, card.exactness, 'exactness');
  if (exactness === 'EXACTNESS_EXACT' && !hasMatched(card)) {
    problems.push('EXACTNESS_EXACT requires matched_before_limit');
  }
  if (exactness === 'EXACTNESS_UNKNOWN' && hasMatched(card)) {
    problems.push('EXACTNESS_UNKNOWN requires matched_before_limit unset');
  }
  return problems;
}

/** { ok, reason }: the seal matches and the invariants hold. */
export function verifyCoverage(coverage: CoverageLike | null | undefined): { ok: boolean; reason: string } {
  if (!coverage || !coverage.digest) return { ok: false, reason: 'coverage is not sealed' };
  let digest: string;
  try {
    digest = computeDigest(coverage);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  if (digest !== coverage.digest) {
    return { ok: false, reason: `digest mismatch: sealed ${coverage.digest}, computed ${digest}` };
  }
  const problems = invariantProblems(coverage);
  if (problems.length) return { ok: false, reason: problems.join('; ') };
  return { ok: true, reason: '' };
}

// RFC 3339 -> { seconds: string, nanos: number }, exact to the nanosecond.
export function parseTimestamp(text: string): { seconds: string; nanos: number } {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  if (!match) throw new CoverageError(`not an RFC 3339 timestamp: ${text}`);
  const millis = Date.parse(`${match[1]}${match[3]!.toUpperCase()}`);
  if (Number.isNaN(millis)) throw new CoverageError(`not an RFC 3339 timestamp: ${text}`);
  return { seconds: String(millis / 1000), nanos: Number((match[2] ?? '').padEnd(9, '0')) };
}

/**
 * A Coverage in proto3 JSON (as MessageToDict or grpcurl print it) converted
 * to the proto-loader shape used above.
 */
export function fromProto3Json(json: Record<string, any>): CoverageLike {
  const message = (value: unknown) => (isSet(value) ? { ...(value as Record<string, any>) } : null);
  const out: CoverageLike & { cardinality: Record<string, any> | null } = {
    read_path: json.read_path ?? json.readPath ?? '',
    source_systems: json.source_systems ?? json.sourceSystems ?? [],
    query_digest: json.query_digest ?? json.queryDigest ?? '',
    cardinality: message(json.cardinality),
    dimensions: message(json.dimensions),
    outcome: json.outcome ?? ENUMS.outcome[0],
    verifier: message(json.verifier),
    snapshot_version: json.snapshot_version ?? json.snapshotVersion ?? '',
    computed_at: isSet(json.computed_at ?? json.computedAt)
      ? parseTimestamp(json.computed_at ?? json.computedAt)
      : null,
    digest: json.digest ?? '',
  };
  if (out.cardinality && isSet(out.cardinality.matchedBeforeLimit)) {
    out.cardinality.matched_before_limit = out.cardinality.matchedBeforeLimit;
  }
  return out;
}
