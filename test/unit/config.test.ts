import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ConfigError, effectiveConfig, loadConfig } from '../../src/config.js';

test('defaults are the public hosts, and each service can be overridden', () => {
  const config = loadConfig({ ORDINALS_API_URL: 'http://indexer:3000/api/', HIRO_API_KEY: 'k' });
  expect({
    port: config.port,
    host: config.host,
    metadata: config.metadataUrl.href,
    ordinals: config.ordinalsUrl.href,
    runes: config.runesUrl.href,
    platform: config.platformUrl.href,
    key: config.hiroApiKey,
    timeout: config.upstreamTimeoutMs,
    level: config.logLevel,
  }).toEqual({
    port: 4000,
    host: '0.0.0.0',
    metadata: 'https://api.hiro.so/',
    ordinals: 'http://indexer:3000/api',
    runes: 'https://api.hiro.so/',
    platform: 'https://api.platform.hiro.so/',
    key: 'k',
    timeout: 10000,
    level: 'info',
  });
});

test('BRC20_LIST_LOOKUPS is auto unless set to off (any case)', () => {
  expect(
    [{}, { BRC20_LIST_LOOKUPS: '' }, { BRC20_LIST_LOOKUPS: 'AUTO' }, { BRC20_LIST_LOOKUPS: 'Off' }].map(
      (env) => loadConfig(env).brc20ListLookups,
    ),
  ).toEqual(['auto', 'auto', 'auto', 'off']);
});

test('COMPILED_EXECUTION is on unless set to off or eager (any case)', () => {
  expect(
    [{}, { COMPILED_EXECUTION: '' }, { COMPILED_EXECUTION: 'OFF' }, { COMPILED_EXECUTION: 'eager' }].map(
      (env) => loadConfig(env).compiledExecution,
    ),
  ).toEqual(['on', 'on', 'off', 'eager']);
});

test('an empty variable counts as unset', () => {
  const config = loadConfig({ PORT: '', HIRO_API_URL: '', HIRO_API_KEY: '', LOG_LEVEL: '' });
  expect([config.port, config.metadataUrl.href, config.hiroApiKey, config.logLevel]).toEqual([
    4000,
    'https://api.hiro.so/',
    undefined,
    'info',
  ]);
});

