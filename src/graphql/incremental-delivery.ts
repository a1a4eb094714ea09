/**
 * Incremental delivery (@defer, @stream): which documents ask for it, and the errors of its
 * payloads. A payload after the first carries its errors inside `incremental[i].errors` (the
 * 2022 format graphql-tools' executor and @graphql-tools/utils' directives speak), where the masking
 * and scrubbing made for `result.errors` would never look: mapPayloadErrors reaches them too.
 */
import { BREAK, getDirectiveValues, GraphQLError, visit, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';

const INCREMENTAL_DIRECTIVES = new Set(['defer', 'stream']);
const asked = new WeakMap<DocumentNode, boolean>();

/** Whether any operation or fragment of `document` uses @defer or @stream (once per parsed document). */
export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = asked.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(node) {
        if (!INCREMENTAL_DIRECTIVES.has(node.name.value)) return undefined;
        found = true;
        return BREAK;
      },
    });
    asked.set(document, found);
  }
  return found;
}

/**
 * The first @stream whose `initialCount` is negative, as its literal or variable gives it, as a
 * client's error. graphql-tools' executor asserts it as an invariant, which reads as a bug (an
 * INTERNAL_SERVER_ERROR, logged at `error`); checked before anything runs, nothing is asked upstream.
 */
export function negativeStreamCount({ schema, document, variableValues }: ExecutionArgs): GraphQLError | undefined {
  const stream = schema.getDirective('stream');
  if (!stream) return undefined;
  let refused: GraphQLError | undefined;
  visit(document, {
    Field(node) {
      if (!node.directives?.some((directive) => directive.name.value === 'stream')) return undefined;
      let count: unknown;
      try {
        count = getDirectiveValues(stream, node, variableValues ?? {})?.initialCount;
      } catch {
        return undefined; // a variable of the wrong type: the executor's own error says so
      }
      if (typeof count !== 'number' || count >= 0) return undefined;
      refused = new GraphQLError(`@stream's initialCount must be 0 or more, got ${count}`, {
        nodes: [node],
        extensions: { code: 'BAD_USER_INPUT', argument: 'initialCount' },
      });
      return BREAK;
    },
  });
  return refused;
}

const STREAMING_TYPES = [
  ['multipart', 'mixed'],
  ['text', 'event-stream'],
] as const;

/**
 * Whether the client takes an answer in parts (multipart/mixed or text/event-stream, wildcards
 * included, as yoga matches them; a request without Accept takes anything). One that takes only JSON gets the
 * whole answer at once: @defer and @stream let a server send everything together.
 */
export function acceptsIncremental(request: Request | undefined): boolean {
  const accept = request?.headers.get('accept') ?? '*/*';
  return accept.split(',').some((range) => {
    const [type = '', subtype = ''] = (range.split(';', 1)[0] ?? '').trim().toLowerCase().split('/');
    return STREAMING_TYPES.some(([t, s]) => (type === '*' || type === t) && (subtype === '*' || subtype === s));
  });
}

/**
 * The contexts of the executions that run incrementally (graphql-tools' executor, chosen in
 * compiled-execution.ts): a resolver that hands out a list as it comes (connection-stream.ts) asks
 * here, so that it decides exactly as the engine did. graphql-js, which runs the others, takes
 * lists whole.
 */
const incremental = new WeakSet<object>();

export function markIncremental(context: unknown): void {
  if (typeof context === 'object' && context !== null) incremental.add(context);
}

export function runsIncrementally(context: object): boolean {
  return incremental.has(context);
}

/** A payload of an incremental answer: the first is an ExecutionResult, the later ones carry `incremental`. */
export interface IncrementalPayload extends ExecutionResult {
  /** Each item: `data` (a deferred fragment's) or `items` (a streamed list's), its `path`, its `errors`. */
  incremental?: ReadonlyArray<ExecutionResult>;
  hasNext?: boolean;
}

/**
 * `payload` with `map` applied to its own errors and to every incremental item's, as one list of
 * results (in that order), so a mapping that looks at all of a request's errors at once (secret
 * scrubbing) sees them together. The same payload when `map` changes nothing.
 */
export function mapPayloadErrors<R extends object = ExecutionResult>(
  payload: IncrementalPayload,
  map: (results: ExecutionResult[]) => R[],
): IncrementalPayload | R {
  const items = payload.incremental ?? [];
  const mapped = map([payload, ...items]);
  if (mapped.every((result, i) => result === (i === 0 ? payload : items[i - 1]))) return payload;
  const [first, ...rest] = mapped;
  return payload.incremental ? { ...first!, incremental: rest } : first!;
}
