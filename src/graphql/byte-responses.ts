/**
 * yoga's `Response`, with a text body given a content type kept as its UTF-8 bytes instead.
 *
 * yoga serialises a result to one string and hands it to `new Response(text)`. That Response is
 * what yoga's promise chain for the request resolves with, and those promises were made when the
 * request arrived: after a hundred milliseconds of waiting for the upstream (50 requests in flight)
 * they are in the old generation. A scavenge keeps whatever an old object points at, dead or not,
 * so every executed answer's text was copied and then promoted with them (85 KB for a page of rune
 * names, a two-byte string). As bytes outside the JS heap it costs the collector nothing: a
 * 60-etching page that misses every cache took a quarter less CPU
 * (docs/notes/2026-11-27-executions-after-io.md). The bytes are what would be written anyway.
 *
 * Only a body whose content type is given: a string without one would be `text/plain`, a Buffer
 * nothing.
 */
// @whatwg-node/server re-exports the Response yoga uses by default (@whatwg-node/fetch's).
import { Response } from '@whatwg-node/server';
import { utf8Bytes } from '../lib/utf8-bytes.js';

export class ByteResponse extends Response {
  constructor(body?: BodyInit | null, init?: ResponseInit) {
    super(typeof body === 'string' && typed(init?.headers) ? utf8Bytes(body) : body, init);
  }
}

function typed(headers: HeadersInit | undefined): boolean {
  if (headers === undefined) return false;
  if (Array.isArray(headers)) return headers.some(([name]) => name?.toLowerCase() === 'content-type');
  if (typeof (headers as Headers).has === 'function') return (headers as Headers).has('content-type');
  return Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
}
