/**
 * Queries and mutations run as code compiled by graphql-jit (a 60-item page executes some 8× faster
 * than under graphql-js); subscriptions stay on graphql-js. Anything the compiler refuses, and any
 * request it would answer differently, runs on graphql-js's `execute` instead:
 * - variables graphql-js cannot coerce: graphql-js words those errors (BAD_USER_INPUT at the
 *   definition), and graphql-jit lets some through (a null for a non-null type) that it then reports
 *   as field errors; they are checked with graphql-js's own coercion before anything runs;
 * - an omitted variable with a default: graphql-jit 0.8.9 refuses it when the type is non-null, so
 *   defaults are filled in first, as the client could have written them;
 * - a document with @skip or @include: graphql-jit 0.8.9 merges a skipped selection with another of
 *   the same response key (their fields answered, their key placed first), where the spec's
 *   CollectFields leaves a skipped selection out (its issues #111 and #166 are of this family);
 * - a document that asks introspection, or of more than MAX_COMPILED_FIELDS fields: compiling is
 *   synchronous, and grows with them;
 * - a query whose answer has an error that nulled its field's parent: graphql-jit goes on with the
 *   parent's other fields where graphql-js stops, so the query runs again on graphql-js (see finish).
 * The compiler never sees the client's literals: each document's literal arguments are hoisted into
 * variables first (hoist-literals.ts), since graphql-jit writes literals into its generated source
 * and turns some strings into code. The hoisted document's shape is the compile key, so documents
 * that differ only in their literals share one compiled plan.
 * graphql-jit's errors carry no AST nodes (maskError and the contract need them for `locations`):
 * each is rebuilt with the field nodes graphql-js would give, found by walking its path through the
 * client's own operation (aliases, fragments, inline fragments, @skip/@include).
 * Documents with @defer or @stream run on graphql-tools' executor, the one yoga ships: neither
 * graphql-jit nor graphql-js 16 delivers incrementally. For a client that accepts only JSON they
 * run on graphql-js, which ignores both directives: one whole answer, as it would get without them.
 */
import {
  BREAK,
  execute as executeWithGraphQLJs,
  getVariableValues,
  GraphQLError,
  isInputType,
  Kind,
  typeFromAST,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  OperationTypeNode,
  type SelectionSetNode,
} from 'graphql';
import { normalizedExecutor } from '@graphql-tools/executor';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { CompiledExecutionMode } from '../config.js';
import { ByteLru } from '../lib/byte-lru.js';
import { ClientWindows } from '../upstream/guards/client-windows.js';
import type { ResponseBudget } from '../upstream/response-budget.js';
import { coercesAlike, hoistLiterals, operationOf, type HoistedDocument } from './hoist-literals.js';
import { acceptsIncremental, markIncremental, negativeStreamCount, usesIncrementalDelivery } from './incremental-delivery.js';

/**
 * A compiled query is a closure over code generated for every field as the operation expands
 * (a fragment is compiled again wherever it is spread): measured at 370-570 bytes a field for
 * satgate's bench documents, plus the parsed document it keeps alive (~65 bytes a character).
 */
const BYTES_PER_FIELD = 768;
const BYTES_PER_DOCUMENT_CHAR = 96;
const ENTRY_BYTES = 4 * 1024;

/**
 * Cached when the compiler refused the shape, or a document cannot be hoisted: it runs on
 * graphql-js without trying again.
 */
const REFUSED = 'refused';
/**
 * A shape seen once runs on graphql-js, and is compiled when it comes again. Compiling costs
 * 2-4 ms, about twice one graphql-js execution of the same document: frontends send the same few
 * documents, while a client sending a new document every time would otherwise make the gateway
 * pay for a compilation per request.
 */
const SEEN = 'seen';
/**
 * Compilations one client may cause in a minute. A frontend sends a few dozen shapes; a client
 * sending a new shape (a new alias) each time would otherwise have the process compile, and keep
 * the code, for every one. Past this its new shapes run on graphql-js until its minute is over.
 */
