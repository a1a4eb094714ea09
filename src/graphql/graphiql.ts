/**
 * GraphiQL served entirely by satgate: the HTML references scripts, styles and workers at
 * /graphiql/*, bundled by @graphql-yoga/render-graphiql, so it works offline and under a CSP that
 * allows only this origin (yoga's default page loads them from a CDN and stays blank offline).
 */
import type { Plugin } from 'graphql-yoga';

export const GRAPHIQL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  // Monaco and GraphiQL set inline styles at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Exercises every read operation against the demo data. */
export const DEFAULT_QUERY = `# satgate: one GraphQL endpoint over Hiro's token-metadata, ordinals, runes and platform APIs.
# Every read operation, against the demo data (npm run demo):
query Overview {
  status {
    serverVersion
    status
    chainTip { blockHeight indexBlockHash }
    tokens { ft nft sft }
    tokenContracts { sip009 sip010 sip013 }
    jobQueue { pending queued done failed invalid }
  }
  ordi: brc20Token(ticker: "ORDI") {
    token { ticker maxSupply mintLimit decimals deployTimestamp mintedSupply txCount selfMint }
    supply { holders mintedSupply }
  }
  unknown: brc20Token(ticker: "no-such-token") { token { ticker } }
  transfers(block: 775700, limit: 5) {
    total
    results {
      id number
      from { blockHeight address value timestamp }
      to { blockHeight address location output value offset timestamp }
    }
  }
  etchings(limit: 5) {
    total
    results {
      id spacedName number divisibility symbol turbo
      mintTerms { amount cap heightStart heightEnd }
      supply { current minted mintable mintPercentage }
      location { blockHeight txId timestamp }
    }
  }
  # Relay connections span the upstream's 60-item pages; pass endCursor as after for the next page.
  etchingsConnection(first: 3) {
    totalCount
    edges { cursor node { spacedName number } }
    pageInfo { hasNextPage endCursor }
  }
  tokens: brc20Tokens(tickers: ["ordi", "PEPE", "nope"]) { token { ticker mintedSupply } }
  # Platform fields take apiKey, or the x-api-key request header (the demo prints its key).
  # bitcoinNode(path: "rest/chaininfo.json", apiKey: "...")
}

# Live data: run this one (pick "Live" from the run button) and watch the demo mint.
subscription Live {
  brc20Token(ticker: "bitai") { token { ticker mintedSupply txCount } }
}
`;

type Assets = typeof import('@graphql-yoga/render-graphiql/graphiql');
let assets: Promise<Assets> | undefined;
/** ~9 MB of strings: loaded on the first GraphiQL request, not at start-up. */
const loadAssets = () => (assets ??= import('@graphql-yoga/render-graphiql/graphiql'));

/** A Map, not an object: a name from the URL must never reach `constructor` or `__proto__`. */
const FILES = new Map<string, { type: string; body: (a: Assets) => string | Uint8Array<ArrayBuffer> }>([
  ['graphiql.js', { type: 'text/javascript', body: (a) => a.js }],
  ['graphiql.css', { type: 'text/css', body: (a) => a.css }],
  ['editor.worker.js', { type: 'text/javascript', body: (a) => a.editorWorkerService }],
  ['json.worker.js', { type: 'text/javascript', body: (a) => a.jsonWorker }],
  ['graphql.worker.js', { type: 'text/javascript', body: (a) => a.graphqlWorker }],
  ['init.js', { type: 'text/javascript', body: () => INIT_SCRIPT }],
  ['favicon.ico', { type: 'image/x-icon', body: (a) => new Uint8Array(Buffer.from(a.favicon.split(',')[1] ?? '', 'base64')) }],
]);

const INIT_SCRIPT = `
self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: function (moduleId, label) {
    return '/graphiql/' + (label === 'editorWorkerService' ? 'editor' : label) + '.worker.js';
  },
};
YogaGraphiQL.renderYogaGraphiQL(
  document.querySelector('#root'),
  JSON.parse(document.getElementById('graphiql-options').textContent),
);
`;

/** The page: no inline script; options travel as inert JSON. */
export function renderGraphiQL(options: Record<string, unknown>): string {
  const json = JSON.stringify(options).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>satgate GraphiQL</title>
    <link rel="icon" href="/graphiql/favicon.ico" />
    <link rel="stylesheet" href="/graphiql/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to use GraphiQL.</noscript>
    <div id="root"></div>
    <script type="application/json" id="graphiql-options">${json}</script>
    <script src="/graphiql/graphiql.js"></script>
    <script src="/graphiql/init.js"></script>
  </body>
</html>`;
}

/** Serves /graphiql/* and puts the CSP and security headers on the GraphiQL page. */
export function useGraphiQLAssets(): Plugin {
  return {
    async onRequest({ url, request, endResponse }) {
      if (!url.pathname.startsWith('/graphiql/') || request.method !== 'GET') return;
      const file = FILES.get(url.pathname.slice('/graphiql/'.length));
      if (!file) return endResponse(new Response('Not found', { status: 404 }));
      endResponse(
        new Response(file.body(await loadAssets()), {
          headers: {
            'content-type': file.type.startsWith('text/') ? `${file.type}; charset=utf-8` : file.type,
            'cache-control': 'public, max-age=3600',
            'x-content-type-options': 'nosniff',
          },
        }),
      );
    },
    onResponse({ response }) {
      if (response.headers.get('content-type')?.startsWith('text/html')) {
        response.headers.set('content-security-policy', GRAPHIQL_CSP);
        response.headers.set('x-content-type-options', 'nosniff');
        response.headers.set('x-frame-options', 'DENY');
        response.headers.set('referrer-policy', 'no-referrer');
      }
    },
  };
}
