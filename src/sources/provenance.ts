/**
 * Where a GraphQL answer's data came from, when not from hiro (docs/sources.md): each object a
 * source maps is marked with the source, its indexed height and the fields it could not provide;
 * the request's SourcesUsed collects the sources used and the coordinates (`Type.field`) that the
 * request selected on such objects. The marks live beside the objects (a WeakMap): the Hiro shapes
 * themselves stay as they are.
 */

import type { SourceName } from '../upstream/sourced.js';

export type { SourceName };

export interface Mark {
  source: SourceName;
  /** The source's indexed block height, or null where it does not say without another call. */
  height: number | null;
  /** GraphQL field names of this object that the source cannot provide (null in the answer). */
  missing: ReadonlySet<string>;
}

/**
 * The GraphQL fields some source cannot provide, by type: the only fields whose marks are looked at
 * (graphql/schema/source-marks.ts). The others are read as they are, without a call of their own.
 */
export const MISSABLE = {
  RuneEtching: ['turbo'],
  RuneSupply: ['totalBurns'],
  RuneLocation: ['blockHash'],
  Brc20Token: ['selfMint'],
  InscriptionTransfer: ['from'],
  InscriptionLocation: ['address', 'txId', 'location', 'output', 'offset'],
} as const;

export type MissableField = (typeof MISSABLE)[keyof typeof MISSABLE][number];

const marks = new WeakMap<object, Mark>();

/** Marks `value` as built by `source`, lacking the GraphQL fields `missing` (each listed in MISSABLE). */
export function marked<T extends object>(value: T, source: SourceName, height: number | null, missing: readonly MissableField[] = []): T {
  marks.set(value, { source, height, missing: new Set(missing) });
  return value;
}

/** `value` with `source`'s indexed height on its mark (a mark without missing fields where it had none). */
export function withHeight<T>(value: T, source: SourceName, height: number | null): T {
  if (typeof value !== 'object' || value === null || height === null) return value;
  marks.set(value, { source, height, missing: marks.get(value)?.missing ?? new Set() });
  return value;
}

export function markOf(value: unknown): Mark | undefined {
  return typeof value === 'object' && value !== null ? marks.get(value) : undefined;
}

export interface SourceEntry {
  source: SourceName;
  height: number | null;
  unavailable: string[];
}

/** One GraphQL request's sources: one entry per source used, in first-use order. */
export class SourcesUsed {
  private readonly entries = new Map<SourceName, { height: number | null; unavailable: Set<string> }>();

  /** A source answered (or was asked) for this request; a known height replaces an unknown one. */
  used(source: SourceName, height: number | null): void {
    const entry = this.entries.get(source);
    if (!entry) this.entries.set(source, { height, unavailable: new Set() });
    else if (height !== null) entry.height = Math.max(entry.height ?? height, height);
  }

  /** The request selected `coordinate` on an object `source` could not fill. */
  unavailable(source: SourceName, coordinate: string): void {
    this.used(source, null);
    this.entries.get(source)!.unavailable.add(coordinate);
  }

  /** `extensions.sources`, or undefined when only hiro served the request. */
  toJSON(): SourceEntry[] | undefined {
    if (this.entries.size === 0) return undefined;
    return [...this.entries].map(([source, { height, unavailable }]) => ({ source, height, unavailable: [...unavailable].sort() }));
  }
}
