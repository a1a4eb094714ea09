/**
 * Hostile-query defences: limits on tokens, depth, aliases, directives, upstream cost and the
 * fields a result may hold, checked before any resolver runs, and a request body cap.
 *
 * Everything here is linear in the request: the document is measured in one walk (measure.ts);
 * graphql-js's own validation runs only on documents within the limits.
 */
import {
  GraphQLError,
  Kind,
  Lexer,
  NoFragmentCyclesRule,
  parse,
  Source,
  specifiedRules,
  type Token,
  TokenKind,
  validate,
  valueFromASTUntyped,
  type DocumentNode,
  type OperationDefinitionNode,
  type ValidationRule,
  OverlappingFieldsCanBeMergedRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { rootPolicies } from '../schema/index.js';
import { UPSTREAM_CALL_COST } from '../schema/field-policy.js';
import { measureDocument, type DocumentMeasure } from './measure.js';
import { createValidatedShapes } from './validated-shapes.js';
import { mergeRules } from './merged-rules.js';

export interface QueryLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  /** See measureDocument(). */
  maxCost: number;
  /** See DocumentMeasure.comparisons. */
  maxComparisons: number;
  /** See DocumentMeasure.operations' `answered`. */
  maxResultFields: number;
  maxBodyBytes: number;
  /** The bound on the validated shapes kept (validated-shapes.ts). */
  validatedShapesBytes: number;
}

/**
 * Introspection is exempt from MAX_QUERY_DEPTH and its lists are the schema's, which the result's
 * field count does not see: an operation may ask `__schema`/`__type` this often (aliases and
 * spreads counted; 30 aliased `__schema` answered 2 MB), and nest, introspection included, this
 * deep (graphql-js's introspection rule does not count `ofType`: a chain 660 deep took 0.6 s to
 * compile). getIntrospectionQuery() asks one `__schema`, 15 deep.
 */
const MAX_INTROSPECTIONS = 3;
const MAX_FULL_DEPTH = 20;

function tooComplex(message: string, limit: number, actual: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', limit, actual } });
}

/** The errors of a document over the limits (none when it is within them). */
function refusals(measure: DocumentMeasure, limits: QueryLimits): GraphQLError[] {
  const errors: GraphQLError[] = [];
  for (const { depth } of measure.operations) {
    if (depth > limits.maxDepth) {
      errors.push(tooComplex(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}`, limits.maxDepth, depth));
    }
  }
  for (const { depth, fullDepth, introspections } of measure.operations) {
    if (introspections > MAX_INTROSPECTIONS) {
      errors.push(
        tooComplex(
          `${introspections} introspection fields (__schema, __type) exceed the limit of ${MAX_INTROSPECTIONS}`,
          MAX_INTROSPECTIONS,
          introspections,
        ),
      );
    }
    // Said once: a document too deep without its introspection has its error above.
    if (fullDepth > Math.max(MAX_FULL_DEPTH, limits.maxDepth) && depth <= limits.maxDepth) {
      errors.push(
        tooComplex(`Query depth ${fullDepth}, introspection included, exceeds the limit of ${MAX_FULL_DEPTH}`, MAX_FULL_DEPTH, fullDepth),
      );
    }
  }
  // What an operation may answer and ask upstream is judged here only when it is known now: the
  // document's one operation, priced by no variable. Else as the operation that runs starts
  // (judgedAsItRuns, useQueryLimits' onExecute).
  const known = judgedAsItRuns(measure) ? [] : measure.operations;
  const answered = answeredRefusal(known, limits);
  if (answered) errors.push(answered);
  const { aliases, directives } = measure;
  if (aliases > limits.maxAliases) {
    errors.push(tooComplex(`${aliases} aliases exceed the limit of ${limits.maxAliases}`, limits.maxAliases, aliases));
  }
  if (directives > limits.maxDirectives) {
    errors.push(tooComplex(`${directives} directives exceed the limit of ${limits.maxDirectives}`, limits.maxDirectives, directives));
  }
  const cost = costRefusal(known, limits);
  if (cost) errors.push(cost);
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

/**
 * Whether a document's demand (result fields, cost) is judged as its operation starts: it has
 * several operations, of which one runs, or a variable prices one.
 */
function judgedAsItRuns(measure: DocumentMeasure): boolean {
  return measure.operations.length > 1 || measure.operations.some((operation) => operation.variablePriced);
}

/**
 * What the operations may answer (result fields) and ask of the upstreams (cost), as far as
 * known: undefined within the limits. Only one operation of a document runs, so each is held to
 * them alone.
 */
function answeredRefusal(operations: DocumentMeasure['operations'], limits: QueryLimits): GraphQLError | undefined {
  const answered = Math.max(0, ...operations.map((operation) => operation.answered));
  if (answered <= limits.maxResultFields) return undefined;
  return tooComplex(
    `The result may hold ${answered} fields, over the limit of ${limits.maxResultFields} (each list's items times the fields written below it, aliases and every spread of a fragment counted)`,
    limits.maxResultFields,
    answered,
  );
}

function costRefusal(operations: DocumentMeasure['operations'], limits: QueryLimits): GraphQLError | undefined {
  const cost = Math.max(0, ...operations.map((operation) => operation.cost));
  if (cost <= limits.maxCost) return undefined;
  return tooComplex(
    `Query cost ${cost} exceeds the limit of ${limits.maxCost} (${UPSTREAM_CALL_COST} per upstream call, 1 per page item)`,
    limits.maxCost,
    cost,
  );
}

/**
 * The operation that runs (`operationName`, or a document's only one) with the request's variables
 * and its own defaults, measured; undefined when none is named (graphql-js refuses the request).
 */
function executedDemand(args: {
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Readonly<Record<string, unknown>> | null;
}) {
  const definitions = args.document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = args.operationName
    ? definitions.find((d) => d.name?.value === args.operationName)
    : definitions.length === 1
      ? definitions[0]
      : undefined;
  if (!operation) return undefined;
  const given = args.variableValues ?? {};
  const variables: Record<string, unknown> = { ...given };
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!Object.hasOwn(given, name) && definition.defaultValue) variables[name] = valueFromASTUntyped(definition.defaultValue);
  }
  const measure = measureDocument(args.document, rootPolicies, variables);
  return measure.operations[definitions.indexOf(operation)];
}

/**
 * A limit's error found as the operation executes, answered as one found in validation: yoga's
 * `http` extension (not sent) makes it a 400 where the client takes
 * application/graphql-response+json, and leaves application/json's 200.
 */
function asRefusedDocument(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { spec: true, status: 400 } } });
}

