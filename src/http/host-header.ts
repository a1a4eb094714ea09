/**
 * The Host header a request must carry to be served (RFC 9112 3.2: a server answers 400 to a
 * request with more than one Host line or one that is not a valid authority). Nothing keyed reads
 * Host (yoga gets a fixed origin, yoga-request.ts); one that is no authority (`x/graphql?query=…`,
 * `x#`, `a b`, `x@y`, empty, `x:99999`) marks a client to refuse, not one to serve.
 */
import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/** host [":" port] (RFC 9112 3.2, RFC 3986 3.2.2): a name or IPv4 address, or an IPv6 literal in brackets. */
const AUTHORITY = /^(?:[a-z0-9._~-]+|\[([0-9a-f:.]+)\])(?::(\d{1,5}))?$/i;

/**
 * Whether the request's Host is one a server may serve (RFC 9112 3.2: otherwise 400): exactly one
 * Host line holding a valid authority, letters, digits and `-._~` for a name, a port up to 65535.
 * No Host at all passes: node's parser answers 400 to an HTTP/1.1 request without one, and
 * HTTP/1.0 does not require it (nothing here reads it).
 */
export function hasValidHost(req: IncomingMessage): boolean {
  let lines = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') lines++;
  }
  if (lines === 0) return true;
  if (lines > 1) return false;
  const host = req.headers.host ?? '';
  // Nearly every request names the Host the one before it did: compared, not parsed again.
  if (host === lastValid) return true;
  if (!isAuthority(host)) return false;
  lastValid = host;
  return true;
}

/** The last Host value found valid (one string: nothing a client sends can grow it). */
let lastValid: string | undefined;

function isAuthority(host: string): boolean {
  const match = AUTHORITY.exec(host);
  if (!match) return false;
  const [, ipv6, port] = match;
  return (ipv6 === undefined || isIPv6(ipv6)) && (port === undefined || Number(port) <= 65535);
}
