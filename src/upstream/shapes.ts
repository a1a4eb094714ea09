/**
 * The shapes the gateway reads from the upstreams' JSON, checked once per upstream answer at the
 * client layer: an answer that is `null`, a string, an array where an object belongs, a page with
 * `null` items or a missing required field is the upstream's fault (UPSTREAM_ERROR, naming the
 * service), not a TypeError in a resolver far from where it came from.
 *
 * A shape states what the GraphQL schema needs (its non-null fields and their scalar types), not
 * everything the upstream sends: unknown fields pass, and fields that newer or older upstream
 * versions leave out are optional here as in the schema. The real upstreams serialise through
 * their response schemas, so their answers always pass; the check is against broken proxies,
 * half-migrated self-hosted indexers and the like.
 */

import type { Page } from './types.js';

/** A type guard; memoised per parsed answer by `checked`. */
export type Shape<T> = (value: unknown) => value is T;

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const string: Shape<string> = (value): value is string => typeof value === 'string';
export const boolean: Shape<boolean> = (value): value is boolean => typeof value === 'boolean';
/** GraphQL's Int: a 32-bit signed integer. */
export const int: Shape<number> = (value): value is number => Number.isInteger(value) && Math.abs(value as number) <= 0x7fffffff;
/** A count or a place in a list: an Int that is not negative. */
export const count: Shape<number> = (value): value is number => int(value) && (value as number) >= 0;
/** A Timestamp (or its seconds): a safe integer. */
export const timestamp: Shape<number> = (value): value is number => Number.isSafeInteger(value);
/** Seconds that become a Timestamp (× 1000): a safe integer in milliseconds too. */
export const seconds: Shape<number> = (value): value is number => timestamp(value) && timestamp((value as number) * 1000);
/** Made once: a regular expression literal in the function would be a new object at every call. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** An amount: a decimal string, never a JSON number. The Decimal scalar checks with this too. */
export const decimal: Shape<string> = (value): value is string => typeof value === 'string' && DECIMAL.test(value);

/**
 * The hiro handlers' "no such thing" (`{"error":"Not found"}`, bitcoin-indexer's NotFoundResponse):
 * not a route's 404 (an API no longer served, a base URL missing its path), nor a proxy's page,
 * which say nothing of the token or block asked for.
 */
export const notFoundAnswer = (value: unknown): boolean => isObject(value) && value.error === 'Not found';

/** `null` or absent, else `shape`. */
export function optional<T>(shape: Shape<T>): Shape<T | null | undefined> {
  return (value): value is T | null | undefined => value === null || value === undefined || shape(value);
}

// Loops, not `every`: a page's check visits each field of each item (2,100 on 60 etchings), and a
// callback made per call showed as garbage of its own in W8's allocation profile.
export function arrayOf<T>(shape: Shape<T>): Shape<T[]> {
  return (value): value is T[] => {
    if (!Array.isArray(value)) return false;
    for (const item of value) if (!shape(item)) return false;
    return true;
  };
}

/** Every field of `T` is named (the compiler sees to it); unknown fields pass. */
export function object<T>(fields: { [K in keyof T]-?: Shape<unknown> }): Shape<T> {
  const names = Object.keys(fields);
  const shapes = Object.values(fields) as Array<Shape<unknown>>;
  return (value): value is T => {
    if (!isObject(value)) return false;
    for (let i = 0; i < names.length; i++) if (!shapes[i]!(value[names[i]!])) return false;
    return true;
  };
}

/**
 * Any JSON value nested at most `depth` arrays or objects deep. An answer passed on whole (the
 * devnet node's JSON) is serialised again with the response; thousands of levels would overflow
 * the stack there and fail the whole response instead of its field.
 */
export function nestedAtMost(depth: number): Shape<unknown> {
  const within = (value: unknown, left: number): boolean => {
    if (typeof value !== 'object' || value === null) return true;
    if (left === 0) return false;
    for (const item of Array.isArray(value) ? value : Object.values(value)) if (!within(item, left - 1)) return false;
    return true;
  };
  return (value): value is unknown => within(value, depth);
}

/** Checks each parsed answer once: a cached answer is shared by many requests, and memoised. */
export function checked<T>(shape: Shape<T>): Shape<T> {
  const valid = new WeakSet<object>();
  return (value): value is T => {
    if (typeof value === 'object' && value !== null && valid.has(value)) return true;
    if (!shape(value)) return false;
    if (typeof value === 'object' && value !== null) valid.add(value);
    return true;
  };
}

/** `{ limit, offset, total, results }`, as every upstream list answers: never more results than its total. */
export function page<T>(item: Shape<T>): Shape<Page<T>> {
  const fields = object<Page<T>>({ limit: count, offset: count, total: count, results: arrayOf(item) });
  return (value): value is Page<T> => fields(value) && value.results.length <= value.total;
}
