/**
 * Relay as published (relay-compiler + relay-runtime): a `@refetchable` fragment on each Node type
 * (test/frontend/relay/Refetch.ts) compiles against schema.graphql, and relay-runtime refetches
 * each one through `node(id:)` with the network layer of examples/frontend/relay.ts.
 *
 * The artifacts are compiled into a temporary directory at setup, not checked in: they are derived
 * from schema.graphql and the documents, so compiling them in every run is what proves the
 * documents still compile (a checked-in copy would prove only that it was once generated), and no
 * second generated tree has to be kept in sync. relay-compiler is a native binary: about a second.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ConnectionHandler,
  createOperationDescriptor,
  fetchQuery,
  getSelector,
  requestSubscription,
  ROOT_ID,
  type ConcreteRequest,
  type Environment,
  type GraphQLTaggedNode,
  type ReaderFragment,
} from 'relay-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayEnvironment } from '../../examples/frontend/relay.js';
import { findBrc20Token, findTransferBlock, sampleData } from '../../src/sample/data.js';
import { startStack, type Stack } from '../harness.js';
import { until } from '../live-clients.js';
import { listCall } from '../profiles.js';
import { toBrc20, toEtching, toTransfer } from '../support.js';

const ROOT = new URL('../../', import.meta.url).pathname;
let stack: Stack;
let dir: string;
/** The compiled artifacts, by name. */
const artifacts: Record<string, ConcreteRequest | ReaderFragment> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'satgate-relay-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, '__generated__'));
  copyFileSync(join(ROOT, 'test/frontend/relay/Refetch.ts'), join(dir, 'src/Refetch.ts'));
  copyFileSync(join(ROOT, 'schema.graphql'), join(dir, 'schema.graphql'));
  const config = { src: './src', schema: './schema.graphql', artifactDirectory: './__generated__', language: 'typescript' };
  writeFileSync(join(dir, 'relay.config.json'), JSON.stringify(config));
  await promisify(execFile)(join(ROOT, 'node_modules/.bin/relay-compiler'), [], { cwd: dir, env: { ...process.env, RUST_BACKTRACE: '0' } });
  for (const name of [
    'RefetchListsQuery',
    'RefetchEtchingQuery',
    'RefetchTransferQuery',
    'RefetchTokenQuery',
    'Refetch_etching',
    'Refetch_transfer',
    'Refetch_token',
    'RefetchEtchingsQuery',
    'RefetchEtchingAddedSubscription',
  ]) {
    const module = (await import(join(dir, '__generated__', `${name}.graphql.ts`))) as { default: ConcreteRequest | ReaderFragment };
    artifacts[name] = module.default;
  }
  // Live polls every 50 ms here, so the subscription's events come quickly.
  stack = await startStack({ LIVE_POLL_INTERVAL_MS: '50', LIVE_RATE_LIMIT_PER_MINUTE: '0' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fragment's data as Relay's store holds it for `ref` (what a component would render). */
function read(environment: Environment, fragment: string, ref: unknown): unknown {
  const selector = getSelector(artifacts[fragment] as ReaderFragment, ref as never);
  if (!selector || !('dataID' in selector)) throw new Error(`no singular selector for ${fragment}`);
  return environment.lookup(selector).data;
}

const query = (name: string) => artifacts[name] as ConcreteRequest;

/** The fragments' selections, from the sample's data (the fields Refetch.ts selects). */
function etchingFields(e: (typeof sampleData.etchings)[number]) {
  const all = toEtching(e);
  return {
    id: all.id,
    runeId: all.runeId,
    spacedName: all.spacedName,
    number: all.number,
    supply: { minted: all.supply.minted, mintable: all.supply.mintable },
    location: { blockHeight: all.location.blockHeight, timestamp: all.location.timestamp },
  };
}
function transferFields(t: Parameters<typeof toTransfer>[0]) {
  const all = toTransfer(t);
  return {
    id: all.id,
    inscriptionId: all.inscriptionId,
    number: all.number,
    from: { blockHeight: all.from.blockHeight, address: all.from.address },
    to: { blockHeight: all.to.blockHeight, blockHash: all.to.blockHash, txId: all.to.txId, address: all.to.address, value: all.to.value },
  };
}
function tokenFields(ticker: string) {
  const { token } = toBrc20(findBrc20Token(ticker)!);
  const { id, inscriptionId, maxSupply, mintedSupply, txCount } = token;
  return { id, inscriptionId, ticker: token.ticker, maxSupply, mintedSupply, txCount };
}

describe('a @refetchable fragment on each Node type, refetched by relay-runtime', () => {
  it('compiles each fragment’s refetch query as node(id:)', () => {
    for (const name of ['RefetchEtchingQuery', 'RefetchTransferQuery', 'RefetchTokenQuery']) {
      expect(query(name).params.text).toMatch(/^query \w+\(\n {2}\$id: ID!\n\) \{\n {2}node\(id: \$id\) \{/);
    }
  });

  it('reads the lists, then refetches each entity by its id: the same data, one documented call each', async () => {
    const environment = createRelayEnvironment(`${stack.gatewayUrl}/graphql`);
    const lists = (await fetchQuery(environment, query('RefetchListsQuery'), { block: 775701, ticker: 'ordi' }).toPromise()) as {
      etchingsConnection: { edges: Array<{ node: unknown }> };
      transfers: { results: unknown[] };
      brc20Token: { token: unknown };
    };
    const newestFirst = [...findTransferBlock('775701')!.transfers].reverse();
    const listed = {
      etching: read(environment, 'Refetch_etching', lists.etchingsConnection.edges[1]!.node),
      transfer: read(environment, 'Refetch_transfer', lists.transfers.results[0]),
      token: read(environment, 'Refetch_token', lists.brc20Token.token),
    };
    expect(listed).toEqual({
      etching: etchingFields(sampleData.etchings[1]!),
      transfer: transferFields(newestFirst[0]!),
      token: tokenFields('ordi'),
    });

    // A fresh store, so each refetch is what fills it; network-only, so each one reaches the gateway.
    const fresh = createRelayEnvironment(`${stack.gatewayUrl}/graphql`);
    stack.sample.clearLog();
    const refetch = async (name: string, fragment: string, id: unknown) => {
      const data = (await fetchQuery(fresh, query(name), { id }, { fetchPolicy: 'network-only' }).toPromise()) as { node: unknown };
      return read(fresh, fragment, data.node);
    };
    const ids = listed as Record<keyof typeof listed, { id: string }>;
    expect({
      etching: await refetch('RefetchEtchingQuery', 'Refetch_etching', ids.etching.id),
      transfer: await refetch('RefetchTransferQuery', 'Refetch_transfer', ids.transfer.id),
      token: await refetch('RefetchTokenQuery', 'Refetch_token', ids.token.id),
    }).toEqual(listed);
    expect(stack.upstreamCalls()).toEqual([
      `GET /runes/v1/etchings/${encodeURIComponent(sampleData.etchings[1]!.id)}`,
      'GET /ordinals/v1/inscriptions/transfers?block=775701&offset=0&limit=60',
      listCall(['ordi']),
    ]);
  });
});

describe('a connection that lives: etchingAddedEdge with @prependEdge', () => {
  it('puts each new etching at the start of the connection in the store, no refetch', async () => {
    const environment = createRelayEnvironment(`${stack.gatewayUrl}/graphql`);
    const list = query('RefetchEtchingsQuery');
    await fetchQuery(environment, list, {}).toPromise();
    const operation = createOperationDescriptor(list, {});
    // Kept in the store (a component would hold it) while the events arrive.
    const retained = environment.retain(operation);
    const shown = () =>
      (
        environment.lookup(operation.fragment).data as { etchingsConnection: { edges: Array<{ node: unknown }> } }
      ).etchingsConnection.edges.map((edge) => read(environment, 'Refetch_etching', edge.node));
    expect(shown()).toEqual(sampleData.etchings.slice(0, 2).map(etchingFields));

    stack.sample.clearLog();
    const connections = [ConnectionHandler.getConnectionID(ROOT_ID, 'Refetch_etchingsConnection')];
    const subscription = requestSubscription(environment, {
      subscription: query('RefetchEtchingAddedSubscription') as unknown as GraphQLTaggedNode,
      variables: { connections },
    });
    // The poller's first page is its baseline; an etching after it is news.
    await until(() => stack.upstreamCalls().filter((c) => c.startsWith('GET /runes/v1/etchings?')).length >= 2, 'the baseline poll');
    const [added] = stack.sample.activity.etch(1);
    await until(() => shown().length === 3, 'the new edge in the store');
    expect(shown()).toEqual([added!, ...sampleData.etchings.slice(0, 2)].map(etchingFields));
    subscription.dispose();
    retained.dispose();
    stack.sample.reset();
  });
});
