import type { LiveResource } from '../live/resources.js';
import { validTicker } from '../live/resources.js';
import type { GraphQLContext } from '../context.js';
import { Brc20TokenDetails } from './brc20.js';
import { builder } from './builder.js';
import { RuneEtchingRef } from './runes.js';
import { Status } from './status.js';

/** Subscriptions: the root value of each event is the upstream shape the field's type reads. */
builder.subscriptionType({
  description: 'Live data over GraphQL over SSE (accept: text/event-stream) and graphql-ws on /graphql.',
});

const watch = (live: GraphQLContext['live'], resource: LiveResource) => live.subscribe(resource);

builder.subscriptionField('etchingAdded', (t) =>
  t.field({
    type: RuneEtchingRef,
    description:
      'Each etching once, when satgate first sees it (older first when several appear at once). Nothing is sent for etchings that existed when the subscription started.',
    subscribe: (_root, _args, { live }) => watch(live, { kind: 'etchings' }),
    resolve: (etching) => etching as never,
  }),
);

builder.subscriptionField('brc20Token', (t) =>
  t.field({
    type: Brc20TokenDetails,
    nullable: true,
    description: "The token's details now, then again each time any field changes. null while no such token exists.",
    args: { ticker: t.arg.string({ required: true }) },
    // Validated before any poller exists: a bad ticker is BAD_USER_INPUT and costs nothing.
    subscribe: (_root, { ticker }, { live }) => watch(live, { kind: 'brc20', ticker: validTicker(ticker) }),
    resolve: (details) => details as never,
  }),
);

builder.subscriptionField('status', (t) =>
  t.field({
    type: Status,
    nullable: true,
    description: 'The status now, then again each time it changes.',
    subscribe: (_root, _args, { live }) => watch(live, { kind: 'status' }),
    resolve: (status) => status as never,
  }),
);
