/** Reading the gateway's /metrics text (Prometheus exposition format) in the bench. */

/** The sum of `name`'s samples whose labels include every one of `labels` (a label given several values matches any). */
export function sumMetric(text: string, name: string, labels: Record<string, string | string[]> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    const wanted = Object.entries(labels).every(([label, value]) => (Array.isArray(value) ? value : [value]).includes(have[label] ?? ''));
    if (wanted) sum += Number(match[3]);
  }
  return sum;
}
