import { isAsyncIterable } from '@envelop/core';
import { processRegularResult, type Plugin } from 'graphql-yoga';

/** A way to receive a subscription's results, as a 406 names it. */
export interface SubscriptionTransport {
  protocol: string;
  /** What the client sends: the Accept media type over HTTP, or the WebSocket subprotocol. */
  accept?: string;
  subprotocol?: string;
  path: string;
}

/** The transports satgate serves subscriptions over (multipart: plugins/multipart-subscriptions.ts). */
export const SUBSCRIPTION_TRANSPORTS: SubscriptionTransport[] = [
  { protocol: 'GraphQL over Server-Sent Events', accept: 'text/event-stream', path: '/graphql' },
  { protocol: "Apollo's multipart HTTP subscriptions", accept: 'multipart/mixed;subscriptionSpec=1.0', path: '/graphql' },
  { protocol: 'graphql-ws (WebSocket)', subprotocol: 'graphql-transport-ws', path: '/graphql' },
];

/** The Accept media types of the HTTP subscription transports. */
const HTTP_STREAM_TYPES = SUBSCRIPTION_TRANSPORTS.flatMap((transport) => (transport.accept ? [transport.accept] : []));

/**
 * yoga answers a result it cannot send in any media type the client accepts (a subscription under
 * `accept: application/json`, anything under `accept: text/html`) with an empty 406 whose Accept
 * header repeats each type once per type asked for. This answer says, in the error contract, what
 * to send instead, and names each type once. A subscription's stream is closed: nobody reads it,
 * and an open one holds a subscriber's place and its poller.
 *
 * A method yoga refuses (PUT, DELETE, a mutation over GET) keeps its 405 and Allow, in JSON
 * whatever the Accept: no media type would make that request succeed, RFC 9110 lets a server
 * ignore Accept for an error rather than answer 406, and an event stream client reads a non-2xx
 * answer's body as JSON (graphql-sse's NetworkError), not as events.
 */
export function useNotAcceptableAnswer(): Plugin {
  return {
    onResultProcess({ result, resultProcessor, acceptableMediaTypes, setResultProcessor }) {
      if (isMethodRefusal(result)) {
        setResultProcessor(processRegularResult, 'application/json');
        return;
      }
      if (resultProcessor) return;
      const subscription = isAsyncIterable(result);
      // yoga knows its own stream types; the multipart transport is satgate's plugin, not among them.
      const types = [...new Set(subscription ? [...acceptableMediaTypes, ...HTTP_STREAM_TYPES] : acceptableMediaTypes)];
      const message = subscription
        ? `A subscription is answered as a stream, over: ${SUBSCRIPTION_TRANSPORTS.map(describe).join('; ')}`
        : `None of the media types in accept can carry this answer: send accept: ${types.join(', ')}`;
      const extensions = { code: 'NOT_ACCEPTABLE', accept: types, ...(subscription ? { transports: SUBSCRIPTION_TRANSPORTS } : {}) };
      const body = JSON.stringify({ errors: [{ message, extensions }] });
      setResultProcessor((answered, fetchAPI) => {
        if (isAsyncIterable(answered)) void answered[Symbol.asyncIterator]().return?.();
        return new fetchAPI.Response(body, {
          status: 406,
          statusText: 'Not Acceptable',
          headers: { 'content-type': 'application/json; charset=utf-8', accept: types.join(', ') },
        });
      }, 'application/json');
    },
  };
}

function isMethodRefusal(result: unknown): boolean {
  const errors = (result as { errors?: readonly { extensions?: { http?: { status?: unknown } } }[] }).errors;
  return errors?.length === 1 && errors[0]!.extensions?.http?.status === 405;
}

function describe(transport: SubscriptionTransport): string {
  const how = transport.accept ? `accept: ${transport.accept}` : `WebSocket subprotocol ${transport.subprotocol}`;
  return `${transport.protocol} (${how} on ${transport.path})`;
}
