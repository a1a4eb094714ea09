/**
 * ETCHINGS_SOURCE=ord: answers of an `ord server` that no ord can give are unreadable
 * (UPSTREAM_ERROR, REST 502), never served, rounded or cut short, and never cost the process more
 * than reading them.
 */
import { stringify } from 'lossless-json';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { sampleData } from '../../src/sample/data.js';
import { ordRune } from '../../src/sample/sources-data.js';
import { startStack, type Stack } from '../harness.js';
import { callsOf, fieldError } from '../support.js';

const all = sampleData.etchings;
const U128_MAX = 2n ** 128n - 1n;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack((sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl }), { sources: { ord: {} } });
});
afterAll(() => stack.close());
afterEach(() => stack.sample.reset());

type Pair = ReturnType<typeof ordRune>;
/** ord's `/runes/0` as the sample serves it (50 a page and the look-ahead), after `edit`: JSON text. */
function firstPage(edit: (entries: Pair[]) => void = () => {}): string {
  const entries = all.slice(0, 51).map(ordRune);
  edit(entries);
  return stringify({ entries, more: true, prev: null, next: 1 })!;
}
/** `/runes/0` with the newest entry's `field` written as `digits`, a bare JSON number of any length. */
const withNumber = (field: string, digits: string) => firstPage().replace(new RegExp(`"${field}":\\d+`), `"${field}":${digits}`);

const UNREADABLE = {
  data: { etchings: null },
  errors: [fieldError(['etchings'], { code: 'UPSTREAM_ERROR', service: 'runes', source: 'ord', httpStatus: 200 })],
  // The source is named though it gave nothing; no height from an answer it could not read.
  extensions: { sources: [{ source: 'ord', height: null, unavailable: [] }] },
};
const BAD_GATEWAY = {
  statusCode: 502,
  error: 'Bad Gateway',
  message: 'The ord service sent an answer that is not the JSON the gateway expects',
};
const PAGE_QUERY = '{ etchings(limit: 5) { total results { number supply { premine mintable } } } }';
/** What page 0 costs: the page and the index height beside it. */
const firstCalls = () => ['/blockheight', '/runes/0'];
const paths = () =>
  callsOf(stack.sample)
    .map((c) => c.path)
    .sort();

test.each([
  ['a premine of 40 digits (u128::MAX has 39)', withNumber('premine', '1'.repeat(40))],
  ['a premine of u128::MAX + 1 (39 digits)', withNumber('premine', String(U128_MAX + 1n))],
  ['mints of 40 digits', withNumber('mints', '9'.repeat(40))],
])('%s is no value of ord’s: UPSTREAM_ERROR, REST 502', async (_name, body) => {
  stack.sample.inject({ path: '/runes/0', status: 200, body });
  expect((await stack.graphql(PAGE_QUERY)).body).toEqual(UNREADABLE);
  const rest = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?limit=1`);
  expect([rest.status, await rest.json()]).toEqual([502, BAD_GATEWAY]);
  expect(paths()).toEqual([...firstCalls(), ...firstCalls()].sort());
});

test('u128::MAX itself is read exactly', async () => {
  stack.sample.inject({ path: '/runes/0', status: 200, body: withNumber('premine', String(U128_MAX)) });
  const { body } = await stack.graphql('{ etchings(limit: 1) { total results { divisibility supply { premine } } } }');
  const divisibility = all[0]!.divisibility;
  const digits = String(U128_MAX).padStart(divisibility + 1, '0');
  const premine = divisibility === 0 ? digits : `${digits.slice(0, -divisibility)}.${digits.slice(-divisibility)}`;
  expect(body.data).toEqual({ etchings: { total: all.length, results: [{ divisibility, supply: { premine } }] } });
});

test('4.5 million digits are refused before they are parsed: the process keeps serving', async () => {
  // Before: BigInt took 9.6 s of CPU over them, and /healthz waited as long.
  stack.sample.inject({ path: '/runes/0', status: 200, body: withNumber('premine', '7'.repeat(4_500_000)) });
  const started = performance.now();
  const answer = stack.graphql(PAGE_QUERY);
  // Once the gateway has the answer, /healthz is served at once.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const health = await fetch(`${stack.gatewayUrl}/healthz`);
  expect([health.status, (await answer).body]).toEqual([200, UNREADABLE]);
  expect(performance.now() - started).toBeLessThan(2_000);
});
