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
 *
 * A result the fast path stores shows the height it was executed with: the height is one of the
 * answers it rests on (`noteUsed`), current while it is the index's known height, and asked again
 * (for the next request) once due, so a stored result does not keep an old height for as long as
 * the rest of its answers do not change.
 */
import type { AnswerSource, CallOptions, UsedAnswer } from '../../upstream/request.js';
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
  const heightOf = (index: UnisatIndex): number | null | Promise<number | null> => {
    const entry = known.get(index);
    if (entry && (entry.asking || Date.now() - entry.at < REFRESH_MS)) return entry.height ?? entry.asking ?? null;
    const asking = ask(index, entry);
    return entry?.height ?? asking;
  };

  /** Current while it is the known height; a due one is asked again, for whoever asks next. */
  const heights: AnswerSource = {
    isCurrent(used) {
      const index = used.key as UnisatIndex;
      const now = heightOf(index);
      return typeof now !== 'object' && String(now) === used.response.body.toString('latin1');
    },
    confirm(used) {
      return Promise.resolve(heights.isCurrent(used));
    },
  };

  /** Notes the height a request's answer was marked with among the answers it rests on. */
  const noteUsed = (index: UnisatIndex, height: number | null, call: CallOptions): void => {
    const used = call.stats?.used;
    if (!used) return;
    const answer: UsedAnswer = {
      service: heights,
      key: index,
      request: { path: ROUTES[index].path, route: ROUTES[index].path },
      response: { status: 200, headers: {}, body: Buffer.from(String(height), 'latin1') },
    };
    used.answers.push(answer);
  };

  return { heightOf, noteUsed };
}
