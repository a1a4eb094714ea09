/**
 * The subscription classes of `npm run bench -- --abuse`, each from a client address of its own:
 * - churn: workers that subscribe to a token (most of them made up, a new ticker every time), take
 *   the first answer or give up after a cycle, leave, and start again. More workers than
 *   MAX_WATCHED_RESOURCES_PER_CLIENT, so some are refused; the polls they would cause wait for the
 *   polling plan (LIVE_QUOTA_SHARE of LIVE_RATE_LIMIT_PER_MINUTE), so most leave before a first value.
 *   The workers start together and keep in step: every cycle brings a burst of set-ups, as a
 *   scripted attacker's would. Past SUBSCRIPTION_STARTS_PER_CLIENT_PER_MINUTE they are refused
 *   (over SSE with HTTP 429, whose JSON body names TOO_MANY_SUBSCRIPTIONS).
 * - slot grabbing: one client opens more WebSockets than MAX_WEBSOCKETS_PER_CLIENT, more
 *   subscriptions (SSE and graphql-ws) than MAX_SUBSCRIPTIONS_PER_CLIENT, holds what it got, and
 *   keeps asking for one more of each.
 * Every answer is judged and counted in the tally.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { TICKERS } from './queries.js';
import { firstAnswer, openGraphqlSocket, sseSubscribe, type GraphqlSocket, type SocketOutcome, type Watch } from './subscribe.js';
import { countAnswer, countSent, type Tally } from './tally.js';

export const CHURN = 'subscription churn';
export const SLOTS = 'slot grabbing';

export const STATUS_SUBSCRIPTION = 'subscription { status { status } }';
export const tokenSubscription = (ticker: string) => `subscription { brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker } } }`;

/** The normal client's token ('ordi') is left out: its first value says what churn does to others. */
const CHURN_REAL = TICKERS.filter((ticker) => ticker !== 'ordi');
/** The `n`th churned ticker: one in four a sample token, the others new, never asked before. */
export function churnTicker(n: number): string {
  return n % 4 === 0 ? CHURN_REAL[(n / 4) % CHURN_REAL.length]! : `churn${n}`;
}

/** A churned subscription's first answer, as an expected label or undefined. */
export function judgeChurn(answer: string): string | undefined {
  switch (answer) {
    case 'value':
      return 'first value';
    case 'RATE_LIMITED':
    case 'TOO_MANY_SUBSCRIPTIONS':
      return answer;
    case 'pending':
      return 'left before a first value (polling plan)';
    default:
      return undefined;
  }
}

export interface ChurnOptions {
  sseWorkers: number;
  wsWorkers: number;
  cycleMs: number;
}

/** Runs the churn workers as `address` for `seconds`. */
export async function churn(gatewayUrl: string, address: string, seconds: number, tally: Tally, options: ChurnOptions): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  const agent = new Agent({ connections: options.sseWorkers + 5 });
  let n = 0;
  /** One subscribe, wait, leave cycle; `open` starts the subscription. */
  const cycle = async (open: (query: string) => Watch) => {
    const started = performance.now();
    countSent(tally, CHURN);
    const watch = open(tokenSubscription(churnTicker(n++)));
    await Promise.race([watch.first, sleep(options.cycleMs)]);
    const answer = firstAnswer(watch);
    watch.stop();
    const label = judgeChurn(answer);
    countAnswer(tally, CHURN, {
      label: label ?? answer,
      expected: label !== undefined,
      sample: JSON.stringify(watch.results[0] ?? watch.ended),
    });
    await sleep(Math.max(0, options.cycleMs - (performance.now() - started)));
  };
  const sseWorker = async () => {
    while (performance.now() < deadline) await cycle((query) => sseSubscribe(gatewayUrl, query, address, agent));
  };
  const wsWorker = async () => {
    while (performance.now() < deadline) {
      const outcome = await openGraphqlSocket(gatewayUrl, address, 5000);
      if (!('socket' in outcome)) {
        countSent(tally, CHURN);
        countAnswer(tally, CHURN, { label: 'WebSocket not opened', expected: false, sample: JSON.stringify(outcome) });
        await sleep(options.cycleMs);
        continue;
      }
      while (performance.now() < deadline && !outcome.socket.closed) await cycle((query) => outcome.socket.subscribe(query));
      outcome.socket.close();
    }
  };
  await Promise.all([...Array.from({ length: options.sseWorkers }, sseWorker), ...Array.from({ length: options.wsWorkers }, wsWorker)]);
  await agent.destroy();
}

