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
 * The upstream's If-None-Match parsing (hirosystems/api-toolkit): quotes and W/ prefixes stripped,
 * comma-separated lists accepted, `*` without special meaning.
 */
export function etagMatches(ifNoneMatch: string | null, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '').replace(/"/g, '');
  const wanted = bare(etag);
  return ifNoneMatch.split(',').some((tag) => bare(tag) === wanted);
}