export const COMPILES_PER_CLIENT_PER_MINUTE = 30;
/**
 * The most fields, fragments expanded, of a document that is compiled. Compiling is synchronous and
 * grows faster than the fields (an outside review's introspection document of 2,000 expanded fields
 * took 0.6 s, of 16,000 1.3 s and 700 MB); the documents frontends send expand to a few hundred.
 * Larger ones run on graphql-js, which answers the same.
 */
const MAX_COMPILED_FIELDS = 1_000;
type Entry = Prepared | Compiled | typeof REFUSED | typeof SEEN;

/** A document's text, made ready: kept under `d<operation name>\n<text>`. */
interface Prepared {
  hoisted: HoistedDocument;
  /** The client's own operation and fragments: errors are located in its document. */
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
  /** The compiled plan's key, `p<shape>`. */
  plan: string;
  /** Whether any literal was hoisted (else the client's variables go as they are). */
  hoistedAny: boolean;
}

/** A shape's compiled plan. */
interface Compiled {
  query: CompiledQuery;
  fields: number;
}

export type Engine = 'compiled' | 'fallback' | 'incremental';

export function createCompiledExecution({
  maxBytes,
  onExecution,
  mode,
}: {
  maxBytes: number;
  onExecution: (engine: Engine) => void;
  /** COMPILED_EXECUTION (config.ts). */
  mode: CompiledExecutionMode;
}) {
  const compiles = new ClientWindows();
  // Eager: a sighting counts as a second one.
  const seenBefore = (entry: Entry | undefined) => entry === SEEN || (mode === 'eager' && entry === undefined);
  // Documents and plans share one bound. A prepared document keeps its text, its shape, its parsed
  // document and the hoisted one (a copy of the paths down to each literal) alive.
  const cache = new ByteLru<Entry>(maxBytes, (key, entry) => {
    if (typeof entry === 'string') return 2 * key.length + ENTRY_BYTES;
    if ('query' in entry) return (2 + BYTES_PER_DOCUMENT_CHAR) * key.length + ENTRY_BYTES + BYTES_PER_FIELD * entry.fields;
    return (2 + 2 * BYTES_PER_DOCUMENT_CHAR) * key.length + 2 * entry.plan.length + ENTRY_BYTES;
  });

  function preparedFor(args: ExecutionArgs): Prepared | undefined {
    const source = args.document.loc?.source.body;
    if (source === undefined) return undefined;
    const key = `d${args.operationName ?? ''}\n${source}`;
    let entry = cache.get(key);
    if (entry === undefined || entry === SEEN) {
      // A document's first sighting is prepared but not kept, only its key, as parsed documents are.
      const prepared = prepare(args) ?? REFUSED;
      cache.set(key, seenBefore(entry) ? prepared : SEEN);
      entry = prepared;
    }
    return typeof entry === 'object' && 'hoisted' in entry ? entry : undefined;
  }

  function compiledFor(schema: GraphQLSchema, prepared: Prepared, client: string): Compiled | undefined {
    let entry = cache.get(prepared.plan);
    if (entry === SEEN && mode !== 'eager' && compiles.take(client, COMPILES_PER_CLIENT_PER_MINUTE) > 0) return undefined;
    if (entry === undefined || entry === SEEN) {
      entry = seenBefore(entry) ? (compile(schema, prepared.hoisted.document) ?? REFUSED) : SEEN;
      cache.set(prepared.plan, entry);
    }
    return typeof entry === 'object' && 'query' in entry ? entry : undefined;
  }

  function fallback(args: ExecutionArgs) {
    onExecution('fallback');
    return executeWithGraphQLJs(args);
  }

  /** One result, or for @defer/@stream the payloads in order (the first an ExecutionResult with `hasNext`). */
  function executeIncrementally(args: ExecutionArgs) {
    const refused = negativeStreamCount(args);
    if (refused) return { errors: [refused] };
    onExecution('incremental');
    markIncremental(args.contextValue);
    return normalizedExecutor(args);
  }

  /** For useEngine's `execute`: the same arguments and results as graphql-js's (and graphql-tools' for @defer/@stream). */
  function execute(args: ExecutionArgs): ReturnType<typeof normalizedExecutor> {
    if (usesIncrementalDelivery(args.document)) {
      // A client that takes only JSON gets it all at once from graphql-js, which ignores both directives.
      if (acceptsIncremental((args.contextValue as { request?: Request }).request)) return executeIncrementally(args);
      return fallback(args);
    }
    if (mode === 'off' || args.fieldResolver || args.typeResolver || args.subscribeFieldResolver) return fallback(args);
    const prepared = preparedFor(args);
    const client = (args.contextValue as { call?: { client?: string } }).call?.client ?? '';
    const entry = prepared && compiledFor(args.schema, prepared, client);
    if (!prepared || !entry) return fallback(args);
    const inputs = args.variableValues ?? {};
    if (
      prepared.operation.variableDefinitions?.length &&
      getVariableValues(args.schema, prepared.operation.variableDefinitions, inputs).errors
    ) {
      return fallback(args);
    }
    const variables = withDefaults(prepared.operation, inputs);
    const result = entry.query.query(args.rootValue, args.contextValue, withHoisted(prepared, variables));
    const finish = (result: ExecutionResult) => {
      // No data: graphql-jit refused the variables, and nothing ran.
      if (!('data' in result)) return fallback(args);
      // A non-null field's error nulled its parent: graphql-js stops that parent's later fields when
      // a field fails as it starts, graphql-jit runs them all and reports their errors too. The
      // query runs again on graphql-js, for graphql-js's answer; what it loads again comes from
      // this request's loaders, and the answer bytes it uses are charged once. A mutation is not run
      // twice.
      if (result.errors && prepared.operation.operation === OperationTypeNode.QUERY && nulledAParent(result)) {
        (args.contextValue as { call?: { budget?: ResponseBudget } }).call?.budget?.rewind();
        return fallback(args);
      }
      onExecution('compiled');
      if (!result.errors) return releasedOnceWritten(result);
      // Errors of a list's items share their field nodes: one walk for each field.
      const walked = new Map<string, FieldNode[]>();
      const nodesAt = (path: ReadonlyArray<string | number>) => {
        const key = path.filter((segment) => typeof segment === 'string').join('.');
        let nodes = walked.get(key);
        if (!nodes) walked.set(key, (nodes = fieldNodesAt(path, prepared.operation, prepared.fragments, variables)));
        return nodes;
      };
      // In graphql-js's key order (errors before data): the answer is the same text either way.
      const { errors, ...rest } = result;
      return releasedOnceWritten({ errors: errors.map((error) => withNodes(error, nodesAt)), ...rest });
    };
    return 'then' in result ? result.then(finish) : finish(result);
  }

  return {
    execute,
    // eslint-disable-next-line no-restricted-syntax -- made once per process
    get bytes() {
      return cache.bytes;
    },
  };
}

