#!/usr/bin/env node
/**
 * Self time by function in V8 CPU profiles (`node --cpu-prof`, e.g. a gateway under a bench row with
 * BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'):
 *
 *   node bench/profile-summary.mjs [--top 30] [--requests N] file.cpuprofile…
 *
 * Prints the busy time (all samples but `(idle)`), then the functions with the most self time,
 * merged by name and location over every file given, as a share of busy time and, with
 * `--requests N` (the answers the profiled process gave), as µs per request. `(garbage collector)`
 * and `(program)` (V8 and native work not attributed to a JavaScript function) are rows too.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
let top = 30;
let requests;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--top') top = Number(args[++i]);
  else if (args[i] === '--requests') requests = Number(args[++i]);
  else files.push(args[i]);
}
if (files.length === 0) {
  console.error('usage: node bench/profile-summary.mjs [--top 30] [--requests N] file.cpuprofile…');
  process.exit(2);
}

/** µs of self time by function key. */
const self = new Map();
let busy = 0;
let idle = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const keyOf = new Map();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '~/')}:${lineNumber + 1}` : '';
    keyOf.set(node.id, `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`);
  }
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const key = keyOf.get(id);
    if (key === '(idle)') {
      idle += delta;
      return;
    }
    busy += delta;
    self.set(key, (self.get(key) ?? 0) + delta);
  });
}

const ms = (us) => (us / 1000).toFixed(0);
console.log(
  `busy ${ms(busy)} ms, idle ${ms(idle)} ms over ${files.length} profile(s)${requests ? `, ${requests} requests: ${(busy / requests).toFixed(1)} µs busy per request` : ''}`,
);
console.log('');
console.log(`| self % | ${requests ? 'µs/req | ' : ''}function |`);
console.log(`|---:|${requests ? '---:|' : ''}---|`);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`| ${((us / busy) * 100).toFixed(1)} | ${requests ? `${(us / requests).toFixed(1)} | ` : ''}${key.replaceAll('|', '\\|')} |`);
}
