import { badUserInput, toGraphQLError, unauthenticated, UpstreamError } from '../../errors.js';
import type { GraphQLContext } from '../context.js';
import { isPlatformKey, isUuid, PLATFORM_KEY_RULE, UUID_RULE } from '../../upstream/paths.js';
import type { ChainhookDeletion } from '../../upstream/types.js';
import { builder } from './builder.js';
import { policy } from './field-policy.js';

/**
 * The platform key: the `apiKey` argument, else the request's `x-api-key` header. It becomes a URL
 * segment, so it is held to the proxy rules (upstream/paths.ts) first; the error never echoes it.
 */
function platformKey(apiKey: string | null | undefined, context: GraphQLContext): string {
  const key = apiKey?.trim() || context.apiKeyHeader;
  if (!key) throw unauthenticated('This field needs a platform API key: pass apiKey or send an x-api-key header');
  if (!isPlatformKey(key)) throw badUserInput(`The platform API key (apiKey or x-api-key) ${PLATFORM_KEY_RULE}`, 'apiKey');
  return key;
}

const apiKeyArg = {
  description: "The Hiro Platform API key. Defaults to the request's x-api-key header.",
} as const;

builder.queryField('bitcoinNode', (t) =>
  t.field({
    type: 'JSON',
    nullable: true,
    description: 'GET a path of the devnet Bitcoin node through the platform.',
    args: {
      path: t.arg.string({
        required: true,
        description: 'Below the node root, e.g. "rest/chaininfo.json"; a query string is kept.',
      }),
      apiKey: t.arg.string(apiKeyArg),
    },
    // Per key: never kept for anyone else.
    ...policy({ cost: 'call', cache: 'private' }),
    resolve: async (_root, { path, apiKey }, context) => {
      const answer = await context.loaders.bitcoinNode.load({ apiKey: platformKey(apiKey, context), path });
      // Aliases share the lookup, but each repeats the answer in the response: each counts.
      return context.upstreams.platform.useAnswer(answer, context.call);
    },
  }),
);

const ChainhookDeletionRef = builder.objectRef<ChainhookDeletion>('ChainhookDeletion').implement({
  fields: (t) => ({
    status: t.exposeString('status'),
    chainhookUuid: t.exposeString('chainhookUuid'),
    message: t.string({ nullable: true, resolve: (deletion) => deletion.message ?? null }),
  }),
});

builder.mutationField('deleteChainhook', (t) =>
  t.field({
    type: ChainhookDeletionRef,
    nullable: true,
    description: 'Sends exactly one DELETE to the platform; never retried.',
    args: { uuid: t.arg.string({ required: true }), apiKey: t.arg.string(apiKeyArg) },
    ...policy({ cost: 'call', cache: 'none' }),
    resolve: (_root, { uuid, apiKey }, context) => {
      if (!isUuid(uuid)) throw badUserInput(`uuid ${UUID_RULE}`, 'uuid');
      // One of the request's upstream calls (MAX_UPSTREAM_CALLS_PER_REQUEST), as a lookup's are.
      context.call.lookups?.take();
      // The one field whose upstream 404 is NOT_FOUND (no such chainhook): elsewhere it is UPSTREAM_ERROR.
      return context.upstreams.platform.deleteChainhook(platformKey(apiKey, context), uuid, context.call).catch((error: unknown) => {
        throw error instanceof UpstreamError && error.status === 404 ? toGraphQLError(error, 'NOT_FOUND') : error;
      });
    },
  }),
);
