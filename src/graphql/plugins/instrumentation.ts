/**
 * Instrumentation: GraphQL metrics and spans, and `extensions.stale` on answers that used stale data.
 */
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../context.js';
import type { Metrics } from '../../observe/metrics.js';
import type { IncrementalPayload } from '../incremental-delivery.js';

/** Operation counts and durations, and errors by code (validation errors included). */
export function useGraphQLMetrics(metrics: Metrics): Plugin {
  return {
    onExecute({ args }) {
      const started = performance.now();
      const ast = getOperationAST(args.document, args.operationName);
      const operation = ast?.operation ?? 'unknown';
      if (ast?.name) (args.contextValue as Partial<GraphQLContext>).call?.stats?.noteOperation(ast.name.value);
      return {
        onExecuteDone({ result }) {
          metrics.graphqlOperation(operation, (performance.now() - started) / 1000);
          // An answer in parts (@defer, @stream): each part's errors, those of its items included.
          if (Symbol.asyncIterator in result) return { onNext: ({ result: part }) => metrics.graphqlErrors(errorCodes(part)) };
          return undefined;
        },
      };
    },
    onResultProcess({ result }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result) return;
      metrics.graphqlErrors(errorCodes(result));
    },
  };
}

function errorCodes(result: IncrementalPayload): string[] {
  const errors = [...(result.errors ?? []), ...(result.incremental ?? []).flatMap((item) => item.errors ?? [])];
  return errors.map((e) => String(e.extensions?.code ?? 'UNKNOWN'));
}

/**
 * A span per GraphQL operation (`query Overview`), a child of the request's: its type and name,
 * never the document or the variables (keys travel in both). It becomes `call.trace`, so the
 * operation's loader batches and upstream calls are its children. Only installed with tracing on.
 */
export function useGraphQLTracing(): Plugin {
  return {
    onExecute({ args }) {
      const call = (args.contextValue as Partial<GraphQLContext>).call;
      const parent = call?.stats?.trace;
      if (!call || !parent) return;
      const ast = getOperationAST(args.document, args.operationName);
      const type = ast?.operation ?? 'unknown';
      const name = ast?.name?.value;
      const span = parent.child(name ? `${type} ${name}` : type, { 'graphql.operation.type': type });
      span.set('graphql.operation.name', name);
      call.trace = span;
      return {
        onExecuteDone({ result }) {
          const errors = Symbol.asyncIterator in result ? undefined : result.errors;
          // Error codes are the contract's constants; messages are not recorded.
          if (errors?.length)
            span
              .set('satgate.graphql.error_codes', [...new Set(errors.map((e) => String(e.extensions?.code ?? 'UNKNOWN')))])
              .fail('graphql');
          span.end();
        },
      };
    },
  };
}

/** Marks an answer that used stale upstream data: `extensions.stale = { ageSeconds }`. */
export function useStaleMarker(): Plugin {
  return {
    onExecutionResult({ result, setResult, context }) {
      const ageSeconds = (context as Partial<GraphQLContext>).stale?.ageSeconds;
      if (ageSeconds === undefined || !result || Symbol.asyncIterator in result) return;
      setResult({ ...result, extensions: { ...result.extensions, stale: { ageSeconds } } });
    },
  };
}
