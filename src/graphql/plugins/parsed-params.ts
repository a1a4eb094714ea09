import type { GraphQLParams, Plugin } from 'graphql-yoga';

/**
 * A POST body the response fast path parsed already, to key it (server/response-cache.ts): yoga
 * takes those parameters as they are instead of reading and parsing the body a second time. They
 * are JSON.parse's result of the same bytes yoga would parse, and only parameters yoga accepts as
 * they are (anything else is left to yoga's own parser). Inert without `params` in the context.
 */
export function useParsedParams(): Plugin {
  return {
    onRequestParse({ serverContext, setRequestParser }) {
      const params = (serverContext as { params?: GraphQLParams } | undefined)?.params;
      if (params) setRequestParser(() => params);
    },
  };
}
