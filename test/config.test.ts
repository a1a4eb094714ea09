import { expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

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
  expect([{}, { BRC20_LIST_LOOKUPS: '' }, { BRC20_LIST_LOOKUPS: 'AUTO' }, { BRC20_LIST_LOOKUPS: 'Off' }].map((env) => loadConfig(env).brc20ListLookups)).toEqual([
    'auto',
    'auto',
    'auto',
    'off',
  ]);
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
  [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
  [{ BRC20_LIST_LOOKUPS: 'on' }, 'BRC20_LIST_LOOKUPS must be one of auto, off, got "on"'],
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
