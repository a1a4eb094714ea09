/**
 * The floor (`limit` in issue 27): a plain node:http server that reads a GraphQL request's body and
 * writes precomputed answer bytes. What answering one GraphQL request costs in Node on one core,
 * before any work: no parse, no execution, no cache key beyond the body itself.
 *
 * The answers are the runner's: it sends `{ type: 'answers', entries: [[body, answer], …] }` over IPC
 * (answers another server gave and the runner checked), and gets `{ type: 'loaded' }` back. A body
 * it was not given is a 404. Forked by bench/run.ts with PORT; reports its url over IPC.
 */
import { createServer } from 'node:http';
import { serveChild } from './lib/child-server.js';

/** Each known body's answer bytes and response headers, both built once. */
const answers = new Map<string, { bytes: Buffer; headers: Record<string, string | number> }>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const answer = answers.get(chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString());
    if (!answer) {
      res.writeHead(404, { 'content-length': 0 });
      res.end();
      return;
    }
    res.writeHead(200, answer.headers);
    res.end(answer.bytes);
  });
});

process.on('message', (message: { type: 'answers'; entries: Array<[string, string]> }) => {
  if (message.type !== 'answers') return;
  for (const [body, answer] of message.entries) {
    const bytes = Buffer.from(answer);
    answers.set(body, { bytes, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length } });
  }
  process.send?.({ type: 'loaded' });
});

serveChild(server, 'limit');
