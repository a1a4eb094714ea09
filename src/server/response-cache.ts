/**
 * The response fast path: whole GraphQL results of repeated documents, answered on node:http ahead
 * of yoga (as the REST layer answers), with the stored bytes and headers.
 *
 * - Key: the method, the Accept header (which decides the content type) and the bytes yoga parses
 *   (rawKey), or their SHA-256 when long.
 * - Stored: only a result yoga produced (so every check passed: limits, CSRF, persisted operations)
 *   of a query whose root fields are all public (isCacheableOperation), with no error, no
 *   `extensions.stale`, built only from cached upstream answers. Never subscriptions or batches.
 * - Fresh while every upstream answer it was built from is current in the upstream cache; an answer
 *   past its freshness is asked again through the cache (a 304, or a global-ETag 304 of another
 *   entry, keeps the result without executing it); when one changed, the request executes again.
 * - Only requests yoga would answer are answered: a POST that is not JSON (which CSRF prevention
 *   may refuse, graphql/plugins/csrf.ts) or has no Content-Length within MAX_BODY_BYTES goes to
 *   yoga untouched. A GET needs no CSRF-prevention header, so none is part of its key: the answer
 *   depends on the method, the Accept header and the parameters only.
 */
import { createHash, hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendNodeResponse } from '@whatwg-node/server';
import type { GraphQLParams } from 'graphql-yoga';
import { ByteLru } from '../lib/byte-lru.js';
import { FrequencySketch } from '../lib/frequency-sketch.js';
import { untilClientLeaves } from '../lib/cancellation.js';
import { clientIdOf } from '../http/client-identity.js';
import { graphqlEtagMatches, GET_ANSWER_VARY as VARY } from '../http/etag.js';
import { isGraphqlTarget } from '../http/graphql-target.js';
import { isUtf8Json } from '../http/media-type.js';
import type { ResultCandidate } from '../graphql/plugins/result-candidates.js';
import { flatHead, headerValue, writeHead } from '../http/node-response.js';
import { endOk, headLines, type HeadLines } from '../http/prepared-head.js';
import type { Metrics } from '../observe/metrics.js';
import type { CorsPolicy } from '../http/cors.js';
import type { UsedAnswer, UsedAnswers } from '../upstream/request.js';
import type { ServedStats } from './served-stats.js';
import { SingleLookup } from '../upstream/request-slots.js';

/** The server context yoga gets from the listener (see listener.ts). */
export interface FastPathContext {
  requestId: string;
  stats: ServedStats;
}

/**
 * Runs a request through yoga: the node request as is, or with its body already read (`body`), and
 * then its parameters too when the body was parsed to key it (`params`, graphql/plugins/parsed-params.ts).
 */
export type ViaYoga = (context: { candidate?: ResultCandidate; params?: GraphQLParams }, body?: Buffer) => Promise<Response>;

interface StoredResult {
  body: Buffer;
  /** yoga's headers, without the per-request ones (request id, CORS, length). */
  headers: Record<string, string>;
  etag: string | undefined;
  operationName: string | undefined;
  used: UsedAnswer[];
  /**
   * The head of its 200 but the request id, for the CORS headers it was last sent with (one object
   * per origin, corsPolicy): built once, copied per answer, so no answer walks four header objects.
   */
  head?: { cors: Readonly<Record<string, string>>; list: readonly string[]; lines: HeadLines | undefined };
  /** How often it was asked lately, counted at `epoch` of the admission sketch (see `admitted`). */
  asked: number;
  epoch: number;
}

export interface ResponseCacheDeps {
  maxBytes: number;
  maxBodyBytes: number;
  trustProxy: number;
  cors: CorsPolicy;
  metrics: Metrics;
  /** MAX_UPSTREAM_CALLS_PER_REQUEST and MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST: revalidations too. */
  maxUpstreamCalls: number;
  maxConcurrentUpstreamCalls: number;
}

/** Headers of yoga's answer that frame its body: a buffered answer is sent with its own Content-Length. */
const FRAMING = new Set(['content-length', 'transfer-encoding']);
/** Headers of yoga's answer that belong to one request, not to the result. */
const PER_REQUEST = new Set(['x-request-id', 'vary', 'date', 'connection', 'keep-alive']);
/** What a stored result keeps alive besides its bytes: its key, headers and the answers it holds. */
const ENTRY_OVERHEAD = 512;
/** A stored result's usual weight with the upstream answers it holds: sizes the admission sketch. */
const TYPICAL_ENTRY_BYTES = 4096;
/**
 * How fast a result's count of askings fades: a document popular a minute ago and asked no more
 * (a frontend's new release) holds 15 >> 6 = 0, so it never keeps new documents out for long;
 * one asked every few seconds keeps its count against a flood of documents asked once.
 */
