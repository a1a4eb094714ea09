// The bench's targets (bench/targets.json) judged by their interpreter (bench/lib/targets.ts) on
// synthetic rows: no process, no port.
import { describe, expect, it } from 'vitest';
import { PLAN, type Phase, type TargetKind, type WorkloadId } from '../../bench/lib/plan.js';
import { evaluate, loadTargets, parseTargets, type MeasuredRow, type Run, type TargetSpec } from '../../bench/lib/targets.js';

const TARGETS = loadTargets();
const PHASES: Record<Phase, string> = { main: 'upstream +0 ms', latency: 'upstream +20 ms, 1 conn' };
const LABELS: Record<WorkloadId, string> = {
  'W1-REST': 'W1 REST token',
  'W1-GraphQL': 'W1 GraphQL token',
  'W1-miss': 'W1 GraphQL token misses',
  W2: 'W2 20 aliases / 5 tickers',
  W2b: 'W2b 20 tickers',
  W2c: 'W2c 20 tickers, no holders',
  W3: 'W3 60 etchings',
  'W3-miss': 'W3 60 etchings misses',
  W4: 'W4 60 transfers',
  'W4-miss': 'W4 60 transfers misses',
  W5: 'W5 status+token+transfers+etchings',
  C1: 'C1 500-item etchings connection',
  W6: 'W6 one token, $ticker over 500',
  'W6-literal': 'W6-literal one token, 500 literal tickers',
  W7: 'W7 60 etchings, $offset over 151 pages',
  W8: 'W8 60 etchings at every offset 0..9,940',
};

/**
 * A row that meets every target: the peers slow and costly, the floor cheap, the warm gateways fast
 * and never asking the upstream, the gateway at its defaults one upstream call per request.
 */
function row(phase: Phase, workload: WorkloadId, target: TargetKind, over: Partial<MeasuredRow> = {}): MeasuredRow {
  const byKind = (values: Record<TargetKind, number>) => values[target];
  const rps = byKind({
    direct: 1000,
    proxy: 1000,
    peer: 100,
    'yoga-rc': 200,
    limit: 5000,
    'limit-full': 1000,
    cold: 900,
    warm: 2000,
    redis: 2000,
    default: 2000,
    unisat: 2000,
    ord: 2000,
  });
  const cpuUsPerRequest = byKind({
    direct: 50,
    proxy: 50,
    peer: 1000,
    'yoga-rc': 800,
    limit: 80,
    'limit-full': 90,
    cold: 500,
    warm: 100,
    redis: 110,
    default: 100,
    unisat: 100,
    ord: 100,
  });
  const p50 =
    phase === 'main'
      ? 1
      : byKind({
          direct: 20,
          proxy: 20.2,
          peer: 20,
          'yoga-rc': 20,
          limit: 1,
          'limit-full': 1,
          cold: 20.5,
          warm: 1,
          redis: 1,
          default: 1,
          unisat: 1,
          ord: 1,
        });
  return {
    phase: PHASES[phase],
    workload,
    workloadLabel: LABELS[workload],
    target,
    rps,
    p50,
    p99: 2 * p50,
    cpuUsPerRequest,
    upstreamPerRequest: target === 'cold' || target === 'default' || target === 'direct' || target === 'peer' ? 1 : 0,
    steal: [],
    rateSwing: 1.1,
    ...over,
  };
}

/** Every row of a full run, each replaced by `change` where it returns one. */
function rows(change: (r: MeasuredRow) => Partial<MeasuredRow> | undefined = () => undefined): MeasuredRow[] {
  return (Object.keys(PLAN) as Phase[]).flatMap((phase) =>
    PLAN[phase].flatMap(([workload, kinds]) =>
      kinds.map((kind) => {
        const r = row(phase, workload, kind);
        return { ...r, ...change(r) };
      }),
    ),
  );
}

const coalesced = (protocol: 'REST' | 'GraphQL', upstreamCalls = 1, answered2xx = 200) => ({
  protocol,
  key: '/ordinals/v1/brc-20/tokens/fresh',
  clients: 200,
  upstreamDelayMs: 50,
  upstreamCalls,
  answered2xx,
  failed: 0,
});

