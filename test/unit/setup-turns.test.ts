import { expect, test } from 'vitest';
import { setupTurn } from '../../src/live/setup-turns.js';

test('each set-up gets a turn of the event loop of its own: other work runs between them', async () => {
  const order: string[] = [];
  const turns = ['first', 'second', 'third'].map((name) => setupTurn().then(() => order.push(name)));
  // Queued after the first turn: all-at-once would run it after the third.
  setImmediate(() => order.push('other work'));
  await Promise.all(turns);
  expect(order).toEqual(['first', 'other work', 'second', 'third']);
});
