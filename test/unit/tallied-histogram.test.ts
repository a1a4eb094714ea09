/**
 * The hot paths' histogram (src/observe/tallied-histogram.ts) must read on /metrics exactly as
 * prom-client's own histogram given the same observations: the same lines, in the same order, and
 * the same sums when a node:cluster group's registries are added up.
 */
import { AggregatorRegistry, Histogram, Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import { TalliedHistogram } from '../../src/observe/tallied-histogram.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];
/** Values on, between and past the bounds, and one that is no number (prom-client throws on it). */
const OBSERVED: Array<[string, string, number]> = [
  ['/a/:id', '200', 0.0005],
  ['/a/:id', '200', 0.001],
  ['/a/:id', '200', 0.05],
  ['/a/:id', '404', 3],
  ['/b', '200', 1],
  ['/a/:id', '200', 0],
];

function both() {
  const ours = new Registry();
  const theirs = new Registry();
  const options = { name: 'x_duration_seconds', help: 'Durations', labelNames: ['route', 'status'] as const, buckets: BUCKETS };
  const tallied = new TalliedHistogram({ ...options, registers: [ours] });
  const reference = new Histogram({ ...options, labelNames: [...options.labelNames], registers: [theirs] });
  for (const [route, status, seconds] of OBSERVED) {
    tallied.observe([route, status], seconds);
    reference.observe({ route, status }, seconds);
  }
  return { ours, theirs, tallied };
}

describe('TalliedHistogram', () => {
  test("reads as prom-client's histogram of the same observations", async () => {
    const { ours, theirs } = both();
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('x_duration_seconds_bucket{le="0.001",route="/a/:id",status="200"} 3');
    expect(text).toContain('x_duration_seconds_count{route="/a/:id",status="404"} 1');
  });

  test('adds up across a cluster as prom-client adds its own', async () => {
    const { ours, theirs } = both();
    const json = [await ours.getMetricsAsJSON(), await ours.getMetricsAsJSON()];
    const reference = [await theirs.getMetricsAsJSON(), await theirs.getMetricsAsJSON()];
    expect(await AggregatorRegistry.aggregate(json).metrics()).toBe(await AggregatorRegistry.aggregate(reference).metrics());
  });

  test('ignores what is not a finite number, and starts over on reset', async () => {
    const { ours, tallied } = both();
    const before = await ours.metrics();
    tallied.observe(['/a/:id', '200'], Number.NaN);
    tallied.observe(['/a/:id', '200'], Number.POSITIVE_INFINITY);
    expect(await ours.metrics()).toBe(before);
    ours.resetMetrics();
    expect(await ours.metrics()).toBe('# HELP x_duration_seconds Durations\n# TYPE x_duration_seconds histogram\n');
  });
});
