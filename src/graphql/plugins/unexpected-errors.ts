import { mapAsyncIterator } from '@envelop/core';
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { causeOf } from '../../errors.js';
import { requestIdOf } from '../../http/request-id.js';
import { errorFields } from '../../observe/logger.js';
import { mapPayloadErrors } from '../incremental-delivery.js';

/**
 * A masked (unexpected) error names the request id, so an operator can find it in the logs, where
 * it is written once, at `error`, with what it stands for (a cancelled request is no error).
 * graphql-ws answers go through it too (graphql/websocket.ts).
 */
export function unexpectedErrorIds(logger: Logger): (result: ExecutionResult, requestId: string) => ExecutionResult {
  return (result, requestId) => {
    if (!result.errors?.some((e) => e.extensions?.unexpected)) return result;
    return {
      ...result,
      errors: result.errors.map((error) => {
        if (!error.extensions?.unexpected) return error;
        const cause = causeOf(error);
        if (!isCancellation(cause)) logger.error({ requestId, path: error.path, error: errorFields(cause ?? error) }, 'unexpected error');
        // The field's AST nodes (or source positions) keep its `locations`, as every other field error has them.
        return new GraphQLError(`Unexpected error (request ${requestId})`, {
          nodes: error.nodes,
          source: error.source,
          positions: error.positions,
          path: error.path,
          extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
        });
      }),
    };
  };
}

export function useUnexpectedErrorIds(logger: Logger): Plugin {
  const withIds = unexpectedErrorIds(logger);
  return {
    onResultProcess({ request, result, setResult }) {
      if (Symbol.asyncIterator in result) {
        // Each event of a subscription, each payload of @defer/@stream (their items' errors too).
        const requestId = requestIdOf(request);
        const each = (results: ExecutionResult[]) => results.map((one) => withIds(one, requestId));
        setResult(mapAsyncIterator(result, (payload) => mapPayloadErrors(payload, each)));
        return;
      }
      const results = Array.isArray(result) ? result : [result];
      if (!results.some((one) => one.errors?.some((e) => e.extensions?.unexpected))) return;
      const requestId = requestIdOf(request);
      setResult(Array.isArray(result) ? result.map((one) => withIds(one, requestId)) : withIds(result, requestId));
    },
  };
}

function isCancellation(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