test.each([
  [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535, got "eighty"'],
  [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
  [{ UPSTREAM_TIMEOUT_MS: '-5' }, 'UPSTREAM_TIMEOUT_MS must be an integer from 1 to 600000, got "-5"'],
  [{ HIRO_API_URL: 'api.hiro.so' }, 'HIRO_API_URL must be an absolute http(s) URL, got "api.hiro.so"'],
  [{ RUNES_API_URL: 'ftp://x' }, 'RUNES_API_URL must use http or https, got "ftp:"'],
  [{ HIRO_PLATFORM_URL: 'https://u:p@x/' }, 'HIRO_PLATFORM_URL must be a base URL without query, fragment or credentials'],
  // Not URLs, and not echoed: what looks like credentials stays out of the error.
  [{ HIRO_API_URL: 'https://user:s3cretpw@host:99999' }, 'HIRO_API_URL must be an absolute http(s) URL'],
  [{ CORS_ORIGINS: 'https://u:s3cretpw@x' }, 'CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example'],
  // A token in the path or query of a URL that does not parse: only its scheme and host are echoed.
  [
    { HIRO_API_URL: 'https://api.example:99999/api?apikey=s3cret' },
    'HIRO_API_URL must be an absolute http(s) URL, got "https://api.example:99999…"',
  ],
  [
    { ORD_API_URL: 'http://ord server/x?token=s3cret', ETCHINGS_SOURCE: 'ord' },
    'ORD_API_URL must be an absolute http(s) URL, got "http://ord server…"',
  ],
  // A key undici would refuse in a header at every call: refused here, never echoed.
  [
    { HIRO_API_KEY: 's3cretKEY\r\nX-Evil: 1' },
    'HIRO_API_KEY must be printable ASCII without spaces (the value is not shown: it is a secret)',
  ],
  [{ UNISAT_API_KEY: 'uni s3cret' }, 'UNISAT_API_KEY must be printable ASCII without spaces (the value is not shown: it is a secret)'],
  [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
  [{ BRC20_LIST_LOOKUPS: 'on' }, 'BRC20_LIST_LOOKUPS must be one of auto, off, got "on"'],
  [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT must be one of json, pretty, got "xml"'],
  [{ GRAPHIQL: 'yes' }, 'GRAPHIQL must be one of auto, on, off, got "yes"'],
  [{ RESPONSE_CACHE: 'yes' }, 'RESPONSE_CACHE must be one of on, off, got "yes"'],
  [{ COMPILED_EXECUTION: 'jit' }, 'COMPILED_EXECUTION must be one of on, off, eager, got "jit"'],
  [{ RESPONSE_CACHE_MAX_BYTES: '-1' }, 'RESPONSE_CACHE_MAX_BYTES must be an integer from 0 to 1099511627776, got "-1"'],
  [
    { READYZ_REQUIRE_UPSTREAM: 'ordinals, brc20' },
    'READYZ_REQUIRE_UPSTREAM must be a comma-separated list of metadata, ordinals, runes, got "brc20"',
  ],
  // The platform's breakers are per API key: one tenant's devnet never makes the gateway unready.
  [
    { READYZ_REQUIRE_UPSTREAM: 'runes,platform' },
    'READYZ_REQUIRE_UPSTREAM must be a comma-separated list of metadata, ordinals, runes, got "platform"',
  ],
  // A source may be required only where an operation uses it.
  [
    { READYZ_REQUIRE_UPSTREAM: 'ordinals,unisat' },
    'READYZ_REQUIRE_UPSTREAM must be a comma-separated list of metadata, ordinals, runes, got "unisat"',
  ],
  [
    { ETCHINGS_SOURCE: 'unisat', READYZ_REQUIRE_UPSTREAM: 'unisat,ord' },
    'READYZ_REQUIRE_UPSTREAM must be a comma-separated list of metadata, ordinals, runes, unisat, got "ord"',
  ],
])('a malformed value stops start-up naming the variable: %j', (env, message) => {
  expect(() => loadConfig(env)).toThrow(new ConfigError(message));
});

test('abuse limits: defaults, TRUST_PROXY forms, and malformed values', () => {
  const defaults = loadConfig({});
  expect([
    defaults.maxUpstreamWaitMs,
    defaults.maxResponseBytesPerRequest,
    defaults.clientUpstreamCallsPerMinute,
    defaults.trustProxy,
  ]).toEqual([900_000, 16 * 1024 * 1024, undefined, 0]);
  expect(['off', 'false', 'on', 'true', '2'].map((value) => loadConfig({ TRUST_PROXY: value }).trustProxy)).toEqual([0, 0, 1, 1, 2]);
  expect(loadConfig({ CLIENT_UPSTREAM_CALLS_PER_MINUTE: '0' }).clientUpstreamCallsPerMinute).toBe(0);
  expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8' })).toThrow(
    new ConfigError('TRUST_PROXY must be off, on or a number of proxies from 0 to 32, got "10.0.0.0/8"'),
  );
  expect(() => loadConfig({ MAX_UPSTREAM_WAIT_MS: '0' })).toThrow(
    new ConfigError('MAX_UPSTREAM_WAIT_MS must be an integer from 1000 to 86400000, got "0"'),
  );
});

test('operations settings: defaults, and lists read case-insensitively without repeats', () => {
  const pick = (env: Record<string, string>) => {
    const config = loadConfig(env);
    return [config.logFormat, config.graphiql, config.readyzRequireUpstream];
  };
  expect(pick({})).toEqual(['json', 'auto', []]);
  expect(pick({ LOG_FORMAT: 'Pretty', GRAPHIQL: 'OFF', READYZ_REQUIRE_UPSTREAM: 'Ordinals, runes,ordinals' })).toEqual([
    'pretty',
    'off',
    ['ordinals', 'runes'],
  ]);
});

test('the start-up summary holds upstream origins and settings, never a key, a password or a path', () => {
  const config = loadConfig({
    HIRO_API_KEY: 'hiro-key-123456',
    ORDINALS_API_URL: 'https://indexer.example/token-abc/api',
    REDIS_URL: 'redis://:redis-password@cache:6379/0',
    WORKERS: '2',
    CACHE_TTL_MS: '5000',
    READYZ_REQUIRE_UPSTREAM: 'runes',
  });
  expect(effectiveConfig(config, 3)).toEqual({
    upstreams: {
      metadata: 'https://api.hiro.so',
      ordinals: 'https://indexer.example',
      runes: 'https://api.hiro.so',
      platform: 'https://api.platform.hiro.so',
    },
    hiroApiKey: true,
    redis: true,
    workers: 2,
    cache: { ttlMs: 5000, notFoundTtlMs: 1000, staleIfErrorMs: 300000, maxBytes: 67108864 },
    timeouts: { upstreamMs: 10000, requestMs: 30000, shutdownMs: 10000, shutdownDelayMs: 0 },
    retries: 2,
    persistedOperations: 3,
    graphiql: 'auto',
    readyzRequireUpstream: ['runes'],
    tracing: false,
  });
  const traced = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:collector-secret@otel.example:4318/otlp?token=t' });
  expect(effectiveConfig(traced).tracing).toEqual({
    endpoint: 'https://otel.example:4318',
    sampler: 'parentbased_always_on',
    clientSampling: 'ignore',
  });
});

test('tracing: the standard OpenTelemetry variables, off without an endpoint', () => {
  expect(
    [{}, { OTEL_SERVICE_NAME: 'x' }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318', OTEL_SDK_DISABLED: 'true' }].map(
      (env) => loadConfig(env).tracing,
    ),
  ).toEqual([undefined, undefined, undefined]);
  // The general endpoint gets the traces path appended; the traces endpoint is used as given, and wins.
  expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318' }).tracing).toEqual({
    url: 'http://otel:4318/v1/traces',
    serviceName: undefined,
    sampler: 'parentbased_always_on',
    samplerRatio: 1,
    clientSampling: 'ignore',
  });
  expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318/base/' }).tracing?.url).toBe('http://otel:4318/base/v1/traces');
  expect(
    loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/ingest',
      OTEL_SERVICE_NAME: 'satgate-eu',
      OTEL_TRACES_SAMPLER: 'ParentBased_TraceIdRatio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      TRACE_CLIENT_SAMPLING: 'follow',
    }).tracing,
  ).toEqual({
    url: 'https://traces.example/ingest',
    serviceName: 'satgate-eu',
    sampler: 'parentbased_traceidratio',
    samplerRatio: 0.25,
    clientSampling: 'follow',
  });
});

