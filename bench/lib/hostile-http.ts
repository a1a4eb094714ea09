/**
 * Two hostile classes of `npm run bench -- --abuse`, as requests and the answers each may get:
 * - graphql-jit's marker literals in every literal position, over POST and GET. graphql-jit 0.8.9
 *   wrote literals into the code it generated and turned `"__MAGIC_DATE__…(<js>)"` into
 *   `new Date(<js>)`; the date payload here would write a file in a directory the bench made, so
 *   the run can say whether any ran. Each document comes twice (its alias changes every second
 *   request): graphql-jit compiles a document's shape the second time it is seen, so the compile
 *   path is taken, not only the graphql-js one (for the first 30 shapes of each minute: compiling
 *   is charged to its client, COMPILES_PER_CLIENT_PER_MINUTE). An undeclared variable (`nonce`) makes every
 *   request new to the response fast path, which would otherwise answer a repeat without executing it.
 * - Host headers that are no authority (one that smuggles another document, spaces, fragments,
 *   two Host lines), written on raw sockets: each must be answered 400 `Bad Host header`.
 */
import { isDeepStrictEqual } from 'node:util';

/** graphql-jit 0.8.9's markers (node_modules/graphql-jit/lib/execution.js). */
export const JIT_MARKERS = {
  date: '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d',
  nan: '__MAGIC_NAN__57f286b9_4c20_487f_b409_79804ddcb4f8',
  plusInfinity: '__MAGIC_PLUS_INFINITY__bb201c39_3333_4695_b4ad_7f1722e7aa7a',
  minusInfinity: '__MAGIC_MINUS_INFINITY__71d4310a_d4a3_4a05_b1fe_e60779d24998',
} as const;

/** The file a payload that ran would write, in the bench's own directory. */
export const MARKER_FILE = 'marker-ran';

/**
 * The date marker with code that writes `dir`/MARKER_FILE (single quotes only: graphql-jit's
 * pattern stops at a double quote). `dir` must hold no quote or backslash.
 */
