import type { Plugin } from 'graphql-yoga';
import type { CorsPolicy } from '../../http/cors.js';

/** Applies the CORS policy to every yoga answer, and answers preflights (any path) with 204. */
export function useCors(policy: CorsPolicy): Plugin {
  return {
    onRequest({ request, endResponse }) {
      // Safari waits for a body on a 204 without a content-length.
      if (request.method === 'OPTIONS') endResponse(new Response(null, { status: 204, headers: { 'content-length': '0' } }));
    },
    onResponse({ request, response }) {
      const headers = policy(request.headers.get('origin'), request.method === 'OPTIONS');
      for (const [name, value] of Object.entries(headers)) {
        if (name === 'vary') response.headers.append(name, value);
        else response.headers.set(name, value);
      }
    },
  };
}
