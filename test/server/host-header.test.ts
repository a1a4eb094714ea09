/**
 * The Host header, over raw HTTP (fetch will not let a client set it): a Host that is not a valid
 * authority is answered 400 and never changes what is stored; a valid one is served, and the
 * result yoga stores is the one of the document the response fast path keyed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { rawRequest } from '../../bench/lib/raw-http.js';
import { startStack, type Stack } from '../harness.js';

const TOKEN = (ticker: string) => `{ brc20Token(ticker: "${ticker}") { token { ticker } supply { holders } } }`;
const VICTIM_TARGET = `/graphql?query=${encodeURIComponent(TOKEN('ordi'))}`;
const GRAPHQL_HEADERS = 'x-graphql-yoga-csrf: 1\r\naccept: application/json\r\n';

/** One request as written (any Host line, or none), on its own connection; the answer as read. */
const raw = (port: number, head: string) => rawRequest(new URL(`http://127.0.0.1:${port}`), head, 10_000);

const get = (target: string, hostLines: string, http = 'HTTP/1.1') => `GET ${target} ${http}\r\n${hostLines}${GRAPHQL_HEADERS}`;

let stack: Stack;
let port: number;
beforeAll(async () => {
  // Upstream answers fresh for a minute: a stored result is answered without any upstream call.
  stack = await startStack({ CACHE_TTL_MS: '60000' });
  port = stack.gateway.port;
});
afterAll(() => stack.close());
beforeEach(() => stack.sample.clearLog());

/** The result of the victim's document, asked for as a browser would (fetch sets a valid Host). */
async function victim(): Promise<unknown> {
  const response = await fetch(`${stack.gatewayUrl}${VICTIM_TARGET}`, {
    headers: { 'x-graphql-yoga-csrf': '1', accept: 'application/json' },
  });
  return { status: response.status, body: await response.json() };
}

const ORDI = {
  status: 200,
  body: { data: { brc20Token: { token: { ticker: 'ordi' }, supply: { holders: expect.any(Number) as number } } } },
};

describe('a Host that is not a valid authority', () => {
  const hostile = [
    // The attack: the Host ends in another document, which yoga ran and stored under the target's key.
    `x/graphql?query=${encodeURIComponent(TOKEN('pepe'))}&z=`,
    'x#',
    'a b',
    'x@y',
    '',
    'x:99999',
    'x:',
    '[::1',
    '[not-ipv6]',
    'x/',
    'x?',
    'x\\y',
  ];

  test.each(hostile)('%j: 400, nothing asked upstream, nothing stored', async (host) => {
    expect(await raw(port, get(VICTIM_TARGET, `Host: ${host}\r\n`))).toEqual({ status: 400, body: 'Bad Host header' });
    expect(stack.upstreamCalls()).toEqual([]);
    // What the victim gets is the result of the document it asked for, stored or not.
    expect(await victim()).toEqual(ORDI);
    expect(stack.upstreamCalls().filter((call) => !call.endsWith('/ordi'))).toEqual([]);
  });

  test('two Host lines: 400 (RFC 9112 3.2)', async () => {
    expect(
      await raw(port, get(VICTIM_TARGET, `Host: 127.0.0.1\r\nHost: x/graphql?query=${encodeURIComponent(TOKEN('pepe'))}&z=\r\n`)),
    ).toEqual({
      status: 400,
      body: 'Bad Host header',
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('on REST paths too', async () => {
    expect(await raw(port, `GET /ordinals/v1/brc-20/tokens/ordi HTTP/1.1\r\nHost: x/runes/v1/etchings?\r\n`)).toEqual({
      status: 400,
      body: 'Bad Host header',
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('an HTTP/1.1 request without Host: node answers 400 itself', async () => {
    expect(await raw(port, get(VICTIM_TARGET, ''))).toEqual({ status: 400, body: '' });
    expect(stack.upstreamCalls()).toEqual([]);
  });
});

describe('a valid authority is served', () => {
  test.each(['127.0.0.1', 'localhost:4000', 'api.example.com', 'EXAMPLE.com:65535', '[::1]', '[::1]:8080', '[2001:db8::1]'])(
    '%j',
    async (host) => {
      const answer = await raw(port, get(VICTIM_TARGET, `Host: ${host}\r\n`));
      expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual(ORDI);
    },
  );

  test('HTTP/1.0 without Host (which it does not require)', async () => {
    const answer = await raw(port, get(VICTIM_TARGET, '', 'HTTP/1.0'));
    expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual(ORDI);
  });

  test("whatever the Host, the result stored is the keyed document's: a new document asked under odd valid Hosts, then by a browser", async () => {
    const target = `/graphql?query=${encodeURIComponent(TOKEN('sats'))}`;
    const sats = {
      status: 200,
      body: { data: { brc20Token: { token: { ticker: 'sats' }, supply: { holders: expect.any(Number) as number } } } },
    };
    for (const host of ['graphql', 'a.b', '[::ffff:127.0.0.1]:1']) {
      const answer = await raw(port, get(target, `Host: ${host}\r\n`));
      expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual(sats);
    }
    const response = await fetch(`${stack.gatewayUrl}${target}`, { headers: { 'x-graphql-yoga-csrf': '1', accept: 'application/json' } });
    expect({ status: response.status, body: await response.json() }).toEqual(sats);
    // Executed once (the upstream answer fresh for a minute), then answered stored.
    expect(stack.upstreamCalls()).toEqual(['GET /ordinals/v1/brc-20/tokens/sats']);
  });
});
