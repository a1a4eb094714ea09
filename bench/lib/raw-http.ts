/**
 * One HTTP/1.1 request written as given, on its own connection (`Connection: close`), and the
 * answer as read: fetch and undici will not send an invalid or duplicated Host line, nor a
 * malformed or unfinished request (rawExchange).
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  body: string;
}

/** `head` is the request line and header lines, each ending in CRLF, without the blank line. */
export async function rawRequest(url: URL, head: string, timeoutMs: number): Promise<RawAnswer> {
  return parseRawAnswer(await rawExchange(url, `${head}Connection: close\r\n\r\n`, timeoutMs));
}

/**
 * Any bytes, a malformed or unfinished request included, on their own connection; every byte of
 * the answer, once the server closes the connection.
 */
export function rawExchange(url: URL, bytes: string, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('close', (hadError) => {
      if (!hadError) resolve(Buffer.concat(chunks));
    });
    // Not end(): node abandons a request whose client half-closes before the answer.
    socket.write(bytes);
  });
}

/** The status and body of one whole HTTP/1.1 answer (Content-Length, chunked or read to close). */
export function parseRawAnswer(bytes: Buffer): RawAnswer {
  const split = bytes.indexOf('\r\n\r\n');
  const head = (split === -1 ? bytes : bytes.subarray(0, split)).toString('latin1');
  const rest = split === -1 ? Buffer.alloc(0) : bytes.subarray(split + 4);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  return { status, body: (/^transfer-encoding:\s*chunked\s*$/im.test(head) ? dechunk(rest) : rest).toString('utf8') };
}

/** Chunk sizes count bytes: the body is cut as bytes, and decoded once whole. */
function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    const size = eol === -1 ? 0 : parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
