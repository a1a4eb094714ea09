/**
 * The sample's UniSat profile (src/sample/unisat.ts) against UniSat's own OpenAPI files
 * (fixtures/unisat-openapi/, copied verbatim; README.md there names the commit): every route the
 * sample plays, asked as the gateway asks it, answers what the route's 200 schema describes.
 *
 * The files mark no property required and allow any other, so the check reads them strictly: an
 * answer has every property the schema lists and no other, except where the spec itself says a
 * property may be missing (below). A sample that left fields out or invented some would test the
 * gateway against answers UniSat does not send.
 */
import { openapiSchemaToJsonSchema } from '@openapi-contrib/openapi-schema-to-json-schema';
import AjvModule from 'ajv';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { blockHash, sampleData } from '../../src/sample/data.js';
import { unisatEvents, unisatRunes } from '../../src/sample/sources-data.js';
import { startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';

const Ajv = AjvModule.default ?? AjvModule;
const UNISAT_KEY = 'unisat-openapi-key';

/** Properties the spec says may be absent. */
const OPTIONAL = new Set([
  // "only present when it's a mint event"
  'InscriptionEvent.contentBody',
  'InscriptionEvent.contentType',
  // `Option<char>`, and a rune's terms (and the mint window they give) are optional in the runes protocol.
  'RuneEntry.symbol',
  'RuneEntry.terms',
  'RuneEntry.terms.amount',
  'RuneEntry.terms.cap',
  'RuneEntry.terms.heightStart',
  'RuneEntry.terms.heightEnd',
  'RuneEntry.terms.offsetStart',
  'RuneEntry.terms.offsetEnd',
  'RuneEntry.start',
  'RuneEntry.end',
]);

type Schema = Record<string, unknown>;

/** JSON Schema of an OpenAPI 3.0 schema object, its `#/components/schemas/X` refs made `#/$defs/X`. */
function toJsonSchema(schema: Schema): Schema {
  const { $schema: _draft, ...converted } = openapiSchemaToJsonSchema(schema) as Schema;
  return JSON.parse(JSON.stringify(converted).replaceAll('"#/components/schemas/', '"#/$defs/')) as Schema;
}

/** Every schema with properties: an object with all of them (but OPTIONAL ones), and no other. */
function strict(schema: Schema, at: string): Schema {
  const properties = schema.properties as Record<string, Schema> | undefined;
  const items = schema.items as Schema | undefined;
  if (items) return { ...schema, items: strict(items, at) };
  if (!properties) return schema;
  const names = Object.keys(properties);
  return {
    ...schema,
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, strict(properties[name]!, `${at}.${name}`)])),
    required: names.filter((name) => !OPTIONAL.has(`${at}.${name}`)),
    additionalProperties: false,
  };
}

interface OpenApi {
  paths: Record<string, { get: { responses: { '200': { content: { 'application/json': { schema: Schema } } } } } }>;
  components: { schemas: Record<string, Schema> };
}

