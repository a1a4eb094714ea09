import { DEFAULT_ERROR_MESSAGE, handleStreamOrSingleExecutionResult } from '@envelop/core';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { mapPayloadErrors, type IncrementalPayload } from '../incremental-delivery.js';

/**
 * yoga's error masking for the errors of deferred fragments and streamed items: yoga (envelop's
 * useMaskedErrors) masks `result.errors` of each payload, never `incremental[i].errors`, where an
 * upstream failure inside @defer would otherwise reach the client as thrown, internals and all.
 */
export function useIncrementalErrorMasking(maskError: (error: unknown, message: string) => Error): Plugin {
  const maskItems = (results: ExecutionResult[]) =>
    results.map((result, i) =>
      i > 0 && result.errors?.length
        ? { ...result, errors: result.errors.map((error) => maskError(error, DEFAULT_ERROR_MESSAGE)) }
        : result,
    ) as ExecutionResult[];
  return {
    onExecute() {
      return {
        onExecuteDone(payload) {
          return handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
            const incremental = result as IncrementalPayload;
            if (incremental.incremental) setResult(mapPayloadErrors(incremental, maskItems));
          });
        },
      };
    },
  };
}
