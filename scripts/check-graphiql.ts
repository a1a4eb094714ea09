/**
 * `npm run check:graphiql`: opens GraphiQL of an offline demo stack in a real headless Chromium
 * (Debian's `chromium`; no browser download), runs the default document and checks that the
 * result pane shows data, that nothing was loaded from another origin, and that the CSP held; then
 * runs the document's subscription and sees an event arrive after the sample mints.
 */
import { chromium } from 'playwright-core';
import { start } from '../src/main.js';
import { startSampleUpstream } from '../src/sample/server.js';

const sample = await startSampleUpstream();
const gateway = await start({
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  HIRO_API_URL: sample.url,
  HIRO_PLATFORM_URL: sample.url,
  LIVE_POLL_INTERVAL_MS: '200',
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
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
  const answered = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('query Overview'));
  /** Runs one operation of the default document: the run button lists them by name. */
  const run = async (operation: string) => {
    await page.locator('.graphiql-execute-button').click();
    await page.getByRole('menuitem', { name: operation }).click();
  };
  await run('Overview');
  const body = (await (await answered).json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  if (body.errors) problems.push(`the default document answered errors: ${JSON.stringify(body.errors)}`);
  for (const field of ['status', 'ordi', 'unknown', 'transfers', 'etchings']) {
    if (!body.data || !(field in body.data)) problems.push(`the default document's answer has no ${field}`);
  }
  // The result pane shows the answer (Monaco renders only the visible lines).
  await page.locator('.result-window').getByText('"serverVersion"').waitFor({ timeout: 15_000 });
  await page.screenshot({ path: process.env.SCREENSHOT ?? 'graphiql.png' });

  // The subscription: its first event (the token now), then a new one after the sample mints.
  const minted = sample.activity.findBrc20Token('bitai')!.token.tx_count + 1;
  const subscribed = page.waitForResponse((r) => r.url().includes('/graphql?') && r.url().includes('operationName=Live'));
  await run('Live');
  const stream = await subscribed;
  if (!(stream.headers()['content-type'] ?? '').startsWith('text/event-stream')) {
    problems.push(`the subscription did not answer an event stream: ${stream.headers()['content-type']}`);
  }
  await page.locator('.result-window').getByText('"txCount"').waitFor({ timeout: 15_000 });
  sample.activity.mint('bitai');
  await page
    .locator('.result-window')
    .getByText(new RegExp(`"txCount":\\s*${minted}\\b`))
    .waitFor({ timeout: 15_000 });
} finally {
  await browser.close();
  await gateway.stop();
  await sample.close();
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('GraphiQL rendered offline under its CSP, ran the default document, and saw a subscription event arrive.');
