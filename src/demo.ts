/**
 * `npm run demo`: the whole gateway offline, over the embedded sample upstream, in one process.
 * PORT/HOST/LOG_LEVEL/LOG_FORMAT are honoured (defaults: 4000, 127.0.0.1, info, pretty, so a
 * newcomer sees each request); the upstream URLs always point at the sample.
 */
import { exitOnStartupFailure, start } from './main.js';
import { SAMPLE_PLATFORM_KEY, startSampleUpstream } from './sample/server.js';

const sample = await startSampleUpstream({ host: '127.0.0.1', port: Number(process.env.SAMPLE_UPSTREAM_PORT ?? 0) });
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
  });
} catch (error) {
  await sample.close();
  exitOnStartupFailure(error);
}

console.log(`
satgate demo: offline, over the sample upstream at ${sample.url}

  GraphiQL   ${gateway.url}/graphql
  REST       ${gateway.url}/ordinals/v1/brc-20/tokens/ordi
             ${gateway.url}/runes/v1/etchings?limit=5
             ${gateway.url}/ordinals/v1/inscriptions/transfers?block=775700
  Health     ${gateway.url}/healthz

  Platform API key accepted by the sample: ${SAMPLE_PLATFORM_KEY}
  (send it as the x-api-key header, or as the apiKey argument of bitcoinNode/deleteChainhook)

Ctrl-C to stop.`);

let stopping: Promise<unknown> | undefined;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    // The gateway drains first: its requests in flight still need the sample upstream.
    stopping ??= gateway
      .stop()
      .then(() => sample.close())
      .then(() => process.exit(0));
  });
}
