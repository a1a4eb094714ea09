/**
 * Global object ids (Relay's Node, CONTRACT "Global object identification"): the base64url of
 * `<Type>:<local id>`, so an id is opaque to clients, the same across requests and restarts (it is
 * computed from the data, never stored), and unique across types. Decoding is strict and cheap: a
 * bounded length, one canonical spelling, a known type, and the type's own local-id rule (parse),
 * all before any upstream call. A malformed id is BAD_USER_INPUT.
 */
import { badUserInput } from '../../errors.js';

/** The types `node`/`nodes` can load; each one's local id is described beside its type. */
export const NODE_TYPES = ['Brc20Token', 'Brc20TokenDetails', 'InscriptionTransfer', 'RuneEtching'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** The longest id we hand out is about 150 characters (a transfer's); anything longer is not ours. */
const MAX_GLOBAL_ID_LENGTH = 256;

export function encodeGlobalID(typename: string, id: bigint | number | string): string {
  return Buffer.from(`${typename}:${id}`, 'utf8').toString('base64url');
}

/** The error for any id that is not one of ours; it never repeats the id. */
export function invalidGlobalID(): Error {
  return badUserInput('id is not a global id of this API (ids are opaque: pass back an `id` as it was received)', 'id');
}

export function decodeGlobalID(globalID: string): { typename: NodeType; id: string } {
  if (globalID.length > MAX_GLOBAL_ID_LENGTH || !/^[A-Za-z0-9_-]+$/.test(globalID)) throw invalidGlobalID();
  const text = Buffer.from(globalID, 'base64url').toString('utf8');
  // One spelling per id: other padding bits, or bytes that are not UTF-8, do not round-trip.
  if (Buffer.from(text, 'utf8').toString('base64url') !== globalID) throw invalidGlobalID();
  const colon = text.indexOf(':');
  const typename = text.slice(0, colon);
  const id = text.slice(colon + 1);
  if (colon < 1 || id === '' || !(NODE_TYPES as readonly string[]).includes(typename)) throw invalidGlobalID();
  return { typename: typename as NodeType, id };
}

/** A local-id rule as a Pothos `parse`: the id's parts when it matches, else BAD_USER_INPUT. */
export function localId(pattern: RegExp): (id: string) => RegExpExecArray {
  return (id) => {
    const match = pattern.exec(id);
    if (!match) throw invalidGlobalID();
    return match;
  };
}