/**
 * `result`, with the `stringify` yoga writes a result with when it has one (as it takes graphql-jit's
 * own serialiser): the text, after which the result's fields are let go. graphql-jit makes `data`
 * as execution starts, so after the upstream wait it is in the old generation, and a scavenge keeps
 * whatever an old object points at, dead or not: every executed answer's result objects were
 * promoted. Let go, they die young (W8: 3-9% less CPU, docs/notes/2026-11-27-literal-getters.md).
 * Nothing reads a result once yoga has its text; not enumerable, so nothing else sees it.
 */
function releasedOnceWritten<T extends ExecutionResult>(result: T): T {
  return Object.defineProperty(result, 'stringify', { value: writeThenRelease });
}

function writeThenRelease(result: ExecutionResult): string {
  const text = JSON.stringify(result);
  const data = result.data as Record<string, unknown> | null | undefined;
  if (data) for (const field of Object.keys(data)) data[field] = undefined;
  return text;
}

/** The document's literals hoisted, with its own operation and fragments; undefined for what never runs compiled. */
function prepare(args: ExecutionArgs): Prepared | undefined {
  const operation = operationOf(args.document, args.operationName);
  if (!operation || operation.operation === 'subscription' || staysOnGraphqlJs(args.document)) return undefined;
  if (!defaultsCoerceAlike(args.schema, operation)) return undefined;
  const hoisted = hoistLiterals(args.schema, args.document, args.operationName);
  if (!hoisted) return undefined;
  return {
    hoisted,
    operation,
    fragments: fragmentsOf(args.document),
    plan: `p${hoisted.shape}`,
    hoistedAny: Object.keys(hoisted.values).length > 0,
  };
}

