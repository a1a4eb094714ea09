// Global object identification (CONTRACT "Global object identification"): ids unique per transfer
// and across types, `node`/`nodes` refetching through the documented routes (the calls read from the
// sample's request log), and strict decoding: a malformed id never reaches the upstream.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIG_TRANSFER_BLOCK, findBrc20Token, findTransferBlock, sampleData } from '../../src/sample/data.js';
import { startStack, type Stack } from '../harness.js';
import { listCall } from '../profiles.js';
import { fieldError, globalId, toBrc20, toEtching, toTransfer, transferId } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
beforeEach(() => stack.sample.reset());

const LOCATION = 'blockHeight blockHash address txId location output value offset timestamp';
const NODE_FIELDS = `__typename id
  ... on InscriptionTransfer { inscriptionId number from { ${LOCATION} } to { ${LOCATION} } }
  ... on RuneEtching { runeId name spacedName number divisibility symbol turbo
    mintTerms { amount cap heightStart heightEnd offsetStart offsetEnd }
    supply { current minted totalMints mintPercentage mintable burned totalBurns premine }
    location { blockHash blockHeight txId txIndex vout output timestamp } }
  ... on Brc20Token { inscriptionId number blockHeight txId address ticker maxSupply mintLimit decimals
    deployTimestamp mintedSupply txCount selfMint }`;
const NODE = `query ($id: ID!) { node(id: $id) { ${NODE_FIELDS} } }`;
const NODES = `query ($ids: [ID!]!) { nodes(ids: $ids) { ${NODE_FIELDS} } }`;

const SHARED_INSCRIPTION = '7ac73ecd01b9da4a7eab904655416dbfe8e03f193e091761b5a63ad0963570cdi0';
const blockTransfers = (height: number) => findTransferBlock(String(height))!.transfers;
const asTransfer = (t: Parameters<typeof toTransfer>[0]) => ({ __typename: 'InscriptionTransfer', ...toTransfer(t) });
const asEtching = (e: (typeof sampleData.etchings)[number]) => ({ __typename: 'RuneEtching', ...toEtching(e) });
const asToken = (ticker: string) => ({ __typename: 'Brc20Token', ...toBrc20(findBrc20Token(ticker)!).token });
const transfersCall = (block: number, offset: number) => `GET /ordinals/v1/inscriptions/transfers?block=${block}&offset=${offset}&limit=60`;

describe('ids', () => {
  it('two transfers of one inscription (blocks 775700 and 775701) have two ids and one inscriptionId', async () => {
    const { body } = await stack.graphql(
      `{ a: transfers(block: 775700) { results { id inscriptionId } } b: transfers(block: 775701) { results { id inscriptionId } } }`,
    );
    const ids = (height: number) => [...blockTransfers(height)].reverse().map((t) => ({ id: transferId(t), inscriptionId: t.id }));
    expect(body).toEqual({ data: { a: { results: ids(775700) }, b: { results: ids(775701) } } });
    const shared = [...ids(775700), ...ids(775701)].filter((t) => t.inscriptionId === SHARED_INSCRIPTION);
    expect(shared).toHaveLength(2);
    expect(shared[0]!.id).not.toBe(shared[1]!.id);
  });

  it('are stable: an id handed out before is the same string now (they are computed, never stored)', async () => {
    const { body } = await stack.graphql(`{ etchings(offset: 0, limit: 1) { results { id runeId } } }`);
    // base64url("RuneEtching:847041:92"), as 0.2.0 first wrote it.
    expect(body).toEqual({ data: { etchings: { results: [{ id: 'UnVuZUV0Y2hpbmc6ODQ3MDQxOjky', runeId: '847041:92' }] } } });
  });
});

