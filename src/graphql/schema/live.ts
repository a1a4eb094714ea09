import { LiveFailure } from '../../live/hub.js';
import type { AddedEtching, LiveResource } from '../../live/resources.js';
import { validTicker } from '../../live/resources.js';
import type { GraphQLContext } from '../context.js';
import { Brc20TokenDetails } from './brc20.js';
import { builder } from './builder.js';
import { RuneEtchingEdgeRef } from './connections.js';
import { encodeCursor } from './cursor-paging.js';
import { policy } from './field-policy.js';
import { RuneEtchingRef } from './runes.js';
import { Status } from './status.js';

/** Subscriptions: the root value of each event is the upstream shape the field's type reads. */
builder.subscriptionType({
  description: 'Live data over GraphQL over SSE (accept: text/event-stream) and graphql-ws on /graphql.',
});

// A subscription's polling is admitted and charged by the live hub (per-client caps, the polling
// plan). The costs below are what the cost walk has always charged these names (status and
// brc20Token as their query fields do); a subscription selects one field, whose cost alone never
// passes MAX_QUERY_COST (at least UPSTREAM_CALL_COST). Never cached: an event stream.

/**
 * Watched for the subscribing client, keyed as its upstream calls are (TRUST_PROXY aware). At
 * shutdown an HTTP stream's connection is dropped, so its client subscribes again (hub.suspend).
 */
const watch = ({ live, call, res }: GraphQLContext, resource: LiveResource) =>
  live.subscribe(resource, call.client, res && (() => res.destroy()));

/** An event as the field's value; a LiveFailure (e.g. the client's share spent) as the field's error. */
const delivered = (event: unknown): never => {
  if (event instanceof LiveFailure) throw event.error;
  return event as never;
};

const ETCHING_ADDED =
  'Each etching once, when satgate first sees it (older first when several appear at once). Nothing is sent for etchings that existed when the subscription started.';

builder.subscriptionField('etchingAdded', (t) =>
  t.field({
    type: RuneEtchingRef,
    description: ETCHING_ADDED,
    ...policy({ cost: 'none', cache: 'none' }),
    subscribe: (_root, _args, context) => watch(context, { kind: 'etchings' }),
    resolve: (event) => (delivered(event) as AddedEtching).etching,
  }),
);

// The same events as edges: the cursor places the etching in etchingsConnection (as that
// connection's own cursors do), so a client prepends the edge to its list (Relay's @prependEdge,
// Apollo's cache.modify) and pages on from it without refetching.
builder.subscriptionField('etchingAddedEdge', (t) =>
  t.field({
    type: RuneEtchingEdgeRef,
    description: `${ETCHING_ADDED} As an edge of etchingsConnection: insert it at the connection's start; its cursor pages on from there.`,
    ...policy({ cost: 'none', cache: 'none' }),
    subscribe: (_root, _args, context) => watch(context, { kind: 'etchings' }),
    resolve: (event) => {
      const { etching, position, total } = delivered(event) as AddedEtching;
      return { cursor: encodeCursor('etchings', { pos: position, total, id: etching.id }), node: etching };
    },
  }),
);

builder.subscriptionField('brc20Token', (t) =>
  t.field({
    type: Brc20TokenDetails,
    nullable: true,
    description: "The token's details now, then again each time any field changes. null while no such token exists.",
    ...policy({ cost: 'call', cache: 'none' }),
    args: { ticker: t.arg.string({ required: true }) },
    // Validated before any poller exists: a bad ticker is BAD_USER_INPUT and costs nothing.
    subscribe: (_root, { ticker }, context) => watch(context, { kind: 'brc20', ticker: validTicker(ticker) }),
    resolve: delivered,
  }),
);

builder.subscriptionField('status', (t) =>
  t.field({
    type: Status,
    nullable: true,
    description: 'The status now, then again each time it changes.',
    ...policy({ cost: 'call', cache: 'none' }),
    subscribe: (_root, _args, context) => watch(context, { kind: 'status' }),
    resolve: delivered,
  }),
);
