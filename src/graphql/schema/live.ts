import { LiveFailure } from '../../live/hub.js';
import type { LiveResource } from '../../live/resources.js';
import { validTicker } from '../../live/resources.js';
import type { GraphQLContext } from '../context.js';
import { Brc20TokenDetails } from './brc20.js';
import { builder } from './builder.js';
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

/** Watched for the subscribing client, keyed as its upstream calls are (TRUST_PROXY aware). */
const watch = ({ live, call }: GraphQLContext, resource: LiveResource) => live.subscribe(resource, call.client);

/** An event as the field's value; a LiveFailure (e.g. the client's share spent) as the field's error. */
const delivered = (event: unknown): never => {
  if (event instanceof LiveFailure) throw event.error;
  return event as never;
};

builder.subscriptionField('etchingAdded', (t) =>
  t.field({
    type: RuneEtchingRef,
    description:
      'Each etching once, when satgate first sees it (older first when several appear at once). Nothing is sent for etchings that existed when the subscription started.',
    ...policy({ cost: 'none', cache: 'none' }),
    subscribe: (_root, _args, context) => watch(context, { kind: 'etchings' }),
    resolve: delivered,
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
