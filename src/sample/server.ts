// The sample upstream: one real HTTP server playing every upstream service (token metadata,
// ordinals, runes, platform) on one origin. Used by the offline demo and by the tests, which read
// its request log and script failures with inject().
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import FastifyCors from '@fastify/cors';
import Fastify from 'fastify';
import { createActivity, type SampleActivity } from './activity.js';
import { DELETABLE_CHAINHOOK_UUIDS } from './data.js';
import { metadataApi, ordinalsApi, runesApi } from './hiro.js';
import { platformApi } from './platform.js';
import { ordApi, type OrdOptions } from './ord.js';
import { unisatApi, type UnisatOptions } from './unisat.js';

export interface LoggedRequest {
  method: string;
  /** Raw path and query below the base path (as received when outside it: see `received`). */
  url: string;
  /** Raw pathname below the base path, not decoded. */
  path: string;
  /** The request target exactly as received, base path included. */
  received: string;
  headers: Record<string, string | string[] | undefined>;
  /** When it arrived (epoch ms). */
  at: number;
}

/** A scripted failure. Faults are checked in order, before any route. */
export interface Fault {
  /** Default: any method. */
  method?: string;
  /** Matched against the raw pathname below the base path: a string is an exact match, or a prefix if it ends with '*'. */
  path: string | RegExp;
  /** Matched against the raw query string, without `?` (default: any): a fault for some inputs only. */
  query?: RegExp;
  /** How many requests it applies to (default: all). */
  times?: number;
  status?: number;
  /** A JSON value, or a string sent as text/plain. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait before answering (then answer normally if no status is given). */
  delayMs?: number;
  /** Never answer; the connection stays open until the client gives up or the server closes. */
  hang?: boolean;
  /** Destroy the socket without answering. */
  reset?: boolean;
  /** Send a 200 with its headers and half of a JSON body, then destroy the socket (reset mid-body). */
  truncate?: boolean;
}

export interface SampleUpstream {
  /** e.g. http://127.0.0.1:43567 (no trailing slash) */
  url: string;
  /** Where the services are: `url` plus the profile's base path (what a gateway is configured with). */
  baseUrl: string;
  profile: SampleProfile;
  /** Every request that reached the server, in order (faulted ones too). */
  requests: LoggedRequest[];
  clearLog(): void;
  inject(fault: Fault): void;
  clearFaults(): void;
  /** New etchings and mints (see activity.ts). */
  activity: SampleActivity;
  /** clearLog + clearFaults + restore mutable data (deleted chainhooks, activity). */
  reset(): void;
  /** Closes promptly, even with hung or keep-alive connections. */
  close(): Promise<void>;
}

/**
 * Which upstream the sample plays, so that the gateway can be tested against each:
 * - `hiro`: the routes Hiro serves, the BRC-20 token list included (the default);
 * - `documented`: only the routes of docs/upstream.md, as a self-hosted or re-implemented service may
 *   serve them: no token list (`GET /ordinals/v1/brc-20/tokens` is a route 404);
 * - `status-v2`: `hiro` with the newer token-metadata status shape (v2.x: no counts);
 * - `prefixed`: `hiro` with every service below a base path (`/api`), as behind a reverse proxy
 *   that routes by path prefix and strips it. Requests outside the base path are route 404s.
 */
export type SampleProfile = 'hiro' | 'documented' | 'status-v2' | 'prefixed';

interface ProfileTraits {
  tokenList: boolean;
  statusShape: 'v1' | 'v2';
  /** '' or a path starting with `/`, without a trailing slash. */
  basePath: string;
}

export const SAMPLE_PROFILES: Readonly<Record<SampleProfile, ProfileTraits>> = {
  hiro: { tokenList: true, statusShape: 'v1', basePath: '' },
  documented: { tokenList: false, statusShape: 'v1', basePath: '' },
  'status-v2': { tokenList: true, statusShape: 'v2', basePath: '' },
  prefixed: { tokenList: true, statusShape: 'v1', basePath: '/api' },
};

export interface SampleOptions {
  host?: string;
  port?: number;
  platformApiKeys?: string[];
  /** Default `hiro`. */
  profile?: SampleProfile;
  /** Overrides the profile's status shape. */
  statusShape?: 'v1' | 'v2';
  /**
   * The data sources' profiles, served beside the hiro routes on the same origin: UniSat's open
   * API (`/v1/indexer/...`) and an `ord server` (`/runes`, `/r/...`), see sources-data.ts.
   */
  sources?: { unisat?: UnisatOptions; ord?: OrdOptions };
}

/** The platform key the sample accepts by default (docs example keys are 32 hex chars). */
export const SAMPLE_PLATFORM_KEY = '5f2c9a7e41b84d0f9e63a1c7d2b85e04';