const ASKED_HALF_LIFE_MS = 10_000;

export function createResponseCache({
  maxBytes,
  maxBodyBytes,
  trustProxy,
  cors,
  metrics,
  maxUpstreamCalls,
  maxConcurrentUpstreamCalls,
}: ResponseCacheDeps) {
  const results = new ByteLru<StoredResult>(maxBytes, (key, result) => {
    let size = ENTRY_OVERHEAD + key.length + result.body.length;
    for (const used of result.used) size += used.key.length + used.response.body.length;
    return size;
  });
  metrics.watchCacheBytes('responses', () => results.bytes);
  /**
   * Admission (TinyLFU): a new result that would evict another is kept only when its document was
   * asked more often lately than the one to go. So a client sending a new document every time (a
   * nonce in its variables) cannot push out the results others keep asking for: its documents,
   * asked once each, lose to any result asked again since. Counted on misses here, and on each
   * stored answer in the entry itself (no hashing on the warm path).
   */
  const asked = new FrequencySketch(maxBytes / TYPICAL_ENTRY_BYTES, ASKED_HALF_LIFE_MS);
  function admitted(key: string, candidate: StoredResult): boolean {
    const victim = results.victimFor(key, candidate);
    return victim === undefined || candidate.asked > asked.aged(victim.asked, victim.epoch);
  }

  /**
   * Whether every answer behind `stored` is current: synchronously when all are fresh in process;
   * undefined when the client left before that was known. What it asks the upstream for is noted
   * in `stats.used`, where execution finds it.
   */
  function current(
    stored: StoredResult,
    req: IncomingMessage,
    res: ServerResponse,
    call: FastPathContext,
  ): boolean | Promise<boolean | undefined> {
    // The warm path, every answer current, allocates nothing here.
    let pending: UsedAnswer[] | undefined;
    for (const used of stored.used) if (!used.service.isCurrent(used)) (pending ??= []).push(used);
    if (pending === undefined) return true;
    // A request's revalidations are its upstream calls, held to its bounds as an execution's are;
    // past the count, executing does the calls it may and refuses the rest.
    if (pending.length > maxUpstreamCalls) return false;
    call.stats.used = usedLog();
    const signal = untilClientLeaves(res);
    const options = { signal, requestId: call.requestId, stats: call.stats, client: clientIdOf(req, trustProxy) };
    // A revalidation cut short by its client's leaving says nothing of the stored result.
    const notCurrent = () => (signal.aborted ? undefined : false);
    // One revalidation first: on a global-ETag service its 304 confirms every entry with that ETag,
    // even when nothing stays fresh (CACHE_TTL_MS=0): it answered after this request came.
    const since = Date.now();
    const [first, ...rest] = pending;
    return first!.service.confirm(first!, options).then(async (confirmed) => {
      if (!confirmed) return notCurrent();
      const left = rest.filter((used) => !used.service.isCurrent(used, since));
      const all = await new SingleLookup(maxConcurrentUpstreamCalls).spread(left, (used) => used.service.confirm(used, options));
      return all.every(Boolean) || notCurrent();
    });
  }

  /** The stored answer, its head written whole (listener.ts left the request id to it). */
  function answerStored(stored: StoredResult, req: IncomingMessage, res: ServerResponse, call: FastPathContext, started: number): void {
    const { stats, requestId } = call;
    stored.asked = asked.again(stored.asked, stored.epoch);
    stored.epoch = asked.epoch;
    if (stored.operationName) stats.noteOperation(stored.operationName);
    stats.noteCache('hit');
    metrics.graphqlOperation('query', (performance.now() - started) / 1000);
    metrics.responseCache('hit');
    const corsHeaders = cors(headerValue(req.headers.origin), false);
    // A result with an ETag is a cacheable GET's (plugins/http-caching.ts): it varies by Accept too.
    const vary = stored.etag ? (corsHeaders.vary ? `${VARY}, ${corsHeaders.vary}` : VARY) : undefined;
    if (req.method === 'GET' && graphqlEtagMatches(headerValue(req.headers['if-none-match']), stored.etag)) {
      const cacheControl = stored.headers['cache-control'];
      const cached: Record<string, string> = cacheControl ? { 'cache-control': cacheControl, vary: vary! } : { vary: vary! };
      writeHead(res, 304, corsHeaders, { etag: stored.etag!, 'x-request-id': requestId }, cached).end();
      return;
    }
    if (stored.head?.cors !== corsHeaders) {
      const length = String(stored.body.length);
      const own: Record<string, string> = vary ? { 'content-length': length, vary } : { 'content-length': length };
      const list = flatHead([stored.headers, corsHeaders, own]);
      stored.head = { cors: corsHeaders, list, lines: headLines(list) };
    }
    // The request id is a sane token (http/request-id.ts): a line as it is.
    if (stored.head.lines && endOk(res, stored.head.lines, `x-request-id: ${requestId}\r\n`, stored.body)) return;
    // A copy: the kept list, old, must not point at each request's young id.
    const head = stored.head.list.slice();
    head.push('x-request-id', requestId);
    res.writeHead(200, head).end(stored.body);
  }

  /** yoga answers; its result is kept when it qualifies. */
  async function execute(
    key: string,
    req: IncomingMessage,
    res: ServerResponse,
    stats: ServedStats,
    viaYoga: ViaYoga,
    requestBody?: Buffer,
    params?: GraphQLParams,
  ): Promise<void> {
    metrics.responseCache('miss');
    const used = stats.used ?? usedLog();
    used.answers = [];
    used.complete = true;
    stats.used = used;
    const candidate: ResultCandidate = { cacheable: false, clean: false };
    const response = await viaYoga({ candidate, params }, requestBody);
    stats.used = undefined;
    if (!(candidate.cacheable && candidate.clean && used.complete && response.status === 200) || res.destroyed) {
      await sendNodeResponse(response, res, req, true);
      return;
    }
    const bytes = await response.arrayBuffer();
    // yoga's answers hold their bytes already (graphql/byte-responses.ts): kept, not copied.
    const body = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
    // `sent`: this answer's headers; `headers`: what every later answer of the stored result repeats.
    // Both are sent with the body's Content-Length, so never with yoga's framing (a multipart answer
    // names Transfer-Encoding: chunked, and a client must refuse a message with both). Names are
    // compared in lower case: yoga's Headers keep the case they were set with.
    const sent: Record<string, string> = {};
    const headers: Record<string, string> = {};
    response.headers.forEach((value, given) => {
      const name = given.toLowerCase();
      if (FRAMING.has(name)) return;
      sent[name] = value;
      if (!PER_REQUEST.has(name) && !name.startsWith('access-control-')) headers[name] = value;
    });
    const byKey = new Map(used.answers.map((answer) => [answer.key, answer]));
    const result: StoredResult = {
      body,
      headers,
      etag: headers.etag,
      operationName: stats.operationName,
      used: [...byKey.values()],
      asked: asked.increment(key),
      epoch: asked.epoch,
    };
    if (admitted(key, result)) {
      results.set(key, result);
      metrics.responseCache('stored');
    } else metrics.responseCache('refused');
    if (res.destroyed) return;
    writeHead(res, 200, sent, { 'content-length': String(body.length) }).end(body);
  }

  /**
   * The request's key and its stored result, if any; undefined for what only yoga can answer. The
   * parameters are parsed only when the bytes find nothing: whether yoga takes them as they are
   * (else nothing is stored).
   */
  function find(req: IncomingMessage, body: Buffer | undefined): Found | undefined {
    const key = rawKey(req, body);
    const stored = results.get(key);
    if (stored) return { key, stored };
    if (body === undefined) return keyable(new URLSearchParams((req.url ?? '').slice('/graphql?'.length))) ? { key } : undefined;
    const params = postParams(body);
    return params === undefined ? undefined : { key, params };
  }

  return {
    /** GraphQL GETs with parameters, and JSON POSTs (preflighted, so never refused for CSRF). */
    accepts(req: IncomingMessage): boolean {
      const url = req.url ?? '';
      if (!isGraphqlTarget(url)) return false;
      if (req.method === 'GET') return url.length > '/graphql?'.length;
      if (req.method !== 'POST') return false;
      // As yoga reads it (media-type.ts): anything else is yoga's to parse, or to answer 415.
      const given = req.headers['content-type'] ?? '';
      const length = Number(req.headers['content-length']);
      return isUtf8Json(given) && Number.isSafeInteger(length) && length <= maxBodyBytes;
    },

    async serve(req: IncomingMessage, res: ServerResponse, context: FastPathContext, viaYoga: ViaYoga): Promise<void> {
      const started = performance.now();
      let body: Buffer | undefined;
      if (req.method !== 'GET') {
        body = await readBody(req, maxBodyBytes);
        if (body === undefined) return;
      }
      const found = find(req, body);
      if (found?.stored) {
        const valid = current(found.stored, req, res, context);
        const verdict = valid === true || (await valid);
        if (verdict) return answerStored(found.stored, req, res, context, started);
        // Its client left: nobody to answer, and the stored result stays for the others (dropping
        // it made every request in flight execute the document again, each storing its result).
        if (verdict === undefined) return;
        results.delete(found.key);
      }
      // Every answer but a stored one is written header by header, the request id first.
      res.setHeader('x-request-id', context.requestId);
      if (found === undefined) {
        await sendNodeResponse(await viaYoga({}, body), res, req, true);
        return;
      }
      await execute(found.key, req, res, context.stats, viaYoga, body, found.params);
    },

    /** Bytes held: for metrics and tests. */
    // eslint-disable-next-line no-restricted-syntax -- made once per process
    get bytes(): number {
      return results.bytes;
    },
  };
}
export type ResponseCache = ReturnType<typeof createResponseCache>;

