/**
 * A request body's media type, read the same way by every path that decides on it: yoga's request
 * parsers (through yoga-request.ts), the response fast path (server/response-cache.ts) and the 415
 * answer (graphql/plugins/unsupported-media-type.ts). yoga compares the type as sent, so
 * `Application/JSON` got an empty 415 where RFC 9110 8.3.1 makes it `application/json`.
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
