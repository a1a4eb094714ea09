/**
 * Whether an answer of a JSON API can be one of its answers at all, checked before anything
 * stores, mirrors or counts it: a captive portal's HTML page, a proxy's redirect, a compressed
 * body nobody asked for (satgate sends no Accept-Encoding; an error's body too), a body cut short
 * behind a correct Content-Length or a 304 to a request that named no ETag would otherwise be
 * cached, served by REST as the upstream's 200 and put in place of the good answer stale-if-error
 * keeps.
 *
 * The check is cheap on purpose (the body's first and last non-blank bytes; not the content type:
 * ord answers its index height as text/plain, and a page of markup fails it anyway): the GraphQL side
 * parses each answer once anyway and refuses what does not parse; REST mirrors bytes it never
 * parses, and a body that passes here but is still not JSON is passed on as the upstream sent it.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** What a JSON body may end with, by what it starts with (a number or literal ends in kind). */
const CLOSING: Record<number, number> = { 0x7b: 0x7d, 0x5b: 0x5d, 0x22: 0x22 };

/** RFC 9110 §15: statuses end at 599 (llhttp reads any three digits). */
const MAX_STATUS = 599;

export function isJsonApiAnswer(status: number, headers: IncomingHttpHeaders, body: Buffer, askedWithEtag: boolean): boolean {
  if (!isHttpAnswer(status, headers, body, askedWithEtag)) return false;
  // 1xx never reach here (undici reads past them); a 204 and the other 2xx without a JSON body
  // are no answer of these APIs.
  if (status === 204 || status === 205) return false;
  if (status >= 300) return true;
  return looksLikeJson(body);
}

/**
 * What no upstream's answer can be, whatever its API (the platform's node may answer anything
 * else): a status past 599; a redirect, which satgate does not follow and REST would send on without
 * its Location; a 304 to a request that named no ETag; a body under a Content-Encoding, which
 * satgate never asks for and undici does not decode (REST would send its bytes without the
 * header). A 304's Content-Encoding names no bytes.
 */
export function isHttpAnswer(status: number, headers: IncomingHttpHeaders, body: Buffer, askedWithEtag: boolean): boolean {
  if (status > MAX_STATUS) return false;
  if (status === 304) return askedWithEtag;
  if (status >= 300 && status < 400) return false;
  const encoding = headers['content-encoding'];
  return body.length === 0 || encoding === undefined || encoding === 'identity';
}

/** A JSON value's first byte, and the last one that value would end with. */
function looksLikeJson(body: Buffer): boolean {
  let start = 0;
  let end = body.length - 1;
  while (start <= end && isBlank(body[start]!)) start++;
  while (end >= start && isBlank(body[end]!)) end--;
  if (start > end) return false;
  const first = body[start]!;
  const closing = CLOSING[first];
  if (closing !== undefined) return end > start && body[end] === closing;
  // A number or true/false/null: starts and ends with what such a value does.
  return (
    (first === 0x2d || isDigit(first) || first === 0x74 || first === 0x66 || first === 0x6e) &&
    (isDigit(body[end]!) || isLetter(body[end]!))
  );
}

const isBlank = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;
const isLetter = (byte: number) => byte >= 0x61 && byte <= 0x7a;
