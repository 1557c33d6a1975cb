// The declared-claims tool for a runtime's model (docs/gateway.md): the same
// schema as an OpenAI-style function and an Anthropic-style tool, and the
// mapping from a tool call's arguments to ReleaseResponseRequest.declared_claims.

import type { DeclaredClaim } from './generated/engram/gateway/v1/DeclaredClaim';

/** The arguments the model passes to `declare_memory_claim`. */
export interface DeclareMemoryClaimArguments {
  kind: 'absence' | 'recollection';
  topic_terms: string[];
  /** absence only. */
  scope?: 'CORPUS_WIDE' | 'QUERY_SCOPED';
  /** recollection only. */
  record_ids?: string[];
}

const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'topic_terms'],
  properties: {
    kind: { type: 'string', enum: ['absence', 'recollection'] },
    topic_terms: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 8 },
    scope: {
      type: 'string',
      enum: ['CORPUS_WIDE', 'QUERY_SCOPED'],
      description: 'absence only: the whole memory, or the search just run',
    },
    record_ids: {
      type: 'array',
      items: { type: 'string' },
      maxItems: 16,
      description: 'recollection only: ids of the context records it rests on',
    },
  },
} as const;
const NAME = 'declare_memory_claim';
const DESCRIPTION =
  'Declare a claim about what memory holds (something is absent, or the user said it before) ' +
  'before stating it in the answer.';

/** For OpenAI-style `tools`. */
export const openAiTool = { type: 'function', function: { name: NAME, description: DESCRIPTION, parameters: PARAMETERS } } as const;
/** For Anthropic-style `tools`. */
export const anthropicTool = { name: NAME, description: DESCRIPTION, input_schema: PARAMETERS } as const;

/** A DeclaredClaim message from one tool call's arguments (parsed JSON; checked here). */
export function declaredClaim(args: DeclareMemoryClaimArguments | Record<string, unknown>): DeclaredClaim {
  const terms = Array.isArray(args.topic_terms) ? args.topic_terms.map(String) : [];
  if (args.kind === 'absence') {
    const scope = args.scope === 'QUERY_SCOPED' ? 'CLAIM_SCOPE_QUERY_SCOPED' : 'CLAIM_SCOPE_CORPUS_WIDE';
    return { absence: { topic_terms: terms, scope } };
  }
  if (args.kind === 'recollection') {
    const ids = Array.isArray(args.record_ids) ? args.record_ids.map(String) : [];
    return { recollection: { topic_terms: terms, record_ids: ids } };
  }
  throw new TypeError(`${NAME}: unknown kind ${JSON.stringify(args.kind)}`);
}
