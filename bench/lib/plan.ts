/**
 * What the runner measures: the target kinds, the workload ids and which kinds each workload runs
 * against in each phase. Kept apart from bench/run.ts (which starts processes when imported) so that
 * the targets' data can be checked against it in a unit test.
 */
export const TARGET_KINDS = ['direct', 'proxy', 'peer', 'cold', 'warm', 'redis'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export const WORKLOAD_IDS = ['W1-REST', 'W1-GraphQL', 'W1-miss', 'W2', 'W2b', 'W2c', 'W3', 'W3-miss', 'W4', 'W5', 'C1'] as const;
export type WorkloadId = (typeof WORKLOAD_IDS)[number];

/** The two phases: the main rows (upstream +BENCH_UPSTREAM_DELAY_MS) and the rows with the upstream 20 ms away. */
export type Phase = 'main' | 'latency';

const GQL: TargetKind[] = ['peer', 'cold', 'warm'];

/** Every row of a full run, in the order measured: workload → the kinds it runs against (redis only where redis-server exists). */
export const PLAN: Record<Phase, Array<[WorkloadId, TargetKind[]]>> = {
  main: [
    ['W1-REST', ['direct', 'proxy', 'cold', 'warm']],
    ['W1-GraphQL', [...GQL, 'redis']],
    ['W1-miss', ['peer', 'warm']],
    ['W2', GQL],
    ['W2b', GQL],
    ['W2c', GQL],
    ['W3', [...GQL, 'redis']],
    ['W3-miss', ['peer', 'warm']],
    ['W4', GQL],
    ['W5', GQL],
    ['C1', GQL],
  ],
  latency: [
    ['W1-REST', ['direct', 'proxy', 'cold', 'warm']],
    ['W1-GraphQL', ['cold', 'warm']],
  ],
};