function usedLog(): UsedAnswers {
  return { answers: [], complete: true, asked: new Map() };
}

/**
 * Keys of this many bytes or more are kept as their SHA-256. A Map hashes a string key in full on
 * every lookup, a character at a time: the 4.3 KB body of twenty aliased tokens spent 8.8 µs a
 * request there, three times what hashing it costs. (Above 16,383 characters V8 hashes a string
 * by its length alone, so such keys would also share one bucket.)
 */
const KEY_DIGEST_FROM = 1024;

/**
 * A request's key: its method, Accept header and the bytes yoga parses (what follows `/graphql?`,
 * or the body), so a repeat is found without parsing anything. It names exactly what produced the
 * stored answer: the same parameters written with other spacing are another key. A header value
 * holds no line break, so the first two lines of a key are always its method and Accept header.
 */
function rawKey(req: IncomingMessage, body: Buffer | undefined): string {
  const accept = headerValue(req.headers.accept) ?? '';
  if (body === undefined) {
    const key = `GET\n${accept}\n${(req.url ?? '').slice('/graphql?'.length)}`;
    return key.length < KEY_DIGEST_FROM ? key : `sha256\n${hash('sha256', key, 'base64url')}`;
  }
  const head = `POST\n${accept}\n`;
  if (head.length + body.length < KEY_DIGEST_FROM) return `${head}${body.toString('latin1')}`;
  return `sha256\n${createHash('sha256').update(head, 'latin1').update(body).digest('base64url')}`;
}

