/**
 * ByteLru (src/lib/byte-lru.ts): bounded by bytes, least recently used out. The caches built on it are
 * tested over HTTP (cache.test.ts, compiled-execution.test.ts, response-cache.test.ts); this pins
 * the eviction order itself, against a plain reference model.
 */
import { expect, test } from 'vitest';
import { ByteLru } from '../../src/lib/byte-lru.js';

const lru = (maxBytes: number) => new ByteLru<string>(maxBytes, (_key, value) => value.length);
const kept = (cache: ByteLru<string>, keys: string[]) => keys.filter((key) => cache.get(key) !== undefined);

test('a hit makes an entry the most recently used: the least recently used goes first', () => {
  const cache = lru(3);
  for (const key of ['a', 'b', 'c']) cache.set(key, 'x');
  cache.get('a');
  cache.set('d', 'x');
  cache.set('e', 'x');
  expect({ bytes: cache.bytes, kept: kept(cache, ['a', 'b', 'c', 'd', 'e']) }).toEqual({ bytes: 3, kept: ['a', 'd', 'e'] });
});

test('a new value for a key is a use, counted at its new size; one larger than the bound is not kept', () => {
  const cache = lru(10);
  cache.set('a', 'xxxx');
  cache.set('b', 'xxxx');
  cache.set('a', 'xx');
  expect(cache.bytes).toBe(6);
  cache.set('c', 'xxxxxx'); // 12: b, the least recently used, goes
  expect({ bytes: cache.bytes, kept: kept(cache, ['a', 'b', 'c']) }).toEqual({ bytes: 8, kept: ['a', 'c'] });
  cache.set('a', 'x'.repeat(11));
  expect({ bytes: cache.bytes, kept: kept(cache, ['a', 'b', 'c']) }).toEqual({ bytes: 6, kept: ['c'] });
});

test('matches a reference LRU over thousands of random gets, sets, deletes and resizes', () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const sizes = new Map<string, number>();
  const cache = new ByteLru<string>(40, (key) => sizes.get(key)!);
  // The reference: keys least recently used first, sizes read when placed or resized.
  let order: Array<{ key: string; size: number }> = [];
  const touch = (key: string) => {
    const at = order.findIndex((e) => e.key === key);
    if (at >= 0) order.push(...order.splice(at, 1));
    return at >= 0;
  };
  const fit = () => {
    while (order.reduce((sum, e) => sum + e.size, 0) > 40) order.shift();
  };
  for (let step = 0; step < 5000; step++) {
    const key = `k${random(20)}`;
    const op = random(4);
    if (op === 0) {
      expect(cache.get(key) !== undefined).toBe(touch(key));
    } else if (op === 1) {
      sizes.set(key, 1 + random(12));
      cache.set(key, 'v');
      order = order.filter((e) => e.key !== key);
      order.push({ key, size: sizes.get(key)! });
      fit();
    } else if (op === 2) {
      cache.delete(key);
      order = order.filter((e) => e.key !== key);
    } else {
      sizes.set(key, 1 + random(12));
      cache.resize(key);
      const entry = order.find((e) => e.key === key);
      if (entry) entry.size = sizes.get(key)!;
      fit();
    }
    expect(cache.bytes).toBe(order.reduce((sum, e) => sum + e.size, 0));
  }
  expect(order.length).toBeGreaterThan(3);
  const everyKey = Array.from({ length: 20 }, (_, i) => `k${i}`);
  expect(kept(cache, everyKey).sort()).toEqual(order.map((e) => e.key).sort());
});

test('victimFor: what storing a new value would evict first; nothing while it fits or for a key it holds', () => {
  const cache = lru(4);
  cache.set('a', 'xx');
  expect(cache.victimFor('b', 'xx')).toBeUndefined();
  cache.set('b', 'yy');
  cache.get('a');
  expect(cache.victimFor('c', 'z')).toBe('yy');
  expect(cache.victimFor('a', 'xxx')).toBeUndefined();
  // Asking changes nothing.
  expect({ bytes: cache.bytes, kept: kept(cache, ['a', 'b']) }).toEqual({ bytes: 4, kept: ['a', 'b'] });
});
