/**
 * Requests node's HTTP parser refuses before any listener sees them (a header section over the
 * limit, an unknown method, bad bytes in the target, a malformed request line or header, a client
 * too slow to send its request): node's `clientError`. Without a handler node answers them with an
 * empty status line, and no access line or metric shows them. Here each is answered with a short
 * JSON error and `Connection: close`, logged once (the parser's code, never the bytes: `rawPacket`
 * may hold a key or hostile text) and counted by a reason from a fixed set.
 */
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { clientIdOf } from '../http/client-identity.js';
import type { ClientErrorReason, Metrics } from '../observe/metrics.js';

interface Refusal {
  reason: ClientErrorReason;
  status: number;
  code: 'BAD_REQUEST' | 'REQUEST_TIMEOUT';
  message: string;
}

const MALFORMED: Refusal = { reason: 'malformed', status: 400, code: 'BAD_REQUEST', message: 'Malformed HTTP request' };

/** node's error codes (llhttp's `HPE_*`, node's own `ERR_*`) → what the client is told. */
const REFUSALS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: { reason: 'header_overflow', status: 431, code: 'BAD_REQUEST', message: 'Request header fields too large' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { reason: 'malformed', status: 413, code: 'BAD_REQUEST', message: 'Chunk extensions too large' },
  ERR_HTTP_REQUEST_TIMEOUT: {
    reason: 'request_timeout',
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request was not received within REQUEST_TIMEOUT_MS',
  },
  HPE_INVALID_METHOD: { reason: 'invalid_method', status: 400, code: 'BAD_REQUEST', message: 'Unknown HTTP method' },
  HPE_INVALID_URL: { reason: 'invalid_target', status: 400, code: 'BAD_REQUEST', message: 'Malformed request target' },
  HPE_INVALID_HEADER_TOKEN: { reason: 'invalid_header', status: 400, code: 'BAD_REQUEST', message: 'Malformed header' },
  HPE_INVALID_CONTENT_LENGTH: { reason: 'invalid_header', status: 400, code: 'BAD_REQUEST', message: 'Malformed header' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { reason: 'invalid_header', status: 400, code: 'BAD_REQUEST', message: 'Malformed header' },
  HPE_INVALID_TRANSFER_ENCODING: { reason: 'invalid_header', status: 400, code: 'BAD_REQUEST', message: 'Malformed header' },
};

/** A socket's error is not a refusal: the parser's codes and node's request deadline are. */
const isRefusal = (code: string) => code.startsWith('HPE_') || code in REFUSALS;

/** The whole answer, written straight to the socket: there is no ServerResponse for a refused request. */
function answer({ status, code, message }: Refusal): string {
  const body = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

export function answerClientErrors(http: Server, { logger, metrics }: { logger: Logger; metrics: Metrics }): void {
  http.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const code = error.code ?? 'unknown';
    // A client that reset the connection, or a socket error that is no refusal: nothing to answer.
    // Nor to a connection that sent nothing before the deadline: a browser's or a proxy's unused
    // preconnection is no refused request.
    if (code === 'ECONNRESET' || !isRefusal(code) || socket.bytesRead === 0) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS[code] ?? MALFORMED;
    // A keyed hash of the peer's address, as client-identity.ts keeps it: never the address itself.
    const client = clientIdOf({ socket, headers: {} }, 0);
    // node's own guard: a response already begun on this connection (a pipelined request's, or
    // the one whose body never came) must not get a second status line in its middle.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    const answered = socket.writable && !inFlight?.headersSent;
    if (answered) socket.end(answer(refusal), () => socket.destroy());
    else socket.destroy();
    metrics.clientError(refusal.reason);
    // As the access log counts a client gone before any answer: 499.
    logger.info({ status: answered ? refusal.status : 499, reason: refusal.reason, code, client }, 'request refused');
  });
}
