/**
 * Admission for a cache of request-sized values: a value is kept only when its key comes a second
 * time. Frontends send the same few documents again and again; a client sending something new
 * every time (a fresh ticker, comment or alias) would otherwise fill the cache with values nobody
 * asks for again, evicting the ones that are, and each would survive young-generation collections
 * until evicted. A key seen once is remembered as a hash of fixed size, never as its text.
 */
import { hash } from 'node:crypto';
import { ByteLru } from './byte-lru.js';

/** A remembered hash with the list entry and Map slot that hold it. */
const SIGHTING_BYTES = 160;

export class SecondSighting {
  private readonly seen: ByteLru<true>;

  constructor(maxBytes: number) {
    this.seen = new ByteLru<true>(maxBytes, () => SIGHTING_BYTES);
  }

  /** Whether `key` was seen before; the first time it is remembered and refused. */
  admit(key: string): boolean {
    // A collision admits a value early, which costs only its room in the cache.
    const digest = hash('sha1', key, 'base64url');
    if (this.seen.get(digest)) {
      this.seen.delete(digest);
      return true;
    }
    this.seen.set(digest, true);
    return false;
  }
}
