/**
 * The hostile clients of `npm run bench -- --abuse` (bench/abuse.ts), in a process of their own:
 * HOSTILE_RPS hostile requests a second and SLOW_CONNECTIONS slow-header connections for a warm-up
 * and one phase against ABUSE_TARGET ('started' over IPC when the first is sent), then what was sent
 * and the answers by status.
 */
import { Pool } from 'undici';
import { CLIENT_TIMEOUT_MS, HOSTILE, HOSTILE_RPS, PHASE_SECONDS, SLOW_CONNECTIONS, WARMUP_SECONDS, openLoop, slowClients } from './abuse.js';

const target = process.env.ABUSE_TARGET ?? '';
const pool = new Pool(target, { connections: 16, pipelining: 1, headersTimeout: CLIENT_TIMEOUT_MS, bodyTimeout: CLIENT_TIMEOUT_MS });
const status: Record<string, number> = {};
const count = (key: string | number) => void (status[key] = (status[key] ?? 0) + 1);
const stopSlow = slowClients(new URL(target), SLOW_CONNECTIONS);
process.send?.({ type: 'started' });
const pick = (i: number) => HOSTILE[i % HOSTILE.length]!();
const sent = await openLoop(pool, HOSTILE_RPS, WARMUP_SECONDS + PHASE_SECONDS, pick, (_ms, code) => count(code), () => count('dropped'));
stopSlow();
await pool.destroy();
process.send?.({ type: 'done', sent, status });
process.disconnect?.();
