import type { Plugin } from 'graphql-yoga';
import { isCacheableOperation } from './http-caching.js';

/** What the plugin below learns of one executed request, read by the fast path when yoga is done. */
export interface ResultCandidate {
  /** A query whose root fields are all public. */
  cacheable: boolean;
  /** One result, without errors or stale data. */
  clean: boolean;
}

/** Marks the executed request's candidate (installed in yoga.ts, read by server/response-cache.ts; inert without a candidate). */
export function useResultCandidates(): Plugin {
  return {
    onExecute({ args }) {
      const candidate = (args.contextValue as { candidate?: ResultCandidate }).candidate;
      if (candidate) candidate.cacheable = isCacheableOperation(args.document, args.operationName);
    },
    onResultProcess({ result, serverContext }) {
      const candidate = (serverContext as { candidate?: ResultCandidate }).candidate;
      if (!candidate) return;
      candidate.clean = !Array.isArray(result) && !(Symbol.asyncIterator in result) && !result.errors?.length && !result.extensions?.stale;
    },
  };
}
