/**
 * `npm run check:graphiql`: opens GraphiQL of an offline demo stack in a real headless Chromium
 * (Debian's `chromium`; no browser download), runs the default document and checks that the
 * result pane shows data, that nothing was loaded from another origin, and that the CSP held.
 */
import { chromium } from 'playwright-core';
import { start } from '../src/main.js';
import { startSampleUpstream } from '../src/sample/server.js';

const sample = await startSampleUpstream();
const gateway = await start({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', HIRO_API_URL: sample.url, HIRO_PLATFORM_URL: sample.url });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const problems: string[] = [];
try {
  const page = await browser.newPage();
  const origin = `http://127.0.0.1:${gateway.port}`;
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('blob:') && !request.url().startsWith('data:')) {
      problems.push(`request to another origin: ${request.url()}`);
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  await page.goto(`${origin}/graphql`);
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('query Overview'),
  );
  await page.locator('.graphiql-execute-button').click();
  const body = (await (await answered).json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  if (body.errors) problems.push(`the default document answered errors: ${JSON.stringify(body.errors)}`);
  for (const field of ['status', 'ordi', 'unknown', 'transfers', 'etchings']) {
    if (!body.data || !(field in body.data)) problems.push(`the default document's answer has no ${field}`);
  }
  // The result pane shows the answer (Monaco renders only the visible lines).
  await page.locator('.result-window').getByText('"serverVersion"').waitFor({ timeout: 15_000 });
  await page.screenshot({ path: process.env.SCREENSHOT ?? 'graphiql.png' });
} finally {
  await browser.close();
  await gateway.stop();
  await sample.close();
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('GraphiQL rendered offline under its CSP and ran the default document.');
