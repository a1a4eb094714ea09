import { defaultFieldResolver, isObjectType, type GraphQLSchema } from 'graphql';
import { MISSABLE, markOf } from '../../sources/provenance.js';
import type { GraphQLContext } from '../context.js';

/**
 * Each field that some source may lack (MISSABLE) notes, when its object came from a source that
 * lacks it, that the request selected it: `extensions.sources[i].unavailable` lists exactly those
 * coordinates. One WeakMap lookup per such field; hiro's objects carry no mark.
 */
export function withSourceMarks(schema: GraphQLSchema): GraphQLSchema {
  for (const [name, fields] of Object.entries(MISSABLE)) {
    const type = schema.getType(name);
    if (!isObjectType(type)) throw new Error(`source marks: no object type ${name}`);
    for (const fieldName of fields) {
      const field = type.getFields()[fieldName];
      if (!field) throw new Error(`source marks: no field ${name}.${fieldName}`);
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
