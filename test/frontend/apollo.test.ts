/**
 * Apollo Client as published, set up as examples/frontend/apollo.ts: its normalised cache over the
 * demo data's blocks 775700 and 775701, which share an inscription (#1 moves on from 775700 to
 * 775701). Each block's list, read back from the cache, keeps its own transfers, whole: before
 * global ids the two transfers shared one record and block 775700's list showed `to.blockHeight`
 * 775701.
 */
import { gql } from '@apollo/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSchema, isObjectType } from 'graphql';
import { readFileSync } from 'node:fs';
import { createApolloClient } from '../../examples/frontend/apollo.js';
import { WITHOUT_ID } from '../../examples/frontend/without-id.js';
import { findTransferBlock, type BlockTransfer, type InscriptionLocation } from '../../src/sample/data.js';
import { startStack, type Stack } from '../harness.js';
import { toLocation, toTransfer } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const LOCATION = 'blockHeight blockHash address txId location output value offset timestamp';
const TRANSFERS = gql`
  query BlockTransfers($block: BlockId!) {
    transfers(block: $block) { total results { id inscriptionId number from { ${LOCATION} } to { ${LOCATION} } } }
  }
`;
const CONNECTION = gql`
  query BlockConnection($block: BlockId!) {
    transfersConnection(block: $block, first: 10) {
      totalCount
      edges {
        cursor
        node {
          id
          inscriptionId
          to {
            blockHeight
            txId
          }
        }
      }
    }
  }
`;
const SHARED = '7ac73ecd01b9da4a7eab904655416dbfe8e03f193e091761b5a63ad0963570cdi0';

/** A transfer as Apollo's cache gives it back: every object with its __typename. */
function cached(t: BlockTransfer) {
  const location = (l: InscriptionLocation) => ({ __typename: 'InscriptionLocation', ...toLocation(l) });
  return { __typename: 'InscriptionTransfer', ...toTransfer(t), from: location(t.from), to: location(t.to) };
}
const newestFirst = (height: number) => [...findTransferBlock(String(height))!.transfers].reverse();

it('keeps each block’s transfers apart when two blocks share an inscription', async () => {
  const client = createApolloClient(`${stack.gatewayUrl}/graphql`);
  for (const block of [775700, 775701]) await client.query({ query: TRANSFERS, variables: { block } });
  const page = (block: number) => client.readQuery({ query: TRANSFERS, variables: { block } });
  expect([page(775700), page(775701)]).toEqual(
    [775700, 775701].map((block) => ({
      transfers: { __typename: 'InscriptionTransferPage', total: newestFirst(block).length, results: newestFirst(block).map(cached) },
    })),
  );
  // The shared inscription is two records, each with its own block.
  const shared = [775700, 775701].map((block) => newestFirst(block).find((t) => t.id === SHARED)!);
  const records = client.cache.extract() as Record<string, { inscriptionId?: string; to?: { blockHeight: number } }>;
  expect(
    Object.values(records)
      .filter((record) => record.inscriptionId === SHARED)
      .map((record) => record.to?.blockHeight)
      .sort(),
  ).toEqual(shared.map((t) => t.to.block_height));
  client.stop();
});

it('keeps them apart in the connections too (relayStylePagination keyed by block)', async () => {
  const client = createApolloClient(`${stack.gatewayUrl}/graphql`);
  for (const block of [775700, 775701]) await client.query({ query: CONNECTION, variables: { block } });
  const nodes = (block: number) =>
    (
      client.readQuery({ query: CONNECTION, variables: { block } }) as {
        transfersConnection: { edges: Array<{ node: { __typename: string } }> };
      }
    ).transfersConnection.edges.map((edge) => edge.node);
  const expected = (block: number) =>
    newestFirst(block).map((t) => {
      const { id, inscriptionId, to } = toTransfer(t);
      return {
        __typename: 'InscriptionTransfer',
        id,
        inscriptionId,
        to: { __typename: 'InscriptionLocation', blockHeight: to.blockHeight, txId: to.txId },
      };
    });
  expect([nodes(775700), nodes(775701)]).toEqual([expected(775700), expected(775701)]);
  client.stop();
});

it('two views of one etching that select different fields of its supply both stay whole', async () => {
  const client = createApolloClient(`${stack.gatewayUrl}/graphql`);
  const LIST = gql`
    query Newest {
      etchings(limit: 1) {
        results {
          id
          spacedName
          supply {
            minted
            mintable
          }
        }
      }
    }
  `;
  const NODE = gql`
    query Etching($id: ID!) {
      node(id: $id) {
        id
        ... on RuneEtching {
          supply {
            current
            premine
          }
        }
      }
    }
  `;
  const list = await client.query({ query: LIST });
  const { id } = (list.data as { etchings: { results: Array<{ id: string }> } }).etchings.results[0]!;
  const node = await client.query({ query: NODE, variables: { id } });
  // Without merge: true the second write replaced the supply, and the first view read back nothing.
  expect([client.readQuery({ query: LIST }), client.readQuery({ query: NODE, variables: { id } })]).toEqual([list.data, node.data]);
  client.stop();
});

it('merges every object type that has no id', () => {
  const schema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  const withoutId = Object.values(schema.getTypeMap())
    .filter((type) => isObjectType(type) && !type.name.startsWith('__') && !roots.includes(type) && !type.getFields().id)
    .map((type) => type.name);
  expect([...WITHOUT_ID].sort()).toEqual(withoutId.sort());
});
