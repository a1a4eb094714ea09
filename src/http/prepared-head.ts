/**
 * A 200's head written from text built once, for the answers the gateway repeats most (stored
 * GraphQL results). node's `writeHead` checks every header name and value against its regular
 * expressions and joins the head anew on each answer: about a tenth of a warm answer's
 * instructions (docs/notes/2026-11-28-warm-instructions.md). Here a head's lines are checked once,
 * with node's own public validators, and each answer adds only node's per-answer lines.
 *
 * Writing it sets what node's `_storeHeader` sets (`_header`, `_headerSent`; node 20's
 * lib/_http_outgoing.js), so it is done only in the one case whose lines are known: a connection
 * kept alive (HTTP/1.1, or 1.0 asking for it), a body, no header set or removed on the response
 * before, no 100-continue pending, no strict length check. In any other case, and on a node whose
 * response lacks those fields, the caller writes through `writeHead`.
 */
import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';

/** A head's checked lines, `name: value\r\n` each, without the status line and node's own lines. */
export type HeadLines = string & { readonly checked: unique symbol };

/** Header names node reads as it stores them: such a head is left to `writeHead`. */
const NODE_READS = new Set(['connection', 'transfer-encoding', 'date', 'expect', 'trailer', 'keep-alive', 'content-disposition']);

/**
 * The lines of a flat header list (lower-case names, as `flatHead` gives), or undefined when node
 * must see it: a name node acts on, or no Content-Length (node would frame the body itself).
 * Throws as `writeHead` would on a name or value HTTP forbids.
 */
export function headLines(list: readonly string[]): HeadLines | undefined {
  let lines = '';
  let length = false;
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i]!;
    const value = list[i + 1]!;
    validateHeaderName(name);
    validateHeaderValue(name, value);
    if (NODE_READS.has(name)) return undefined;
    if (name === 'content-length') length = true;
    lines += `${name}: ${value}\r\n`;
  }
  return length ? (lines as HeadLines) : undefined;
}

/** The fields of node's response this reads and sets (node 20). */
interface NodeResponseState {
  _header: string | null;
  _headerSent: boolean;
  _hasBody: boolean;
  _expect_continue: boolean;
  _sent100: boolean;
  _keepAliveTimeout: number;
  _defaultKeepAlive: boolean;
  _maxRequestsPerSocket: number | undefined;
  _removedConnection: boolean;
  _removedContLen: boolean;
  _removedTE: boolean;
  maxRequestsOnConnectionReached: boolean;
}

/** node's symbol for headers set one by one (`setHeader`): found on the first response. */
let outHeaders: symbol | null | undefined;

/**
 * Ends `res` with a 200 of `lines`, `extra` (more checked lines, or '') and `body`; false, having
 * written nothing, when the response is not the case this knows.
 */
export function endOk(res: ServerResponse, lines: HeadLines, extra: string, body: Buffer): boolean {
  const state = res as unknown as NodeResponseState;
  if (outHeaders === undefined) outHeaders = nodeOutHeaders(res);
  if (
    outHeaders === null ||
    state._header !== null ||
    (res as unknown as Record<symbol, unknown>)[outHeaders] !== null ||
    !res.shouldKeepAlive ||
    state.maxRequestsOnConnectionReached ||
    !state._hasBody ||
    (state._expect_continue && !state._sent100) ||
    !res.sendDate ||
    res.strictContentLength ||
    state._removedConnection ||
    state._removedContLen ||
    state._removedTE
  ) {
    return false;
  }
  let head = `HTTP/1.1 200 OK\r\n${lines}${extra}Date: ${utcDate()}\r\nConnection: keep-alive\r\n`;
  if (state._keepAliveTimeout && state._defaultKeepAlive) {
    // node's own test: a limit past 32 bits (or Infinity) is written as none.
    const max = ~~state._maxRequestsPerSocket! > 0 ? `, max=${state._maxRequestsPerSocket}` : '';
    head += `Keep-Alive: timeout=${Math.floor(state._keepAliveTimeout / 1000)}${max}\r\n`;
  }
  res.statusCode = 200;
  res.statusMessage = 'OK';
  state._header = `${head}\r\n`;
  state._headerSent = false;
  res.end(body);
  return true;
}

/** The symbol node keeps `setHeader`'s headers under, or null when this node has none such. */
function nodeOutHeaders(res: ServerResponse): symbol | null {
  const symbol = Object.getOwnPropertySymbols(res).find((s) => s.description === 'kOutHeaders');
  const state = res as unknown as Partial<NodeResponseState>;
  const known =
    '_header' in state &&
    '_headerSent' in state &&
    typeof state._hasBody === 'boolean' &&
    typeof state._keepAliveTimeout === 'number' &&
    typeof state._defaultKeepAlive === 'boolean' &&
    typeof state._removedConnection === 'boolean' &&
    typeof state._removedContLen === 'boolean' &&
    typeof state._removedTE === 'boolean';
  return symbol && known ? symbol : null;
}

let date = '';
let dateUntil = 0;

/** The Date line's value, made once a second as node's own is; again at once if the clock is set back. */
function utcDate(): string {
  const now = Date.now();
  if (now >= dateUntil || now < dateUntil - 1000) {
    date = new Date(now).toUTCString();
    dateUntil = now - (now % 1000) + 1000;
  }
  return date;
}
