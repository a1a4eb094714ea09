/**
 * Inscription transfers per block from UniSat's `GET /v1/indexer/inscription/events` (the
 * InscriptionEvent rows of a block range), in hiro's page shape.
 *
 * Readings of the spec (inscription-indexer.yaml), stated in docs/sources.md:
 * - Rows are mints (`isTransfer: false`) and transfers; hiro lists transfers only (a block with only
 *   genesis reveals is an empty page), so mints are dropped. Hiro's `offset` counts back from the
 *   block's last transfer and its `total` is the block's transfer count, so the whole block is
 *   read (its pages follow `cursor`, however many rows UniSat puts in one) and paged here.
 * - Whether `end` is inclusive is not said: the range asked is `start=h&end=h+1` and only rows of
 *   height h are kept, which is right under either reading (reading stops at a row past h).
 * - `txid` and `i` are documented as the inscription's *genesis* txid and index (they spell its id),
 *   and `address` as its *current* address: the event's own transaction, output, offset and
 *   receiving address are not given, nor is the previous location (`from`). Those are null.
 * - Rows are in block order (`txidx`, then as listed); hiro lists newest first.
 * - The block hash comes from `/v1/indexer/height/{h}/block`; a block given by hash is found with
 *   `/v1/indexer/block/id/{hash}`. A block UniSat does not know is an empty page, as on hiro.
 */
import { UpstreamError } from '../../errors.js';
import type { CallOptions } from '../../upstream/request.js';
import type { PageQuery } from '../../upstream/ordinals.js';
import { joinPath } from '../../upstream/paths.js';
import { arrayOf, boolean, checked, int, object, optional, seconds, string, timestamp } from '../../upstream/shapes.js';
import type { Page, SourcedInscriptionTransfer } from '../../upstream/types.js';
import { withinDeadline } from '../../upstream/deadline.js';
import { consistentPages, PagesDisagree } from '../consistent-pages.js';
import { unreadable } from '../errors.js';
import { marked, type MissableField } from '../provenance.js';
import type { UnisatClient } from './client.js';

/** Rows asked per events page; UniSat may send fewer (the cursor follows what came). */
export const EVENTS_PAGE_SIZE = 100;
/** A block whose events need more pages than this is refused (UPSTREAM_ERROR), not read forever. */
export const MAX_EVENT_PAGES = 60;

interface InscriptionEvent {
  isTransfer: boolean;
  inscriptionId: string;
  inscriptionNumber: number;
  satoshi?: number | null;
  timestamp: number;
  height: number;
  txidx: number;
}
const isEvent = object<InscriptionEvent>({
  isTransfer: boolean,
  inscriptionId: string,
  inscriptionNumber: int,
  // A Decimal (any safe integer is exact); `timestamp` is written × 1000 as a Timestamp.
  satoshi: optional(timestamp),
  timestamp: seconds,
  height: int,
  txidx: int,
});
interface EventsPage {
  total: number;
  detail: InscriptionEvent[];
}
const isEventsPage = checked(object<EventsPage>({ total: int, detail: arrayOf(isEvent) }));

interface BlockInfo {
  height: number;
  id: string;
}
const isBlockInfo = checked(object<BlockInfo>({ height: int, id: string }));

const HASH = /^[0]{8}[a-fA-F0-9]{56}$/;
/** What a transfer from UniSat lacks, as GraphQL field names. */
const TRANSFER_MISSING: readonly MissableField[] = ['from'];
const LOCATION_MISSING: readonly MissableField[] = ['address', 'txId', 'location', 'output', 'offset'];

/** UniSat's pages of one block's events do not add up (see blockTransfers): an unreadable answer. */
const unreadablePages = () =>
  unreadable('unisat', 200, "The unisat service's pages of the block's inscription events do not agree with each other");

/** The block's events fill more pages than the gateway reads: said as that, not as one large answer. */
function tooManyEvents(): UpstreamError {
  const error = new UpstreamError('unisat', 'too-large');
  error.message = `The block has more inscription events than the gateway reads from the unisat service (${MAX_EVENT_PAGES} pages)`;
  return error;
}

