/**
 * The hostile answers of `npm run bench -- --abuse`, by class: each answer is either one of the
 * refusals (or harmless answers) its class expects, counted under its label, or unexpected, counted
 * apart with a few samples to read. Plain data, so it crosses the attacker's IPC as it is.
 */

export interface ClassTally {
  sent: number;
  /** Expected answers by label (`400 Bad Host header`, `TOO_MANY_SUBSCRIPTIONS`, …). */
  expected: Record<string, number>;
  /** Answers that were none of the expected ones (dropped requests included), by label. */
  unexpected: Record<string, number>;
  /** The first few unexpected answers, cut short. */
  samples: string[];
}

export type Tally = Record<string, ClassTally>;

const SAMPLES = 3;
const SAMPLE_CHARS = 200;

function classOf(tally: Tally, name: string): ClassTally {
  return (tally[name] ??= { sent: 0, expected: {}, unexpected: {}, samples: [] });
}

export function countSent(tally: Tally, name: string): void {
  classOf(tally, name).sent++;
}

/** One answer of class `name`: `label` when it is an expected one, else unexpected (with `sample`). */
export function countAnswer(tally: Tally, name: string, outcome: { label: string; expected: boolean; sample?: string }): void {
  const entry = classOf(tally, name);
  const bucket = outcome.expected ? entry.expected : entry.unexpected;
  bucket[outcome.label] = (bucket[outcome.label] ?? 0) + 1;
  if (!outcome.expected && entry.samples.length < SAMPLES)
    entry.samples.push(`${outcome.label}: ${(outcome.sample ?? '').slice(0, SAMPLE_CHARS)}`);
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0);
const listed = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([label, n]) => `${label} ×${n}`)
    .join(', ') || '–';

/** Unexpected answers over every class. */
export function unexpectedCount(tally: Tally): number {
  return Object.values(tally).reduce((sum, entry) => sum + total(entry.unexpected), 0);
}

/** The report's table: one row per class, in the order the classes were first counted. */
export function tallyTable(tally: Tally): string {
  const lines = ['| class | sent | expected answers | unexpected |', '|---|---|---|---|'];
  for (const [name, entry] of Object.entries(tally)) {
    lines.push(`| ${name} | ${entry.sent} | ${listed(entry.expected)} | ${total(entry.unexpected) ? listed(entry.unexpected) : '0'} |`);
  }
  const samples = Object.entries(tally).flatMap(([name, entry]) =>
    entry.samples.map((sample) => `- ${name}: \`${sample.replace(/`/g, "'")}\``),
  );
  return samples.length
    ? `${lines.join('\n')}\n\nUnexpected answers (first ${SAMPLES} per class):\n${samples.join('\n')}`
    : lines.join('\n');
}
