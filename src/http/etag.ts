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
