/**
 * UniSat's indexed heights, for `extensions.sources[i].height` and /readyz (docs/sources.md). Each
 * index answers its own (unisat-dev-docs, open-api/swagger-source/):
 * - BRC-20: `GET /v1/indexer/brc20/bestheight` → `height`;
 * - runes: `GET /v1/indexer/runes/status` → `bestHeight`;
 * - inscription events: no route of their own; `GET /v1/indexer/blockchain/info` → `blocks`, the
 *   chain height UniSat's indexers follow.
 *
 * Heights move every ten minutes or so, and every call spends UniSat's per-second budget: each
 * process asks an index's height at most every REFRESH_MS. The first request waits for it (beside
 * its own call); later ones take the last height at once while a newer one is asked. A failed ask
 * is a null height until the next try, never a failed answer. The call is the gateway's own: no
 * client is charged for it.
 */
import type { CallOptions } from '../../upstream/request.js';
import { checked, int, object, type Shape } from '../../upstream/shapes.js';
import type { UnisatClient } from './client.js';

const REFRESH_MS = 30_000;

export type UnisatIndex = 'brc20' | 'runes' | 'chain';

const ROUTES: Record<UnisatIndex, { path: string; field: 'height' | 'bestHeight' | 'blocks' }> = {
  brc20: { path: '/v1/indexer/brc20/bestheight', field: 'height' },
  runes: { path: '/v1/indexer/runes/status', field: 'bestHeight' },
  chain: { path: '/v1/indexer/blockchain/info', field: 'blocks' },
};

type Heights = Partial<Record<'height' | 'bestHeight' | 'blocks', number>>;
const shapes: Record<(typeof ROUTES)[UnisatIndex]['field'], Shape<Heights>> = {
  height: checked(object<{ height: number }>({ height: int })),
  bestHeight: checked(object<{ bestHeight: number }>({ bestHeight: int })),
  blocks: checked(object<{ blocks: number }>({ blocks: int })),
};

interface Known {
  height: number | null;
  /** When it was asked for last (epoch ms). */
  at: number;
  asking?: Promise<number | null>;
}

export function createUnisatHeights(client: UnisatClient) {
  const known = new Map<UnisatIndex, Known>();
  const NO_CLIENT: CallOptions = {};

  function ask(index: UnisatIndex, before: Known | undefined): Promise<number | null> {
    const { path, field } = ROUTES[index];
    const asking = client
      .get({ path, route: path }, shapes[field], NO_CLIENT)
      .then(
        (answer) => ('data' in answer ? (answer.data[field] ?? null) : null),
        () => null,
      )
      .then((height) => {
        known.set(index, { height: height ?? before?.height ?? null, at: Date.now() });
        return height;
      });
    known.set(index, { height: before?.height ?? null, at: before?.at ?? 0, asking });
    return asking;
  }

  /** The index's height: at once when one is known, else once asked (null when it cannot be had). */
  return (index: UnisatIndex): number | null | Promise<number | null> => {
    const entry = known.get(index);
    if (entry && (entry.asking || Date.now() - entry.at < REFRESH_MS)) return entry.height ?? entry.asking ?? null;
    const asking = ask(index, entry);
    return entry?.height ?? asking;
  };
}
