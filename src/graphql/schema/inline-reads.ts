import { isObjectType, type GraphQLSchema } from 'graphql';

/**
 * Names, for the compiler, each field that only returns a property of its parent (Pothos's
 * `t.expose*` under another name: `spacedName` reads `spaced_name`). The vendored graphql-jit reads
 * such a field inline instead of calling its resolver with a resolve info for every value
 * (vendor/graphql-jit/README.md): on a 60-etching page that was most of execution's garbage. A
 * resolver wrapped since Pothos made it (source-marks.ts) is not the exposure any more and keeps its
 * call. graphql-js, and subscriptions, call the resolvers as before.
 */
export function withInlineReads(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const { pothosExposedField, pothosOriginalResolve } = field.extensions;
      if (typeof pothosExposedField !== 'string' || field.resolve === undefined || field.resolve !== pothosOriginalResolve) continue;
      (field.extensions as Record<string, unknown>).jitSourceProperty = pothosExposedField;
    }
  }
  return schema;
}