function run(measured: MeasuredRow[], coalescing = [coalesced('GraphQL'), coalesced('REST')]): Run {
  return { rows: measured, coalescing, phases: PHASES, machineSwing: 1.2, label: (kind) => `[${kind}]` };
}

const only = (...ids: string[]): TargetSpec[] => {
  const specs = TARGETS.filter((t) => ids.includes(t.id));
  expect(specs.map((t) => t.id)).toEqual(ids);
  return specs;
};
const is = (r: MeasuredRow, phase: Phase, workload: WorkloadId, target: TargetKind) =>
  r.phase === PHASES[phase] && r.workload === workload && r.target === target;

describe('bench targets data', () => {
  it('names only rows the runner measures, so that every target is judged on a full run', () => {
    const measured = new Set(
      (Object.keys(PLAN) as Phase[]).flatMap((p) => PLAN[p].flatMap(([w, kinds]) => kinds.map((k) => `${p} ${w} ${k}`))),
    );
    const named = TARGETS.flatMap((t) => (t.kind === 'comparison' ? [t.row, ...(t.reference ? [t.reference] : [])] : []));
    expect(named.filter((r) => !measured.has(`${r.phase} ${r.workload} ${r.target}`))).toEqual([]);
  });

  it('rejects an unknown workload, target kind, metric or check id, and a ratio without its reference row', () => {
    const good = TARGETS.find((t) => t.id === 'c1-cold-upstream')!;
    expect(good).toMatchObject({ kind: 'comparison', row: { workload: 'C1', target: 'cold', phase: 'main' } });
    const bad = (entry: object) => () => parseTargets([{ ...good, ...entry }]);
    expect(bad({ row: { workload: 'C1-REST', target: 'cold', phase: 'main' } })).toThrow(/targets\[0\]/);
    expect(bad({ row: { workload: 'C1', target: 'hot', phase: 'main' } })).toThrow(/targets\[0\]/);
    expect(bad({ metric: 'p95' })).toThrow(/targets\[0\]/);
    expect(bad({ relation: 'ratio' })).toThrow('c1-cold-upstream needs both reference and relation');
    expect(() => parseTargets([{ id: 'tail-p99', description: 'x', kind: 'check' }])).toThrow('no check function named tail-p99');
    expect(() => parseTargets([good, good])).toThrow('duplicate id c1-cold-upstream');
  });
});