/** A request's key, the stored result under it, and the parameters parsed from a POST body. */
interface Found {
  key: string;
  stored?: StoredResult;
  params?: GraphQLParams;
}

/** Whether a GET names a document (or a persisted one, in its extensions). */
function keyable(params: URLSearchParams): boolean {
  return params.get('query') !== null || (params.get('extensions') ?? '') !== '';
}

/** A single operation's parameters; undefined for what only yoga can say (not JSON, a batch). */
function postParams(body: Buffer): GraphQLParams | undefined {
  let params: unknown;
  try {
    params = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  // Only parameters yoga takes as they are: anything it refuses (an unknown parameter, a query
  // that is not a string, variables that are not an object) is never stored, so yoga says so.
  for (const name of Object.keys(params)) if ((params as Record<string, unknown>)[name] != null && !PARAMETERS.has(name)) return undefined;
  const { query, operationName, variables, extensions } = params as Record<string, unknown>;
  if (query != null && typeof query !== 'string') return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (!emptyOrObject(variables) || !emptyOrObject(extensions)) return undefined;
  if (typeof query !== 'string' && extensions == null) return undefined;
  return params as GraphQLParams;
}

const PARAMETERS = new Set(['query', 'operationName', 'variables', 'extensions']);

function emptyOrObject(value: unknown): boolean {
  return value == null || (typeof value === 'object' && !Array.isArray(value));
}

/**
 * The body, at most `maxBytes` (Content-Length was checked). Node's requestTimeout bounds how long
 * a client may take to send it; a client that leaves gets nothing (undefined).
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    // Each is emitted once at most, and a promise settles once: on(), without once()'s wrappers.
    // No 'error' listener: a request emits 'error' only to listeners (node's IncomingMessage), and
    // 'close' follows whatever ended it before its end.
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('close', () => {
      if (!req.complete) resolve(undefined);
    });
  });
}
