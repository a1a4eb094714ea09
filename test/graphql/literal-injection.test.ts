// No client text ever becomes code. graphql-jit 0.8.9 writes literal arguments into the source it
// generates and rewrites strings starting with its markers into code: `"__MAGIC_DATE__…(<js>)"`
// became `new Date(<js>)`, and ran, the second time a document came (when it is compiled). The
// gateway runs in this process, so a payload that ran would set a global here. Each document is
// sent twice with a different Accept each time: the response fast path answers a repeat without
// executing it. Every marker ticker is just an unknown ticker, asked of the upstream URL-encoded.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';
import { overWebSocket } from '../support.js';

const MARKERS = {
  date: '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d',
  nan: '__MAGIC_NAN__57f286b9_4c20_487f_b409_79804ddcb4f8',
  plusInfinity: '__MAGIC_PLUS_INFINITY__bb201c39_3333_4695_b4ad_7f1722e7aa7a',
  minusInfinity: '__MAGIC_MINUS_INFINITY__71d4310a_d4a3_4a05_b1fe_e60779d24998',
};
const ACCEPTS = ['application/json', 'application/graphql-response+json'];

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** The globals a payload set. */
const injected = () => Object.keys(globalThis).filter((key) => key.startsWith('satgateInjected'));

/**
 * A ticker that, written into generated code, would set a global named after `name`. Short enough
 * (under 100 characters) to be asked of the upstream.
 */
const payloadTicker = (name: string) => `${MARKERS.date}(globalThis.satgateInjected_${name}=1)`;
const document = (ticker: string) => `{ brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker } } }`;
/** The upstream request an unknown ticker makes: the token list, filtered by the ticker (lower-cased), URL-encoded. */
const listCall = (ticker: string) =>
  `GET /ordinals/v1/brc-20/tokens?${new URLSearchParams({ ticker: ticker.toLowerCase(), offset: '0', limit: '60' })}`;

async function overGet(query: string, accept: string): Promise<unknown> {
  const response = await fetch(`${stack.gatewayUrl}/graphql?query=${encodeURIComponent(query)}`, {
    headers: { accept, 'x-graphql-yoga-csrf': '1' },
  });
  return response.json();
}

test.each<[string, (query: string, accept: string) => Promise<unknown>]>([
  ['POST', async (query, accept) => (await stack.graphql(query, undefined, { accept })).body],
  ['GET', overGet],
  // graphql-ws has no Accept: the fast path is for HTTP only.
  ['graphql-ws', (query) => overWebSocket(stack.gatewayUrl, { query })],
])("over %s, a ticker holding graphql-jit's date marker runs no code, sent twice", async (transport, send) => {
  const ticker = payloadTicker(transport.replace('-', ''));
  stack.sample.clearLog();
  const answers = [];
  for (const accept of ACCEPTS) answers.push(await send(document(ticker), accept));
  expect(injected()).toEqual([]);
  expect(answers).toEqual([{ data: { brc20Token: null } }, { data: { brc20Token: null } }]);
  expect(stack.upstreamCalls()).toEqual([listCall(ticker), listCall(ticker)]);
});

test.each(Object.entries(MARKERS))('a ticker that is the %s marker stays that string', async (_name, marker) => {
  for (const ticker of [marker, `${marker}1`]) {
    stack.sample.clearLog();
    const answers = [];
    for (const accept of ACCEPTS) answers.push((await stack.graphql(document(ticker), undefined, { accept })).body);
    expect(answers).toEqual([{ data: { brc20Token: null } }, { data: { brc20Token: null } }]);
    expect(stack.upstreamCalls()).toEqual([listCall(ticker), listCall(ticker)]);
  }
});

test("in a list, a variable's default, a fragment and an escaped or block string, the marker runs no code either", async () => {
  const ticker = payloadTicker('elsewhere');
  const escaped = JSON.stringify(ticker).replace(/_/g, '\\u005F');
  const documents = [
    `{ brc20Tokens(tickers: [${JSON.stringify(ticker)}]) { token { ticker } } }`,
    `query ($t: String! = ${JSON.stringify(ticker)}) { brc20Token(ticker: $t) { token { ticker } } }`,
    `{ ...F } fragment F on Query { brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker } } }`,
    `{ brc20Token(ticker: ${escaped}) { token { ticker } } }`,
    `{ brc20Token(ticker: """${ticker}""") { token { ticker } } }`,
  ];
  for (const query of documents) {
    stack.sample.clearLog();
    const answers = [];
    for (const accept of ACCEPTS) answers.push((await stack.graphql(query, undefined, { accept })).body);
    expect(injected(), query).toEqual([]);
    const brc20 = query.includes('brc20Tokens') ? { brc20Tokens: [null] } : { brc20Token: null };
    expect(answers, query).toEqual([{ data: brc20 }, { data: brc20 }]);
    expect(stack.upstreamCalls(), query).toEqual([listCall(ticker), listCall(ticker)]);
  }
});
