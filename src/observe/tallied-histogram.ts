/**
 * A histogram for the hot paths: prom-client's `observe` hashes its label object into a string and
 * checks it on every call (about 3,800 instructions, 3.5% of a stored GraphQL answer, counted with
 * bench/instructions.ts); this adds to a few plain numbers. prom-client still formats, serves and
 * aggregates it across workers: it is registered as a metric whose `get()` answers in the shape of
 * prom-client's own histograms (the same lines, labels in the same order, summed across workers).
 * Written here because prom-client's histogram has no call that adds counts gathered elsewhere.
 */
import type { Metric, Registry } from 'prom-client';

interface Series {
  labels: Record<string, string>;
  /** Per bucket (not cumulative), the last for values above every bound. */
  counts: number[];
  sum: number;
}

interface Options<Name extends string> {
  name: string;
  help: string;
  labelNames: readonly Name[];
  buckets: readonly number[];
  registers: Registry[];
}

export class TalliedHistogram<Name extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly Name[];
  private readonly bounds: readonly number[];
  /** By the label values joined with a character no label value holds. */
  private series = new Map<string, Series>();

  constructor({ name, help, labelNames, buckets, registers }: Options<Name>) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    this.bounds = [...buckets].sort((a, b) => a - b);
    for (const registry of registers) registry.registerMetric(this as unknown as Metric);
  }

  /** `values`: the label values in `labelNames`' order. A value that is not a finite number is ignored. */
  observe(values: readonly string[], seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    const key = values.length === 1 ? values[0]! : values.join('\u0000');
    let series = this.series.get(key);
    if (series === undefined) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, i) => (labels[name] = values[i]!));
      series = { labels, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0 };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
  }

  /** What prom-client's registry reads: its histogram's values, bucket counts cumulative. */
  get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    const bucketName = `${this.name}_bucket`;
    for (const { labels, counts, sum } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += counts[i]!;
        values.push({ labels: { le: bound, ...labels }, value: cumulative, metricName: bucketName });
      });
      const count = cumulative + counts[this.bounds.length]!;
      values.push(
        { labels: { le: '+Inf', ...labels }, value: count, metricName: bucketName },
        { labels: { ...labels }, value: sum, metricName: `${this.name}_sum` },
        { labels: { ...labels }, value: count, metricName: `${this.name}_count` },
      );
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  reset(): void {
    this.series.clear();
  }
}