export function createUnisatTransfers(client: UnisatClient) {
  const block = async (req: { path: string; route: string }, call: CallOptions) => {
    const answer = await client.get(req, isBlockInfo, call);
    return 'absent' in answer ? undefined : answer.data;
  };
  /** The block's height and hash, or undefined when UniSat does not know it. */
  async function locate(id: string, call: CallOptions): Promise<BlockInfo | undefined> {
    if (HASH.test(id)) {
      // Hiro compares hashes as exact (lowercase) strings: a block UniSat finds by another
      // spelling of its hash is not the one asked, as a block at another height is not.
      const info = await block({ path: joinPath('v1', 'indexer', 'block', 'id', id), route: '/v1/indexer/block/id/:blockid' }, call);
      return info?.id === id ? info : undefined;
    }
    const height = Number(id);
    if (!Number.isSafeInteger(height)) return undefined;
    const info = await block(
      { path: joinPath('v1', 'indexer', 'height', String(height), 'block'), route: '/v1/indexer/height/:height/block' },
      call,
    );
    return info?.height === height ? info : undefined;
  }

  /**
   * The block's transfer rows in block order. The pages must add up: the first page's `total` is
   * the walk's, and a page that repeats a row already read, changes the total, brings nothing while
   * more is claimed, or more than the total leaves is UniSat's error (a cursor that does not move
   * served the same transfers again under new ids). Each page counts against MAX_EVENT_PAGES and
   * the request's lookups; the caller holds the whole walk to one deadline.
   */
  async function blockTransfers(height: number, call: CallOptions, fresh: boolean): Promise<InscriptionEvent[]> {
    const rows: InscriptionEvent[] = [];
    const seen = new Set<string>();
    let total: number | undefined;
    let cursor = 0;
    for (let pages = 0; ; pages++) {
      if (pages === MAX_EVENT_PAGES) throw tooManyEvents();
      // Each page is one more lookup of the request (its block call was the one counted).
      call.lookups?.take();
      const answer = await client.get(
        {
          path: '/v1/indexer/inscription/events',
          route: '/v1/indexer/inscription/events',
          query: { start: height, end: height + 1, cursor, size: EVENTS_PAGE_SIZE },
          fresh,
        },
        isEventsPage,
        call,
        'list',
      );
      // No data on the first page is a block without events; a later page gone mid-walk would cut the list short.
      if ('absent' in answer) {
        if (pages > 0) throw new PagesDisagree();
        break;
      }
      const page = answer.data;
      total ??= page.total;
      const upTo = cursor + page.detail.length;
      if (page.total !== total || upTo > total || (page.detail.length === 0 && cursor < total)) throw new PagesDisagree();
      for (const row of page.detail) {
        // An inscription moved twice in a block is two rows, in two transactions.
        const key = `${row.inscriptionId}:${row.height}:${row.txidx}:${row.isTransfer}`;
        if (seen.has(key)) throw new PagesDisagree();
        seen.add(key);
        if (row.height === height) rows.push(row);
      }
      cursor = upTo;
      if (cursor >= total || page.detail.some((row) => row.height > height)) break;
    }
    // Stable: rows of one transaction keep UniSat's order.
    return rows.filter((row) => row.isTransfer).sort((a, b) => a.txidx - b.txidx);
  }

  /** The block and its transfer rows, all within the field's one deadline (not one per page). */
  const read = (id: string, call: CallOptions) =>
    withinDeadline(call, client.timeoutMs, 'unisat', async (within) => {
      const info = await locate(id, within);
      // Pages cached at different times (the next block indexed between them) are read again together.
      const rows = info ? await consistentPages((fresh) => blockTransfers(info.height, within, fresh), unreadablePages) : [];
      return { info, rows };
    });

  return {
    async transfers(id: string, { offset, limit }: PageQuery, call: CallOptions): Promise<Page<SourcedInscriptionTransfer>> {
      const { info, rows } = await read(id, call);
      const results = rows
        .reverse()
        .slice(offset, offset + limit)
        .map((row) =>
          marked(
            {
              id: row.inscriptionId,
              number: row.inscriptionNumber,
              from: null,
              to: marked(
                {
                  block_height: info!.height,
                  block_hash: info!.id,
                  address: null,
                  tx_id: null,
                  location: null,
                  output: null,
                  value: row.satoshi === undefined || row.satoshi === null ? null : String(row.satoshi),
                  offset: null,
                  timestamp: row.timestamp * 1000,
                },
                'unisat',
                null,
                LOCATION_MISSING,
              ),
            },
            'unisat',
            null,
            TRANSFER_MISSING,
          ),
        );
      // Hiro reads `total` from the first row: an empty page says 0.
      return { limit, offset, total: results.length > 0 ? rows.length : 0, results };
    },
  };
}
