/**
 * `npm run demo`: the whole gateway offline, over the embedded sample upstream, in one process.
 * PORT/HOST/LOG_LEVEL/LOG_FORMAT are honoured (defaults: 4000, 127.0.0.1, info, pretty, so a
 * newcomer sees each request); the upstream URLs always point at the sample.
 * `--source=unisat` serves BRC-20, transfers and etchings from the sample's UniSat profile,
 * `--source=ord` the etchings from its ord profile (docs/sources.md).
 */
import { parseArgs } from 'node:util';
import { ConfigError, integer } from './config.js';
import { exitOnStartupFailure, start } from './main.js';
import { MINTING_TICKER } from './sample/activity.js';
import {
  BIG_AMOUNT_TICKER,
  BIG_TRANSFER_BLOCK,
  EMOJI_TICKER,
  KNOWN_BLOCK_HASH,
  NULL_LOCATION_BLOCK,
  NULL_MINT_LIMIT_TICKER,
  PERCENT_TICKER,
  SPACE_TICKER,
} from './sample/data.js';
import { SAMPLE_PLATFORM_KEY, startSampleUpstream } from './sample/server.js';

/** The key the sample's UniSat profile accepts: the demo shows it is sent, as a real one would be. */
const DEMO_UNISAT_KEY = 'demo-unisat-key';

/** The demo's own settings, read as the gateway's are: one line and exit 1 for a bad one. */
function demoSettings() {
  try {
    const { values } = parseArgs({ options: { source: { type: 'string', default: 'hiro' } }, strict: true });
    return {
      source: values.source,
      // The sample is alive: a new etching and a mint of one token every few seconds.
      activityMs: integer(process.env, 'DEMO_ACTIVITY_MS', 4000, 100, 3_600_000),
      samplePort: integer(process.env, 'SAMPLE_UPSTREAM_PORT', 0, 0, 65_535),
    };
  } catch (error) {
    if (error instanceof ConfigError) exitOnStartupFailure(error);
    console.error(`satgate demo: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
const { activityMs: ACTIVITY_MS, samplePort, ...args } = demoSettings();
const SOURCES = {
  hiro: { env: () => ({}), sample: {} },
  unisat: {
    env: (url: string) => ({
      BRC20_SOURCE: 'unisat',
      TRANSFERS_SOURCE: 'unisat',
      ETCHINGS_SOURCE: 'unisat',
      UNISAT_API_URL: url,
      UNISAT_API_KEY: DEMO_UNISAT_KEY,
    }),
    sample: { unisat: { apiKey: DEMO_UNISAT_KEY } },
  },
  ord: { env: (url: string) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: url }), sample: { ord: {} } },
} as const;
const source = args.source as keyof typeof SOURCES;
if (!Object.hasOwn(SOURCES, source)) {
  console.error(`satgate demo: --source must be one of ${Object.keys(SOURCES).join(', ')}`);
  process.exit(2);
}

const sample = await startSampleUpstream({
  host: '127.0.0.1',
  port: samplePort,
  sources: SOURCES[source].sample,
});
let gateway: Awaited<ReturnType<typeof start>>;
try {
  gateway = await start({
    ...process.env,
    PORT: process.env.PORT || '4000',
    HOST: process.env.HOST || '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    LOG_FORMAT: process.env.LOG_FORMAT || 'pretty',
    HIRO_API_URL: sample.url,
    METADATA_API_URL: '',
    ORDINALS_API_URL: '',
    RUNES_API_URL: '',
    HIRO_PLATFORM_URL: sample.url,
    HIRO_API_KEY: 'demo-hiro-key',
    LIVE_POLL_INTERVAL_MS: process.env.LIVE_POLL_INTERVAL_MS || '2000',
    ...SOURCES[source].env(sample.url),
  });
} catch (error) {
  await sample.close();
  exitOnStartupFailure(error);
}
const stopActivity = sample.activity.simulate(ACTIVITY_MS);

console.log(`
satgate demo: offline, over the sample upstream at ${sample.url}${source === 'hiro' ? '' : `, data source ${source}`}

  GraphiQL   ${gateway.url}/graphql
  REST       ${gateway.url}/ordinals/v1/brc-20/tokens/ordi
             ${gateway.url}/runes/v1/etchings?limit=5
             ${gateway.url}/ordinals/v1/inscriptions/transfers?block=775700
  Health     ${gateway.url}/healthz
  Live       a new etching and a mint of "${MINTING_TICKER}" every ${ACTIVITY_MS / 1000} s; try in GraphiQL:
             subscription { brc20Token(ticker: "${MINTING_TICKER}") { token { mintedSupply txCount } } }
             curl -N ${gateway.url}/graphql -H 'accept: text/event-stream' -H 'content-type: application/json' \\
               -d '{"query":"subscription { etchingAdded { spacedName number } }"}'

  Tickers    ordi, pepe, sats (upstream examples); "${MINTING_TICKER}" (5-byte self-mint, being minted);
             "${NULL_MINT_LIMIT_TICKER}" (null mint limit), "${BIG_AMOUNT_TICKER}" (amounts above 2^53),
             "${EMOJI_TICKER}" (emoji), "${PERCENT_TICKER}" (a LIKE wildcard), "${SPACE_TICKER}" (a space)
  Blocks     775700 (the upstream example, also by hash ${KNOWN_BLOCK_HASH}),
             ${BIG_TRANSFER_BLOCK} (77 transfers: more than one upstream page), ${NULL_LOCATION_BLOCK} (null addresses and values),
             775617 (no transfers)

  Platform API key accepted by the sample: ${SAMPLE_PLATFORM_KEY}
  (send it as the x-api-key header, or as the apiKey argument of bitcoinNode/deleteChainhook)

Ctrl-C to stop.`);

let stopping: Promise<unknown> | undefined;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    stopActivity();
    // The gateway drains first: its requests in flight still need the sample upstream.
    stopping ??= gateway
      .stop()
      .then(() => sample.close())
      .then(() => process.exit(0));
  });
}
