/**
 * What the runner measures: the target kinds, the workload ids and which kinds each workload runs
 * against in each phase. Kept apart from bench/run.ts (which starts processes when imported) so that
 * the targets' data can be checked against it in a unit test.
 */
export const TARGET_KINDS = [
  'direct',
  'proxy',
  'peer',
  'yoga-rc',
  'limit',
  'limit-full',
  'cold',
  'warm',
  'redis',
  'default',
  'unisat',
  'ord',
] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export const WORKLOAD_IDS = [
  'W1-REST',
  'W1-GraphQL',
  'W1-miss',
  'W2',
  'W2b',
  'W2c',
  'W3',
  'W3-miss',
  'W4',
  'W4-miss',
  'W5',
  'C1',
  'W6',
  'W6-literal',
  'W7',
  'W8',
] as const;
export type WorkloadId = (typeof WORKLOAD_IDS)[number];

/** The two phases: the main rows (upstream +BENCH_UPSTREAM_DELAY_MS) and the rows with the upstream 20 ms away. */
export type Phase = 'main' | 'latency';

const GQL: TargetKind[] = ['peer', 'cold', 'warm'];
/** Issue 27's tuned peer and floor, beside the gateway rows they are compared with. */
const TUNED: TargetKind[] = ['yoga-rc', 'limit'];
/** Issue 27's rows: the tuned peer, the floor and the gateway with its default 1 s freshness. */
const ISSUE27: TargetKind[] = ['yoga-rc', 'limit', 'default'];

/**
 * Every row of a full run, in the order measured: workload → the kinds it runs against (redis only
 * where redis-server exists). Issue 27's W2, W3 and W4 are W1-GraphQL, W2b and W3 here; `unisat`
 * and `ord` are warm gateways reading that data source (issue 25), judged on correctness only.
 */
export const PLAN: Record<Phase, Array<[WorkloadId, TargetKind[]]>> = {
  main: [
    ['W1-REST', ['direct', 'proxy', 'cold', 'warm']],
    ['W1-GraphQL', [...GQL, 'redis', ...TUNED, 'unisat']],
    ['W1-miss', ['peer', 'warm', 'unisat']],
    ['W2', GQL],
    ['W2b', [...GQL, ...TUNED]],
    ['W2c', GQL],
    ['W3', [...GQL, 'redis', ...TUNED, 'unisat', 'ord']],
    ['W3-miss', ['peer', 'warm', 'unisat', 'ord']],
    ['W4', [...GQL, 'unisat']],
    ['W4-miss', ['warm', 'unisat']],
    ['W5', GQL],
    ['C1', GQL],
    ['W6', ISSUE27],
    ['W6-literal', ISSUE27],
    ['W7', ISSUE27],
    // Its floor is limit-full, which parses each page: limit's 9,941 answers of 44 KB would be 400 MB.
    ['W8', ['yoga-rc', 'limit-full', 'default']],
  ],
  latency: [
    ['W1-REST', ['direct', 'proxy', 'cold', 'warm']],
    ['W1-GraphQL', ['cold', 'warm']],
  ],
};
