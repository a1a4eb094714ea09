// `ord server` as the sample plays it (ordinals/ord src/subcommand/server.rs and server/r.rs, docs
// src/guides/api.md): JSON only with `Accept: application/json`, optional HTTP basic auth, `/runes`
// pages as `[id, entry]` pairs whose u128 amounts are bare JSON numbers.
import { stringify } from 'lossless-json';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SampleActivity } from './activity.js';
import { blockHash, ordRune } from './sources-data.js';
import { mappedOnce } from './util.js';

export interface OrdOptions {
  /** `user:password` the server requires (`--server-username/--server-password`); unset: none. */
  auth?: string;
  /**
   * Runes a page holds. The code serves 50 and keeps its look-ahead entry (a full page has 51, the
   * last repeating the next page's first); the docs say 100.
   */
  pageSize?: number;
  lookAhead?: boolean;
  /** Where ord's routes are mounted (default: the origin's root, as `ord server` serves them). */
  prefix?: string;
  /**
   * `false`: an ord started without `--index-runes` (its default). Its `/runes` pages are empty
   * (server.rs reads the always-created table), `/status` says `rune_index: false`.
   */
  runeIndex?: boolean;
}

/** `activity`: the sample's etchings as they are now (activity.ts), new ones included. */
export const ordApi: FastifyPluginAsync<OrdOptions & { activity: SampleActivity }> = async (
  app,
  { auth, pageSize = 50, lookAhead = true, runeIndex = true, activity },
) => {
  const ordRunes = mappedOnce(ordRune);
  /** ord's RUNE_ID_TO_RUNE_ENTRY iterated in reverse: newest rune id first. */
  const entriesNow = () => (runeIndex ? ordRunes(activity.etchings()) : []);
  /** The index height: the newest etching's block. */
  const tip = () => activity.etchings()[0]!.location.block_height;
  const json = (reply: FastifyReply, value: unknown) => reply.type('application/json').send(stringify(value));
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!auth) return;
    if (request.headers.authorization !== `Basic ${Buffer.from(auth).toString('base64')}`) {
      return reply.code(401).header('www-authenticate', 'Basic realm="ord"').send();
    }
  });

  const runes = async (request: FastifyRequest, reply: FastifyReply) => {
    const { page = '0' } = request.params as { page?: string };
    if (!/^\d+$/.test(page)) return reply.code(400).type('text/plain').send('Invalid URL');
    if (!String(request.headers.accept ?? '').includes('application/json')) {
      return reply.type('text/html').send('<!doctype html><title>Runes</title>');
    }
    const index = Number(page);
    const taken = entriesNow().slice(index * pageSize, index * pageSize + pageSize + 1);
    const more = taken.length > pageSize;
    const entries = more && !lookAhead ? taken.slice(0, pageSize) : taken;
    return json(reply, { entries, more, prev: index > 0 ? index - 1 : null, next: more ? index + 1 : null });
  };
  app.get('/runes', runes);
  app.get('/runes/:page', runes);
  // A few of StatusHtml's fields (src/templates/status.rs), as JSON.
  app.get('/status', async (_request, reply) =>
    json(reply, { chain: 'mainnet', height: tip(), json_api: true, rune_index: runeIndex, runes: entriesNow().length }),
  );

  // One rune by id or spaced name (server.rs `rune`): `{ entry, id, mintable, parent }`.
  app.get('/rune/:rune', async (request, reply) => {
    const { rune } = request.params as { rune: string };
    if (!String(request.headers.accept ?? '').includes('application/json'))
      return reply.type('text/html').send('<!doctype html><title>Rune</title>');
    // A rune id whose block is no u64 or whose tx is no u32 does not parse (server.rs answers 400).
    const parts = /^(\d+):(\d+)$/.exec(rune);
    if (parts && (BigInt(parts[1]!) >= 2n ** 64n || BigInt(parts[2]!) >= 2n ** 32n))
      return reply.code(400).type('text/plain').send(`Invalid URL: ${rune}`);
    const pair = entriesNow().find(([id, entry]) => id === rune || entry.spaced_rune === rune);
    if (!pair) return reply.code(404).type('text/plain').send(`rune ${rune} not found`);
    const [id, entry] = pair;
    return json(reply, { entry, id, mintable: activity.findEtching(id)?.supply.mintable ?? false, parent: null });
  });

  app.get('/blockheight', async (_request, reply) => reply.type('text/plain').send(String(tip())));
  app.get('/r/blockheight', async (_request, reply) => reply.type('text/plain').send(String(tip())));
  app.get('/r/blockhash/:height', async (request, reply) => {
    const { height } = request.params as { height: string };
    if (!/^\d+$/.test(height) || Number(height) > tip()) return reply.code(404).type('text/plain').send('blockhash not found');
    return json(reply, blockHash(Number(height)));
  });
};
