import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/** Any of these marks a request a browser could not have sent cross-site without a preflight. */
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'apollo-require-preflight', 'x-apollo-operation-name'] as const;

/**
 * Cross-site request forgery (docs/security.md): satgate holds no ambient credentials (no cookies,
 * CORS never allows credentials, platform keys travel in a header or an argument), so a forged
 * request can only do what its page could do itself. GETs pass without a custom header: yoga runs
 * only queries and subscriptions over GET (a mutation is 405), so urql's GETs and the browser's
 * EventSource work. A form or text POST, which a browser sends without a preflight and which can
 * carry a mutation, must still carry one of CSRF_HEADERS. yoga's plugin refuses without an error
 * code; this one names it. Other methods need a preflight anyway, and yoga answers them 405.
 */
export function useCsrfPreventionWithCode(): Plugin {
  const csrf = useCSRFPrevention({ requestHeaders: [...CSRF_HEADERS] });
  return {
    onRequestParse(payload) {
      // Only a POST can be a form; any other method but GET is yoga's 405 (graphql-sse's PUT too).
      if (payload.request.method !== 'POST') return;
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
