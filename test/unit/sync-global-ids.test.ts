// src/graphql/schema/sync-global-ids.ts: a node's id is answered in the same turn, encoded as
// Pothos's relay plugin encodes it (the global ids' own tests check the encoding end to end).
import { GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import { expect, test } from 'vitest';
import { schema } from '../../src/graphql/schema/index.js';

const idOf = (type: string, parent: object) =>
  (schema.getType(type) as GraphQLObjectType).getFields().id!.resolve!(parent, {}, {}, {} as GraphQLResolveInfo);

test('an etching and a token: the id itself, not a promise of it', () => {
  expect(idOf('RuneEtching', { id: '840000:1' })).toBe(Buffer.from('RuneEtching:840000:1').toString('base64url'));
  expect(idOf('Brc20Token', { ticker: 'ORDI' })).toBe(Buffer.from('Brc20Token:ordi').toString('base64url'));
});
