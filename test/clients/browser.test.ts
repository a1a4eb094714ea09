/**
 * A page on another origin, in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core): its fetches carry Apollo's client-awareness headers, Sentry's tracing headers
 * and an Authorization header, so the browser sends a preflight the gateway must allow; its
 * EventSource subscribes with no header at all. A header the gateway does not allow fails the
 * request in the browser ("Failed to fetch"): the preflight is really enforced. A REST answer from
 * a data source shows the page the headers it names (ETag, x-data-source).
 *
 * Without /usr/bin/chromium this suite fails (CI installs it: .ci/run), unless
 * SATGATE_SKIP_BROWSER=1 is set for a local run (docs/development.md).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';
import { until } from '../live-clients.js';
import { BYTES_ETAG } from '../support.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = !existsSync(CHROMIUM) && process.env.SATGATE_SKIP_BROWSER === '1';

describe.skipIf(skip)('a page on another origin in Chromium', () => {
  let pages: Server;
  let pageOrigin: string;
  let stack: Stack;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium, or set SATGATE_SKIP_BROWSER=1 to skip this suite locally`);
    }
    // The page's own origin: another port of 127.0.0.1, so every request to the gateway is cross-origin.
    pages = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>app</title><p>app</p>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    stack = await startStack({ CORS_ORIGINS: pageOrigin, LIVE_POLL_INTERVAL_MS: '50' });
    profile = await mkdtemp(join(tmpdir(), 'satgate-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${pageOrigin}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await new Promise((resolve) => pages?.close(resolve));
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  /** What the page's fetch got: status and JSON body, or the browser's error message. */
  const fetchFromPage = (method: 'GET' | 'POST', headers: Record<string, string>) =>
    page.evaluate(
      async ({ gateway, method, headers }) => {
        const query = '{ brc20Token(ticker: "ordi") { token { ticker } } }';
        try {
          const response =
            method === 'GET'
              ? await fetch(`${gateway}/graphql?query=${encodeURIComponent(query)}`, { headers })
              : await fetch(`${gateway}/graphql`, {
                  method,
                  headers: { 'content-type': 'application/json', ...headers },
                  body: JSON.stringify({ query }),
                });
          return { status: response.status, body: (await response.json()) as unknown };
        } catch (error) {
          return { failed: (error as Error).message };
        }
      },
      { gateway: stack.gatewayUrl, method, headers },
    );

  const CLIENT_HEADERS = {
    'apollographql-client-name': 'web',
    'apollographql-client-version': '1.4.0',
    'sentry-trace': '771a43a4192642f0b136d5159a501700-b7ad6b7169203331-1',
    baggage: 'sentry-environment=test,sentry-release=web@1.4.0',
    authorization: 'Bearer app-session-token',
  };
  const ORDI = { status: 200, body: { data: { brc20Token: { token: { ticker: 'ordi' } } } } };

  test("a POST and a GET with Apollo's, Sentry's and Authorization headers pass their preflight", async () => {
    expect(await fetchFromPage('POST', CLIENT_HEADERS)).toEqual(ORDI);
    expect(await fetchFromPage('GET', CLIENT_HEADERS)).toEqual(ORDI);
    // The browser asked first: preflights reached the gateway and were allowed.
    await until(() => accessLog().filter((line) => line.method === 'OPTIONS').length >= 2, 'the preflights in the access log');
    expect(accessLog().filter((line) => line.method === 'OPTIONS')).toEqual([
      { method: 'OPTIONS', path: '/graphql', status: 204 },
      { method: 'OPTIONS', path: '/graphql', status: 204 },
    ]);
  });

  test('a header the gateway does not allow fails in the browser', async () => {
    expect(await fetchFromPage('POST', { 'x-not-allowed': '1' })).toEqual({ failed: 'Failed to fetch' });
  });

  test('a REST answer from a data source shows the page its ETag and x-data-source', async () => {
    const key = 'unisat-browser-key-5b0e';
    const sourced = await startStack(
      (sample) => ({
        CORS_ORIGINS: pageOrigin,
        BRC20_SOURCE: 'unisat',
        UNISAT_API_URL: sample.baseUrl,
        UNISAT_API_KEY: key,
        UNISAT_RATE_LIMIT_PER_SECOND: '1000',
      }),
      { sources: { unisat: { apiKey: key } } },
    );
    try {
      const seen = await page.evaluate(async (url) => {
        const response = await fetch(url);
        return { status: response.status, etag: response.headers.get('etag'), source: response.headers.get('x-data-source') };
      }, `${sourced.gatewayUrl}/ordinals/v1/brc-20/tokens/ordi`);
      // Before: source null (a header CORS did not expose), etag null (none was sent).
      expect(seen).toEqual({ status: 200, etag: expect.stringMatching(BYTES_ETAG), source: 'unisat' });
    } finally {
      await sourced.close();
    }
  });

  test('an EventSource subscription (no headers at all) gets the value, then the change after a mint', async () => {
    const before = stack.sample.activity.findBrc20Token('bitai')!.token.tx_count;
    await page.evaluate((gateway) => {
      const query = 'subscription { brc20Token(ticker: "bitai") { token { txCount } } }';
      const source = new EventSource(`${gateway}/graphql?query=${encodeURIComponent(query)}`);
      const seen: unknown[] = [];
      Object.assign(window, { seen, source });
      source.addEventListener('next', (event) => seen.push(JSON.parse((event as MessageEvent<string>).data)));
      source.addEventListener('error', () => seen.push('error'));
    }, stack.gatewayUrl);
    const seen = () => page.evaluate(() => (window as unknown as { seen: unknown[] }).seen);
    const value = (txCount: number) => ({ data: { brc20Token: { token: { txCount } } } });
    await expect.poll(seen, { timeout: 10_000 }).toEqual([value(before)]);
    stack.sample.activity.mint('bitai');
    await expect.poll(seen, { timeout: 10_000 }).toEqual([value(before), value(before + 1)]);
    await page.evaluate(() => (window as unknown as { source: EventSource }).source.close());
  });

  /** The gateway's access log: method, path and status of each request. */
  function accessLog(): Array<{ method: string; path: string; status: number }> {
    return stack.logs
      .map((line) => JSON.parse(line) as { msg: string; method: string; path: string; status: number })
      .filter((line) => line.msg === 'request')
      .map(({ method, path, status }) => ({ method, path, status }));
  }
});
