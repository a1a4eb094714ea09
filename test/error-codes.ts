/**
 * Every error code a client receives must be in docs/errors.md's table. The harness records the
 * `extensions.code` of every GraphQL error the gateways under test send (recordErrorCodes), and
 * test/guards.ts fails the file that received an undocumented one. A new code only needs its row.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';

/** Codes seen by this test file's gateways; an error without a code is recorded as `(none)`. */
export const receivedCodes = new Set<string>();

/** The codes of docs/errors.md's "Error codes" table. */
export function documentedCodes(): Set<string> {
  const docs = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  const start = docs.indexOf('## Error codes');
  const section = docs.slice(start, docs.indexOf('\n## ', start));
  return new Set([...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!));
}

const MAX_RECORDED_BYTES = 1 << 20;

/** Reads every JSON or event-stream answer the server sends and records its errors' codes. */
export function recordErrorCodes(server: Server): void {
  // Before the gateway's own listener, which may answer synchronously.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_RECORDED_BYTES) return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      chunks.push(buffer);
    };
    // The content type may be set with setHeader or given to writeHead.
    let type = '';
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      const headers = args.find((arg) => typeof arg === 'object' && arg !== null);
      // An object, or node's flat [name, value, name, value, …] list.
      const flat = Array.isArray(headers) ? (headers as unknown[]) : Object.entries(headers ?? {}).flat();
      for (let i = 0; i < flat.length; i += 2) if (String(flat[i]).toLowerCase() === 'content-type') type = String(flat[i + 1]);
      return writeHead(...args);
    }) as typeof res.writeHead;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => (keep(args[0], args[1]), write(...args))) as typeof res.write;
    res.end = ((...args: unknown[]) => (keep(args[0], args[1]), end(...args))) as typeof res.end;
    res.once('finish', () => {
      type ||= String(res.getHeader('content-type') ?? '');
      if (size > MAX_RECORDED_BYTES || !/json|event-stream/.test(type)) return;
      const text = Buffer.concat(chunks).toString('utf8');
      const documents = type.includes('event-stream')
        ? text
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5))
        : [text];
      for (const document of documents) {
        try {
          recordFrom(JSON.parse(document));
        } catch {
          // not JSON (a REST answer mirrors the upstream's bytes): no GraphQL errors in it
        }
      }
    });
  });
}

function recordFrom(body: unknown): void {
  if (Array.isArray(body)) return body.forEach(recordFrom);
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return;
  for (const error of errors) {
    const code = (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
    receivedCodes.add(typeof code === 'string' ? code : '(none)');
  }
}
