import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

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
