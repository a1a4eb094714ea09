/** Formatting and the results file. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { ROOT } from './procs.js';

export function fmt(value: number | undefined, digits: number): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function writeResults(payload: Record<string, unknown>, suffix = ''): string {
  const dir = `${ROOT}bench/results`;
  mkdirSync(dir, { recursive: true });
  // ISO 8601 with ':' replaced (not allowed in Windows file names).
  const stamp = new Date().toISOString().replace(/:/g, '-');
  const file = `${dir}/${stamp}${suffix}.json`;
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return file.slice(ROOT.length);
}
