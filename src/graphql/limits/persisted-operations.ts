/**
 * Persisted-only mode (PERSISTED_OPERATIONS): the operations loaded at start, and what a request
 * that is not one of them is answered.
 */
import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { defaultExtractPersistedOperationId } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLParams } from 'graphql-yoga';
import { ConfigError } from '../../config.js';

/** What persisted-only mode answers, over HTTP (yoga's plugin, yoga.ts) and graphql-ws alike. */
export const PERSISTED_ERRORS = {
  persistedQueryOnly: {
    message: 'Only persisted operations run here: send extensions.persistedQuery.sha256Hash with a known id, not a query',
    extensions: { code: 'PERSISTED_QUERY_REQUIRED' },
  },
  keyNotFound: { message: 'PersistedQueryKeyNotFound', extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED' } },
  // Not APQ's "PersistedQueryNotFound": Apollo's persisted-queries link takes that message as "send
  // the document", and the client saw PERSISTED_QUERY_REQUIRED instead of what was wrong.
  notFound: {
    message: 'This persisted operation id is not in the list this gateway runs',
    extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' },
  },
} as const;

/**
 * The document persisted-only mode runs for `params`, or its refusal, decided as yoga's
 * usePersistedOperations decides over HTTP: graphql-ws operations never pass yoga's onParams.
 */
export function persistedDocument(
  params: { query?: unknown; extensions?: unknown },
  operations: ReadonlyMap<string, string>,
): string | GraphQLError {
  const refusal = (kind: keyof typeof PERSISTED_ERRORS) =>
    new GraphQLError(PERSISTED_ERRORS[kind].message, { extensions: PERSISTED_ERRORS[kind].extensions });
  if (params.query) return refusal('persistedQueryOnly');
  const id = defaultExtractPersistedOperationId(params as GraphQLParams, undefined as unknown as Request, {});
  if (id == null) return refusal('keyNotFound');
  return operations.get(id) ?? refusal('notFound');
}

/**
 * Reads PERSISTED_OPERATIONS: `{ "<id>": "<document>" }`. A bad file, or a document that does not
 * parse or validate against the schema, stops start-up naming its id: a client would otherwise
 * learn of it only when it sends that id.
 */
export function loadPersistedOperations(path: string, schema: GraphQLSchema): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`PERSISTED_OPERATIONS: cannot read ${path} as JSON (${(error as Error).message})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('PERSISTED_OPERATIONS must be a JSON object of { "<id>": "<document>" }');
  }
  const operations = new Map<string, string>();
  for (const [id, document] of Object.entries(parsed)) {
    if (typeof document !== 'string') throw new ConfigError(`PERSISTED_OPERATIONS: "${id}" is not a document string`);
    let parsed: DocumentNode;
    try {
      parsed = parse(document);
    } catch (error) {
      throw new ConfigError(`PERSISTED_OPERATIONS: "${id}" does not parse (${(error as Error).message})`);
    }
    const [invalid] = validate(schema, parsed);
    if (invalid) throw new ConfigError(`PERSISTED_OPERATIONS: "${id}" does not validate against the schema (${invalid.message})`);
    operations.set(id, document);
  }
  return operations;
}