const ajv = new Ajv({ allErrors: true, strict: true });
// The formats the files use, read as their names say.
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
ajv.addFormat('uint8', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 && n < 256 });
ajv.addFormat('uint64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) && n >= 0 });
ajv.addFormat('u128', { type: 'string', validate: (s: string) => /^\d+$/.test(s) && BigInt(s) < 2n ** 128n });
ajv.addFormat('Option<char>', { type: 'string', validate: (s: string) => [...s].length === 1 });

/** The validator of a route's 200 answer in one of the OpenAPI files. */
function responseValidator(file: string, path: string) {
  const document = parse(readFileSync(new URL(`fixtures/unisat-openapi/${file}.yaml`, import.meta.url), 'utf8')) as OpenApi;
  const route = document.paths[path];
  if (!route) throw new Error(`${file}.yaml has no ${path}`);
  const $defs = Object.fromEntries(Object.entries(document.components.schemas).map(([name, s]) => [name, strict(toJsonSchema(s), name)]));
  const envelope = strict(toJsonSchema(route.get.responses['200'].content['application/json'].schema), 'envelope');
  return ajv.compile({ ...envelope, $defs });
}

let sample: SampleUpstream;
beforeAll(async () => {
  sample = await startSampleUpstream({ sources: { unisat: { apiKey: UNISAT_KEY } } });
});
afterAll(() => sample.close());

/** The sample's answer, which must be a success (the spec's schemas describe `code: 0` answers). */
async function ask(path: string): Promise<{ code: number; data: unknown }> {
  const response = await fetch(sample.url + path, { headers: { authorization: `Bearer ${UNISAT_KEY}` } });
  const body = (await response.json()) as { code: number; data: unknown };
  expect([path, response.status, body.code]).toEqual([path, 200, 0]);
  return body;
}

/** Every answer that fails the schema, with ajv's errors (an empty list when all pass). */
async function failures(file: string, route: string, paths: string[]) {
  const validate = responseValidator(file, route);
  const failed = [];
  for (const path of paths) {
    const body = await ask(path);
    if (!validate(body)) failed.push({ path, errors: [...new Set(validate.errors?.map((e) => `${e.instancePath} ${e.message}`))] });
  }
  return failed;
}

const heights = [...new Set(unisatEvents.map((e) => e.height))];

describe("the sample's UniSat answers match UniSat's OpenAPI schemas", () => {
  test('GET /v1/indexer/brc20/{ticker}/info, every token (hex paths for special tickers)', async () => {
    const segments = sampleData.brc20Tokens.map(({ token: { ticker } }) =>
      /^[a-z0-9]+$/i.test(ticker) ? ticker : Buffer.from(ticker).toString('hex'),
    );
    const paths = segments.map((segment) => `/v1/indexer/brc20/${encodeURIComponent(segment)}/info`);
    expect(await failures('brc20-indexer', '/v1/indexer/brc20/{ticker}/info', paths)).toEqual([]);
  });

  test('GET /v1/indexer/inscription/events, every page of every block, and a range of two blocks', async () => {
    const paths = [];
    for (const height of heights) {
      const count = unisatEvents.filter((e) => e.height === height).length;
      for (let cursor = 0; cursor === 0 || cursor < count; cursor += 48) {
        paths.push(`/v1/indexer/inscription/events?start=${height}&end=${height + 1}&cursor=${cursor}&size=100`);
      }
    }
    paths.push(`/v1/indexer/inscription/events?start=${heights[0]}&end=${heights.at(-1)}&cursor=0&size=16`);
    expect(paths.length).toBeGreaterThan(heights.length);
    expect(await failures('inscription-indexer', '/v1/indexer/inscription/events', paths)).toEqual([]);
  });

  test('GET /v1/indexer/height/{height}/block and /v1/indexer/block/id/{blockid}', async () => {
    const byHeight = heights.map((height) => `/v1/indexer/height/${height}/block`);
    expect(await failures('blockchain-indexer', '/v1/indexer/height/{height}/block', byHeight)).toEqual([]);
    const byId = heights.map((height) => `/v1/indexer/block/id/${blockHash(height)}`);
    expect(await failures('blockchain-indexer', '/v1/indexer/block/id/{blockid}', byId)).toEqual([]);
  });

  test("each index's height: /v1/indexer/brc20/bestheight, /v1/indexer/runes/status, /v1/indexer/blockchain/info", async () => {
    expect(await failures('brc20-indexer', '/v1/indexer/brc20/bestheight', ['/v1/indexer/brc20/bestheight'])).toEqual([]);
    expect(await failures('runes-indexer', '/v1/indexer/runes/status', ['/v1/indexer/runes/status'])).toEqual([]);
    expect(await failures('blockchain-indexer', '/v1/indexer/blockchain/info', ['/v1/indexer/blockchain/info'])).toEqual([]);
  });

  test('GET /v1/indexer/runes/info-list, every page', async () => {
    const paths = [];
    for (let start = 0; start < unisatRunes.length; start += 60)
      paths.push(`/v1/indexer/runes/info-list?sort=timestamp&start=${start}&limit=60`);
    expect(await failures('runes-indexer', '/v1/indexer/runes/info-list', paths)).toEqual([]);
  });
});
