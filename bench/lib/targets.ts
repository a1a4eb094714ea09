/**
 * The bench's targets as data (bench/targets.json) and the interpreter that judges a run's rows by
 * them. Most targets are one comparison: a metric of one row, alone or against a reference row
 * (ratio or difference), with a threshold. The few that are not are `check` entries, each a small
 * named function below, looked up by the entry's id.
 */
import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { fmt } from './report.js';
import { TARGET_KINDS, WORKLOAD_IDS, type Phase, type TargetKind } from './plan.js';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

/** The row metrics a target can read, with how the report prints them. */
const METRICS = {
  rps: { unit: ' rps', digits: 0 },
  p50: { unit: ' ms', digits: 2 },
  p99: { unit: ' ms', digits: 2 },
  cpuUsPerRequest: { unit: ' µs', digits: 0 },
  upstreamPerRequest: { unit: '', digits: 4 },
} as const;
type Metric = keyof typeof METRICS;

const RowRef = Type.Object(
  { workload: literals(WORKLOAD_IDS), target: literals(TARGET_KINDS), phase: literals<Phase>(['main', 'latency']) },
  { additionalProperties: false },
);
export type RowRef = Static<typeof RowRef>;

const common = {
  id: Type.String({ minLength: 1 }),
  /** The label the report shows. */
  description: Type.String({ minLength: 1 }),
  /** Reported, not counted: the report marks it REPORT instead of PASS or MISS. */
  report: Type.Optional(Type.Boolean()),
};

const Comparison = Type.Object(
  {
    ...common,
    kind: Type.Literal('comparison'),
    row: RowRef,
    metric: literals(Object.keys(METRICS) as Metric[]),
    op: literals(['<=', '>=', '='] as const),
    threshold: Type.Number(),
    /** With a reference row, the row's metric is compared as a ratio to it, or as a difference from it. */
    reference: Type.Optional(RowRef),
    relation: Type.Optional(literals(['ratio', 'difference'] as const)),
  },
  { additionalProperties: false },
);

const Check = Type.Object(
  { ...common, kind: Type.Literal('check'), threshold: Type.Optional(Type.Number()) },
  { additionalProperties: false },
);

const TargetSpec = Type.Union([Comparison, Check]);
export type TargetSpec = Static<typeof TargetSpec>;
type CheckSpec = Static<typeof Check>;

/** The fields of a measured row that the targets read (bench/run.ts's Row has them all). */
export interface MeasuredRow {
  phase: string;
  workload: string;
  workloadLabel: string;
  target: TargetKind;
  rps: number;
  p50: number;
  p99: number;
  cpuUsPerRequest: number;
  upstreamPerRequest: number;
  steal: number[];
  rateSwing?: number;
  serverBusy?: { slowest: number; fastest: number };
  /** Answers that were not a 2xx, failed, or differed from the one asked for; the check request's problem. */
  non2xx?: number;
  failed?: number;
  mismatched?: number;
  sanity?: string;
}

export interface CoalesceResult {
  protocol: 'REST' | 'GraphQL';
  key: string;
  clients: number;
  upstreamDelayMs: number;
  upstreamCalls: number;
  answered2xx: number;
  failed: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean;
  /** Reported only: not a pass/fail target. */
  report?: true;
}

export interface Run {
  rows: MeasuredRow[];
  coalescing: CoalesceResult[];
  /** The phases' names in the rows. */
  phases: Record<Phase, string>;
  /** How far the idle machine's speed swung (bench/machine-probe.mjs). */
  machineSwing: number;
  /** How the report names a target kind. */
  label: (kind: TargetKind) => string;
}

