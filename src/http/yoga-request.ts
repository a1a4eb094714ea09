/**
 * How a node:http request reaches yoga: as a fetch Request at a fixed origin.
 *
 * yoga reads a GET's parameters from its Request's URL text after the first `?`. Built from
 * `http://${Host}${target}` (as @whatwg-node/server builds it), a Host of
 * `x/graphql?query=<other document>&z=` put another document there than the one the response fast
 * path keyed from the target (response-cache.ts), and its result was stored under the victim's key.
 * At a fixed origin yoga parses exactly the target's text; nothing keyed reads Host. Its
 * Content-Type is the one media-type.ts reads, so yoga parses the body the fast path keyed.
 */
import type { IncomingMessage } from 'node:http';
import { acceptWithoutUnwantedHtml, normalisedContentType, rankedAccept } from './media-type.js';
import { headerValue } from './node-response.js';

/** The origin of every Request yoga gets. */
const ORIGIN = 'http://localhost';

/**
 * The Request yoga would make of `req`, at ORIGIN: with its body already read (`body`), or with
 * the node request streamed as its body. Without a signal of its own: the client's leaving is
 * told by the request deadline's cancellation (graphql/plugins/request-deadline.ts), on node:http
 * from the response.
 */
export function yogaRequest(req: IncomingMessage, fetchAPI: { Request: typeof Request }, body?: Buffer): Request {
  const headers: [string, string][] = [];
  let acceptSeen = false;
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (isAccept(name)) {
      // Several Accept lines are ranked as the one value node joins them into, the value the fast
      // path keys on: ranked line by line, `a;q=0.5` and `b` on two lines read as one line `a;q=0.5, b`
      // does not, and both requests shared one stored answer.
      if (!acceptSeen) headers.push([name, asYogaReads(name, headerValue(req.headers.accept) ?? '', req.method)]);
      acceptSeen = true;
      continue;
    }
    headers.push([name, asYogaReads(name, req.rawHeaders[i + 1]!, req.method)]);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (body) init.body = body as unknown as BodyInit;
  else if (method !== 'GET' && method !== 'HEAD') {
    init.body = req as unknown as BodyInit;
    init.duplex = 'half';
  }
  return new fetchAPI.Request(`${ORIGIN}${req.url ?? '/'}`, init);
}

function isAccept(name: string): boolean {
  return name.length === 6 && name.toLowerCase() === 'accept';
}

/**
 * The value yoga gets: a Content-Type with its media type lowercased (yoga's parsers match it as
 * sent; RFC 9110 makes its case meaningless), and an Accept ranked by quality (yoga reads it in
 * the order written), a GET's without the HTML it ranks below JSON (yoga would serve GraphiQL for
 * it). Both are functions of the header alone: the fast path keys on the header as sent.
 */
function asYogaReads(name: string, value: string, method: string | undefined): string {
  if (name.length === 12 && name.toLowerCase() === 'content-type') return normalisedContentType(value);
  if (!isAccept(name)) return value;
  const ranked = rankedAccept(value);
  return method === 'GET' ? acceptWithoutUnwantedHtml(ranked) : ranked;
}
