/**
 * A data source's calls under its field's one deadline (upstream/deadline.ts): the field answers at
 * the deadline, and a call still in flight then runs on to its own, so a hanging source is counted
 * as timing out (the breaker, the logs and the metrics see it) rather than as calls abandoned.
 */
import { expect, test } from 'vitest';
import { rest, startStack } from '../harness.js';
import { fieldError } from '../support.js';

test('a hanging ord: the field times out at its deadline, and its call counts as a timeout', async () => {
  const stack = await startStack((sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl, UPSTREAM_TIMEOUT_MS: '300' }), {
    sources: { ord: {} },
  });
  try {
    stack.sample.inject({ path: '/runes/*', hang: true });
    const { body } = await stack.graphql('{ etchings(limit: 5) { total } }');
    expect(body).toEqual({
      data: { etchings: null },
      errors: [fieldError(['etchings'], { code: 'UPSTREAM_TIMEOUT', service: 'runes', source: 'ord' })],
      extensions: { sources: [{ source: 'ord', height: null, unavailable: [] }] },
    });
    const outcomes = async () =>
      String((await rest(`${stack.gatewayUrl}/metrics`)).body)
        .split('\n')
        .filter((line) => line.startsWith('satgate_upstream_request_duration_seconds_count{service="ord",route="/runes/'));
    let seen = await outcomes();
    for (let tries = 0; tries < 20 && seen.length === 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await outcomes();
    }
    expect(seen).toEqual(['satgate_upstream_request_duration_seconds_count{service="ord",route="/runes/:page",outcome="timeout"} 1']);
  } finally {
    await stack.close();
  }
});
