// The Hiro Platform routes: chainhook deletion and the devnet bitcoin-node proxy. The key is a
// path segment. The devnet bitcoind here pretends `rest=1` is set (the real devnet does not) so
// the demo has something to show; its answers follow Bitcoin Core 26's REST interface.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { devnetHeader, sampleData } from './data.js';

export interface PlatformOptions {
  apiKeys: readonly string[];
  /** Live chainhooks; DELETE removes from it, the server's reset() refills it. */
  chainhooks: Set<string>;
}

function platformError(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ status: 'error', message, error: null });
}

/** Answers 401/403 for a bad key and returns false; true when the key is accepted. */
function checkKey(apiKey: string, keys: readonly string[], reply: FastifyReply): boolean {
  if (keys.includes(apiKey)) return true;
  if (apiKey === 'revoked-key') void platformError(reply, 401, 'Unauthorized: missing or invalid API key');
  else void platformError(reply, 403, 'Forbidden: API key is not allowed to access this resource');
  return false;
}

interface NodeAnswer {
  status: number;
  type?: string;
  body: string;
}

const text = (status: number, body: string): NodeAnswer => ({ status, type: 'text/plain', body });
const json = (value: unknown): NodeAnswer => ({ status: 200, type: 'application/json', body: JSON.stringify(value) + '\n' });
// bitcoind's RESTERR: text/plain with a CRLF.
const restError = (status: number, message: string) => text(status, `${message}\r\n`);

/** Splits "name.ext" like bitcoind's ParseDataFormat. */
function splitFormat(part: string): [string, string] {
  const dot = part.lastIndexOf('.');
  return dot < 0 ? [part, ''] : [part.slice(0, dot), part.slice(dot + 1)];
}

function bitcoind(path: string, query: Record<string, unknown>): NodeAnswer {
  const { chainInfo, mempoolInfo, blockHashes } = sampleData.bitcoinNode;
  if (path === '') return text(405, 'JSONRPC server handles only POST requests');

  const [base, format] = splitFormat(path);
  if (base === 'rest/chaininfo' || base === 'rest/mempool/info') {
    if (format !== 'json') return restError(404, 'output format not found (available: json)');
    return json(base === 'rest/chaininfo' ? chainInfo : mempoolInfo);
  }

  if (base.startsWith('rest/blockhashbyheight/')) {
    if (format !== 'json' && format !== 'hex') return restError(404, 'output format not found (available: bin, hex, json)');
    const raw = base.slice('rest/blockhashbyheight/'.length);
    if (!/^[0-9]+$/.test(raw)) return restError(400, `Invalid height: ${raw}`);
    const hash = blockHashes[Number(raw)];
    if (hash === undefined) return restError(404, 'Block height out of range');
    return format === 'json' ? json({ blockhash: hash }) : text(200, `${hash}\n`);
  }

  if (base.startsWith('rest/headers/')) {
    if (format !== 'json') return restError(404, 'output format not found (available: bin, hex, json)');
    const parts = base.slice('rest/headers/'.length).split('/');
    // New form: <hash>?count=N (default 5); deprecated form: <count>/<hash>.
    const first = Array.isArray(query.count) ? query.count[0] : query.count;
    const [rawCount, hash] = parts.length === 2 ? [parts[0]!, parts[1]!] : [String(first ?? '5'), parts[0]!];
    if (parts.length > 2) return restError(400, 'Invalid URI format. Expected /rest/headers/<hash>.<ext>?count=<count>');
    const count = /^[0-9]+$/.test(rawCount) ? Number(rawCount) : NaN;
    if (!(count >= 1 && count <= 2000)) {
      return restError(400, `Header count is invalid or out of acceptable range (1-2000): ${rawCount}`);
    }
    if (!/^[0-9a-fA-F]{64}$/.test(hash)) return restError(400, `Invalid hash: ${hash}`);
    const start = blockHashes.indexOf(hash.toLowerCase());
    const heights = start < 0 ? [] : blockHashes.slice(start, start + count).map((_, i) => start + i);
    return json(heights.map(devnetHeader));
  }

  return { status: 404, body: '' }; // bitcoind's bare 404 for unknown paths
}

export const platformApi: FastifyPluginAsync<PlatformOptions> = async (app, opts) => {
  // The platform is not known to be Fastify: accept a DELETE that says JSON but sends no body.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(String(body)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.delete('/v1/ext/:apiKey/chainhooks/:chainhookUuid', async (request, reply) => {
    const { apiKey, chainhookUuid } = request.params as { apiKey: string; chainhookUuid: string };
    if (!checkKey(apiKey, opts.apiKeys, reply)) return reply;
    const uuid = chainhookUuid.toLowerCase(); // stored as a Postgres-style uuid: case-insensitive
    if (!opts.chainhooks.delete(uuid)) return platformError(reply, 404, 'Chainhook not found');
    return { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' };
  });

  const proxy = async (path: string, apiKey: string, query: unknown, reply: FastifyReply) => {
    if (!checkKey(apiKey, opts.apiKeys, reply)) return reply;
    const answer = bitcoind(path, query as Record<string, unknown>);
    if (answer.type) void reply.type(answer.type);
    // An empty body goes out without a content-type, like bitcoind's bare 404.
    return reply.code(answer.status).send(answer.body === '' ? undefined : answer.body);
  };
  app.get('/v1/ext/:apiKey/bitcoin-node', async (request, reply) => {
    const { apiKey } = request.params as { apiKey: string };
    return proxy('', apiKey, request.query, reply);
  });
  app.get('/v1/ext/:apiKey/bitcoin-node/*', async (request, reply) => {
    const params = request.params as { apiKey: string; '*': string };
    return proxy(params['*'], params.apiKey, request.query, reply);
  });
};
