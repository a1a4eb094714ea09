/**
 * The one place where user input becomes part of an upstream URL. Every path segment that comes
 * from a user goes through `segment()`, a platform key through `keySegment()`, and the devnet
 * proxy path through `proxyPath()`.
 */

import { UnsafePathError } from '../errors.js';
import type { UpstreamRequest } from './request.js';

/** Fastify's default maxParamLength: a longer path parameter (decoded) is a route 404 upstream. */
export const MAX_PARAM_LENGTH = 100;

/** `.` and `..` are resolved by URL normalisation (in a proxy or CDN, even when encoded). */
function isDotSegment(value: string): boolean {
  return value === '.' || value === '..';
}

/**
 * A ticker no token can have: empty (hiro's `/brc-20/tokens/` matches `""` and answers 404), one
 * that reads as a path (readsAsPath), or longer than a path parameter can be. Answered null
 * without an upstream call.
 */
export function isImpossibleTicker(ticker: string): boolean {
  return ticker === '' || readsAsPath(ticker) || ticker.length > MAX_PARAM_LENGTH;
}

/**
 * A value with a dot segment between `/` or `\`, as given or once percent-decoded, up to
 * MAX_DECODE_ROUNDS times (`.`, `../../metadata/v1`, `%2e%2e`). Encoded, it is one segment; but a
 * hop before the upstream that decodes `%2F` before routing, or decodes twice, would send the API
 * key's request elsewhere on the host. Such a ticker is answered as unknown, without a call.
 */
export function readsAsPath(value: string): boolean {
  let current = value;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (current.split(/[/\\]/).some(isDotSegment)) return true;
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return false;
    }
    if (next === current) return false;
    current = next;
  }
  return true;
}

/** A lone UTF-16 surrogate has no UTF-8 form, so no percent-encoding (encodeURIComponent throws). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Refuses a string that holds a lone surrogate: it has no URL form, in a path (encodeURIComponent
 * throws) or a query (URLSearchParams silently sends U+FFFD, another value).
 */
export function wellFormed(value: string, argument: string): string {
  if (LONE_SURROGATE.test(value)) throw new UnsafePathError(`${argument} must be well-formed Unicode`, argument);
  return value;
}

/**
 * Encodes one path segment, so `/`, `?`, `#` and `%` can never change the route; a dot segment
 * has no safe encoding and is refused, and so is a lone surrogate. `argument` names the user's
 * input in the error (BAD_USER_INPUT in GraphQL, a 400 on REST).
 */
export function segment(value: string, argument = 'path'): string {
  if (isDotSegment(value)) throw new UnsafePathError(`${argument} must not be . or ..`, argument);
  return encodeURIComponent(wellFormed(value, argument));
}

/**
 * A platform API key as it may appear in `/v1/ext/<key>/`: 1 to 128 URL-unreserved characters
 * (RFC 3986: letters, digits, `.`, `_`, `~`, `-`), and not a dot segment. Hiro's keys are 32 hex
 * digits; the rule is wider on purpose (any sane token), but such a key is sent as is, needs no
 * encoding, and no proxy or normaliser on the way can read it as more than one segment.
 */
const PLATFORM_KEY = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,128}$/;
export const PLATFORM_KEY_RULE = 'must be 1 to 128 characters of A-Z, a-z, 0-9, ".", "_", "~" and "-"';
export const isPlatformKey = (key: string): boolean => PLATFORM_KEY.test(key);

/** The key as its URL segment; anything else is refused before a URL is built (and never echoed). */
export function keySegment(key: string): string {
  if (!isPlatformKey(key)) throw new UnsafePathError(`apiKey ${PLATFORM_KEY_RULE}`, 'apiKey');
  return key;
}

/** A chainhook id: 8-4-4-4-12 hexadecimal digits, any case. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UUID_RULE = 'must be a UUID (8-4-4-4-12 hexadecimal digits)';
export const isUuid = (value: string): boolean => UUID.test(value);

/** Joins literal and already-encoded segments under the service root. */
export function joinPath(...segments: string[]): string {
  return '/' + segments.join('/');
}

/** The query as sent: `?a=1&b=2`, or empty. Built from an object, never by concatenation. */
export function queryString(query: UpstreamRequest['query']): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query ? `?${query}` : '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
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
  wellFormed(input, 'path');
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
