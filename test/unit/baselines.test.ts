import { expect, test } from 'vitest';
import { Baselines } from '../../src/live/baselines.js';

test('a subscriber starts from the first poll that started after it joined; joins during a poll share the next', () => {
  const baselines = new Baselines<string>();
  baselines.join('a');
  const first = baselines.start();
  // Joined while the first poll ran: that poll cannot be its baseline, and one more is needed.
  baselines.join('b');
  baselines.join('c');
  expect(baselines.needsPoll()).toBe(true);
  baselines.settle(first);
  expect({ waiting: [...baselines.waiters()], needsPoll: baselines.needsPoll() }).toEqual({ waiting: ['b', 'c'], needsPoll: true });
  const second = baselines.start();
  expect(baselines.needsPoll()).toBe(false);
  baselines.join('d');
  baselines.leave('c');
  baselines.settle(second);
  expect({ waiting: [...baselines.waiters()], waits: ['a', 'b', 'd'].map((s) => baselines.waits(s)) }).toEqual({
    waiting: ['d'],
    waits: [false, false, true],
  });
});

test('a poll that failed settles nobody, and those who joined before it started need no extra poll', () => {
  const baselines = new Baselines<string>();
  baselines.join('a');
  baselines.start();
  // No answer (an error): the next poll comes at its time.
  expect({ waiting: [...baselines.waiters()], needsPoll: baselines.needsPoll() }).toEqual({ waiting: ['a'], needsPoll: false });
  baselines.settle(baselines.start());
  expect([...baselines.waiters()]).toEqual([]);
});
