#!/usr/bin/env node
/**
 * Self time by function in V8 CPU profiles (`node --cpu-prof`, e.g. a gateway under a bench row with
 * BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'):
 *
 *   node bench/profile-summary.mjs [--top 30] [--after S] [--until S] [--busiest S] [--requests N] file.cpuprofile…
 *
 * Prints the busy time (all samples but `(idle)`), then the functions with the most self time,
 * merged by name and location over every file given, as a share of busy time and, with
 * `--requests N` (the answers the profiled process gave), as µs per request. `(garbage collector)`
 * and `(program)` (V8 and native work not attributed to a JavaScript function) are rows too.
 * `--busiest S` keeps only each profile's busiest S seconds (a row's window, not the warm-up or the
 * other rows around it), `--after S` and `--until S` only what came between
 * those seconds after its start (not the start-up, not the next row).
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
let top = 30;
let requests;
let busiest;
let after = 0;
let until = Infinity;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--top') top = Number(args[++i]);
  else if (args[i] === '--requests') requests = Number(args[++i]);
  else if (args[i] === '--busiest') busiest = Number(args[++i]) * 1e6;
  else if (args[i] === '--after') after = Number(args[++i]) * 1e6;
  else if (args[i] === '--until') until = Number(args[++i]) * 1e6;
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
  // Each sample's time, and with --busiest the span [from, to) of the most busy time.
  const times = [];
  let now = 0;
  for (const delta of profile.timeDeltas) times.push((now += delta));
  let [from, to] = [-Infinity, Infinity];
  if (busiest) {
    let [start, inWindow, best] = [0, 0, -1];
    const busyAt = (i) =>
      times[i] < after || times[i] >= until || keyOf.get(profile.samples[i]) === '(idle)' ? 0 : (profile.timeDeltas[i] ?? 0);
    for (let end = 0; end < times.length; end++) {
      inWindow += busyAt(end);
      while (times[end] - times[start] > busiest) inWindow -= busyAt(start++);
      if (inWindow > best) [best, from, to] = [inWindow, times[start], times[end] + 1];
    }
  }
  profile.samples.forEach((id, i) => {
    if (times[i] < Math.max(from, after) || times[i] >= Math.min(to, until)) return;
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
