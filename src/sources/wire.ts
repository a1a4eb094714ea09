import { etagOf } from '../http/etag.js';
import { utf8Bytes } from '../lib/utf8-bytes.js';
import type { UpstreamResponse } from '../upstream/request.js';
import type { SourceName } from './provenance.js';

/** What hiro's routes say of every answer, a 404 included: store it, but ask again before using it. */
const HIRO_CACHE_CONTROL = 'public, no-cache, must-revalidate';

/**
 * A source's answer as hiro's REST route would send it (the same JSON shape, `null` where the source
 * lacks a field, hiro's not-found body and Cache-Control), named by `x-data-source`. A found
 * answer's ETag is the hash of its bytes (as GraphQL GETs have): a source has no validator of its
 * own, so a client's If-None-Match saves the answer's bytes, not the calls to the source.
 */
export function hiroAnswer(value: unknown, source: SourceName): UpstreamResponse {
  const parsed = value === null ? { error: 'Not found' } : value;
  const body = utf8Bytes(JSON.stringify(parsed));
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': HIRO_CACHE_CONTROL,
    'x-data-source': source,
  };
  // A not-found has no representation to confirm: no ETag (hiro's global one is the index's).
  if (value !== null) headers.etag = etagOf(body);
  return { status: value === null ? 404 : 200, headers, body, parsed };
}
