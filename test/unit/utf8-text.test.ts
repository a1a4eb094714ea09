/** An upstream page's bytes as text (src/lib/utf8-text.ts): `buffer.toString('utf8')`'s string, whichever decoder makes it. */
import { describe, expect, test } from 'vitest';
import { utf8Text } from '../../src/lib/utf8-text.js';

const long = (text: string) => text.repeat(Math.ceil(2048 / text.length));
const BYTES: Record<string, Buffer> = {
  short: Buffer.from('{"spaced_name":"A•B"}'),
  ascii: Buffer.from(long('{"name":"RUNE","amount":"1000.5"},')),
  'spaced names and symbols': Buffer.from(long('{"spaced_name":"PIZZA•CHAIN•HALVING","symbol":"ᚠ"},')),
  'four-byte characters': Buffer.from(long('{"symbol":"🍕"},')),
  'a byte-order mark': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(long('"•",'))]),
  'an invalid byte': Buffer.concat([Buffer.from(long('"•",')), Buffer.from([0xff])]),
  'a truncated sequence': Buffer.concat([Buffer.from(long('"•",')), Buffer.from([0xe2, 0x80])]),
  'an encoded surrogate': Buffer.concat([Buffer.from(long('"•",')), Buffer.from([0xed, 0xa0, 0x80])]),
  'an overlong encoding': Buffer.concat([Buffer.from(long('"•",')), Buffer.from([0xc0, 0xaf])]),
};

describe('utf8Text', () => {
  test("every page reads as buffer.toString('utf8') reads it", () => {
    const differing = Object.entries(BYTES)
      .filter(([, bytes]) => utf8Text(bytes) !== bytes.toString('utf8'))
      .map(([name]) => name);
    expect(differing).toEqual([]);
  });
});
