import { completeValue } from '@pothos/core';
import { isInterfaceType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { encodeGlobalID } from './global-ids.js';

type IdResolver = GraphQLFieldResolver<unknown, unknown>;

/**
 * A node's `id` answered in the same turn when its id resolver answers at once. Pothos's relay
 * plugin wraps every `id` in an async function (it awaits the resolver in case it returns a
 * promise): a promise per object, which the compiled executor then waits for, 60 of them on an
 * etchings page. Encoded as the plugin encodes it, through the builder's encodeGlobalID; an id
 * resolver that returns a promise is awaited as before (Pothos's own completeValue, as the plugin
 * completes the id it wraps).
 */
export function withSyncGlobalIds(schema: GraphQLSchema): GraphQLSchema {
  const node = schema.getType('Node');
  if (!isInterfaceType(node)) throw new Error('sync global ids: the schema has no Node interface');
  for (const type of schema.getImplementations(node).objects) {
    const options = type.extensions.pothosOptions as { id?: { resolve?: IdResolver } } | undefined;
    const resolveId = options?.id?.resolve;
    const field = type.getFields().id;
    if (!resolveId || !field) throw new Error(`sync global ids: ${type.name} has no id resolver of Pothos's`);
    const encode = (id: unknown) => encodeGlobalID(type.name, String(id));
    field.resolve = (parent, args, context, info) => completeValue(resolveId(parent, args, context, info), encode);
  }
  return schema;
}