describe('node refetches each type through its documented route', () => {
  it('a transfer: the page of its block that holds it, one call', async () => {
    const transfer = blockTransfers(775701)[1]!;
    const { body } = await stack.graphql(NODE, { id: transferId(transfer) });
    expect(body).toEqual({ data: { node: asTransfer(transfer) } });
    expect(stack.upstreamCalls()).toEqual([transfersCall(775701, 0)]);
  });

  it('a transfer past the first 60 of its block: the aligned page that holds it, one call', async () => {
    const oldest = blockTransfers(BIG_TRANSFER_BLOCK)[0]!; // offset 76 in a block of 77
    const { body } = await stack.graphql(NODE, { id: transferId(oldest) });
    expect(body).toEqual({ data: { node: asTransfer(oldest) } });
    expect(stack.upstreamCalls()).toEqual([transfersCall(BIG_TRANSFER_BLOCK, 60)]);
  });

  it('an etching: the etching route by its rune id, one call', async () => {
    const etching = sampleData.etchings[5]!;
    const { body } = await stack.graphql(NODE, { id: globalId('RuneEtching', etching.id) });
    expect(body).toEqual({ data: { node: asEtching(etching) } });
    expect(stack.upstreamCalls()).toEqual([`GET /runes/v1/etchings/${encodeURIComponent(etching.id)}`]);
  });

  it('a token: its ticker, through the token list as brc20Tokens asks it, one call', async () => {
    const { body } = await stack.graphql(NODE, { id: globalId('Brc20Token', 'ordi') });
    expect(body).toEqual({ data: { node: asToken('ordi') } });
    expect(stack.upstreamCalls()).toEqual([listCall(['ordi'])]);
  });

  it('a token’s details: its ticker, through the detail route (holders), one call', async () => {
    const details = `query ($id: ID!) { node(id: $id) { __typename id ... on Brc20TokenDetails {
      token { id inscriptionId number blockHeight txId address ticker maxSupply mintLimit decimals deployTimestamp mintedSupply txCount selfMint }
      supply { maxSupply mintedSupply holders } } } }`;
    const id = globalId('Brc20TokenDetails', 'ordi');
    const { body } = await stack.graphql(details, { id });
    expect(body).toEqual({ data: { node: { __typename: 'Brc20TokenDetails', id, ...toBrc20(findBrc20Token('ordi')!) } } });
    expect(stack.upstreamCalls()).toEqual(['GET /ordinals/v1/brc-20/tokens/ordi']);
  });

  it('a ticker with a slash (brc20Token takes it) is an id like any other: looked up, null where none exists', async () => {
    const { body } = await stack.graphql(NODE, { id: globalId('Brc20Token', 'a/bc') });
    expect(body).toEqual({ data: { node: null } });
    expect(stack.upstreamCalls()).toEqual([listCall(['a/bc'])]);
  });

  it('an id from a list refetches the object the list showed', async () => {
    const { body } = await stack.graphql(`{ transfersConnection(block: ${BIG_TRANSFER_BLOCK}, first: 70) { edges { node { id } } } }`);
    const edges = (body.data!.transfersConnection as { edges: Array<{ node: { id: string } }> }).edges;
    const ids = [edges[0]!.node.id, edges[65]!.node.id];
    const { body: refetched } = await stack.graphql(NODES, { ids });
    const newestFirst = [...blockTransfers(BIG_TRANSFER_BLOCK)].reverse();
    expect(refetched).toEqual({ data: { nodes: [asTransfer(newestFirst[0]!), asTransfer(newestFirst[65]!)] } });
  });
});

