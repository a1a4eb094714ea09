import { hash } from 'node:crypto';

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
