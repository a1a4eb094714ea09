import type { CallOptions, UpstreamRequest, UpstreamService } from './http.js';
import type { ApiStatusResponse } from './types.js';

/** Token Metadata API (status only). */
export function createMetadataClient(service: UpstreamService) {
  return {
    service,
    statusRequest: (): UpstreamRequest => ({ path: '/metadata/v1', route: '/metadata/v1' }),
    status(call: CallOptions = {}) {
      return service.json<ApiStatusResponse>({ ...this.statusRequest(), ...call }) as Promise<ApiStatusResponse>;
    },
  };
}
export type MetadataClient = ReturnType<typeof createMetadataClient>;
