/**
 * Resources the upstream lately said do not exist (a ticker's 404), with the answer it gave: a new
 * poller of one starts from that answer (null to its subscribers) instead of asking again, and
 * polls it at the plan's pace like any other. Subscribing again and again to an unknown ticker
 * then costs no upstream call within UNKNOWN_TTL_MS. Bounded in bytes; a resource found to exist
 * is forgotten at once.
 */
import { ByteLru } from '../lib/byte-lru.js';

/** How long a 404 stands in for the first poll of a new poller. */
export const UNKNOWN_TTL_MS = 60_000;
/** The answers kept: a 404 body is a few dozen bytes, so ~10,000 resources. */
const MAX_BYTES = 1024 * 1024;
/** A Map entry, the list links and the record, roughly. */
const ENTRY_OVERHEAD = 200;

export interface Absence {
  etag: string | undefined;
  body: Buffer;
}

export class UnknownResources {
  private readonly entries = new ByteLru<Absence & { at: number }>(
    MAX_BYTES,
    (key, value) => ENTRY_OVERHEAD + key.length * 2 + (value.etag?.length ?? 0) * 2 + value.body.length,
  );

  /** The upstream's last 404 for `key`, unless it is older than UNKNOWN_TTL_MS. */
  get(key: string, now = Date.now()): Absence | undefined {
    const entry = this.entries.get(key);
    if (entry && now - entry.at < UNKNOWN_TTL_MS) return entry;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  remember(key: string, absence: Absence, now = Date.now()): void {
    this.entries.set(key, { etag: absence.etag, body: absence.body, at: now });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