export function markerPayload(dir: string): string {
  if (/['"\\]/.test(dir)) throw new Error(`marker directory must hold no quote or backslash: ${dir}`);
  return `${JIT_MARKERS.date}(process.getBuiltinModule('fs').writeFileSync('${dir}/${MARKER_FILE}',''))`;
}

/** How a literal is written: plain, with every `_` escaped, or as a block string. */
const FORMS: Array<(value: string) => string> = [
  (value) => JSON.stringify(value),
  (value) => JSON.stringify(value).replace(/_/g, '\\u005F'),
  (value) => `"""${value}"""`,
];

/** What an answer holds, for comparing: its data and its errors' codes, in order. */
export interface AnswerShape {
  data: unknown;
  codes: string[];
}

export function answerShape(body: string): AnswerShape | undefined {
  try {
    const parsed = JSON.parse(body) as { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> };
    return { data: parsed.data, codes: (parsed.errors ?? []).map((error) => error.extensions?.code ?? '(no code)') };
  } catch {
    return undefined;
  }
}

/** One literal position: the document with the alias and the literal, and what it must answer. */
interface Position {
  document(alias: string, literal: string): string;
  /** Label → the answer's shape; a RATE_LIMITED error is allowed on positions that ask the upstream. */
  answer(alias: string): { label: string; shape: AnswerShape; upstream: boolean };
}

const TOKEN = '{ token { ticker } }';
const nullData = (label: string, data: (alias: string) => unknown) => (alias: string) => ({
  label,
  shape: { data: data(alias), codes: [] },
  upstream: true,
});
const POSITIONS: Position[] = [
  { document: (a, l) => `{ ${a}: brc20Token(ticker: ${l}) ${TOKEN} }`, answer: nullData('null', (a) => ({ [a]: null })) },
  {
    document: (a, l) => `{ ${a}: brc20Tokens(tickers: [${l}, "ordi"]) ${TOKEN} }`,
    answer: nullData('[null, ordi]', (a) => ({ [a]: [null, { token: { ticker: 'ordi' } }] })),
  },
  {
    document: (a, l) => `query ($t: String! = ${l}) { ${a}: brc20Token(ticker: $t) ${TOKEN} }`,
    answer: nullData('null', (a) => ({ [a]: null })),
  },
  {
    document: (a, l) => `query ($t: [String!]! = [${l}]) { ${a}: brc20Tokens(tickers: $t) ${TOKEN} }`,
    answer: nullData('[null]', (a) => ({ [a]: [null] })),
  },
  {
    document: (a, l) => `{ ...F } fragment F on Query { ${a}: brc20Token(ticker: ${l}) ${TOKEN} }`,
    answer: nullData('null', (a) => ({ [a]: null })),
  },
  { document: (a, l) => `{ ... on Query { ${a}: brc20Token(ticker: ${l}) ${TOKEN} } }`, answer: nullData('null', (a) => ({ [a]: null })) },
  {
    document: (a, l) => `{ ${a}: status @include(if: ${l}) { status } }`,
    answer: () => ({
      label: 'GRAPHQL_VALIDATION_FAILED',
      shape: { data: undefined, codes: ['GRAPHQL_VALIDATION_FAILED'] },
      upstream: false,
    }),
  },
  {
    document: (a, l) => `{ ${a}: etchingsConnection(after: ${l}, first: 1) { totalCount } }`,
    answer: (a) => ({ label: 'BAD_USER_INPUT', shape: { data: { [a]: null }, codes: ['BAD_USER_INPUT'] }, upstream: false }),
  },
  {
    document: (a, l) => `{ ${a}: transfers(block: ${l}) { total } }`,
    answer: (a) => ({ label: 'BAD_USER_INPUT', shape: { data: { [a]: null }, codes: ['BAD_USER_INPUT'] }, upstream: false }),
  },
];

export interface HttpSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** One hostile request and how to judge its answer: the expected answer's label, or undefined. */
export interface HostileRequest {
  http?: HttpSpec;
  /** Written on a raw socket instead: the request line and headers, each ending in CRLF. */
  raw?: string;
  judge(status: number, body: string): string | undefined;
}

/**
 * The `i`th marker request from `address` (X-Forwarded-For): positions × marker values × literal
 * forms, the same document twice in a row, first over POST, then over GET.
 */
export function markerRequest(i: number, dir: string, address: string): HostileRequest {
  const k = Math.floor(i / 2);
  const values = [markerPayload(dir), JIT_MARKERS.nan, JIT_MARKERS.plusInfinity, JIT_MARKERS.minusInfinity];
  const position = POSITIONS[k % POSITIONS.length]!;
  const value = values[Math.floor(k / POSITIONS.length) % values.length]!;
  const form = FORMS[Math.floor(k / (POSITIONS.length * values.length)) % FORMS.length]!;
  const alias = `m${k}`;
  const query = position.document(alias, form(value));
  const variables = JSON.stringify({ nonce: i });
  const headers = { accept: 'application/json', 'x-forwarded-for': address };
  const http: HttpSpec =
    i % 2 === 0
      ? {
          method: 'POST',
          path: '/graphql',
          body: JSON.stringify({ query, variables: { nonce: i } }),
          headers: { ...headers, 'content-type': 'application/json' },
        }
      : {
          method: 'GET',
          path: `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(variables)}`,
          headers: { ...headers, 'x-graphql-yoga-csrf': '1' },
        };
  const expected = position.answer(alias);
  return {
    http,
    judge(status, body) {
      const shape = answerShape(body);
      if (status !== 200 || !shape) return undefined;
      if (isDeepStrictEqual(shape, expected.shape)) return expected.label;
      // Asking the upstream, the client's share of upstream calls may be spent: refused, the field null.
      const limited = shape.codes.length > 0 && shape.codes.every((code) => code === 'RATE_LIMITED');
      if (expected.upstream && limited && isDeepStrictEqual(shape.data, expected.shape.data)) return `${expected.label}, RATE_LIMITED`;
      return undefined;
    },
  };
}

const TOKEN_DOCUMENT = (ticker: string) => `{ brc20Token(ticker: "${ticker}") ${TOKEN} }`;
/** The document a browser asks; a Host that smuggled another one would have stored that one's result under it. */
export const VICTIM_TARGET = `/graphql?query=${encodeURIComponent(TOKEN_DOCUMENT('ordi'))}`;
const SMUGGLED = `x/graphql?query=${encodeURIComponent(TOKEN_DOCUMENT('pepe'))}&z=`;

/** Host lines that are no authority (RFC 9112 3.2), and two Host lines. */
export const HOSTILE_HOST_LINES = [
  `Host: ${SMUGGLED}\r\n`,
  'Host: a b\r\n',
  'Host: x#\r\n',
  'Host: x@y\r\n',
  'Host: \r\n',
  'Host: x:99999\r\n',
  'Host: [::1\r\n',
  'Host: x\\y\r\n',
  `Host: 127.0.0.1\r\nHost: ${SMUGGLED}\r\n`,
];

/** The `i`th hostile Host request from `address`: GraphQL over GET and a REST path, in turn. */
export function hostRequest(i: number, address: string): HostileRequest {
  const host = HOSTILE_HOST_LINES[i % HOSTILE_HOST_LINES.length]!;
  const target = Math.floor(i / HOSTILE_HOST_LINES.length) % 2 === 0 ? VICTIM_TARGET : '/ordinals/v1/brc-20/tokens/ordi';
  return {
    raw: `GET ${target} HTTP/1.1\r\n${host}accept: application/json\r\nx-graphql-yoga-csrf: 1\r\nx-forwarded-for: ${address}\r\n`,
    judge: (status, body) => (status === 400 && body === 'Bad Host header' ? '400 Bad Host header' : undefined),
  };
}
