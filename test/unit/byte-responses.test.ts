import { Headers, Response } from '@whatwg-node/fetch';
import { describe, expect, test } from 'vitest';
import { ByteResponse } from '../../src/graphql/byte-responses.js';

/** What a client receives of a Response: status, the framing headers and the body bytes. */
async function received(response: globalThis.Response) {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    contentLength: response.headers.get('content-length'),
    body: Buffer.from(await response.arrayBuffer()).toString('hex'),
  };
}

describe('ByteResponse', () => {
  const json = '{"data":{"name":"ᚠ•RUNE"}}';

  test.each([
    ['a plain object', { 'Content-Type': 'application/json; charset=utf-8' }],
    ['a Headers', new Headers({ 'content-type': 'application/json; charset=utf-8' })],
    ['pairs', [['CONTENT-TYPE', 'application/json; charset=utf-8']] as [string, string][]],
  ])('a text body with its content type (given as %s) answers the same as a string body would', async (_form, headers) => {
    const asBytes = await received(new ByteResponse(json, { status: 200, headers }));
    expect(asBytes).toEqual(await received(new Response(json, { status: 200, headers })));
    expect(asBytes).toEqual({
      status: 200,
      contentType: 'application/json; charset=utf-8',
      contentLength: String(Buffer.byteLength(json)),
      body: Buffer.from(json).toString('hex'),
    });
  });

  test('holds such a body as bytes, not as the string', () => {
    const response = new ByteResponse(json, { headers: { 'content-type': 'application/json' } });
    expect(Buffer.isBuffer((response as unknown as { bodyInit: unknown }).bodyInit)).toBe(true);
  });

  test('a text body without a content type stays text/plain, as a string body is', async () => {
    expect(await received(new ByteResponse('alive', { status: 200 }))).toEqual({
      status: 200,
      contentType: 'text/plain;charset=UTF-8',
      contentLength: '5',
      body: Buffer.from('alive').toString('hex'),
    });
  });

  test('no body, and a Buffer body, are passed on as they are', async () => {
    expect(await received(new ByteResponse(null, { status: 406 }))).toEqual({
      status: 406,
      contentType: null,
      contentLength: null,
      body: '',
    });
    expect(await received(new ByteResponse(Buffer.from('ab'), { headers: { 'content-type': 'text/html' } }))).toEqual({
      status: 200,
      contentType: 'text/html',
      contentLength: '2',
      body: '6162',
    });
  });
});