test.each([
  [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT must use http or https, got "otel:"'],
  [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url with a s3cret' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an absolute http(s) URL'],
  [
    { OTEL_TRACES_SAMPLER: 'jaeger_remote' },
    'OTEL_TRACES_SAMPLER must be one of parentbased_always_on, parentbased_always_off, parentbased_traceidratio, always_on, always_off, traceidratio, got "jaeger_remote"',
  ],
  [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "1.5"'],
  [{ OTEL_SDK_DISABLED: 'yes' }, 'OTEL_SDK_DISABLED must be one of false, true, got "yes"'],
])('a malformed OpenTelemetry variable stops start-up: %j', (env, message) => {
  expect(() => loadConfig(env)).toThrow(new ConfigError(message));
});

test('.env.example names every variable config.ts reads, with its default, and so does docs/configuration.md', () => {
  const source = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8');
  const read = new Set([...source.matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1]!));
  const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
  const assignments = Object.fromEntries(
    example
      .split('\n')
      .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const table = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
  expect(read.size).toBeGreaterThan(30);
  expect([...read].filter((name) => !(name in assignments))).toEqual([]);
  expect([...read].filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
  // Its values are the defaults: loading it changes nothing.
  expect(loadConfig(assignments)).toEqual(loadConfig({}));
});

test('CORS_ALLOWED_HEADERS: the default covers the common clients; a list is lower-cased and deduplicated; a bad name stops start-up', () => {
  expect(loadConfig({}).corsAllowedHeaders).toEqual([
    'content-type',
    'x-api-key',
    'x-hiro-api-key',
    'x-request-id',
    'if-none-match',
    'x-graphql-yoga-csrf',
    'apollo-require-preflight',
    'x-apollo-operation-name',
    'traceparent',
    'tracestate',
    'apollographql-client-name',
    'apollographql-client-version',
    'sentry-trace',
    'baggage',
    'authorization',
  ]);
  expect(loadConfig({ CORS_ALLOWED_HEADERS: ' Content-Type, X-Api-Key,content-type , X-Custom ' }).corsAllowedHeaders).toEqual([
    'content-type',
    'x-api-key',
    'x-custom',
  ]);
  expect(() => loadConfig({ CORS_ALLOWED_HEADERS: 'content-type, x y' })).toThrow(
    new ConfigError('CORS_ALLOWED_HEADERS must be a comma-separated list of header names, got "x y"'),
  );
});

test('subscription settings: defaults, the rate limit planned with, and malformed values', () => {
  const pick = (c: ReturnType<typeof loadConfig>) => [
    c.livePollIntervalMs,
    c.liveQuotaShare,
    c.liveRateLimitPerMinute,
    c.maxSubscriptions,
    c.maxSubscriptionsPerConnection,
  ];
  expect(pick(loadConfig({}))).toEqual([5000, 0.2, 50, 10000, 100]);
  expect(pick(loadConfig({ HIRO_API_KEY: 'k', LIVE_QUOTA_SHARE: '0.5', LIVE_POLL_INTERVAL_MS: '250' }))).toEqual([
    250, 0.5, 500, 10000, 100,
  ]);
  expect(() => loadConfig({ LIVE_QUOTA_SHARE: '1.5' })).toThrow(
    new ConfigError('LIVE_QUOTA_SHARE must be a number above 0 and at most 1, got "1.5"'),
  );
  expect(() => loadConfig({ LIVE_QUOTA_SHARE: '0' })).toThrow(
    new ConfigError('LIVE_QUOTA_SHARE must be a number above 0 and at most 1, got "0"'),
  );
  expect(() => loadConfig({ MAX_SUBSCRIPTIONS: 'many' })).toThrow(
    new ConfigError('MAX_SUBSCRIPTIONS must be an integer from 0 to 1000000, got "many"'),
  );
});

test('per-client subscription settings: defaults, values, and malformed values', () => {
  const pick = (c: ReturnType<typeof loadConfig>) => [
    c.maxSubscriptionsPerClient,
    c.maxWatchedResourcesPerClient,
    c.maxWebSocketsPerClient,
    c.maxWebSockets,
  ];
  expect(pick(loadConfig({}))).toEqual([100, 50, 20, 10_000]);
  expect(
    pick(
      loadConfig({
        MAX_SUBSCRIPTIONS_PER_CLIENT: '3',
        MAX_WATCHED_RESOURCES_PER_CLIENT: '2',
        MAX_WEBSOCKETS_PER_CLIENT: '1',
        MAX_WEBSOCKETS: '7',
      }),
    ),
  ).toEqual([3, 2, 1, 7]);
  expect(() => loadConfig({ MAX_SUBSCRIPTIONS_PER_CLIENT: '0' })).toThrow(
    new ConfigError('MAX_SUBSCRIPTIONS_PER_CLIENT must be an integer from 1 to 1000000, got "0"'),
  );
  expect(() => loadConfig({ MAX_WATCHED_RESOURCES_PER_CLIENT: '-1' })).toThrow(
    new ConfigError('MAX_WATCHED_RESOURCES_PER_CLIENT must be an integer from 1 to 1000000, got "-1"'),
  );
  expect(() => loadConfig({ MAX_WEBSOCKETS_PER_CLIENT: 'lots' })).toThrow(
    new ConfigError('MAX_WEBSOCKETS_PER_CLIENT must be an integer from 1 to 1000000, got "lots"'),
  );
  expect(() => loadConfig({ MAX_WEBSOCKETS: '0' })).toThrow(
    new ConfigError('MAX_WEBSOCKETS must be an integer from 1 to 1000000, got "0"'),
  );
});
