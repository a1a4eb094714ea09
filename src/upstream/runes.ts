import type { CallOptions, UpstreamRequest, UpstreamService } from './http.js';
import type { PageQuery } from './ordinals.js';
import type { Page, RuneEtching } from './types.js';

/** Runes API: the etchings list. */
export function createRunesClient(service: UpstreamService) {
  return {
    service,
    etchingsRequest: (page: PageQuery): UpstreamRequest => ({
      path: '/runes/v1/etchings',
      route: '/runes/v1/etchings',
      query: { offset: page.offset, limit: page.limit },
    }),
    etchings(page: PageQuery, call: CallOptions = {}) {
      return service.json<Page<RuneEtching>>({ ...this.etchingsRequest(page), ...call }) as Promise<Page<RuneEtching>>;
    },
  };
}
export type RunesClient = ReturnType<typeof createRunesClient>;
