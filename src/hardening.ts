/**
 * Hostile-query defences: limits on tokens, depth, aliases, directives and upstream cost, checked
 * before any resolver runs; a request body cap; and scrubbing of API keys that graphql-js would
 * echo back in error messages (`Expected value of type String, found ["<key>"]`).
 */
import {
  GraphQLError,
  Kind,
  parse,
  validate,
  type ASTNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'graphql-yoga';
import { ConfigError } from './config.js';
import { MAX_LIMIT } from './schema/pagination.js';

export interface QueryLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  /** See queryCost(). */
  maxCost: number;
  maxBodyBytes: number;
}

/** Root fields that cost one upstream call each, and the paged ones whose items cost one each. */
const UPSTREAM_FIELDS = new Set(['status', 'brc20Token', 'transfers', 'etchings', 'bitcoinNode', 'deleteChainhook']);
const PAGED_FIELDS = new Set(['transfers', 'etchings']);
export const UPSTREAM_CALL_COST = 10;
const DEFAULT_PAGE = 20;

function tooComplex(message: string, limit: number, actual: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', limit, actual } });
}

type Fragments = Map<string, FragmentDefinitionNode>;

/** Walks the fields of a selection set, expanding fragments (each once per path, so cycles end). */
function* fieldsOf(selectionSet: SelectionSetNode, fragments: Fragments, seen: Set<string> = new Set()): Generator<FieldNode> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) yield selection;
    else if (selection.kind === Kind.INLINE_FRAGMENT) yield* fieldsOf(selection.selectionSet, fragments, seen);
    else {
      const fragment = fragments.get(selection.name.value);
      if (!fragment || seen.has(fragment.name.value)) continue;
      yield* fieldsOf(fragment.selectionSet, fragments, new Set([...seen, fragment.name.value]));
    }
  }
}

/** Depth of field nesting below a selection set; introspection (`__schema`, `__type`) is exempt. */
function depthOf(selectionSet: SelectionSetNode | undefined, fragments: Fragments, budget: number): number {
  if (!selectionSet) return 0;
  let deepest = 0;
  for (const field of fieldsOf(selectionSet, fragments)) {
    if (field.name.value.startsWith('__')) continue;
    deepest = Math.max(deepest, 1 + (budget > 0 ? depthOf(field.selectionSet, fragments, budget - 1) : 1));
  }
  return deepest;
}

/**
 * The upstream work a query may cause: UPSTREAM_CALL_COST per root field that calls an upstream,
 * plus one per item a page may return (its `limit`; 60 when it comes from a variable, 20 by
 * default). Aliases of one field each count: the gateway may dedupe them, the limit stays honest.
 */
export function queryCost(document: DocumentNode): number {
  const fragments = fragmentsOf(document);
  let cost = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const field of fieldsOf(definition.selectionSet, fragments)) {
      if (!UPSTREAM_FIELDS.has(field.name.value)) continue;
      cost += UPSTREAM_CALL_COST;
      if (PAGED_FIELDS.has(field.name.value)) {
        const limit = field.arguments?.find((a) => a.name.value === 'limit')?.value;
        cost += !limit ? DEFAULT_PAGE : limit.kind === Kind.INT ? Math.max(0, Number(limit.value)) : MAX_LIMIT;
      }
    }
  }
  return cost;
}

function fragmentsOf(document: DocumentNode): Fragments {
  return new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
}

function countNodes(document: DocumentNode, test: (node: ASTNode) => number): number {
  let total = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object' || !('kind' in node)) return;
    total += test(node as ASTNode);
    for (const [key, value] of Object.entries(node)) if (key !== 'loc') visit(value);
  };
  visit(document);
  return total;
}

