/** The data-source settings: defaults, values, and malformed values (one clear line each). */
import { expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

test('defaults: hiro for every operation, UniSat at its public host, 5 calls a second', () => {
  expect(loadConfig({}).sources).toEqual({
    brc20: 'hiro',
    transfers: 'hiro',
    etchings: 'hiro',
    unisatUrl: new URL('https://open-api.unisat.io'),
    unisatApiKey: undefined,
    unisatRatePerSecond: 5,
    ordUrl: undefined,
    ordAuth: undefined,
  });
});

test('values, any case; base URLs may carry a path prefix', () => {
  const sources = loadConfig({
    BRC20_SOURCE: 'UniSat',
    TRANSFERS_SOURCE: 'unisat',
    ETCHINGS_SOURCE: 'ord',
    UNISAT_API_URL: 'http://unisat.internal:8080/api/',
    UNISAT_API_KEY: 'k-1',
    UNISAT_RATE_LIMIT_PER_SECOND: '20',
    ORD_API_URL: 'http://ord:80',
    ORD_API_AUTH: 'user:pa:ss',
  }).sources;
  expect(sources).toEqual({
    brc20: 'unisat',
    transfers: 'unisat',
    etchings: 'ord',
    unisatUrl: new URL('http://unisat.internal:8080/api'),
    unisatApiKey: 'k-1',
    unisatRatePerSecond: 20,
    ordUrl: new URL('http://ord'),
    ordAuth: 'user:pa:ss',
  });
});

test.each([
  [{ BRC20_SOURCE: 'ord' }, 'BRC20_SOURCE must be one of hiro, unisat, got "ord"'],
  [{ TRANSFERS_SOURCE: 'xverse' }, 'TRANSFERS_SOURCE must be one of hiro, unisat, got "xverse"'],
  [{ ETCHINGS_SOURCE: 'ord' }, 'ORD_API_URL must be set when a source is ord'],
  [{ UNISAT_RATE_LIMIT_PER_SECOND: '0' }, 'UNISAT_RATE_LIMIT_PER_SECOND must be an integer from 1 to 10000, got "0"'],
  [{ UNISAT_API_URL: 'https://user:secret@unisat.example' }, 'UNISAT_API_URL must be a base URL without query, fragment or credentials'],
  [{ ORD_API_URL: 'ftp://ord' }, 'ORD_API_URL must use http or https, got "ftp:"'],
  // Never echoed: it is a password.
  [{ ORD_API_AUTH: 'only-a-password' }, 'ORD_API_AUTH must be user:password'],
])('%o stops start-up: %s', (env, message) => {
  expect(() => loadConfig(env)).toThrow(new ConfigError(message));
});
