import { etagOf } from '../http/etag.js';
import type { UpstreamResponse } from '../upstream/request.js';
import type { SourceName } from './provenance.js';

/**
 * A source's answer as hiro's REST route would send it (the same JSON shape, `null` where the source
 * lacks a field, hiro's not-found body), named by `x-data-source`. A found answer's ETag is the
 * hash of its bytes (as GraphQL GETs have): a source has no validator of its own, so a client's
 * If-None-Match saves the answer's bytes, not the calls to the source.
 */
export function hiroAnswer(value: unknown, source: SourceName): UpstreamResponse {
  const parsed = value === null ? { error: 'Not found' } : value;
  const body = Buffer.from(JSON.stringify(parsed));
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'x-data-source': source };
  if (value !== null) headers.etag = etagOf(body);
  return { status: value === null ? 404 : 200, headers, body, parsed };
}
