import { expect, it, vi as jest } from 'vitest'; // upstream imports these from '@jest/globals'
import { fakePromise, handleMaybePromise } from '../esm/index.js';

it('should not consider fakePromises as Promises', () => {
  const fake$ = fakePromise('value');
  const thenSpy = jest.fn(val => val);
  const returnVal = handleMaybePromise(() => fake$, thenSpy);
  expect(thenSpy).toHaveBeenCalledWith('value');
  expect(returnVal).toBe('value');
});
