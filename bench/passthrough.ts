/**
 * The reference for the cost of one hop: a node:http server forwarding to the sample upstream
 * through one undici Pool, as little work per request as a proxy can do. Forked by bench/run.ts
 * with SAMPLE_URL and PORT; reports its url over IPC.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream';
import { Pool } from 'undici';
import { serveChild } from './lib/child-server.js';

const target = process.env.SAMPLE_URL;
if (!target) throw new Error('passthrough: SAMPLE_URL is required');
const pool = new Pool(target, { connections: 64, pipelining: 1, keepAliveTimeout: 4_000 });

const FORWARDED = ['accept', 'if-none-match', 'content-type', 'content-length'] as const;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

function requestHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = incoming[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

const server = createServer((req, res) => {
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  pool
    .request({
      method: method as 'GET',
      path: req.url ?? '/',
      headers: requestHeaders(req.headers),
      body: hasBody ? req : undefined,
    })
    .then(({ statusCode, headers, body }) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      }
      res.writeHead(statusCode, out);
      pipeline(body, res, () => {});
    })
    .catch(() => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
});

serveChild(server, 'passthrough', () => pool.close());
