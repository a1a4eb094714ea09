/**
 * Hostile-query defences: limits on tokens, depth, aliases, directives and upstream cost, checked
 * before any resolver runs; a request body cap; and scrubbing of API keys that graphql-js would
 * echo back in error messages (`Expected value of type String, found ["<key>"]`).
 *
 * Everything here is linear in the request: one walk over the document measures every limit, each
 * fragment once however often it is spread, without recursion (a long chain of fragments cannot
 * overflow the stack); graphql-js's own validation runs only on documents within the limits.
 */
import {
  GraphQLError,
  Kind,
  Lexer,
  NoFragmentCyclesRule,
  parse,
  Source,
  TokenKind,
  validate,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { defaultExtractPersistedOperationId } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { ConfigError } from '../../config.js';
import { brc20TokensCost } from '../schema/brc20.js';
import { connectionCost } from '../schema/cursor-paging.js';
import { MAX_LIMIT } from '../schema/pagination.js';

export interface QueryLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  /** See measureDocument(). */
  maxCost: number;
  /** See DocumentMeasure.comparisons. */
  maxComparisons: number;
  maxBodyBytes: number;
}

/** Root fields that cost one upstream call each, and the paged ones whose items cost one each. */
const UPSTREAM_FIELDS = new Set(['status', 'brc20Token', 'transfers', 'etchings', 'bitcoinNode', 'deleteChainhook']);
const PAGED_FIELDS = new Set(['transfers', 'etchings']);
/** Root fields that may make many upstream calls: priced by what they will fetch at most. */
const CONNECTION_FIELDS = new Set(['etchingsConnection', 'transfersConnection']);
export const UPSTREAM_CALL_COST = 10;
const DEFAULT_PAGE = 20;

function tooComplex(message: string, limit: number, actual: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', limit, actual } });
}

/** Counts that can grow exponentially (a fragment spread twice by each of a chain) stop at 2^53 - 1. */
const saturate = (count: number) => Math.min(count, Number.MAX_SAFE_INTEGER);

/** What one root field costs: see measureDocument(). */
function fieldCost(field: FieldNode): number {
  const name = field.name.value;
  const argument = (argName: string) => field.arguments?.find((a) => a.name.value === argName)?.value;
  if (CONNECTION_FIELDS.has(name)) {
    const [first, last] = [argument('first'), argument('last')];
    const literal = (value: typeof first) => (value?.kind === Kind.INT ? Number(value.value) : undefined);
    const fromVariables = (first !== undefined && first.kind !== Kind.INT) || (last !== undefined && last.kind !== Kind.INT);
    return connectionCost({ first: literal(first), last: literal(last), fromVariables });
  }
  if (name === 'brc20Tokens') {
    // Priced as if `supply.holders` were asked (one call per ticker): the most it can cost.
    const tickers = argument('tickers');
    return brc20TokensCost(tickers?.kind === Kind.LIST ? tickers.values.length : undefined, true);
  }
  if (!UPSTREAM_FIELDS.has(field.name.value)) return 0;
  if (!PAGED_FIELDS.has(field.name.value)) return UPSTREAM_CALL_COST;
  const limit = field.arguments?.find((a) => a.name.value === 'limit')?.value;
  return UPSTREAM_CALL_COST + (!limit ? DEFAULT_PAGE : limit.kind === Kind.INT ? Math.max(0, Number(limit.value)) : MAX_LIMIT);
}

/** One operation or fragment, walked once without following its spreads. */
interface Scan {
  /** The deepest field nesting inside it (introspection exempt). */
  depth: number;
  /** The cost of its own root-level fields. */
  cost: number;
  /** Per fragment it spreads: the deepest nesting of a spread (-1: only inside introspection), and how often it is spread at root level. */
  spreads: Map<string, { depth: number; atRoot: number }>;
}

/**
 * One selection set as graphql-js's overlapping-fields rule sees it (its inline fragments merged
 * in): the rule compares every two fields of one response name, and the fields with every
 * fragment reached through the set's spreads, and those fragments pairwise.
 */
interface SetShape {
  fields: number;
  /** The sum, over response names, of the square of their fields' count. */
  sameNamePairs: number;
  /** Fragments spread directly in the set (each name once). */
  spreads: Set<string>;
}

