import { merged } from '../lib/merge.js';
import type { CallOptions, UpstreamRequest } from './request.js';
import type { UpstreamService } from './service.js';
import { checked, int, object, optional, string } from './shapes.js';
import type { ApiStatusResponse } from './types.js';

type Part<K extends keyof ApiStatusResponse> = NonNullable<ApiStatusResponse[K]>;
/** A count the upstream leaves out is 0. */
const count = optional(int);

/** v1 has the count objects, v2 a nullable chain_tip only: both pass. */
export const isStatus = checked(
  object<ApiStatusResponse>({
    server_version: string,
    status: string,
    chain_tip: optional(object<Part<'chain_tip'>>({ block_height: int, index_block_hash: optional(string) })),
    tokens: optional(object<Part<'tokens'>>({ ft: count, nft: count, sft: count })),
    token_contracts: optional(object<Part<'token_contracts'>>({ 'sip-009': count, 'sip-010': count, 'sip-013': count })),
    job_queue: optional(object<Part<'job_queue'>>({ pending: count, queued: count, done: count, failed: count, invalid: count })),
  }),
);

/** Token Metadata API (status only). */
export function createMetadataClient(service: UpstreamService) {
  return {
    service,
    statusRequest: (): UpstreamRequest => ({ path: '/metadata/v1', route: '/metadata/v1' }),
    status(call: CallOptions = {}) {
      return service.json(merged(this.statusRequest(), call), 'error', isStatus) as Promise<ApiStatusResponse>;
    },
  };
}
export type MetadataClient = ReturnType<typeof createMetadataClient>;
