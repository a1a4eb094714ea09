/**
 * FrequencySketch (src/lib/frequency-sketch.ts), the response store's admission counts: how often
 * a key was asked lately, never less than it was (a count-min sketch overestimates, never under),
 * at most 15, halved with the epoch after ten increments per counter column.
 */
import { expect, test } from 'vitest';
import { FrequencySketch } from '../../src/lib/frequency-sketch.js';

test('each increment returns the count so far, at most 15; other keys count apart', () => {
  const sketch = new FrequencySketch(1024);
  const counts = Array.from({ length: 20 }, () => sketch.increment('{"query":"{ a }"}'));
  expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15, 15, 15, 15, 15]);
  expect(sketch.increment('{"query":"{ b }"}')).toBe(1);
  expect(sketch.epoch).toBe(0);
});

test('never under the true count, over it for few keys, in a sketch sized for the keys asked', () => {
  const sketch = new FrequencySketch(1024);
  const keys = Array.from({ length: 1000 }, (_, i) => `POST\napplication/json\n{"query":"{ t${i} }"}`);
  for (const [i, key] of keys.entries()) for (let n = 0; n < i % 3; n++) sketch.increment(key);
  const over = keys.filter((key, i) => {
    const count = sketch.increment(key);
    expect(count).toBeGreaterThanOrEqual(Math.min(15, (i % 3) + 1));
    return count > (i % 3) + 1;
  });
  expect(over.length).toBeLessThan(keys.length / 20);
});

test('after ten increments per column every count is halved, and counts taken before age with the epoch', () => {
  const sketch = new FrequencySketch(64);
  for (let i = 0; i < 8; i++) sketch.increment('kept');
  // 64 columns: the 640th increment halves.
  for (let i = 8; i < 639; i++) sketch.increment(`other ${i}`);
  expect(sketch.epoch).toBe(0);
  sketch.increment('other 639');
  expect(sketch.epoch).toBe(1);
  expect(sketch.increment('kept')).toBe(5);
  expect(sketch.aged(8, 0)).toBe(4);
  expect(sketch.aged(8, 1)).toBe(8);
});

test('a holder’s count asked again: aged to now, plus one, at most 15; its askings count toward the halving', () => {
  const sketch = new FrequencySketch(64);
  expect(sketch.again(3, 0)).toBe(4);
  expect(sketch.again(15, 0)).toBe(15);
  for (let i = 2; i < 639; i++) sketch.again(1, 0);
  expect(sketch.epoch).toBe(0);
  // The 640th asking halves: the count taken at epoch 0 is worth half.
  expect(sketch.again(8, 0)).toBe(5);
  expect(sketch.epoch).toBe(1);
});

test('counts halve at least once per half-life, at most four times after a long quiet', () => {
  let now = 1_000_000;
  const sketch = new FrequencySketch(64, 10_000, () => now);
  for (let i = 0; i < 12; i++) sketch.increment('popular');
  now += 9_999;
  expect(sketch.increment('popular')).toBe(13);
  expect(sketch.epoch).toBe(0);
  now += 1;
  // Ten seconds since the last halving: 13 → 6, then this asking.
  expect(sketch.increment('popular')).toBe(7);
  expect(sketch.epoch).toBe(1);
  now += 3_600_000;
  expect(sketch.increment('popular')).toBe(1);
  expect(sketch.epoch).toBe(5);
  expect(sketch.aged(15, 1)).toBe(0);
});