function scan(selectionSet: SelectionSetNode, counts: { aliases: number; directives: number }, shapes: SetShape[]): Scan {
  const result: Scan = { depth: 0, cost: 0, spreads: new Map() };
  // [selection set, its nesting depth, at root level, inside an introspection field (`__schema`, `__type`)]
  const pending: Array<[SelectionSetNode, number, boolean, boolean]> = [[selectionSet, 0, true, false]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [root, depth, atRoot, introspection] = next;
    const shape: SetShape = { fields: 0, sameNamePairs: 0, spreads: new Set() };
    const names = new Map<string, number>();
    const merged = [root];
    for (let set = merged.pop(); set; set = merged.pop()) {
      for (const selection of set.selections) {
        counts.directives += selection.directives?.length ?? 0;
        if (selection.kind === Kind.FIELD) {
          if (selection.alias) counts.aliases++;
          const name = (selection.alias ?? selection.name).value;
          const count = (names.get(name) ?? 0) + 1;
          names.set(name, count);
          shape.fields++;
          shape.sameNamePairs += 2 * count - 1; // count² - (count - 1)²
          const exempt = introspection || selection.name.value.startsWith('__');
          if (!exempt) result.depth = Math.max(result.depth, depth + 1);
          if (atRoot) result.cost = saturate(result.cost + fieldCost(selection));
          if (selection.selectionSet) pending.push([selection.selectionSet, depth + 1, false, exempt]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          merged.push(selection.selectionSet);
        } else {
          shape.spreads.add(selection.name.value);
          const spread = result.spreads.get(selection.name.value) ?? { depth: -1, atRoot: 0 };
          if (!introspection) spread.depth = Math.max(spread.depth, depth);
          if (atRoot) spread.atRoot++;
          result.spreads.set(selection.name.value, spread);
        }
      }
    }
    shapes.push(shape);
  }
  return result;
}

export interface DocumentMeasure {
  /** Per operation: its depth (field nesting, introspection exempt) and its upstream cost. */
  operations: Array<{ depth: number; cost: number }>;
  /** Aliases and directives written in the document. */
  aliases: number;
  directives: number;
  /** A bound on the field comparisons graphql-js's overlapping-fields rule makes: see SetShape. */
  comparisons: number;
  /** Some fragment spreads itself, directly or through others. */
  cyclic: boolean;
}

/**
 * Measures a document for the limits in time linear in its size: each operation and fragment is
 * walked once, and a fragment's totals are memoised, then added wherever it is spread.
 *
 * Cost is the upstream work a query may cause: UPSTREAM_CALL_COST per root field that calls an
 * upstream, plus one per item a page may return (its `limit`; 60 when it comes from a variable, 20
 * by default). A connection costs the upstream pages it reads for its window plus its items (the
 * largest window when `first`/`last` is a variable: connectionCost); `brc20Tokens` one call per
 * ticker plus one per item (50 when the list is a variable: brc20TokensCost). Each alias, and each spread of a fragment, counts: the gateway may dedupe them, the
 * limit stays honest.
 */
export function measureDocument(document: DocumentNode): DocumentMeasure {
  const counts = { aliases: 0, directives: 0 };
  const shapes: SetShape[] = [];
  const fragments = new Map<string, Scan>();
  const operations: Scan[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      counts.directives += definition.directives?.length ?? 0;
      fragments.set(definition.name.value, scan(definition.selectionSet, counts, shapes));
    } else if (definition.kind === Kind.OPERATION_DEFINITION) {
      counts.directives += definition.directives?.length ?? 0;
      for (const variable of definition.variableDefinitions ?? []) counts.directives += variable.directives?.length ?? 0;
      operations.push(scan(definition.selectionSet, counts, shapes));
    }
  }
  /** Per fragment, through the fragments it spreads; `reach`: the fragments its own selection set reaches, each path counted. */
  const totals = new Map<string, { depth: number; cost: number; reach: number }>();
  const withSpreads = (own: Scan) => {
    let { depth, cost } = own;
    let reach = 0;
    for (const [name, spread] of own.spreads) {
      const fragment = totals.get(name);
      if (!fragment) continue; // unknown, or spread from inside itself (a cycle)
      if (spread.depth >= 0) depth = Math.max(depth, spread.depth + fragment.depth);
      cost = saturate(cost + spread.atRoot * fragment.cost);
      if (spread.atRoot > 0) reach = saturate(reach + 1 + fragment.reach);
    }
    return { depth, cost, reach };
  };
  // Fragments in depth-first post-order, with an explicit stack. `entered` holds the fragments on
  // the current path: a spread of one of them closes a cycle.
  const entered = new Set<string>();
  let cyclic = false;
  for (const root of fragments.keys()) {
    const pending = [root];
    while (pending.length > 0) {
      const name = pending[pending.length - 1]!;
      const own = fragments.get(name)!;
      if (totals.has(name)) {
        pending.pop();
      } else if (!entered.has(name)) {
        entered.add(name);
        for (const spread of own.spreads.keys()) {
          if (entered.has(spread)) cyclic = true;
          else if (fragments.has(spread) && !totals.has(spread)) pending.push(spread);
        }
      } else {
        totals.set(name, withSpreads(own));
        entered.delete(name);
        pending.pop();
      }
    }
  }
  let comparisons = 0;
  for (const shape of shapes) {
    let reached = 0;
    for (const name of shape.spreads) reached = saturate(reached + 1 + (totals.get(name)?.reach ?? 0));
    comparisons = saturate(comparisons + shape.sameNamePairs + reached * (2 * shape.fields + reached));
  }
  const measured = operations.map(withSpreads).map(({ depth, cost }) => ({ depth, cost }));
  return { operations: measured, ...counts, comparisons, cyclic };
}