/** Validates the data file: a typo in a workload, target kind, metric or check id throws here, before any row is measured. */
export function parseTargets(data: unknown): TargetSpec[] {
  if (!Array.isArray(data)) throw new Error('bench targets: expected an array');
  const ids = new Set<string>();
  return data.map((entry: unknown, index) => {
    if (!Value.Check(TargetSpec, entry)) {
      const error = [...Value.Errors(TargetSpec, entry)][0];
      throw new Error(`bench targets[${index}]: ${error?.path ?? ''} ${error?.message ?? 'invalid'}: ${JSON.stringify(entry)}`);
    }
    if (ids.has(entry.id)) throw new Error(`bench targets: duplicate id ${entry.id}`);
    ids.add(entry.id);
    if (entry.kind === 'check' && !(entry.id in CHECKS)) throw new Error(`bench targets: no check function named ${entry.id}`);
    if (entry.kind === 'comparison' && (entry.reference === undefined) !== (entry.relation === undefined)) {
      throw new Error(`bench targets: ${entry.id} needs both reference and relation, or neither`);
    }
    return entry;
  });
}

const OPS = {
  '<=': (a: number, b: number) => a <= b,
  '>=': (a: number, b: number) => a >= b,
  '=': (a: number, b: number) => a === b,
};

function findRow(run: Run, ref: RowRef): MeasuredRow | undefined {
  return run.rows.find((r) => r.phase === run.phases[ref.phase] && r.workload === ref.workload && r.target === ref.target);
}

/** One comparison; undefined (not judged) when a row it reads was not measured (BENCH_ONLY, no redis-server). */
function compare(run: Run, spec: Static<typeof Comparison>): TargetCheck | undefined {
  const row = findRow(run, spec.row);
  const reference = spec.reference && findRow(run, spec.reference);
  if (!row || (spec.reference && !reference)) return undefined;
  const { unit, digits } = METRICS[spec.metric];
  const value = row[spec.metric];
  const show = (v: number) => `${fmt(v, digits)}${unit}`;
  if (!reference) return { target: spec.description, measured: show(value), pass: OPS[spec.op](value, spec.threshold) };
  const base = reference[spec.metric];
  if (spec.relation === 'difference') {
    return {
      target: spec.description,
      measured: `${show(value)} vs ${show(base)} (+${show(value - base)})`,
      pass: OPS[spec.op](value, base + spec.threshold),
    };
  }
  const ratio = value / base;
  return {
    target: spec.description,
    measured: `${show(value)} vs ${show(base)} = ${fmt(ratio, 2)}×`,
    pass: OPS[spec.op](ratio, spec.threshold),
  };
}

/** A share of one core as a percentage; '–' when not measured. */
export function share(ofOneCore: number | undefined): string {
  return ofOneCore === undefined ? '–' : `${fmt(ofOneCore * 100, 0)}%`;
}

/** The server's CPU in its row's slowest and fastest half second: busy in both, it ran slower; idle in the slowest, it waited. */
export function busyShares(row: Pick<MeasuredRow, 'serverBusy'>): string {
  return row.serverBusy
    ? `server busy ${share(row.serverBusy.slowest)} in the slowest half second, ${share(row.serverBusy.fastest)} in the fastest`
    : 'server CPU per half second not read';
}

/** The servers that are not satgate: the upstream, the proxy, the peers and the floor. */
const NOT_GATEWAYS: ReadonlySet<TargetKind> = new Set(['direct', 'proxy', 'peer', 'yoga-rc', 'limit']);
const gatewayRows = (run: Run) => run.rows.filter((r) => r.phase === run.phases.main && !NOT_GATEWAYS.has(r.target));

/**
 * The targets that are not one comparison, by id. Each reads a set of rows or the coalescing
 * results rather than one row, and says which of them missed.
 */
