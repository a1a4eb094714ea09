/**
 * The one place where user input becomes part of an upstream URL. Every path segment that comes
 * from a user goes through `segment()`; the devnet proxy path goes through `proxyPath()`.
 */

import { UnsafePathError } from '../errors.js';

/** `.` and `..` are resolved by URL normalisation (in a proxy or CDN, even when encoded). */
export function isDotSegment(value: string): boolean {
  return value === '.' || value === '..';
}

/**
 * Encodes one path segment, so `/`, `?`, `#` and `%` can never change the route; a dot segment
 * has no safe encoding and is refused.
 */
export function segment(value: string): string {
  if (isDotSegment(value)) throw new UnsafePathError('a path segment must not be . or ..');
  return encodeURIComponent(value);
}

/** Joins literal and already-encoded segments under the service root. */
export function joinPath(...segments: string[]): string {
  return '/' + segments.join('/');
}

export interface ProxyPath {
  /** The encoded, relative path below the proxy root, e.g. `rest/chaininfo.json` (may be empty). */
  path: string;
  /** The query string without `?`, as given (see proxyQuery), or empty. */
  query: string;
}

const MAX_DECODE_ROUNDS = 4;

/**
 * Validates a user-supplied path below the devnet bitcoin-node proxy. It must stay below that root
 * however the upstream decodes it: no `..`/`.` segments in any encoding, no encoded slashes or
 * backslashes, no scheme, no `//host`, no control characters. Each segment is re-encoded; the
 * query string is kept as given.
 */
export function proxyPath(input: string): ProxyPath {
  if (input.length > 2048) throw new UnsafePathError('path is longer than 2048 characters');
  if (/[\u0000-\u001f\u007f\\#]/.test(input)) {
    throw new UnsafePathError('path must not contain backslashes, fragments or control characters');
  }
  // A lone surrogate has no UTF-8 form, so no percent-encoding either.
  if (/\p{Cs}/u.test(input)) throw new UnsafePathError('path must be valid Unicode');
  const queryStart = input.indexOf('?');
  const rawPath = queryStart === -1 ? input : input.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? '' : input.slice(queryStart + 1);
  if (/^[a-z][a-z0-9+.-]*:/i.test(rawPath)) throw new UnsafePathError('path must be relative, not a URL');
  if (rawPath.startsWith('//')) throw new UnsafePathError('path must not start with //');

  const segments = rawPath.replace(/^\//, '').split('/');
  const encoded = segments.map((raw, index) => {
    if (raw === '' && index !== segments.length - 1) {
      throw new UnsafePathError('path must not contain empty segments');
    }
    return segment(fullyDecoded(raw));
  });
  return { path: encoded.join('/'), query: proxyQuery(rawQuery) };
}

/**
 * The query string byte for byte: it cannot change the route, and its escapes, `+` and repeated
 * keys are the node's to read. Only what cannot travel in a request target at all is
 * percent-encoded, as a browser does: spaces and non-ASCII characters (as UTF-8). Control
 * characters, `#` and `\` are refused by proxyPath.
 */
function proxyQuery(raw: string): string {
  return raw.replace(/[^\x21-\x7e]+/g, (chars) => encodeURIComponent(chars));
}

/** Decodes until stable, rejecting any round that reveals a separator or a dot segment. */
function fullyDecoded(raw: string): string {
  let current = raw;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (current === '.' || current === '..') throw new UnsafePathError('path must not contain . or .. segments');
    if (round > 0 && /[/\\]/.test(current)) throw new UnsafePathError('path must not contain encoded slashes');
    if (/[\u0000-\u001f\u007f]/.test(current)) throw new UnsafePathError('path must not contain control characters');
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      throw new UnsafePathError('path has a malformed percent-encoding');
    }
    if (next === current) return round === 0 ? current : decodeURIComponent(raw);
    current = next;
  }
  throw new UnsafePathError('path is encoded too many times');
}
