/** The upstreams' response shapes, in their own snake_case (docs/upstream.md). */

/** Token metadata status: v1 has the optional count objects; v2 has a nullable chain_tip only. */
export interface ApiStatusResponse {
  server_version: string;
  status: string;
  chain_tip: { block_height: number; index_block_hash?: string } | null;
  tokens?: { ft?: number; nft?: number; sft?: number };
  token_contracts?: { 'sip-009'?: number; 'sip-010'?: number; 'sip-013'?: number };
  job_queue?: { pending?: number; queued?: number; done?: number; failed?: number; invalid?: number };
}

export interface Brc20Token {
  id: string;
  number: number;
  block_height: number;
  tx_id: string;
  address: string;
  ticker: string;
  max_supply: string;
  mint_limit: string | null;
  decimals: number;
  deploy_timestamp: number;
  minted_supply: string;
  tx_count: number;
  self_mint?: boolean | null;
}

export interface Brc20Supply {
  max_supply: string;
  minted_supply: string;
  holders: number;
}

export interface Brc20TokenDetailsResponse {
  token: Brc20Token;
  supply: Brc20Supply;
}

export interface Page<T> {
  limit: number;
  offset: number;
  total: number;
  results: T[];
}

export interface InscriptionLocation {
  block_height: number;
  block_hash: string;
  address: string | null;
  tx_id: string;
  location: string;
  output: string;
  value: string | null;
  offset: string | null;
  /** Unix milliseconds. */
  timestamp: number;
}

export interface InscriptionTransfer {
  id: string;
  number: number;
  from: InscriptionLocation;
  to: InscriptionLocation;
}

export interface RuneEtching {
  id: string;
  name: string;
  spaced_name: string;
  number: number;
  divisibility: number;
  symbol: string;
  turbo: boolean;
  mint_terms: {
    amount: string | null;
    cap: string | null;
    height_start: number | null;
    height_end: number | null;
    offset_start: number | null;
    offset_end: number | null;
  };
  supply: {
    current: string;
    minted: string;
    total_mints: string;
    mint_percentage: string;
    mintable: boolean;
    burned: string;
    total_burns: string;
    premine: string;
  };
  location: {
    block_hash: string;
    block_height: number;
    tx_id: string;
    tx_index: number;
    vout?: number;
    output?: string;
    /** Unix seconds (the Runes API, unlike Ordinals). */
    timestamp: number;
  };
}

export interface ChainhookDeletion {
  status: string;
  chainhookUuid: string;
  message?: string;
}

/**
 * The same shapes as a data source other than hiro fills them (docs/sources.md): fields it
 * cannot provide are null. Hiro's answers are of these types too; the schema reads these.
 */
export interface SourcedInscriptionLocation extends Omit<InscriptionLocation, 'block_hash' | 'tx_id' | 'location' | 'output'> {
  block_hash: string | null;
  tx_id: string | null;
  location: string | null;
  output: string | null;
}

export interface SourcedInscriptionTransfer extends Omit<InscriptionTransfer, 'from' | 'to'> {
  /** UniSat's events carry no previous location. */
  from: SourcedInscriptionLocation | null;
  to: SourcedInscriptionLocation;
}

export interface SourcedRuneEtching extends Omit<RuneEtching, 'turbo' | 'supply' | 'location'> {
  turbo: boolean | null;
  supply: Omit<RuneEtching['supply'], 'total_burns'> & { total_burns: string | null };
  location: Omit<RuneEtching['location'], 'block_hash'> & { block_hash: string | null };
}