describe('evaluate', () => {
  it('passes every target on rows that meet them all, in the order of the data, the tail and the W6/W7/W8 floor ratios only reported', () => {
    const checks = evaluate(TARGETS, run(rows()));
    expect(checks.filter((c) => !c.pass)).toEqual([]);
    expect(checks.map((c) => c.target)).toEqual(
      TARGETS.flatMap((t) =>
        t.id === 'coalescing'
          ? [
              '200 concurrent identical cold GraphQL requests → 1 upstream call',
              '200 concurrent identical cold REST requests → 1 upstream call',
            ]
          : [t.description],
      ),
    );
    expect(checks.filter((c) => c.report)).toEqual([
      expect.objectContaining({ target: 'p99 ≤ 3× p50 in every gateway row at the main phase', pass: true, report: true }),
      expect.objectContaining({
        target: "W8 every offset CPU/request against the full-path floor's (reported)",
        measured: '100 µs vs 90 µs = 1.11×',
        report: true,
      }),
      expect.objectContaining({ target: "W6 $ticker over 500 CPU/request against the floor's (reported)", report: true }),
      expect.objectContaining({ target: "W7 $offset over 151 pages CPU/request against the floor's (reported)", report: true }),
    ]);
  });

  it('judges one row against a threshold', () => {
    const specs = only('w2-warm-upstream', 'c1-cold-upstream', 'w3-cold-cpu');
    expect(evaluate(specs, run(rows()))).toEqual([
      { target: 'W2 warm 0 upstream calls/request', measured: '0.0000', pass: true },
      { target: 'C1 500-item connection cold ≤ 9 upstream calls/request', measured: '1.0000', pass: true },
      { target: 'W3 cold ≤ 600 µs gateway CPU/request', measured: '500 µs', pass: true },
    ]);
    const missed = rows((r) =>
      is(r, 'main', 'W2', 'warm')
        ? { upstreamPerRequest: 0.001 }
        : is(r, 'main', 'C1', 'cold')
          ? { upstreamPerRequest: 9.5 }
          : is(r, 'main', 'W3', 'cold')
            ? { cpuUsPerRequest: 601 }
            : undefined,
    );
    expect(evaluate(specs, run(missed))).toEqual([
      { target: 'W2 warm 0 upstream calls/request', measured: '0.0010', pass: false },
      { target: 'C1 500-item connection cold ≤ 9 upstream calls/request', measured: '9.5000', pass: false },
      { target: 'W3 cold ≤ 600 µs gateway CPU/request', measured: '601 µs', pass: false },
    ]);
  });

  it('judges a ratio to a reference row, the threshold itself included', () => {
    const specs = only('w1-rest-cold-rps-vs-proxy', 'w3-miss-warm-cpu-vs-peer');
    const at = rows((r) =>
      is(r, 'main', 'W1-REST', 'cold') ? { rps: 800 } : is(r, 'main', 'W3-miss', 'warm') ? { cpuUsPerRequest: 600 } : undefined,
    );
    expect(evaluate(specs, run(at))).toEqual([
      { target: 'W1 REST cold ≥ 80% of pass-through rps', measured: '800 rps vs 1,000 rps = 0.80×', pass: true },
      { target: "W3 misses (upstream cached) CPU/request ≤ 0.6× the yoga peer's", measured: '600 µs vs 1,000 µs = 0.60×', pass: true },
    ]);
    const missed = rows((r) =>
      is(r, 'main', 'W1-REST', 'cold') ? { rps: 799 } : is(r, 'main', 'W3-miss', 'warm') ? { cpuUsPerRequest: 601 } : undefined,
    );
    expect(evaluate(specs, run(missed))).toEqual([
      { target: 'W1 REST cold ≥ 80% of pass-through rps', measured: '799 rps vs 1,000 rps = 0.80×', pass: false },
      { target: "W3 misses (upstream cached) CPU/request ≤ 0.6× the yoga peer's", measured: '601 µs vs 1,000 µs = 0.60×', pass: false },
    ]);
  });

  it('judges a difference from a reference row in another workload', () => {
    const specs = only('w1-graphql-cold-p50-vs-direct');
    const at = rows((r) => (is(r, 'latency', 'W1-GraphQL', 'cold') ? { p50: 21 } : undefined));
    expect(evaluate(specs, run(at))).toEqual([
      { target: 'W1 GraphQL cold p50 ≤ direct p50 + 1 ms (upstream 20 ms)', measured: '21.00 ms vs 20.00 ms (+1.00 ms)', pass: true },
    ]);
    const missed = rows((r) => (is(r, 'latency', 'W1-GraphQL', 'cold') ? { p50: 21.5 } : undefined));
    expect(evaluate(specs, run(missed))).toEqual([
      { target: 'W1 GraphQL cold p50 ≤ direct p50 + 1 ms (upstream 20 ms)', measured: '21.50 ms vs 20.00 ms (+1.50 ms)', pass: false },
    ]);
  });

  it('leaves out a target whose row or reference row was not measured', () => {
    const withoutRedis = rows().filter((r) => r.target !== 'redis');
    const specs = only('w1-graphql-redis-cpu-vs-in-process', 'w3-redis-cpu-vs-in-process', 'w3-cold-cpu');
    expect(evaluate(specs, run(withoutRedis)).map((c) => c.target)).toEqual(['W3 cold ≤ 600 µs gateway CPU/request']);
    const withoutPeer = rows().filter((r) => r.target !== 'peer');
    expect(evaluate(only('w3-miss-warm-cpu-vs-peer'), run(withoutPeer))).toEqual([]);
  });

  it('reports the tail of every gateway row, not counted as a target', () => {
    const slow = rows((r) => (is(r, 'main', 'W3', 'warm') ? { p99: 4, serverBusy: { slowest: 0.9, fastest: 0.5 } } : undefined));
    expect(evaluate(only('tail-p99-vs-p50'), run(slow))).toEqual([
      {
        target: 'p99 ≤ 3× p50 in every gateway row at the main phase',
        measured:
          'W3 60 etchings warm 4.0× (swing 1.1×, server busy 90% in the slowest half second, 50% in the fastest); ' +
          'W1 REST [direct] 2.0× (req/s swing 1.1×), [proxy] 2.0× (req/s swing 1.1×); a fixed loop alone on that CPU, no load: swing 1.2×',
        pass: false,
        report: true,
      },
    ]);
  });

  it('fails a warm row above the p99 ceiling, but not a misses row', () => {
    const spec = only('warm-p99-ceiling');
    const missesSlow = rows((r) => (r.workload.endsWith('-miss') ? { p99: 400 } : undefined));
    expect(evaluate(spec, run(missesSlow))).toEqual([
      { target: 'no warm answer above 250 ms (p99)', measured: 'all warm rows', pass: true },
    ]);
    const slow = rows((r) => (is(r, 'main', 'W3', 'redis') ? { p99: 251 } : undefined));
    expect(evaluate(spec, run(slow))).toEqual([
      { target: 'no warm answer above 250 ms (p99)', measured: 'W3 60 etchings 251 ms', pass: false },
    ]);
  });

  it('fails answers-correct on any row with a non-2xx, failed or wrong answer, or a failed check request', () => {
    const spec = only('answers-correct');
    const all = rows();
    expect(evaluate(spec, run(all))).toEqual([
      {
        target: 'every answer 2xx and the one its request asked for (per-source rows included)',
        measured: `all ${all.length} rows`,
        pass: true,
      },
    ]);
    const wrong = rows((r) =>
      is(r, 'main', 'W7', 'yoga-rc')
        ? { mismatched: 3 }
        : is(r, 'main', 'W3-miss', 'ord')
          ? { non2xx: 1, failed: 2 }
          : is(r, 'main', 'W1-GraphQL', 'unisat')
            ? { sanity: 'HTTP 502' }
            : undefined,
    );
    expect(evaluate(spec, run(wrong))).toEqual([
      {
        target: 'every answer 2xx and the one its request asked for (per-source rows included)',
        measured:
          'W1 GraphQL token [unisat]: 0 non-2xx, 0 failed, 0 bad bodies, check request: HTTP 502; ' +
          'W3 60 etchings misses [ord]: 1 non-2xx, 2 failed, 0 bad bodies; ' +
          'W7 60 etchings, $offset over 151 pages [yoga-rc]: 0 non-2xx, 0 failed, 3 bad bodies',
        pass: false,
      },
    ]);
  });

  it('judges W8 against yoga-rc and W6-literal against W6', () => {
    const specs = only('w8-cpu-vs-yoga-rc', 'w8-upstream', 'w6-literal-cpu-vs-w6');
    const missed = rows((r) =>
      is(r, 'main', 'W8', 'default')
        ? { cpuUsPerRequest: 161, upstreamPerRequest: 1.01 }
        : is(r, 'main', 'W6-literal', 'default')
          ? { cpuUsPerRequest: 121 }
          : undefined,
    );
    expect(evaluate(specs, run(missed))).toEqual([
      { target: "W8 every offset (every cache misses) CPU/request ≤ 0.2× yoga-rc's", measured: '161 µs vs 800 µs = 0.20×', pass: false },
      { target: 'W8 every offset ≤ 1 upstream call/request', measured: '1.0100', pass: false },
      { target: 'W6-literal (literal tickers) CPU/request within 1.2× of W6 ($ticker)', measured: '121 µs vs 100 µs = 1.21×', pass: false },
    ]);
  });

  it('fails coalescing on a second upstream call or a client without a 2xx answer', () => {
    expect(evaluate(only('coalescing'), run([], [coalesced('GraphQL', 2), coalesced('REST', 1, 199)]))).toEqual([
      {
        target: '200 concurrent identical cold GraphQL requests → 1 upstream call',
        measured: '2 call(s), 200/200 answered 2xx',
        pass: false,
      },
      { target: '200 concurrent identical cold REST requests → 1 upstream call', measured: '1 call(s), 199/200 answered 2xx', pass: false },
    ]);
  });
});
