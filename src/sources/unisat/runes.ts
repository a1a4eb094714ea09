/**
 * The etchings list from UniSat: `GET /v1/indexer/runes/info-list?sort=timestamp` (RuneEntry rows)
 * in hiro's page shape. Readings (runes-indexer.yaml): `start`/`limit` (1..500) page the list and
 * `total` counts it; `sort=timestamp` lists the newest etching first (hiro's order); amounts
 * (`premine`, `terms.amount`, `burned`, `supply`) are integers in base units and `mints`,
 * `terms.cap` counts; `supply` is premine + mints x amount, so minted = supply - premine. The list
 * has no block hash (one more call per rune would be), no `turbo` and no count of burns: null.
 */
import type { CallOptions } from '../../upstream/request.js';
import type { PageQuery } from '../../upstream/ordinals.js';
import { joinPath, segment } from '../../upstream/paths.js';
import { arrayOf, boolean, checked, int, object, optional, seconds, string } from '../../upstream/shapes.js';
import type { Page, SourcedRuneEtching } from '../../upstream/types.js';
import { unreadable } from '../errors.js';
import { toEtching, type RawRune } from '../runes.js';
import { digits } from './amount-shapes.js';
import type { UnisatClient } from './client.js';

interface RuneEntry {
  runeid: string;
  rune: string;
  spacedRune: string;
  number: number;
  height: number;
  txidx: number;
  timestamp: number;
  divisibility: number;
  symbol?: string | null;
  etching: string;
  premine: string;
  terms?: {
    amount?: string | null;
    cap?: string | null;
    heightStart?: number | null;
    heightEnd?: number | null;
    offsetStart?: number | null;
    offsetEnd?: number | null;
  } | null;
  mints: string;
  burned: string;
  supply: string;
  mintable: boolean;
}
type Terms = NonNullable<RuneEntry['terms']>;
const isEntry = object<RuneEntry>({
  runeid: string,
  rune: string,
  spacedRune: string,
  number: int,
  height: int,
  txidx: int,
  timestamp: seconds,
  divisibility: int,
  symbol: optional(string),
  etching: string,
  premine: digits,
  terms: optional(
    object<Terms>({
      amount: optional(digits),
      cap: optional(digits),
      // GraphQL Ints (RuneMintTerms), as hiro's own shape reads them: a larger u64 is unreadable here.
      heightStart: optional(int),
      heightEnd: optional(int),
      offsetStart: optional(int),
      offsetEnd: optional(int),
    }),
  ),
  mints: digits,
  burned: digits,
  supply: digits,
  mintable: boolean,
});
interface RunesPage {
  total: number;
  detail: RuneEntry[];
}
const isRunesPage = checked(object<RunesPage>({ total: int, detail: arrayOf(isEntry) }));
const isRuneInfo = checked(isEntry);

const big = (value: string | null | undefined) => (value === null || value === undefined ? null : BigInt(value));

function raw(entry: RuneEntry): RawRune {
  const premine = BigInt(entry.premine);
  const minted = BigInt(entry.supply) - premine;
  if (minted < 0n || entry.divisibility < 0 || entry.divisibility > 38) throw unreadable('unisat');
  const t = entry.terms;
  return {
    id: entry.runeid,
    name: entry.rune,
    spacedName: entry.spacedRune,
    number: entry.number,
    divisibility: entry.divisibility,
    symbol: entry.symbol ?? null,
    turbo: null,
    terms: t
      ? {
          amount: big(t.amount),
          cap: big(t.cap),
          heightStart: t.heightStart ?? null,
          heightEnd: t.heightEnd ?? null,
          offsetStart: t.offsetStart ?? null,
          offsetEnd: t.offsetEnd ?? null,
        }
      : null,
    mints: BigInt(entry.mints),
    minted,
    premine,
    burned: BigInt(entry.burned),
    mintable: entry.mintable,
    blockHash: null,
    blockHeight: entry.height,
    txId: entry.etching,
    txIndex: entry.txidx,
    timestamp: entry.timestamp,
  };
}

export function createUnisatEtchings(client: UnisatClient) {
  return {
    async etchings({ offset, limit }: PageQuery, call: CallOptions): Promise<Page<SourcedRuneEtching>> {
      const answer = await client.get(
        { path: '/v1/indexer/runes/info-list', route: '/v1/indexer/runes/info-list', query: { sort: 'timestamp', start: offset, limit } },
        isRunesPage,
        call,
        'list',
      );
      const page = 'absent' in answer ? { total: 0, detail: [] } : answer.data;
      const results = page.detail.slice(0, limit).map((entry) => toEtching(raw(entry), 'unisat', null));
      // Hiro reads `total` from the first row: an empty page says 0.
      return { limit, offset, total: results.length > 0 ? page.total : 0, results };
    },
    /** One etching by its rune id (`/v1/indexer/runes/{runeid}/info`, the same RuneEntry); null when UniSat has none. */
    async etching(runeId: string, call: CallOptions): Promise<SourcedRuneEtching | null> {
      const answer = await client.get(
        { path: joinPath('v1', 'indexer', 'runes', segment(runeId, 'id'), 'info'), route: '/v1/indexer/runes/:runeid/info' },
        isRuneInfo,
        call,
      );
      return 'absent' in answer ? null : toEtching(raw(answer.data), 'unisat', null);
    },
  };
}
