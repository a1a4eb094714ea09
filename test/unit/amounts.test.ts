import { expect, test } from 'vitest';
import { toUnits } from '../../src/sources/amounts.js';

test.each([
  ['1.5', 2, 150n],
  ['21000000', 18, 21_000_000n * 10n ** 18n],
  ['0.000100', 4, 1n],
  ['1.25', 1, undefined],
  ['1e5', 0, undefined],
  ['', 0, undefined],
])('toUnits(%j, %i) is %s', (value, decimals, units) => {
  expect(toUnits(value, decimals)).toEqual(units);
});

test('an amount is at most 100 characters: a longer string is none, however it is made', () => {
  // Before: read with BigInt at any length (quadratic), and the trailing zeros stripped with a
  // backtracking /0+$/ (a fraction of 100,000 zeros and a 1 took 3 s).
  const hundred = `${'9'.repeat(61)}.${'0'.repeat(38)}`;
  expect(hundred.length).toBe(100);
  expect([toUnits(hundred, 38), toUnits(`9${hundred}`, 38), toUnits('1'.repeat(101), 0)]).toEqual([
    BigInt('9'.repeat(61)) * 10n ** 38n,
    undefined,
    undefined,
  ]);
  const started = performance.now();
  expect([toUnits(`0.${'0'.repeat(100_000)}1`, 18), toUnits('7'.repeat(5_000_000), 0)]).toEqual([undefined, undefined]);
  expect(performance.now() - started).toBeLessThan(100);
});