function compile(schema: GraphQLSchema, document: DocumentNode): Compiled | undefined {
  const operation = operationOf(document, undefined);
  if (!operation) return undefined;
  const fields = expandedFields(operation, fragmentsOf(document));
  if (fields > MAX_COMPILED_FIELDS) return undefined;
  let query: CompiledQuery | ExecutionResult;
  try {
    query = compileQuery(schema, document, undefined, { disablingCapturingStackErrors: true });
  } catch {
    return undefined;
  }
  if (!isCompiledQuery(query)) return undefined;
  return { query, fields };
}

/**
 * Whether the document carries @skip or @include (see the header), or selects `__schema` or
 * `__type`: introspection runs on graphql-js too. Clients ask it rarely, and its nesting is what
 * compiling grows with (a 660-deep `ofType` chain compiled for 0.6 s). Or whether it names
 * anything `__proto__` (an alias, a variable): graphql-jit writes names as keys of object
 * literals, where that one sets the prototype, and the field or the variable's value is lost.
 * One walk for all.
 */
function staysOnGraphqlJs(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Name(node) {
      if (node.value !== '__proto__') return undefined;
      found = true;
      return BREAK;
    },
    Directive(node) {
      if (node.name.value !== 'skip' && node.name.value !== 'include') return undefined;
      found = true;
      return BREAK;
    },
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/** The fields of the operation with every fragment spread expanded: linear, each fragment counted once. */
function expandedFields(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): number {
  const counted = new Map<string, number>();
  const count = (set: SelectionSetNode): number => {
    let fields = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields += 1 + (selection.selectionSet ? count(selection.selectionSet) : 0);
      else if (selection.kind === Kind.INLINE_FRAGMENT) fields += count(selection.selectionSet);
      else {
        const name = selection.name.value;
        if (!counted.has(name)) {
          counted.set(name, 0); // a cycle (never in a validated document) counts nothing
          const fragment = fragments.get(name);
          counted.set(name, fragment ? count(fragment.selectionSet) : 0);
        }
        fields += counted.get(name) ?? 0;
      }
    }
    return fields;
  };
  return count(operation.selectionSet);
}

/**
 * The variables the plan runs with: the hoisted literals win over any client variable of the same
 * name (the document has none). An operation that declares no variable of its own needs none of
 * the client's: the hoisted values go as they are, with no object made per request.
 */
function withHoisted(prepared: Prepared, variables: Record<string, unknown>): Record<string, unknown> {
  if (!prepared.hoistedAny) return variables;
  if (!prepared.operation.variableDefinitions?.length) return prepared.hoisted.values;
  return { ...variables, ...prepared.hoisted.values };
}

/** graphql-jit's message for an argument's value it refused (execution.js, compileArguments). */
const ARGUMENT_ERROR = /^Argument "([_A-Za-z][_0-9A-Za-z]*)" of (?:non-null|required) type /;

/** Whether an error's field has a null parent: the error went up past its own field. */
function nulledAParent({ data, errors }: ExecutionResult): boolean {
  return (errors ?? []).some(({ path }) => {
    let parent: unknown = data;
    for (let i = 0; i < (path?.length ?? 0) - 1; i++) {
      if (parent === null || typeof parent !== 'object') return true;
      parent = (parent as Record<string | number, unknown>)[path![i]!];
    }
    return parent === null || parent === undefined;
  });
}

