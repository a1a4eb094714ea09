/**
 * ord's block hashes (`/r/blockhash/{height}`), one per block an answer's etchings sit in. A hash
 * FINAL_DEPTH blocks under ord's index height is kept for the process's life (bounded): only a
 * reorg that deep could change it, and ord recovers from none deeper than its savepoints reach
 * (fewer than 20 blocks with its defaults, src/index/reorg.rs). So a page, and a live poll of the
 * newest etchings every few seconds, asks only for its newest blocks' hashes, which go through
 * the pipeline's cache as any answer does; a stored result rests only on those.
 */
import { LruTable } from '../../lib/lru-table.js';
import type { CallOptions } from '../../upstream/request.js';
import { joinPath } from '../../upstream/paths.js';
import type { Shape } from '../../upstream/shapes.js';
import { unreadable } from '../errors.js';
import type { OrdClient } from './client.js';

const FINAL_DEPTH = 20n;
/** About 200 bytes each: a bound, not a tuned size (mainnet has fewer blocks with etchings). */
const MAX_KEPT = 100_000;

const isHash: Shape<string> = (value): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

export function createBlockHashes(client: OrdClient) {
  const final = new LruTable<string>(MAX_KEPT, Infinity);
  return async (block: bigint, indexHeight: bigint, call: CallOptions): Promise<string> => {
    const key = String(block);
    const kept = final.peek(key);
    if (kept !== undefined) return kept;
    const isFinal = block + FINAL_DEPTH <= indexHeight;
    const hash = await client.get({ path: joinPath('r', 'blockhash', key), route: '/r/blockhash/:height', final: isFinal }, isHash, call);
    if (hash === undefined) throw unreadable('ord');
    if (isFinal) final.use(key, () => hash);
    return hash;
  };
}