describe('one id asked twice in a request', () => {
  const transfer = blockTransfers(775701)[1]!;
  const etching = sampleData.etchings[5]!;
  const cases: Array<[string, string, object, string]> = [
    ['a transfer', transferId(transfer), asTransfer(transfer), transfersCall(775701, 0)],
    ['an etching', globalId('RuneEtching', etching.id), asEtching(etching), `GET /runes/v1/etchings/${encodeURIComponent(etching.id)}`],
    ['a token', globalId('Brc20Token', 'ordi'), asToken('ordi'), listCall(['ordi'])],
  ];

  // The second lookup is answered from the first's pending load: before its type was branded on the
  // value, it completed first and failed as a Node of no type (INTERNAL_SERVER_ERROR).
  it.each(cases)('%s: by node and node, both answered, one call', async (_name, id, expected, call) => {
    const { body } = await stack.graphql(`query ($id: ID!) { a: node(id: $id) { ${NODE_FIELDS} } b: node(id: $id) { ${NODE_FIELDS} } }`, {
      id,
    });
    expect(body).toEqual({ data: { a: expected, b: expected } });
    expect(stack.upstreamCalls()).toEqual([call]);
  });

  // The same load through `nodes`: whether the unbranded value completed first here depended on
  // the turns the load took (it failed when the gateway's cache answered it).
  it.each(cases)('%s: by nodes and node, both answered, one call', async (_name, id, expected, call) => {
    const { body } = await stack.graphql(
      `query ($id: ID!) { a: nodes(ids: [$id]) { ${NODE_FIELDS} } b: node(id: $id) { ${NODE_FIELDS} } }`,
      {
        id,
      },
    );
    expect(body).toEqual({ data: { a: [expected], b: expected } });
    expect(stack.upstreamCalls()).toEqual([call]);
  });
});

