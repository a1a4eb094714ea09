/**
 * The flight board (src/upstream/shared-flights.ts) against a real redis-server that stalls: a
 * claim Redis answers too late leaves no lock behind, and the process asks alone for a while
 * instead of waiting on Redis for every miss.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFlightBoard, type FlightBoard } from '../../src/upstream/shared-flights.js';
import { freePort } from '../harness.js';
import { pauseRedis, resumeRedis, startRedis, stopRedis } from '../redis.js';

let server: ChildProcess;
let port: number;
const connections: Redis[] = [];
const boards: FlightBoard[] = [];

/** A connection as the gateway makes one (src/upstream/index.ts): no offline queue, 500 ms commands. */
function connect(): Redis {
  const redis = new Redis({ port, host: '127.0.0.1', enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 500 });
  redis.on('error', () => {});
  connections.push(redis);
  return redis;
}

/** A board once it hears landings (before that it always asks alone). */
async function board(): Promise<FlightBoard> {
  const made = createFlightBoard(connect());
  boards.push(made);
  for (let i = 0; i < 100; i++) {
    const flight = await made.take(`satgate:test:warm-up:${i}`, 1000);
    if (flight.role === 'lead') {
      flight.land();
      return made;
    }
    await sleep(20);
  }
  throw new Error('the board never heard Redis');
}

beforeAll(async () => {
  port = await freePort();
  server = await startRedis(port);
});

afterAll(async () => {
  boards.forEach((b) => b.close());
  connections.forEach((c) => c.disconnect());
  await stopRedis(server);
});

test('a claim answered late leaves no lock, and the process asks alone for a while', async () => {
  const [a, b] = [await board(), await board()];
  const probe = connect();
  const key = 'satgate:test:stalled';
  pauseRedis(server);
  try {
    expect(await a.take(key, 10_000)).toEqual({ role: 'alone' });
    await sleep(200);
  } finally {
    resumeRedis(server);
  }
  await sleep(100);
  // Redis took the late claim, then freed it: nobody waits for a flight nobody flies.
  expect(await probe.pttl(`${key}:flight`)).toBe(-2);
  const flight = await b.take(key, 10_000);
  expect(flight.role).toBe('lead');
  if (flight.role === 'lead') flight.land();
  // Redis answers again, but `a` found it slow a moment ago: it does not wait on it yet.
  expect(await a.take('satgate:test:next', 10_000)).toEqual({ role: 'alone' });
});

test('a subscription Redis refuses after a reconnect leaves the process asking alone, with no unhandled rejection', async () => {
  const a = await board();
  const admin = new Redis({ port, host: '127.0.0.1' });
  const refusals = async () => Number(/errorstat_NOPERM:count=(\d+)/.exec(await admin.info('errorstats'))?.[1] ?? 0);
  const before = await refusals();
  await admin.call('ACL', 'SETUSER', 'default', '-subscribe');
  try {
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    // The board's listener reconnects and is refused its SUBSCRIBE (ioredis's own resubscription,
    // when on, was refused too, and its rejection went unhandled: vitest fails the file on one).
    for (let tries = 0; (await refusals()) === before; tries++) {
      if (tries > 300) throw new Error('the listener never asked to subscribe again');
      await sleep(10);
    }
    await sleep(50);
    expect(await a.take('satgate:test:deaf', 10_000)).toEqual({ role: 'alone' });
  } finally {
    await admin.call('ACL', 'SETUSER', 'default', '+subscribe');
    admin.disconnect();
  }
});
