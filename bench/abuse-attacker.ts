/**
 * The hostile clients of `npm run bench -- --abuse` (bench/abuse.ts), in a process of their own:
 * HOSTILE_RPS hostile requests a second and SLOW_CONNECTIONS slow-header connections for one phase
 * against ABUSE_TARGET, then what was sent and the answers by status, over IPC.
 */
import { Pool } from 'undici';
import { CLIENT_TIMEOUT_MS, HOSTILE, HOSTILE_RPS, PHASE_SECONDS, SLOW_CONNECTIONS, openLoop, slowClients } from './abuse.js';

const target = process.env.ABUSE_TARGET ?? '';
const pool = new Pool(target, { connections: 16, pipelining: 1, headersTimeout: CLIENT_TIMEOUT_MS, bodyTimeout: CLIENT_TIMEOUT_MS });
const status: Record<string, number> = {};
const count = (key: string | number) => void (status[key] = (status[key] ?? 0) + 1);
const stopSlow = slowClients(new URL(target), SLOW_CONNECTIONS);
const sent = await openLoop(pool, HOSTILE_RPS, PHASE_SECONDS, (i) => HOSTILE[i % HOSTILE.length]!(), (_ms, code) => count(code), () => count('dropped'));
stopSlow();
await pool.destroy();
process.send?.({ type: 'done', sent, status });
process.disconnect?.();
