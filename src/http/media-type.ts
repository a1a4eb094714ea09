/**
 * A request body's media type, read the same way by every path that decides on it: yoga's request
 * parsers (through yoga-request.ts), the response fast path (server/response-cache.ts) and the 415
 * answer (graphql/plugins/unsupported-media-type.ts). yoga compares the type as sent, so
 * `Application/JSON` got an empty 415 where RFC 9110 8.3.1 makes it `application/json`. And the
 * Accept header as yoga should read it: by quality (rankedAccept), and when it chooses GraphiQL
 * (acceptWithoutUnwantedHtml).
 */

/**
 * The first media type of a Content-Type value (yoga reads only the first of a list), its type and
 * subtype lowercased; its parameters as sent.
 */
export function normalisedContentType(value: string): string {
  const comma = value.indexOf(',');
  const first = comma === -1 ? value : value.slice(0, comma);
  const semicolon = first.indexOf(';');
  if (semicolon === -1) return first.trim().toLowerCase();
  return first.slice(0, semicolon).trim().toLowerCase() + first.slice(semicolon);
}

/** The bare media type (`application/json`), lowercased. */
function essence(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * Whether the body is text satgate can read: no charset named, or UTF-8 (WHATWG Encoding's labels
 * `utf-8`, `utf8` and `unicode-1-1-utf-8`, quoted or not, any case). yoga decodes every body as
 * UTF-8, so one sent as UTF-16 would be read as something its client never wrote.
 */
export function hasUtf8Charset(contentType: string): boolean {
  const charset = /;\s*charset\s*=\s*("?)([^";,\s]*)\1/i.exec(contentType)?.[2];
  return charset === undefined || UTF8_LABELS.has(charset.toLowerCase());
}

const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);

/** A JSON body in UTF-8, the only kind the response fast path reads (the common spelling first). */
export function isUtf8Json(contentType: string): boolean {
  if (contentType === 'application/json') return true;
  const type = normalisedContentType(contentType);
  return essence(type) === 'application/json' && hasUtf8Charset(type);
}

/** The media types of a GraphQL result. */
const RESULT_TYPES = new Set(['application/json', 'application/graphql-response+json']);

/**
 * A GET's Accept without its `text/html` entries when the client does not prefer HTML to a result's
 * JSON: yoga serves GraphiQL to any Accept that holds `text/html`, whatever its quality, so
 * `application/json, text/html;q=0.5` (or `text/html;q=0`) got the page instead of the result.
 * Unchanged when HTML is preferred or ties (a browser's navigation), or when no JSON type is named.
 */
export function acceptWithoutUnwantedHtml(accept: string): string {
  if (!accept.includes('text/html')) return accept;
  const entries = accept.split(',').map((entry) => ({ entry, type: essence(entry), q: quality(entry) }));
  let html = -1;
  let json = -1;
  for (const { type, q } of entries) {
    if (type === 'text/html') html = Math.max(html, q);
    else if (RESULT_TYPES.has(type)) json = Math.max(json, q);
  }
  if (html > 0 && html >= json) return accept;
  return entries
    .filter(({ type }) => type !== 'text/html')
    .map(({ entry }) => entry.trim())
    .join(', ');
}

/**
 * Whether an Accept takes `application/graphql-response+json` (at a quality above 0): an error
 * answered before yoga is then written in it, as yoga writes its own. Apollo Client 4 reads the
 * errors of a non-2xx answer only in that type; in `application/json` it reports a bare status.
 */
export function acceptsGraphqlResponse(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((entry) => essence(entry) === 'application/graphql-response+json' && quality(entry) > 0);
}

/**
 * An Accept's entries by quality, highest first (ties in the client's order), without those of
 * quality 0, which RFC 9110 12.5.1 makes "not acceptable". yoga takes the first type it serves in
 * the order written, so `application/json;q=0, application/graphql-response+json` got the refused
 * JSON, and `*\/*;q=0.1, application/graphql-response+json` plain JSON. Unchanged when no entry
 * has parameters, or when every entry has quality 0 (yoga answers that as before).
 */
export function rankedAccept(accept: string): string {
  if (!accept.includes(';')) return accept;
  const entries = accept
    .split(',')
    .map((entry, index) => ({ entry: entry.trim(), q: quality(entry), index }))
    .filter(({ q }) => q > 0);
  if (entries.length === 0) return accept;
  entries.sort((a, b) => b.q - a.q || a.index - b.index);
  return entries.map(({ entry }) => entry).join(', ');
}

/** An Accept entry's `q` (RFC 9110 12.4.2), 1 when absent or unreadable. */
function quality(entry: string): number {
  const q = /;\s*q\s*=\s*([\d.]+)/i.exec(entry)?.[1];
  const value = q === undefined ? 1 : Number(q);
  return Number.isFinite(value) ? value : 1;
}
