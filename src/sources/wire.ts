import type { UpstreamResponse } from '../upstream/request.js';
import type { SourceName } from './provenance.js';

/**
 * A source's answer as hiro's REST route would send it (the same JSON shape, `null` where the source
 * lacks a field, hiro's not-found body), named by `x-data-source`. No ETag: a source's data has no
 * validator satgate could answer If-None-Match with honestly.
 */
export function hiroAnswer(value: unknown, source: SourceName): UpstreamResponse {
  const parsed = value === null ? { error: 'Not found' } : value;
  return {
    status: value === null ? 404 : 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-data-source': source },
    body: Buffer.from(JSON.stringify(parsed)),
    parsed,
  };
}
