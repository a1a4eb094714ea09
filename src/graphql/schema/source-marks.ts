import { defaultFieldResolver, isObjectType, type GraphQLSchema } from 'graphql';
import { markOf } from '../../sources/provenance.js';
import type { GraphQLContext } from '../context.js';

/** The types whose objects a data source builds (src/sources/): the only ones worth a look. */
const SOURCED_TYPES = [
  'Brc20TokenDetails',
  'Brc20Token',
  'Brc20Supply',
  'InscriptionTransfer',
  'InscriptionLocation',
  'RuneEtching',
  'RuneMintTerms',
  'RuneSupply',
  'RuneLocation',
];

/**
 * Each field of those types notes, when its object came from a source that lacks it, that the
 * request selected it: `extensions.sources[i].unavailable` lists exactly those coordinates. One
 * WeakMap lookup per such field; hiro's objects carry no mark.
 */
export function withSourceMarks(schema: GraphQLSchema): GraphQLSchema {
  for (const name of SOURCED_TYPES) {
    const type = schema.getType(name);
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const inner = field.resolve ?? defaultFieldResolver;
      const coordinate = `${name}.${field.name}`;
      field.resolve = (parent, args, context: Partial<GraphQLContext>, info) => {
        const mark = markOf(parent);
        if (mark?.missing.has(field.name)) context.sources?.unavailable(mark.source, coordinate);
        return inner(parent, args, context, info);
      };
    }
  }
  return schema;
}
