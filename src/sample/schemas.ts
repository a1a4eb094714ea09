// Request and response schemas copied from the upstream services (hirosystems/bitcoin-indexer
// api/ordinals + api/runes, token-metadata-api). Fastify 4.15 + typebox 0.28.20 turn these into
// the upstream's exact 400 messages, and fast-json-stringify into its exact serialization.
import { Type, type TSchema } from '@sinclair/typebox';

const Nullable = <T extends TSchema>(type: T) => Type.Union([type, Type.Null()]);

// ---------- parameters ----------

export const OffsetParam = Type.Integer({ minimum: 0, title: 'Offset', description: 'Result offset' });
export const LimitParam = Type.Integer({ minimum: 1, maximum: 60, title: 'Limit', description: 'Results per page' });

const BlockHashParam = Type.RegEx(/^[0]{8}[a-fA-F0-9]{56}$/, { title: 'Block Hash' });
const BlockHeightParam = Type.RegEx(/^[0-9]+$/, { title: 'Block Height' });
// Hash first: the order shows in the anyOf error message.
export const BlockParam = Type.Union([BlockHashParam, BlockHeightParam]);

export const TransfersQuery = Type.Object({
  block: BlockParam,
  offset: Type.Optional(OffsetParam),
  limit: Type.Optional(LimitParam),
});

export const PageQuery = Type.Object({
  offset: Type.Optional(OffsetParam),
  limit: Type.Optional(LimitParam),
});

export const TickerParams = Type.Object({ ticker: Type.String() });

export const EtchingParams = Type.Object({
  etching: Type.Union([
    Type.RegEx(/^[0-9]+:[0-9]+$/, { title: 'Rune ID' }),
    Type.RegEx(/^[0-9]+$/, { title: 'Rune number' }),
    Type.RegEx(/^[A-Z]+$/, { title: 'Rune name' }),
    Type.RegEx(/^[A-Za-z]+(•[A-Za-z]+)+$/, { title: 'Rune name with spacers' }),
  ]),
});

// ---------- responses ----------

export const NotFoundResponse = Type.Object({ error: Type.Literal('Not found') });

const Paginated = <T extends TSchema>(item: T) =>
  Type.Object({ limit: Type.Integer(), offset: Type.Integer(), total: Type.Integer(), results: Type.Array(item) });

const Counts = (keys: string[]) => Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Optional(Type.Integer())])));

export const StatusV1Response = Type.Object({
  server_version: Type.String(),
  status: Type.String(),
  chain_tip: Type.Object({ block_height: Type.Integer() }),
  tokens: Type.Optional(Counts(['ft', 'nft', 'sft'])),
  token_contracts: Type.Optional(Counts(['sip-009', 'sip-010', 'sip-013'])),
  job_queue: Type.Optional(Counts(['pending', 'queued', 'done', 'failed', 'invalid'])),
});

export const StatusV2Response = Type.Object({
  server_version: Type.String(),
  status: Type.String(),
  chain_tip: Nullable(Type.Object({ block_height: Type.Integer(), index_block_hash: Type.String() })),
});

const Brc20Token = Type.Object({
  id: Type.String(),
  number: Type.Integer(),
  block_height: Type.Integer(),
  tx_id: Type.String(),
  address: Type.String(),
  ticker: Type.String(),
  max_supply: Type.String(),
  mint_limit: Nullable(Type.String()),
  decimals: Type.Integer(),
  deploy_timestamp: Type.Integer(),
  minted_supply: Type.String(),
  tx_count: Type.Integer(),
  self_mint: Type.Boolean(),
});

export const Brc20TokensQuery = Type.Object({
  ticker: Type.Optional(Type.Array(Type.String())),
  offset: Type.Optional(OffsetParam),
  limit: Type.Optional(LimitParam),
});

export const Brc20TokensResponse = Paginated(Brc20Token);

export const Brc20TokenDetailsResponse = Type.Object({
  token: Brc20Token,
  supply: Type.Object({ max_supply: Type.String(), minted_supply: Type.String(), holders: Type.Integer() }),
});

const InscriptionLocation = Type.Object({
  block_height: Type.Integer(),
  block_hash: Type.String(),
  address: Nullable(Type.String()),
  tx_id: Type.String(),
  location: Type.String(),
  output: Type.String(),
  value: Nullable(Type.String()),
  offset: Nullable(Type.String()),
  timestamp: Type.Integer(),
});

export const TransfersResponse = Paginated(
  Type.Object({ id: Type.String(), number: Type.Integer(), from: InscriptionLocation, to: InscriptionLocation }),
);

export const EtchingResponse = Type.Object({
  id: Type.String(),
  name: Type.String(),
  spaced_name: Type.String(),
  number: Type.Integer(),
  divisibility: Type.Integer(),
  symbol: Type.String(),
  turbo: Type.Boolean(),
  mint_terms: Type.Object({
    amount: Nullable(Type.String()),
    cap: Nullable(Type.String()),
    height_start: Nullable(Type.Integer()),
    height_end: Nullable(Type.Integer()),
    offset_start: Nullable(Type.Integer()),
    offset_end: Nullable(Type.Integer()),
  }),
  supply: Type.Object({
    current: Type.String(),
    minted: Type.String(),
    total_mints: Type.String(),
    mint_percentage: Type.String(),
    mintable: Type.Boolean(),
    burned: Type.String(),
    total_burns: Type.String(),
    premine: Type.String(),
  }),
  location: Type.Object({
    block_hash: Type.String(),
    block_height: Type.Integer(),
    tx_id: Type.String(),
    tx_index: Type.Integer(),
    vout: Type.Optional(Type.Integer()),
    output: Type.Optional(Type.String()),
    timestamp: Type.Integer(),
  }),
});

export const EtchingsResponse = Paginated(EtchingResponse);
