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
])('a malformed value stops start-up naming the variable: %j', (env, message) => {
  expect(() => loadConfig(env)).toThrow(new ConfigError(message));
});

test('subscription settings: defaults, the rate limit planned with, and malformed values', () => {
  const pick = (c: ReturnType<typeof loadConfig>) => [c.livePollIntervalMs, c.liveQuotaShare, c.liveRateLimitPerMinute, c.maxSubscriptions, c.maxSubscriptionsPerConnection];
  expect(pick(loadConfig({}))).toEqual([5000, 0.2, 50, 10000, 100]);
  expect(pick(loadConfig({ HIRO_API_KEY: 'k', LIVE_QUOTA_SHARE: '0.5', LIVE_POLL_INTERVAL_MS: '250' }))).toEqual([250, 0.5, 500, 10000, 100]);
  expect(() => loadConfig({ LIVE_QUOTA_SHARE: '1.5' })).toThrow(new ConfigError('LIVE_QUOTA_SHARE must be a number above 0 and at most 1, got "1.5"'));
  expect(() => loadConfig({ LIVE_QUOTA_SHARE: '0' })).toThrow(new ConfigError('LIVE_QUOTA_SHARE must be a number above 0 and at most 1, got "0"'));
  expect(() => loadConfig({ MAX_SUBSCRIPTIONS: 'many' })).toThrow(new ConfigError('MAX_SUBSCRIPTIONS must be an integer from 0 to 1000000, got "many"'));
});
