/**
 * Objects made per request carry no getters of their own. V8 keeps whatever an object literal's
 * getter captures alive through every scavenge until the next full GC, so a request's loaders (and
 * the upstream pages they answered) were promoted on every request
 * (docs/notes/2026-11-27-literal-getters.md). Their getters now sit on a class's prototype; the
 * lint rule in eslint.config.js keeps new literals from bringing them back.
 */
import { describe, expect, test } from 'vitest';
import { createLoaders } from '../../src/graphql/loaders.js';
import { streamConnection } from '../../src/graphql/schema/connection-stream.js';
import { readConnection, type ListSource } from '../../src/graphql/schema/cursor-paging.js';
import type { Upstreams } from '../../src/upstream/index.js';

const ownAccessors = (value: object) =>
  Object.entries(Object.getOwnPropertyDescriptors(value))
    .filter(([, descriptor]) => descriptor.get || descriptor.set)
    .map(([name]) => name);

describe('per-request objects', () => {
  test("a request's loaders: made on first use, the same on every later use, none shared", () => {
    // No loader is used here, so no upstream is needed: a loader is made only when first read.
    const upstreams = { sources: {} } as unknown as Upstreams;
    const limits = { maxCalls: 10, maxConcurrent: 2 };
    const first = createLoaders(upstreams, {}, limits);
    const second = createLoaders(upstreams, {}, limits);
    expect(ownAccessors(first)).toEqual([]);
    expect(first.etchings).toBe(first.etchings);
    expect(first.transferOffsets).toBe(first.transferOffsets);
    expect(first.etchings).not.toBe(second.etchings);
  });

  test('a streamed connection: its pageInfo is what the whole read gives', async () => {
    const items = ['840000:1', '840000:2', '840000:3', '840000:4', '840000:5'];
    const source: ListSource<string> = {
      kind: 'etchings',
      timeoutMs: 10_000,
      page: async (offset, limit) => ({ limit, offset, total: items.length, results: items.slice(offset, offset + limit) }),
      id: (item) => item,
    };
    const request = { count: 2, backward: false };
    const streamed = await streamConnection(source, request);
    const whole = await readConnection(source, request);
    expect(streamed).not.toBeNull();
    expect(ownAccessors(streamed!)).toEqual([]);
    const edges = [];
    for await (const edge of streamed!.edges) edges.push(edge);
    expect({ totalCount: streamed!.totalCount, edges, pageInfo: await streamed!.pageInfo }).toEqual(whole);
  });
});