/** One validation rule for all the shape limits, reported before anything executes. */
export function queryLimitsRule(limits: QueryLimits) {
  return (context: ValidationContext) => ({
    Document(document: DocumentNode) {
      const fragments = fragmentsOf(document);
      for (const definition of document.definitions) {
        if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
        const depth = depthOf(definition.selectionSet, fragments, limits.maxDepth + 1);
        if (depth > limits.maxDepth) {
          context.reportError(tooComplex(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}`, limits.maxDepth, depth));
        }
      }
      const aliases = countNodes(document, (n) => (n.kind === Kind.FIELD && n.alias ? 1 : 0));
      if (aliases > limits.maxAliases) {
        context.reportError(tooComplex(`${aliases} aliases exceed the limit of ${limits.maxAliases}`, limits.maxAliases, aliases));
      }
      const directives = countNodes(document, (n) => (n.kind === Kind.DIRECTIVE ? 1 : 0));
      if (directives > limits.maxDirectives) {
        context.reportError(
          tooComplex(`${directives} directives exceed the limit of ${limits.maxDirectives}`, limits.maxDirectives, directives),
        );
      }
      const cost = queryCost(document);
      if (cost > limits.maxCost) {
        context.reportError(
          tooComplex(
            `Query cost ${cost} exceeds the limit of ${limits.maxCost} (${UPSTREAM_CALL_COST} per upstream call, 1 per page item)`,
            limits.maxCost,
            cost,
          ),
        );
      }
      return false;
    },
  });
}

export function useQueryLimits(limits: QueryLimits): Plugin {
  const rule = queryLimitsRule(limits);
  return {
    onParse({ setParseFn }) {
      setParseFn((source, options) => parse(source, { ...options, maxTokens: limits.maxTokens }));
    },
    onValidate({ addValidationRule }) {
      addValidationRule(rule);
    },
    onRequest({ request, endResponse }) {
      if (request.method !== 'POST') return;
      const length = request.headers.get('content-length');
      if (length === null && request.headers.get('transfer-encoding')) {
        return endResponse(Response.json({ errors: [{ message: 'A request body needs a Content-Length' }] }, { status: 411 }));
      }
      if (Number(length) > limits.maxBodyBytes) {
        return endResponse(
          Response.json(
            { errors: [{ message: `Request body exceeds ${limits.maxBodyBytes} bytes`, extensions: { code: 'PAYLOAD_TOO_LARGE' } }] },
            { status: 413 },
          ),
        );
      }
    },
  };
}

/**
 * Keys given as `apiKey` arguments (in any type: a list or an Int is still a key the user typed),
 * as variables, or as the x-api-key header, replaced in every error message of the answer.
 */
export function useSecretScrubbing(): Plugin {
  const params = new WeakMap<Request, { query?: string; variables?: Record<string, unknown> }>();
  return {
    onParams({ request, params: given }) {
      params.set(request, { query: given.query, variables: given.variables as Record<string, unknown> | undefined });
    },
    onResultProcess({ request, result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors?.length) return;
      const secrets = secretsOf(request, params.get(request));
      const scrub = (text: string) =>
        secrets.reduce(
          (out, secret) => out.split(secret).join('<redacted>'),
          // A document that does not parse cannot say which token was a key: its quoted tokens go.
          text.startsWith('Syntax Error:') ? text.replace(/"(?:[^"\\]|\\.)*"/g, '"<redacted>"') : text,
        );
      setResult({
        ...result,
        errors: result.errors.map((error) =>
          scrub(error.message) === error.message
            ? error
            : new GraphQLError(scrub(error.message), {
                nodes: (error as GraphQLError).nodes,
                path: error.path,
                extensions: error.extensions,
              }),
        ),
      });
    },
  };
}

function secretsOf(request: Request, given: { query?: string; variables?: Record<string, unknown> } | undefined): string[] {
  const secrets = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') {
      const text = String(value);
      if (text.length >= 4) {
        secrets.add(text);
        secrets.add(JSON.stringify(text).slice(1, -1));
      }
    } else if (Array.isArray(value)) value.forEach(add);
    else if (value && typeof value === 'object') Object.values(value).forEach(add);
  };
  add(request.headers.get('x-api-key') ?? undefined);
  if (!given?.query) return [...secrets];
  let document: DocumentNode;
  try {
    document = parse(given.query);
  } catch {
    return [...secrets];
  }
  const literal = (node: ASTNode): void => {
    switch (node.kind) {
      case Kind.STRING:
      case Kind.INT:
      case Kind.FLOAT:
      case Kind.ENUM:
        return add(node.value);
      case Kind.LIST:
        return node.values.forEach(literal);
      case Kind.OBJECT:
        return node.fields.forEach((field) => literal(field.value));
      case Kind.VARIABLE:
        return add(given.variables?.[node.name.value]);
      default:
        return;
    }
  };
  countNodes(document, (node) => {
    if (node.kind === Kind.ARGUMENT && node.name.value === 'apiKey') literal(node.value);
    return 0;
  });
  return [...secrets].sort((a, b) => b.length - a.length);
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
