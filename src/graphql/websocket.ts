/**
 * graphql-ws over WebSocket on /graphql, as yoga documents it: the `ws` server takes the HTTP
 * upgrade, graphql-ws speaks the protocol, and every operation runs through yoga's envelop (the
 * same context, query limits, error masking and metrics as over HTTP). What yoga does outside its
 * envelop, on HTTP only, is done here too: persisted-only mode, request ids on masked errors, API
 * keys scrubbed from errors, and yoga's internal error extensions (`http`, `unexpected`) left out.
 *
 * Each operation's context knows the upgrade's client (its address, TRUST_PROXY aware): its upstream
 * calls and subscriptions count against that client's shares as over HTTP. One client holds at most
 * MAX_WEBSOCKETS_PER_CLIENT open sockets (past it the upgrade is answered 429, before any socket
 * exists), the process at most MAX_WEBSOCKETS (past it 503: many clients together, each within its
 * own count, cannot take every file descriptor and buffer the process has), and a socket that does
 * not send connection_init within CONNECTION_INIT_WAIT_MS is closed (4408): an idle socket holds a
 * place only briefly, or within its client's count.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  GraphQLError,
  getOperationAST,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
} from 'graphql';
import type { Context, SubscribePayload } from 'graphql-ws';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { clientIdOf } from '../http/client-identity.js';
import { linkedDeadline, type LinkedDeadline } from '../lib/cancellation.js';
import { persistedDocument } from './limits/persisted-operations.js';
import { scrubSecrets } from './plugins/secret-scrubbing.js';
import { mapPayloadErrors } from './incremental-delivery.js';
import { requestIdFrom } from '../http/request-id.js';
import { unexpectedErrorIds } from './plugins/unexpected-errors.js';
import { setupTurn } from '../live/setup-turns.js';
import { refusalError, type StartsRefusal } from '../live/client-seats.js';
import { cutWhenNotRead } from './websocket-backpressure.js';
import { serveGraphqlWs, type Extra } from './websocket-transport.js';
import { requestTimeoutError, type SatgateServer } from './yoga.js';

export interface WebSocketOptions {
  /** Active subscriptions one connection may hold. */
  maxSubscriptionsPerConnection: number;
  /** Open connections one client may hold (MAX_WEBSOCKETS_PER_CLIENT). */
  maxWebSocketsPerClient: number;
  /** Open connections the process holds for all clients together (MAX_WEBSOCKETS). */
  maxWebSockets: number;
  /** TRUST_PROXY: how many proxies' X-Forwarded-For entries to believe, as over HTTP. */
  trustProxy: number;
  maxPayloadBytes: number;
  /** `*` or the browser origins allowed. */
  origins: string[];
  /** graphql-ws pings this often; a peer that does not answer is dropped. */
  keepAliveMs?: number;
  /** PERSISTED_OPERATIONS, loaded: only these documents run, as over HTTP. */
  persistedOperations?: ReadonlyMap<string, string>;
  /** REQUEST_TIMEOUT_MS: bounds each query and mutation, as over HTTP. */
  requestTimeoutMs: number;
  /** What a new subscription of a client would be refused with now; undefined when it may start (the live hub's). */
  startRefusal(client: string | undefined): StartsRefusal | undefined;
}

/** How long an opened socket may wait before its connection_init (graphql-ws closes it with 4408). */
const CONNECTION_INIT_WAIT_MS = 3_000;
/** How long the results of operations cut at shutdown get to go out before the sockets close. */
const CUT_RESULTS_WAIT_MS = 250;

type Enveloped = ReturnType<SatgateServer['getEnveloped']>;
type ConnectionState = {
  /** The connection's own signal: a closed socket cancels its upstream work. */
  controller?: AbortController;
  /** Operations running on the connection. */
  operations?: number;
  /** The deadlines of its queries and mutations in flight, by operation id. */
  deadlines?: Map<string, LinkedDeadline>;
};

