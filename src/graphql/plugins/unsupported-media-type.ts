import type { Plugin } from 'graphql-yoga';
import { hasUtf8Charset } from '../../http/media-type.js';

/** The body a client should send instead, as the 415 says it. */
const MESSAGE = 'The request body must be JSON in UTF-8: send content-type: application/json';
const BODY = JSON.stringify({ errors: [{ message: MESSAGE, extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }] });

/**
 * A POST yoga has no parser for gets its 415 with an error in the contract's shape, where yoga's
 * has no body at all; so does one that names a charset other than UTF-8, which yoga would decode as
 * UTF-8 regardless. After the CSRF plugin: a form or text body without its header is still 403.
 */
export function useUnsupportedMediaType(): Plugin {
  return {
    onRequestParse({ request, requestParser, endResponse, fetchAPI }) {
      if (request.method !== 'POST') return;
      if (requestParser && hasUtf8Charset(request.headers.get('content-type') ?? '')) return;
      endResponse(
        new fetchAPI.Response(BODY, {
          status: 415,
          statusText: 'Unsupported Media Type',
          headers: { 'content-type': 'application/json; charset=utf-8' },
        }),
      );
    },
  };
}