export interface SlotOptions {
  /** WebSockets to open (more than MAX_WEBSOCKETS_PER_CLIENT). */
  sockets: number;
  /** Subscriptions on each open socket. */
  perSocket: number;
  /** SSE subscriptions (with the sockets' ones, more than MAX_SUBSCRIPTIONS_PER_CLIENT). */
  sse: number;
  /** How long to wait for the first answers before calling the slots taken. */
  settleMs: number;
}

/** What the grabber held at the end: open sockets and subscriptions still open without an error. */
export interface SlotsHeld {
  sockets: number;
  subscriptions: number;
}

/** A refused upgrade must be the per-client cap's 429. */
function judgeSocket(outcome: SocketOutcome): string | undefined {
  if ('socket' in outcome) return 'WebSocket opened';
  if (
    'refused' in outcome &&
    outcome.refused === 429 &&
    /^This client holds its maximum of \d+ WebSocket connections$/.test(outcome.body)
  ) {
    return 'WebSocket refused 429';
  }
  return undefined;
}

/** At the end: a subscription still open without an error is held; a refused one must be TOO_MANY_SUBSCRIPTIONS. */
export function judgeSlot(answer: string, ended: string | undefined): string | undefined {
  if (answer === 'TOO_MANY_SUBSCRIPTIONS') return 'subscription refused TOO_MANY_SUBSCRIPTIONS';
  if ((answer === 'value' || answer === 'pending') && ended === undefined) return 'subscription held';
  return undefined;
}

/**
 * Takes every WebSocket and subscription slot it can as `address`; answers `probe` (one more
 * socket and one more SSE subscription, kept if given) and `release` (judges and counts every
 * attempt, closes everything, and says what was held).
 */
export async function grabSlots(gatewayUrl: string, address: string, tally: Tally, options: SlotOptions) {
  const agent = new Agent({ connections: options.sse + 100 });
  const sockets: GraphqlSocket[] = [];
  const watches: Watch[] = [];
  const openSocket = async (subscriptions: number) => {
    countSent(tally, SLOTS);
    const outcome = await openGraphqlSocket(gatewayUrl, address, 5000);
    const label = judgeSocket(outcome);
    countAnswer(tally, SLOTS, { label: label ?? 'WebSocket not opened', expected: label !== undefined, sample: JSON.stringify(outcome) });
    if (!('socket' in outcome)) return;
    sockets.push(outcome.socket);
    for (let i = 0; i < subscriptions; i++) watches.push(outcome.socket.subscribe(STATUS_SUBSCRIPTION));
  };
  const sse = () => watches.push(sseSubscribe(gatewayUrl, STATUS_SUBSCRIPTION, address, agent));
  await Promise.all(Array.from({ length: options.sockets }, () => openSocket(options.perSocket)));
  for (let i = 0; i < options.sse; i++) sse();
  await Promise.race([Promise.all(watches.map((w) => w.first)), sleep(options.settleMs)]);
  return {
    async probe() {
      sse();
      await openSocket(1);
    },
    async release(): Promise<SlotsHeld> {
      // A probe sent just before the end may not have its answer yet: give every watch a moment to
      // hear it, or a refusal still in flight would be counted as a subscription held.
      await Promise.race([Promise.all(watches.map((w) => w.first)), sleep(options.settleMs)]);
      let subscriptions = 0;
      for (const watch of watches) {
        countSent(tally, SLOTS);
        const answer = firstAnswer(watch);
        const label = judgeSlot(answer, watch.ended);
        if (label === 'subscription held') subscriptions++;
        countAnswer(tally, SLOTS, {
          label: label ?? `${answer}, ${watch.ended ?? 'open'}`,
          expected: label !== undefined,
          sample: JSON.stringify(watch.results[0] ?? watch.ended),
        });
      }
      const held = { sockets: sockets.filter((s) => !s.closed).length, subscriptions };
      for (const watch of watches) watch.stop();
      for (const socket of sockets) socket.close();
      await agent.destroy();
      return held;
    },
  };
}
