/**
 * The hostile clients of `npm run bench -- --abuse` (bench/abuse.ts), in a process of their own,
 * against ABUSE_TARGET: the slot grabber first takes its slots, then ('started' over IPC) for a
 * warm-up and one phase the request mix, marker literals and hostile Hosts (open-loop, each at its
 * rate), slow-header connections, subscription churn, and the grabber asking for one more slot a
 * second. Each class speaks as its own client (X-Forwarded-For). At the end ('done'): what was
 * sent, every answer judged by class, and what the grabber held.
 */
import { Pool } from 'undici';
import {
  ABUSE_CLASSES,
  CHURN,
  CLIENTS,
  CLIENT_TIMEOUT_MS,
  HOSTILE,
  HOSTILE_RPS,
  HOST_RPS,
  MARKER_RPS,
  PHASE_SECONDS,
  SLOTS,
  SLOW_CONNECTIONS,
  WARMUP_SECONDS,
  openLoop,
  slowClients,
  type AbuseClass,
  type AttackReport,
} from './abuse.js';
import { hostRequest, markerRequest, type HostileRequest } from './lib/hostile-http.js';
import { churn, grabSlots } from './lib/live-attack.js';
import { rawRequest } from './lib/raw-http.js';
import { countAnswer, countSent, type Tally } from './lib/tally.js';

const target = new URL(process.env.ABUSE_TARGET ?? '');
const markerDir = process.env.ABUSE_MARKER_DIR ?? '';
const seconds = WARMUP_SECONDS + PHASE_SECONDS;
const pool = new Pool(target, { connections: 32, pipelining: 1, headersTimeout: CLIENT_TIMEOUT_MS, bodyTimeout: CLIENT_TIMEOUT_MS });
const tally: Tally = {};

/** Sends one hostile request and counts its answer under `name`. */
async function send(name: string, request: HostileRequest): Promise<void> {
  countSent(tally, name);
  try {
    let status: number;
    let body: string;
    if (request.raw !== undefined) {
      ({ status, body } = await rawRequest(target, request.raw, CLIENT_TIMEOUT_MS));
    } else {
      const response = await pool.request({ ...request.http! });
      status = response.statusCode;
      body = await response.body.text();
    }
    const label = request.judge(status, body);
    countAnswer(tally, name, { label: label ?? String(status), expected: label !== undefined, sample: body });
  } catch (error) {
    countAnswer(tally, name, { label: 'dropped', expected: false, sample: error instanceof Error ? error.message : String(error) });
  }
}

/** The request mix: unless a request says otherwise, any answer but a 5xx (each is a refusal or cheap data). */
const mixRequest = (i: number): HostileRequest => {
  const { judge, ...spec } = HOSTILE[i % HOSTILE.length]!();
  return {
    http: { ...spec, headers: { ...spec.headers, 'x-forwarded-for': CLIENTS.mix } },
    judge: judge ?? ((status) => (status < 500 ? String(status) : undefined)),
  };
};

const on = (name: AbuseClass) => ABUSE_CLASSES.includes(name);
const slots = on('slots') ? await grabSlots(target.origin, CLIENTS.slots, tally, SLOTS) : undefined;
const stopSlow = on('slow') ? slowClients(target, SLOW_CONNECTIONS) : () => {};
const cpuAtStart = process.cpuUsage();
const startedAt = performance.now();
process.send?.({ type: 'started' });
await Promise.all([
  on('mix') && openLoop(HOSTILE_RPS, seconds, (i) => send('request mix', mixRequest(i))),
  on('markers') && openLoop(MARKER_RPS, seconds, (i) => send('marker literals', markerRequest(i, markerDir, CLIENTS.markers))),
  on('host') && openLoop(HOST_RPS, seconds, (i) => send('hostile Host', hostRequest(i, CLIENTS.host))),
  on('churn') && churn(target.origin, CLIENTS.churn, seconds, tally, CHURN),
  slots && openLoop(1, seconds, () => slots.probe()),
]);
const slotsHeld = (await slots?.release()) ?? { sockets: 0, subscriptions: 0 };
stopSlow();
await pool.destroy();
const total = Object.values(tally).reduce((sum, entry) => sum + entry.sent, 0);
const cpu = process.cpuUsage(cpuAtStart);
const report: AttackReport = {
  sent: total,
  seconds: (performance.now() - startedAt) / 1000,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  tally,
  slotsHeld,
};
process.send?.({ type: 'done', ...report });
process.disconnect?.();