describe('nodes', () => {
  it('answers in order, mixed types, null where none exists; ids of one page share its call', async () => {
    const [a, b] = [blockTransfers(775700)[0]!, blockTransfers(775700)[1]!];
    const etching = sampleData.etchings[0]!;
    const ids = [
      globalId('RuneEtching', etching.id),
      globalId('RuneEtching', '1:999999'), // no such rune: the upstream's 404
      transferId(b),
      globalId('Brc20Token', 'sats'),
      globalId('Brc20Token', 'zzzz'), // no such token
      transferId(a),
      globalId('InscriptionTransfer', `775700:0:${'f'.repeat(64)}i0`), // another inscription is there now
      globalId('InscriptionTransfer', `775617:0:${SHARED_INSCRIPTION}`), // a block without transfers
    ];
    const { body } = await stack.graphql(NODES, { ids });
    expect(body).toEqual({
      data: { nodes: [asEtching(etching), null, asTransfer(b), asToken('sats'), null, asTransfer(a), null, null] },
    });
    expect(stack.upstreamCalls().sort()).toEqual(
      [
        `GET /runes/v1/etchings/${encodeURIComponent(etching.id)}`,
        `GET /runes/v1/etchings/${encodeURIComponent('1:999999')}`,
        transfersCall(775700, 0),
        transfersCall(775617, 0),
        listCall(['sats', 'zzzz']),
      ].sort(),
    );
  });

  it.each([0, 51])('%i ids is BAD_USER_INPUT, and nothing reaches the upstream', async (count) => {
    const ids = Array.from({ length: count }, (_, i) => globalId('RuneEtching', `840000:${i}`));
    const { body } = await stack.graphql(NODES, { ids });
    expect(body).toEqual({ data: null, errors: [fieldError(['nodes'], { code: 'BAD_USER_INPUT', argument: 'ids' })] });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  it('a failing refetch fails alone, at its index (the request’s upstream-call limit here)', async () => {
    const limited = await startStack({ MAX_UPSTREAM_CALLS_PER_REQUEST: '2' });
    try {
      const ids = sampleData.etchings.slice(0, 3).map((e) => globalId('RuneEtching', e.id));
      const { body } = await limited.graphql(NODES, { ids });
      expect(body).toEqual({
        data: { nodes: [asEtching(sampleData.etchings[0]!), asEtching(sampleData.etchings[1]!), null] },
        errors: [fieldError(['nodes', 2], { code: 'TOO_MANY_UPSTREAM_CALLS', limit: 2 })],
      });
      expect(limited.upstreamCalls()).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });

  it('is priced per id: 50 ids from a variable cost what 50 written ones do, within the default limit', async () => {
    const ids = Array.from({ length: 50 }, () => globalId('RuneEtching', sampleData.etchings[0]!.id));
    const { body } = await stack.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { id } a: nodes(ids: $ids) { id } }`, { ids });
    expect(body.errors).toEqual([
      { message: expect.any(String), extensions: { code: 'QUERY_TOO_COMPLEX', limit: 1000, actual: expect.any(Number) } },
    ]);
    expect(stack.upstreamCalls()).toEqual([]);
    const one = await stack.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
    expect(one.body.errors).toBeUndefined();
  });
});

describe('a malformed id is BAD_USER_INPUT and never reaches the upstream', () => {
  const raw = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  // 'RuneEtching:1:10' is 16 bytes: its last base64 character carries 4 unused bits.
  const canonical = raw('RuneEtching:1:10');
  const otherBits = canonical.slice(0, -1) + String.fromCharCode(canonical.charCodeAt(canonical.length - 1) + 1);
  const malformed: Array<[string, string]> = [
    ['empty', ''],
    ['not base64url', 'not an id!'],
    ['padded', `${raw('RuneEtching:1:1x')}==`],
    ['another spelling of the same bytes', otherBits],
    ['no type', raw(':840000:3')],
    ['an unknown type', raw('Query:1')],
    ['a type without ids', raw('RuneLocation:1:1')],
    ['an empty local id', raw('RuneEtching:')],
    ['a rune id with a leading zero', raw('RuneEtching:0840000:3')],
    ['a rune id of three parts', raw('RuneEtching:1:2:3')],
    ['a transfer without its inscription', raw('InscriptionTransfer:775700:1')],
    ['a transfer offset of 10 digits', raw(`InscriptionTransfer:775700:1000000000:${'a'.repeat(64)}i0`)],
    ['an uppercase inscription id', raw(`InscriptionTransfer:775700:0:${'A'.repeat(64)}i0`)],
    ['an uppercase ticker', raw('Brc20Token:ORDI')],
    ['a dot-segment ticker', raw('Brc20Token:..')],
    ['a ticker of 17 bytes', raw(`Brc20Token:${'a'.repeat(17)}`)],
    ['not UTF-8', Buffer.from([0x52, 0x75, 0x6e, 0x65, 0xff, 0x3a, 0x31]).toString('base64url')],
    ['too long', 'A'.repeat(400)],
  ];

  it('the other spelling decodes to the same bytes (so only the canonical check refuses it)', () => {
    expect(Buffer.from(otherBits, 'base64url').equals(Buffer.from(canonical, 'base64url'))).toBe(true);
  });

  it.each(malformed)('%s: node', async (_name, id) => {
    const { body } = await stack.graphql(NODE, { id });
    expect(body).toEqual({ data: { node: null }, errors: [fieldError(['node'], { code: 'BAD_USER_INPUT', argument: 'id' })] });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  it.each(malformed)('%s: in nodes, fails its entry alone; the others and the other root fields are answered', async (_name, id) => {
    const etching = sampleData.etchings[0]!;
    const ids = [globalId('RuneEtching', etching.id), id, globalId('Brc20Token', 'sats')];
    const { body } = await stack.graphql(`query ($ids: [ID!]!) { status { status } nodes(ids: $ids) { ${NODE_FIELDS} } }`, { ids });
    expect(body).toEqual({
      data: { status: { status: 'ready' }, nodes: [asEtching(etching), null, asToken('sats')] },
      errors: [fieldError(['nodes', 1], { code: 'BAD_USER_INPUT', argument: 'id' })],
    });
    expect(stack.upstreamCalls().sort()).toEqual(
      ['GET /metadata/v1', `GET /runes/v1/etchings/${encodeURIComponent(etching.id)}`, listCall(['sats'])].sort(),
    );
  });
});