export function attachWebSockets(http: Server, yoga: SatgateServer, options: WebSocketOptions, logger: Logger) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
  /** Open sockets per client (keyed hash): an entry lives while its client has one. */
  const perClient = new Map<string, number>();
  /** Open sockets of every client, counted as perClient counts them (a client without an address too). */
  let open = 0;
  /**
   * The deadlines of the queries and mutations running on every connection: shutdown waits for
   * them, then cuts them. Subscriptions are not waited for: the close (1001) ends them.
   */
  const deadlines = new Set<LinkedDeadline>();
  /** Shutdown began: a new operation is refused, as a new HTTP request is. */
  let closing = false;
  const withIds = unexpectedErrorIds(logger);
  /** An answer as HTTP would give it (see above); one without errors as it is. */
  const finish = (
    client: IncomingMessage,
    connectionParams: Readonly<Record<string, unknown>> | undefined,
    payload: SubscribePayload,
    result: ExecutionResult,
    document?: DocumentNode,
    requestId?: string,
  ) => {
    if (!result.errors?.length) return result;
    const request = new Request('http://localhost/graphql', { headers: headersOf(client, connectionParams) });
    const given = {
      texts: typeof payload.query === 'string' ? [payload.query] : [],
      variables: [payload.variables],
      documents: document ? [document] : [],
    };
    const [scrubbed] = scrubSecrets([withIds(result, requestId ?? request.headers.get('x-request-id')!)], request, given);
    return { ...scrubbed!, errors: scrubbed!.errors!.map(withoutInternals) };
  };
  /**
   * An operation's set-up: the connection's caps, the persisted list, parse, the starts gate,
   * validation and the context, as HTTP gives them. Its arguments, or the errors that refuse it.
   */
  async function setUp(
    ctx: Context<Record<string, unknown>, Extra & ConnectionState>,
    id: string,
    payload: SubscribePayload,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> {
    // Its set-up waits for a turn of the loop of its own (live/setup-turns.ts); from here on,
    // the caps are checked and counted in one go, as before.
    await setupTurn();
    if (closing) return [shuttingDown()];
    const extra = ctx.extra;
    if ((extra.operations ?? 0) >= options.maxSubscriptionsPerConnection) {
      return [
        new GraphQLError(`A connection may hold ${options.maxSubscriptionsPerConnection} operations at once`, {
          extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: options.maxSubscriptionsPerConnection },
        }),
      ];
    }
    extra.controller ??= new AbortController();
    // POST: yoga refuses mutations on a GET, and an operation on an open WebSocket is none.
    const request = new Request('http://localhost/graphql', {
      method: 'POST',
      headers: headersOf(extra.request, ctx.connectionParams),
      signal: extra.controller.signal,
    });
    const query = options.persistedOperations ? persistedDocument(payload, options.persistedOperations) : payload.query;
    if (query instanceof GraphQLError) return [query];
    // `req` (the upgrade) names the client to the context, as node:http's request does over HTTP:
    // the operation's upstream calls and subscriptions count against that client's shares.
    const enveloped = yoga.getEnveloped({ request, params: { ...payload, query }, req: extra.request });
    let document;
    try {
      document = enveloped.parse(query);
    } catch (error) {
      return [error instanceof GraphQLError ? error : new GraphQLError('Syntax error')];
    }
    // A subscription from a client past its minute's starts is refused before its validation,
    // context and set-up (live/client-seats.ts; over HTTP, server/subscription-starts-gate.ts).
    // (A document without the operation asked was refused by parse: operation-resolution.ts.)
    const operation = getOperationAST(document, payload.operationName)?.operation;
    if (operation === 'subscription') {
      const refusal = options.startRefusal(clientIdOf(extra.request, options.trustProxy));
      if (refusal) return [refusalError(refusal)];
    }
    const errors = enveloped.validate(enveloped.schema, document);
    if (errors.length > 0) return errors;
    extra.operations = (extra.operations ?? 0) + 1;
    // REQUEST_TIMEOUT_MS for a query or mutation, as over HTTP: the fields still waiting at the
    // deadline answer REQUEST_TIMEOUT, or fail when the connection closes. A subscription lasts
    // as long as its connection.
    let deadline: LinkedDeadline | undefined;
    if (operation !== 'subscription') {
      deadline = linkedDeadline(extra.controller.signal, options.requestTimeoutMs, () => requestTimeoutError(options.requestTimeoutMs));
      (extra.deadlines ??= new Map()).set(id, deadline);
      deadlines.add(deadline);
    }
    const args: ExecutionArgs = {
      schema: enveloped.schema,
      document,
      operationName: payload.operationName,
      variableValues: payload.variables,
      contextValue: await enveloped.contextFactory(deadline ? { cancellation: deadline.cancellation } : {}),
      rootValue: enveloped,
    };
    return args;
  }

  const server = serveGraphqlWs<ConnectionState>(
    {
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      // A payload of @defer/@stream carries its later errors in `incremental`: each item's are finished too.
      onNext: (ctx, _id, payload, args, result) =>
        mapPayloadErrors(result, (results) =>
          results.map((one) =>
            finish(
              ctx.extra.request,
              ctx.connectionParams,
              payload,
              one,
              args.document,
              (args.contextValue as { requestId?: string }).requestId,
            ),
          ),
        ),
      onError: (ctx, _id, payload, errors) => finish(ctx.extra.request, ctx.connectionParams, payload, { errors }).errors,
      // An id is never in use by two operations at once (websocket-transport.ts): a deadline is
      // known by its operation's id.
      onSubscribe: (ctx, id, payload) => setUp(ctx, id, payload),
      onComplete: (ctx, id) => {
        const extra = ctx.extra;
        const deadline = extra.deadlines?.get(id);
        if (deadline) {
          deadline.stop();
          deadlines.delete(deadline);
          extra.deadlines!.delete(id);
        }
        extra.operations = Math.max(0, (extra.operations ?? 1) - 1);
      },
      onClose: (ctx) => {
        ctx.extra.controller?.abort();
        ctx.extra.deadlines?.forEach((deadline) => {
          deadline.stop();
          deadlines.delete(deadline);
        });
      },
    },
    wss,
    options.keepAliveMs ?? 12_000,
    logger,
  );

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const origin = req.headers.origin;
    const allowed = !origin || options.origins.includes('*') || options.origins.includes(origin);
    if (path !== '/graphql' || !allowed) {
      socket.end(
        `HTTP/1.1 ${allowed ? 404 : 403} ${allowed ? 'Not Found' : 'Forbidden'}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`,
      );
      return;
    }
    const client = clientIdOf(req, options.trustProxy);
    const held = client === undefined ? 0 : (perClient.get(client) ?? 0);
    if (held >= options.maxWebSocketsPerClient) {
      refuse(socket, '429 Too Many Requests', `This client holds its maximum of ${options.maxWebSocketsPerClient} WebSocket connections`);
      return;
    }
    if (open >= options.maxWebSockets) {
      refuse(socket, '503 Service Unavailable', `The gateway holds its maximum of ${options.maxWebSockets} WebSocket connections`);
      return;
    }
    // Counted from the upgrade to the socket's close, whether or not the handshake succeeds.
    open += 1;
    if (client !== undefined) perClient.set(client, held + 1);
    socket.once('close', () => {
      open -= 1;
      if (client === undefined) return;
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
    wss.handleUpgrade(req, socket, head, (ws) => {
      cutWhenNotRead(ws);
      wss.emit('connection', ws, req);
    });
  };
  http.on('upgrade', onUpgrade);
  wss.on('error', (error) => logger.warn({ err: error.message }, 'websocket server error'));

  return {
    // eslint-disable-next-line no-restricted-syntax -- made once per process
    get connections() {
      return wss.clients.size;
    },
    /**
     * Closes every connection with 1001 ("going away") once its queries and mutations have ended:
     * they get `graceMs` to finish, as HTTP requests in flight do; those still running then end at
     * once, their waiting fields answering SHUTTING_DOWN, so the client gets their result and
     * complete before the close. Subscriptions get no `complete` (the live hub is suspended, not
     * closed): graphql-ws's client retries a 1001 and subscribes again, to a replica that serves.
     */
    async close(graceMs = 1000) {
      http.off('upgrade', onUpgrade);
      closing = true;
      const until = async (deadline: number) => {
        while (deadlines.size > 0 && Date.now() < deadline) await sleep(10);
      };
      await until(Date.now() + graceMs);
      for (const deadline of deadlines) deadline.cut(shuttingDown());
      await until(Date.now() + CUT_RESULTS_WAIT_MS);
      for (const client of wss.clients) client.close(1001, 'Server shutting down');
      server.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** An operation asked for, or cut, while the gateway shuts down (HTTP's 503 answer says the same). */
function shuttingDown(): GraphQLError {
  return new GraphQLError('The gateway is shutting down', { extensions: { code: 'SHUTTING_DOWN' } });
}

/** An upgrade answered in plain HTTP before any socket exists, and the connection closed. */
function refuse(socket: Duplex, status: string, text: string): void {
  socket.end(
    `HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}

/**
 * Only what the context reads: the platform key and the request id. The key is the upgrade's
 * `x-api-key` header, else `x-api-key` in connection_init's payload (`connectionParams`): a
 * browser's WebSocket cannot send headers. Either way it reaches the context as the header does
 * over HTTP, so it is scrubbed from errors and never logged the same way.
 */
function headersOf(req: IncomingMessage, connectionParams: Readonly<Record<string, unknown>> | undefined): Headers {
  const headers = new Headers();
  const header = req.headers['x-api-key'];
  const param = connectionParams?.['x-api-key'];
  const key = typeof header === 'string' ? header : param;
  // Headers refuses what a header cannot hold (a newline): such a key is no key, as over HTTP.
  if (typeof key === 'string' && /^[\x20-\x7e]*$/.test(key)) headers.set('x-api-key', key);
  headers.set('x-request-id', requestIdFrom(req.headers['x-request-id']));
  return headers;
}

/** An error as yoga serialises it over HTTP: without its internal `http` and `unexpected` extensions. */
function withoutInternals(error: GraphQLError | GraphQLFormattedError): GraphQLFormattedError {
  const json = error instanceof GraphQLError ? error.toJSON() : error;
  if (!json.extensions) return json;
  const { http: _http, unexpected: _unexpected, ...extensions } = json.extensions;
  const { extensions: _all, ...rest } = json;
  return Object.keys(extensions).length > 0 ? { ...rest, extensions } : rest;
}
