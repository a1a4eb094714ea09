import { hash } from 'node:crypto';

/**
 * What a cacheable GraphQL GET's answer depends on besides its URL: one URL answers each JSON type,
 * SSE, multipart or GraphiQL by Accept (CORS adds Origin where it applies).
 */
export const GET_ANSWER_VARY = 'Accept';

/** A strong ETag made from an answer's bytes: for answers no upstream gave a validator for. */
export function etagOf(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * Whether If-None-Match names `etag` (an ETag header), as the upstream decides it: hirosystems/
 * api-toolkit's parseIfNoneMatchHeader (src/fastify/cache.ts), step for step. One pair of wrapping
 * quotes or a `W/"` prefix (in any case) is stripped from the whole value, a value holding a comma
 * is split on commas with those around them, and `*` has no special meaning. So `w/"a"` matches
 * `"a"` while `W/a` and `""a""` do not, as upstream.
 */
export function etagMatches(ifNoneMatch: string | null, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  const normalized = /^(?:"|W\/")?(.*?)"?$/i.exec(ifNoneMatch.trim())?.[1];
  if (!normalized) return false;
  const wanted = /^(?:W\/)?"(.*)"$/.exec(etag)?.[1] ?? etag;
  return normalized.includes(',') ? normalized.split(/(?:W\/"|")?(?:\s*),(?:\s*)(?:W\/"|")?/i).includes(wanted) : normalized === wanted;
}

/**
 * Whether If-None-Match names a GraphQL GET's answer. `/graphql` mirrors no upstream, so `*` means
 * what RFC 9110 §13.1.2 says: any current representation, here any answer that has an ETag.
 */
export function graphqlEtagMatches(ifNoneMatch: string | null, etag: string | undefined): boolean {
  if (etag !== undefined && ifNoneMatch?.trim() === '*') return true;
  return etagMatches(ifNoneMatch, etag);
}
