import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/**
 * Browsers send "simple" GETs and form POSTs without a preflight: those must carry a custom
 * header. yoga's plugin refuses them without an error code; this one names it.
 */
export function useCsrfPreventionWithCode(): Plugin {
  const csrf = useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf', 'apollo-require-preflight', 'x-apollo-operation-name'] });
  return {
    onRequestParse(payload) {
      try {
        return csrf.onRequestParse?.(payload);
      } catch (error) {
        throw createGraphQLError((error as Error).message, {
          extensions: { code: 'CSRF_HEADER_REQUIRED', http: { status: 403 } },
        });
      }
    },
  };
}