const CHECKS: Record<string, (run: Run, spec: CheckSpec) => TargetCheck[]> = {
  /**
   * Every gateway row of the main phase, p99 against its own p50; its text also gives what the
   * same rig gives servers that do next to nothing and what the VM took: the reader's measure of
   * how much of the tail is the machine's.
   */
  'tail-p99-vs-p50': (run, spec) => {
    const times = spec.threshold ?? 3;
    const main = gatewayRows(run);
    const flat = main.filter((r) => r.p99 > times * r.p50);
    const references = (['direct', 'proxy'] as const)
      .map((kind) => findRow(run, { phase: 'main', workload: 'W1-REST', target: kind }))
      .filter((r) => r !== undefined)
      .map((r) => `${run.label(r.target)} ${fmt(r.p99 / r.p50, 1)}× (req/s swing ${fmt(r.rateSwing, 1)}×)`);
    const serverSteal = main.map((r) => r.steal[0]).filter((s) => s !== undefined);
    const measured =
      (flat.length
        ? flat
            .map((r) => `${r.workloadLabel} ${r.target} ${fmt(r.p99 / r.p50, 1)}× (swing ${fmt(r.rateSwing, 1)}×, ${busyShares(r)})`)
            .join(', ')
        : 'all rows') +
      (references.length ? `; W1 REST ${references.join(', ')}` : '') +
      (serverSteal.length
        ? `; VM steal on CPU 0 ${share(Math.min(...serverSteal))}–${share(Math.max(...serverSteal))} of the gateway rows' windows`
        : '') +
      `; a fixed loop alone on that CPU, no load: swing ${fmt(run.machineSwing, 1)}×`;
    return [{ target: spec.description, measured, pass: flat.length === 0 }];
  },
  /** Every warm row of the main phase (misses excepted: they execute every answer). */
  'warm-p99-ceiling': (run, spec) => {
    const ceiling = spec.threshold ?? 250;
    const slow = gatewayRows(run).filter(
      (r) => (r.target === 'warm' || r.target === 'redis') && !r.workload.endsWith('-miss') && r.p99 > ceiling,
    );
    const measured = slow.length ? slow.map((r) => `${r.workloadLabel} ${fmt(r.p99, 0)} ms`).join(', ') : 'all warm rows';
    return [{ target: spec.description, measured, pass: slow.length === 0 }];
  },
  /**
   * Every row of the run: only 2xx answers, none failed, each the one its request asked for (the
   * rows whose variables go round-robin check each answer against its own variables), and a clean
   * check request before the row. The one target the per-source rows (issue 25) are judged by.
   */
  'answers-correct': (run, spec) => {
    const wrong = run.rows.filter((r) => (r.non2xx ?? 0) + (r.failed ?? 0) + (r.mismatched ?? 0) > 0 || r.sanity !== undefined);
    const measured = wrong.length
      ? wrong
          .map(
            (r) =>
              `${r.workloadLabel} ${run.label(r.target)}: ${r.non2xx ?? 0} non-2xx, ${r.failed ?? 0} failed, ${r.mismatched ?? 0} bad bodies` +
              (r.sanity ? `, check request: ${r.sanity.slice(0, 120)}` : ''),
          )
          .join('; ')
      : `all ${run.rows.length} rows`;
    return [{ target: spec.description, measured, pass: wrong.length === 0 }];
  },
  /** Two conditions on each coalescing result: one upstream call, and every client answered 2xx. */
  coalescing: (run, spec) =>
    run.coalescing.map((c) => ({
      target: spec.description.replace('{clients}', String(c.clients)).replace('{protocol}', c.protocol),
      measured: `${c.upstreamCalls} call(s), ${c.answered2xx}/${c.clients} answered 2xx`,
      pass: c.upstreamCalls === 1 && c.answered2xx === c.clients,
    })),
};

/** Judges a run by the targets, in their order; a target whose rows were not measured is left out. */
export function evaluate(specs: TargetSpec[], run: Run): TargetCheck[] {
  return specs.flatMap((spec) => {
    const checks = spec.kind === 'check' ? CHECKS[spec.id]!(run, spec) : [compare(run, spec)].filter((c) => c !== undefined);
    return spec.report ? checks.map((c) => ({ ...c, report: true as const })) : checks;
  });
}

/** How the report marks a check. */
export function verdict(check: TargetCheck): string {
  return check.report ? 'REPORT' : check.pass ? 'PASS' : 'MISS';
}

/** bench/targets.json, validated. */
export function loadTargets(): TargetSpec[] {
  return parseTargets(JSON.parse(readFileSync(new URL('../targets.json', import.meta.url), 'utf8')));
}
