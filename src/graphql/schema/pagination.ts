import type { ArgBuilder, ObjectRef } from '@pothos/core';
import { badUserInput } from '../../errors.js';
import type { PageQuery } from '../../upstream/ordinals.js';
import type { Page } from '../../upstream/types.js';
import { builder } from './builder.js';

type Types = typeof builder.$inferSchemaTypes;

/** The upstreams' page size bounds: limit 1..60, offset >= 0. */
export const MAX_LIMIT = 60;
/** The upstreams' page size when none is asked for. */
export const DEFAULT_LIMIT = 20;

/** `offset: Int! = 0, limit: Int! = 20`, the upstreams' defaults. */
export function pageArgs(arg: ArgBuilder<Types>) {
  return {
    offset: arg.int({ required: true, defaultValue: 0 }),
    limit: arg.int({ required: true, defaultValue: DEFAULT_LIMIT }),
  };
}

/** Validates page arguments before any upstream call, with the upstream's own rules. */
export function pageQuery({ offset, limit }: PageQuery): PageQuery {
  if (limit < 1 || limit > MAX_LIMIT) {
    throw badUserInput(`limit must be from 1 to ${MAX_LIMIT}, got ${limit}`, 'limit');
  }
  if (offset < 0) throw badUserInput(`offset must be >= 0, got ${offset}`, 'offset');
  return { offset, limit };
}

/** A `{ limit, offset, total, results }` page over an item type, as every upstream list answers. */
export function pageType<T>(name: string, item: ObjectRef<Types, T>) {
  return builder.objectRef<Page<T>>(name).implement({
    fields: (t) => ({
      limit: t.exposeInt('limit'),
      offset: t.exposeInt('offset'),
      total: t.exposeInt('total', {
        description: 'Counts the whole list; the upstream reports 0 whenever the page is empty.',
      }),
      results: t.expose('results', { type: [item] }),
    }),
  });
}
