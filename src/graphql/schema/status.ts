import type { ApiStatusResponse } from '../../upstream/types.js';
import { builder } from './builder.js';
import { policy } from './field-policy.js';

type Counts = Record<string, number | undefined>;

/** An object of counts whose keys the upstream leaves out when they are 0. */
function countsType<K extends string>(name: string, fields: Record<K, string>) {
  return builder.objectRef<Counts>(name).implement({
    description: 'A count that the upstream leaves out is 0.',
    fields: (t) =>
      Object.fromEntries(
        Object.entries<string>(fields).map(([field, key]) => [field, t.int({ resolve: (counts) => counts[key] ?? 0 })]),
      ) as Record<K, ReturnType<typeof t.int>>,
  });
}

const TokenCounts = countsType('TokenCounts', { ft: 'ft', nft: 'nft', sft: 'sft' });
const TokenContractCounts = countsType('TokenContractCounts', {
  sip009: 'sip-009',
  sip010: 'sip-010',
  sip013: 'sip-013',
});
const JobQueueCounts = countsType('JobQueueCounts', {
  pending: 'pending',
  queued: 'queued',
  done: 'done',
  failed: 'failed',
  invalid: 'invalid',
});

const ChainTip = builder.objectRef<NonNullable<ApiStatusResponse['chain_tip']>>('ChainTip').implement({
  fields: (t) => ({
    blockHeight: t.exposeInt('block_height'),
    indexBlockHash: t.string({
      nullable: true,
      description: 'Served by newer token-metadata versions only.',
      resolve: (tip) => tip.index_block_hash ?? null,
    }),
  }),
});

export const Status = builder.objectRef<ApiStatusResponse>('Status').implement({
  description: 'The token-metadata service status (both the v1 shape with counts and the newer v2 shape).',
  fields: (t) => ({
    serverVersion: t.exposeString('server_version'),
    status: t.exposeString('status'),
    chainTip: t.field({
      type: ChainTip,
      nullable: true,
      description: 'Null while the indexer has no tip.',
      resolve: (status) => status.chain_tip ?? null,
    }),
    tokens: t.field({
      type: TokenCounts,
      nullable: true,
      description: "Null where the upstream's answer has no such object (newer token-metadata versions have none).",
      resolve: (status) => status.tokens ?? null,
    }),
    tokenContracts: t.field({
      type: TokenContractCounts,
      nullable: true,
      resolve: (status) => status.token_contracts ?? null,
    }),
    jobQueue: t.field({ type: JobQueueCounts, nullable: true, resolve: (status) => status.job_queue ?? null }),
  }),
});

builder.queryField('status', (t) =>
  t.field({
    type: Status,
    // Nullable like every root field: an upstream error costs this field, not the whole answer.
    nullable: true,
    ...policy({ cost: 'call', cache: 'public' }),
    resolve: (_root, _args, { loaders }) => loaders.status.load('status'),
  }),
);