function matches(fault: Fault, method: string, path: string, query: string): boolean {
  if (fault.method && fault.method.toUpperCase() !== method) return false;
  if (fault.query && !fault.query.test(query)) return false;
  if (fault.path instanceof RegExp) return fault.path.test(path);
  return fault.path.endsWith('*') ? path.startsWith(fault.path.slice(0, -1)) : path === fault.path;
}

/** The request target below `basePath`, or undefined when it is outside. */
function belowBase(target: string, basePath: string): string | undefined {
  if (!basePath) return target;
  if (!target.startsWith(basePath)) return undefined;
  const rest = target.slice(basePath.length);
  if (rest === '' || rest.startsWith('?')) return `/${rest}`;
  return rest.startsWith('/') ? rest : undefined;
}

function sendFault(fault: Fault, res: ServerResponse): void {
  const isText = typeof fault.body === 'string';
  const payload = fault.body === undefined ? '' : isText ? String(fault.body) : JSON.stringify(fault.body);
  const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(payload) };
  if (fault.body !== undefined) headers['content-type'] = isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
  for (const [name, value] of Object.entries(fault.headers ?? {})) headers[name.toLowerCase()] = value;
  res.writeHead(fault.status ?? 500, headers);
  res.end(payload);
}

export async function startSampleUpstream(opts: SampleOptions = {}): Promise<SampleUpstream> {
  const profile = opts.profile ?? 'hiro';
  const { tokenList, basePath, ...traits } = SAMPLE_PROFILES[profile];
  const statusShape = opts.statusShape ?? traits.statusShape;
  const requests: LoggedRequest[] = [];
  let faults: { fault: Fault; left: number }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const chainhooks = new Set<string>(DELETABLE_CHAINHOOK_UUIDS);

  // Wrapping at the node http level logs and faults every request, even those Fastify would
  // reject before any hook runs (bad URLs, 503 while closing).
  const serverFactory = (handler: (req: IncomingMessage, res: ServerResponse) => void) =>
    createServer((req, res) => {
      const received = req.url ?? '/';
      const method = req.method ?? 'GET';
      const below = belowBase(received, basePath);
      const url = below ?? received;
      const path = url.split('?', 1)[0] ?? url;
      requests.push({ method, url, path, received, headers: { ...req.headers }, at: Date.now() });
      if (below === undefined) {
        const body = { message: `Route ${method}:${received} not found`, error: 'Not Found', statusCode: 404 };
        return sendFault({ path, status: 404, body }, res);
      }
      // The services see the path below the base, like behind a proxy that strips the prefix.
      req.url = below;

      const query = url.slice(path.length + 1);
      const entry = faults.find((f) => f.left > 0 && matches(f.fault, method, path, query));
      if (!entry) return handler(req, res);
      entry.left -= 1;
      const { fault } = entry;
      const act = () => {
        if (fault.reset) req.socket.destroy();
        else if (fault.truncate) {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': 4096 });
          res.write('{"token":{"id":"');
          setImmediate(() => req.socket.destroy());
        } else if (fault.hang)
          return; // close() destroys the socket
        else if (fault.status !== undefined) sendFault(fault, res);
        else handler(req, res);
      };
      if (!fault.delayMs) return act();
      const timer = setTimeout(() => {
        timers.delete(timer);
        act();
      }, fault.delayMs);
      timers.add(timer);
    });

  // forceCloseConnections: close() destroys keep-alive and hung sockets instead of waiting.
  const app = Fastify({ serverFactory, forceCloseConnections: true });
  await app.register(FastifyCors);
  const metadata = metadataApi(statusShape);
  const activity = createActivity();
  for (const prefix of ['/metadata/v1', '/metadata']) await app.register(metadata, { prefix });
  for (const prefix of ['/ordinals/v1', '/ordinals']) await app.register(ordinalsApi, { prefix, activity, tokenList });
  for (const prefix of ['/runes/v1', '/runes']) await app.register(runesApi, { prefix, activity });
  await app.register(platformApi, { apiKeys: opts.platformApiKeys ?? [SAMPLE_PLATFORM_KEY], chainhooks });
  // The sources' profiles follow the activity too: their data changes as hiro's does.
  if (opts.sources?.unisat) await app.register(unisatApi, { ...opts.sources.unisat, activity });
  if (opts.sources?.ord) await app.register(ordApi, { ...opts.sources.ord, activity });

  await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('sample upstream: no TCP address');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const origin = `http://${host}:${address.port}`;
  const upstream: SampleUpstream = {
    url: origin,
    baseUrl: origin + basePath,
    profile,
    requests,
    activity,
    clearLog: () => void requests.splice(0),
    inject: (fault) => void faults.push({ fault, left: fault.times ?? Infinity }),
    clearFaults: () => {
      faults = [];
    },
    reset: () => {
      upstream.clearLog();
      upstream.clearFaults();
      DELETABLE_CHAINHOOK_UUIDS.forEach((uuid) => chainhooks.add(uuid));
      activity.reset();
    },
    close: async () => {
      timers.forEach(clearTimeout);
      timers.clear();
      await app.close();
    },
  };
  return upstream;
}