/**
 * Whether each variable default means the same as JSON (what `withDefaults` gives graphql-jit) as
 * it does to graphql-js, which reads it through the type: `775700.0` where a BlockId goes is a
 * Float literal to the scalar and an Int as JSON. A document with another stays on graphql-js.
 */
function defaultsCoerceAlike(schema: GraphQLSchema, operation: OperationDefinitionNode): boolean {
  return (operation.variableDefinitions ?? []).every((definition) => {
    if (!definition.defaultValue) return true;
    const type = typeFromAST(schema, definition.type);
    return (
      type !== undefined && isInputType(type) && coercesAlike(definition.defaultValue, valueFromASTUntyped(definition.defaultValue), type)
    );
  });
}

/**
 * The client's variables, with each omitted one that has a default set to it (as its JSON value).
 * The copy is a spread: `Object.assign` would make a client's `__proto__` key the copy's
 * prototype, and graphql-jit would read variables through it.
 */
function withDefaults(operation: OperationDefinitionNode, variables: Record<string, unknown>): Record<string, unknown> {
  let filled: Record<string, unknown> | undefined;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!definition.defaultValue || Object.prototype.hasOwnProperty.call(variables, name)) continue;
    filled ??= { ...variables };
    filled[name] = valueFromASTUntyped(definition.defaultValue);
  }
  return filled ?? variables;
}

/**
 * graphql-jit's error as graphql-js would have built it: the same message, path and cause, with its
 * field nodes, or, for an argument the field could not take (a null variable for a non-null
 * argument), that argument's value: the client's input, which maskError answers as BAD_USER_INPUT.
 */
function withNodes(error: GraphQLError, nodesAt: (path: ReadonlyArray<string | number>) => FieldNode[]): GraphQLError {
  if (error.nodes || !error.path) return error;
  const fields = nodesAt(error.path);
  const argument = ARGUMENT_ERROR.exec(error.message)?.[1];
  const values =
    argument === undefined ? [] : fields.flatMap((field) => field.arguments?.find((a) => a.name.value === argument)?.value ?? []);
  const nodes = values.length > 0 ? values : fields;
  return new GraphQLError(error.message, {
    nodes: nodes.length > 0 ? nodes : undefined,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

/**
 * The field nodes a response path leads to, as graphql-js collects them: at each response key,
 * every field with that alias or name in the selection sets reached so far (fragments expanded
 * once per level, skipped selections left out); list indices stay at the same fields. The schema
 * has no interfaces or unions, so every type condition a valid document names applies.
 */
export function fieldNodesAt(
  path: ReadonlyArray<string | number>,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): FieldNode[] {
  let sets: SelectionSetNode[] = [operation.selectionSet];
  let nodes: FieldNode[] = [];
  for (const key of path) {
    if (typeof key === 'number') continue;
    nodes = [];
    const visited = new Set<string>();
    const collect = (set: SelectionSetNode) => {
      for (const selection of set.selections) {
        if (!included(selection, variables)) continue;
        if (selection.kind === Kind.FIELD) {
          if ((selection.alias ?? selection.name).value === key) nodes.push(selection);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          collect(selection.selectionSet);
        } else if (!visited.has(selection.name.value)) {
          visited.add(selection.name.value);
          const fragment = fragments.get(selection.name.value);
          if (fragment) collect(fragment.selectionSet);
        }
      }
    };
    for (const set of sets) collect(set);
    sets = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  }
  return nodes;
}

/** @skip and @include, with literal or variable conditions (a validated document has no others). */
function included(selection: SelectionSetNode['selections'][number], variables: Record<string, unknown>): boolean {
  for (const directive of selection.directives ?? []) {
    const name = directive.name.value;
    if (name !== 'skip' && name !== 'include') continue;
    const condition = directive.arguments?.find((argument) => argument.name.value === 'if')?.value;
    if (!condition) continue;
    const value =
      condition.kind === Kind.VARIABLE ? variables[condition.name.value] : condition.kind === Kind.BOOLEAN ? condition.value : undefined;
    if (name === 'skip' && value === true) return false;
    if (name === 'include' && value !== true) return false;
  }
  return true;
}