/** The errors of a document over the limits (none when it is within them). */
function refusals(measure: DocumentMeasure, limits: QueryLimits): GraphQLError[] {
  const errors: GraphQLError[] = [];
  for (const { depth } of measure.operations) {
    if (depth > limits.maxDepth) {
      errors.push(tooComplex(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}`, limits.maxDepth, depth));
    }
  }
  const { aliases, directives } = measure;
  if (aliases > limits.maxAliases) {
    errors.push(tooComplex(`${aliases} aliases exceed the limit of ${limits.maxAliases}`, limits.maxAliases, aliases));
  }
  if (directives > limits.maxDirectives) {
    errors.push(tooComplex(`${directives} directives exceed the limit of ${limits.maxDirectives}`, limits.maxDirectives, directives));
  }
  const cost = saturate(measure.operations.reduce((sum, operation) => sum + operation.cost, 0));
  if (cost > limits.maxCost) {
    errors.push(
      tooComplex(
        `Query cost ${cost} exceeds the limit of ${limits.maxCost} (${UPSTREAM_CALL_COST} per upstream call, 1 per page item)`,
        limits.maxCost,
        cost,
      ),
    );
  }
  const { comparisons } = measure;
  if (comparisons > limits.maxComparisons) {
    errors.push(
      tooComplex(
        `${comparisons} field comparisons exceed the limit of ${limits.maxComparisons} (fields repeated under one name, fragments spread side by side)`,
        limits.maxComparisons,
        comparisons,
      ),
    );
  }
  return errors;
}

/** Tokens as graphql-js counts them (comments excluded), to the end or to the first lexical error. */
function countTokens(source: string | Source): number {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) count++;
  } catch {
    // A lexical error ends the count: the document is refused either way.
  }
  return count;
}

export function useQueryLimits(limits: QueryLimits): Plugin {
  return {
    onParse({ setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parse(source, { ...options, maxTokens: limits.maxTokens });
        } catch (error) {
          // graphql-js stops at the limit without a count: the whole document is counted once more.
          const tokens = countTokens(source);
          if (tokens > limits.maxTokens) {
            throw tooComplex(`${tokens} tokens exceed the limit of ${limits.maxTokens}`, limits.maxTokens, tokens);
          }
          throw error;
        }
      });
    },
    onValidate({ validateFn, setValidationFn }) {
      // graphql-js's rules run only on documents within the limits: its overlapping-fields rule is
      // quadratic in repeated fields, and recurses along fragment cycles until the stack overflows,
      // so a cyclic document meets the cycle rule alone.
      setValidationFn((schema, document, rules, typeInfo, options) => {
        const measure = measureDocument(document);
        const refused = refusals(measure, limits);
        if (refused.length > 0) return refused;
        if (measure.cyclic) return validate(schema, document, [NoFragmentCyclesRule]);
        return validateFn(schema, document, rules, typeInfo, options);
      });
    },
    onRequest({ request, endResponse }) {
      if (request.method !== 'POST') return;
      const length = request.headers.get('content-length');
      if (length === null && request.headers.get('transfer-encoding')) {
        return endResponse(
          Response.json(
            { errors: [{ message: 'A request body needs a Content-Length', extensions: { code: 'LENGTH_REQUIRED' } }] },
            { status: 411 },
          ),
        );
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
 * GET query strings and form bodies carry `variables` and `extensions` as JSON text, which yoga
 * parses without a net: a malformed one is the client's error (400 BAD_REQUEST, as yoga answers a
 * malformed JSON body), not an unexpected one. So is a `query` that is not a string.
 */
export function useRequestParseErrors(): Plugin {
  const badParameters = (error: unknown): never => {
    if (!(error instanceof SyntaxError)) throw error;
    throw new GraphQLError('The request parameters `variables` or `extensions` are not valid JSON', {
      extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
    });
  };
  return {
    // yoga checks the parameters' types only after its plugins' onParams: automatic persisted
    // queries would hash a query that is not a string first, and fail as an unexpected error.
    onParams({ params }) {
      const query: unknown = params.query;
      if (query == null || typeof query === 'string') return;
      throw new GraphQLError(`Expected "query" param to be a string, but given ${Array.isArray(query) ? 'array' : typeof query}.`, {
        extensions: { code: 'BAD_REQUEST', http: { status: 400, headers: { Allow: 'GET, POST' } } },
      });
    },
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser((request) => {
        try {
          const parsed = requestParser(request);
          // yoga's parsers may answer promise-likes of their own (whatwg-node's), not only Promises.
          return typeof (parsed as PromiseLike<unknown>).then === 'function' ? Promise.resolve(parsed).catch(badParameters) : parsed;
        } catch (error) {
          return badParameters(error);
        }
      });
    },
  };
}

/** Past this many distinct keys in one request, error details are withheld rather than searched. */
const MAX_SECRETS = 32;
/** Extensions are searched this deep; anything deeper is dropped. */
const MAX_EXTENSION_DEPTH = 8;
const REDACTED = '<redacted>';
/** Something that looks like an `apiKey` argument or member, in text that may not parse: its value, or `$` and a variable name. */
const KEY_ARGUMENT = /apiKey[\s\\"']*:[\s\\"'[]*(\$?)([^\s"'\\,)}\]]+)/g;
/** A JSON member (`"name": value`, escaped or not), to find the value of a variable named above. */
const JSON_MEMBER = /\\*"(\w+)\\*"\s*:[\s\\"'[]*([^\s"'\\,)}\]]+)/g;
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** What a request gave, kept until its answer is scrubbed (a batch gives several). */
export interface GivenSecrets {
  texts: string[];
  variables: unknown[];
  documents: DocumentNode[];
}

/**
 * Keys given as `apiKey` arguments (in any type: a list or an Int is still a key the user typed),
 * as variables, or as the x-api-key header, replaced in every error message and in every string of
 * every error's extensions. Text that did not parse (a malformed JSON body, which yoga echoes in
 * `extensions.originalError`, or a document with a syntax error) is searched for anything that
 * looks like an `apiKey` argument.
 */
export function useSecretScrubbing(): Plugin {
  const requests = new WeakMap<Request, GivenSecrets>();
  const givenBy = (request: Request) => {
    let given = requests.get(request);
    if (!given) requests.set(request, (given = { texts: [], variables: [], documents: [] }));
    return given;
  };
  return {
    onParams({ request, params }) {
      const given = givenBy(request);
      if (typeof params.query === 'string') given.texts.push(params.query);
      given.variables.push(params.variables);
    },
    onParse({ context }) {
      const request = (context as { request?: Request }).request;
      return ({ result }) => {
        if (request && result && !(result instanceof Error)) givenBy(request).documents.push(result);
      };
    },
    onResultProcess({ request, result, setResult }) {
      if (Symbol.asyncIterator in result) return;
      const results = Array.isArray(result) ? result : [result];
      const scrubbed = scrubSecrets(results, request, requests.get(request) ?? { texts: [], variables: [], documents: [] });
      if (scrubbed !== results) setResult(Array.isArray(result) ? scrubbed : scrubbed[0]!);
    },
  };
}

/**
 * `results` with every API key the request gave (see useSecretScrubbing) replaced in their errors;
 * the same array when none has an error. graphql-ws answers go through it too (live/websocket.ts).
 */
export function scrubSecrets(results: ExecutionResult[], request: Request, given: GivenSecrets): ExecutionResult[] {
  if (!results.some((r) => r.errors?.length)) return results;
  const texts = [...given.texts, ...new URL(request.url).searchParams.values()];
  for (const { errors } of results) {
    for (const error of errors ?? []) {
      texts.push(error.message);
      mapStrings(error.extensions, (text) => (texts.push(text), text));
    }
  }
  const secrets = secretsOf(request, given, texts);
  // Each key as typed and as it reads inside a JSON string; the longest first.
  const patterns = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))].sort(
    (a, b) => b.length - a.length,
  );
  const scrubError = (error: GraphQLError): GraphQLError => {
    if (secrets.length > MAX_SECRETS) {
      const { code, http } = (error.extensions ?? {}) as { code?: unknown; http?: { status?: unknown } };
      return new GraphQLError('Error details withheld: the request carries too many API keys', {
        extensions: {
          ...(typeof code === 'string' && { code }),
          ...(typeof http?.status === 'number' && { http: { status: http.status } }),
        },
      });
    }
    let changed = false;
    const scrub = (text: string) => {
      let out = text.startsWith('Syntax Error:') ? text.replace(QUOTED, `"${REDACTED}"`) : text;
      for (const pattern of patterns) if (out.includes(pattern)) out = out.split(pattern).join(REDACTED);
      changed ||= out !== text;
      return out;
    };
    const message = scrub(error.message);
    const extensions = mapStrings(error.extensions, scrub) as GraphQLError['extensions'];
    if (!changed) return error;
    return new GraphQLError(message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      extensions,
    });
  };
  return results.map((r) => (r.errors?.length ? { ...r, errors: r.errors.map((e) => scrubError(e as GraphQLError)) } : r));
}

/** Every string in a value (object keys too) through `map`; no deeper than MAX_EXTENSION_DEPTH. */
function mapStrings(value: unknown, map: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return map(value);
  if (!value || typeof value !== 'object') return value;
  if (depth >= MAX_EXTENSION_DEPTH) return undefined;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map, depth + 1)]));
}

function secretsOf(request: Request, given: GivenSecrets, texts: string[]): string[] {
  const secrets = new Set<string>();
  // Iterative: a variable may nest as deep as the request body allows.
  const add = (value: unknown): void => {
    const pending = [value];
    while (pending.length > 0) {
      const next = pending.pop();
      if (typeof next === 'string' || typeof next === 'number') {
        const text = String(next);
        if (text.length >= 4) secrets.add(text);
      } else if (next && typeof next === 'object') {
        for (const item of Object.values(next)) pending.push(item);
      }
    }
  };
  const addVariable = (name: string) => {
    for (const variables of given.variables) {
      if (variables && typeof variables === 'object' && Object.hasOwn(variables, name)) add((variables as Record<string, unknown>)[name]);
    }
  };
  add(request.headers.get('x-api-key') ?? undefined);
  for (const document of given.documents) {
    visit(document, {
      Argument(argument) {
        if (argument.name.value !== 'apiKey') return;
        visit(argument.value, {
          StringValue: (node) => add(node.value),
          IntValue: (node) => add(node.value),
          FloatValue: (node) => add(node.value),
          EnumValue: (node) => add(node.value),
          Variable: (node) => addVariable(node.name.value),
        });
      },
    });
  }
  const variableNames = new Set<string>();
  for (const text of texts) {
    for (const [, variable, value] of text.matchAll(KEY_ARGUMENT)) {
      if (variable) variableNames.add(value!);
      else add(value);
    }
  }
  if (variableNames.size > 0) {
    for (const name of variableNames) addVariable(name);
    for (const text of texts) {
      for (const [, name, value] of text.matchAll(JSON_MEMBER)) if (variableNames.has(name!)) add(value);
    }
  }
  return [...secrets];
}

/** What persisted-only mode answers, over HTTP (yoga's plugin, server.ts) and graphql-ws alike. */
export const PERSISTED_ERRORS = {
  persistedQueryOnly: {
    message: 'Only persisted operations run here: send extensions.persistedQuery.sha256Hash with a known id, not a query',
    extensions: { code: 'PERSISTED_QUERY_REQUIRED' },
  },
  keyNotFound: { message: 'PersistedQueryKeyNotFound', extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED' } },
  notFound: { message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } },
} as const;

/**
 * The document persisted-only mode runs for `params`, or its refusal, decided as yoga's
 * usePersistedOperations decides over HTTP: graphql-ws operations never pass yoga's onParams.
 */
export function persistedDocument(params: { query?: unknown; extensions?: unknown }, operations: ReadonlyMap<string, string>): string | GraphQLError {
  const refusal = (kind: keyof typeof PERSISTED_ERRORS) => new GraphQLError(PERSISTED_ERRORS[kind].message, { extensions: PERSISTED_ERRORS[kind].extensions });
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