/**
 * Tokens as graphql-js counts them (comments excluded), to the end or to the first lexical error.
 * Each token is cut from the one before: graphql-js links them both ways, so a refused document of
 * 21,000 tokens kept 1.5 MB of them alive until its count ended, for a scavenge to copy.
 */
function countTokens(source: string | Source): number {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let count = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      // Typed read-only, but a plain field that graphql-js itself assigns as it lexes.
      (token as { prev: Token | null }).prev = null;
      count++;
    }
  } catch {
    // A lexical error ends the count: the document is refused either way.
  }
  return count;
}

/**
 * The rules without graphql-js's OverlappingFieldsCanBeMergedRule when another rule of that name
 * replaces it. yoga's @defer/@stream plugin adds its own, defer-aware one and means to drop
 * graphql-js's, but its filter never reaches the rules that run: both ran, so each conflict was
 * reported twice and the quadratic comparison made twice over. Only that rule, by identity: a rule
 * of ours is never dropped for sharing a name.
 */
function withoutReplacedOverlapRule(rules: readonly ValidationRule[]): readonly ValidationRule[] {
  const replaced = rules.some((rule) => rule !== OverlappingFieldsCanBeMergedRule && rule.name === OverlappingFieldsCanBeMergedRule.name);
  return replaced ? rules.filter((rule) => rule !== OverlappingFieldsCanBeMergedRule) : rules;
}

export function useQueryLimits(limits: QueryLimits): Plugin {
  const shapes = createValidatedShapes(limits.validatedShapesBytes);
  /** Per validated document, whether it is judged as it runs (a document not seen here is measured). */
  const asItRuns = new WeakMap<DocumentNode, boolean>();
  /** The limits' errors of the operation about to run, with its variables, before any resolver. */
  const executedRefusals = (args: Parameters<typeof executedDemand>[0]) => {
    if (asItRuns.get(args.document) === false) return [];
    const demand = executedDemand(args);
    if (!demand) return [];
    return [answeredRefusal([demand], limits), costRefusal([demand], limits)].flatMap((error) => (error ? [asRefusedDocument(error)] : []));
  };
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
        const measure = measureDocument(document, rootPolicies);
        asItRuns.set(document, judgedAsItRuns(measure));
        const refused = refusals(measure, limits);
        if (refused.length > 0) return refused;
        if (measure.cyclic) return validate(schema, document, [NoFragmentCyclesRule]);
        // Run only when no document of this shape passed: the rules as one, merged per syntax kind
        // as the document meets them (merged-rules.ts).
        const once = withoutReplacedOverlapRule(rules ?? specifiedRules);
        return shapes.validate(schema, document, once, () => validateFn(schema, document, [mergeRules(once)], typeInfo, options));
      });
    },
    onExecute({ args, setResultAndStopExecution }) {
      const refused = executedRefusals(args);
      if (refused.length > 0) setResultAndStopExecution({ errors: refused });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refused = executedRefusals(args);
      if (refused.length > 0) setResultAndStopExecution({ errors: refused });
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
