/** A string's UTF-8 bytes written in one walk (src/lib/utf8-bytes.ts) are `Buffer.from`'s, in buffers of their own. */
import { describe, expect, test } from 'vitest';
import { utf8Bytes } from '../../src/lib/utf8-bytes.js';

const TEXTS = {
  empty: '',
  ascii: '{"data":{"status":"ready"}}',
  'two-byte': '{"name":"PIZZA•CHAIN•HALVING","symbol":"ᚠ"}',
  'surrogate pairs': '🍕'.repeat(1000),
  'lone surrogates': 'a\ud800b\udc00c',
  'latin-1 range': 'é\u0080ÿ',
  'a page of rune names': '{"spaced_name":"UNCOMMON•GOODS"},'.repeat(3000),
  'past the scratch (128 Ki units)': '•'.repeat(128 * 1024 + 1),
  'every unit 3 bytes, at the scratch': '•'.repeat(128 * 1024),
};

describe('utf8Bytes', () => {
  test("every text's bytes are Buffer.from's", () => {
    const differing = Object.entries(TEXTS)
      .filter(([, text]) => !utf8Bytes(text).equals(Buffer.from(text)))
      .map(([name]) => name);
    expect(differing).toEqual([]);
  });

  test('each answer owns its bytes: a later text does not change an earlier one', () => {
    const first = utf8Bytes(TEXTS['two-byte']);
    utf8Bytes(TEXTS['a page of rune names']);
    expect(first.toString('utf8')).toBe(TEXTS['two-byte']);
    expect(first.buffer.byteLength).toBeLessThan(16 * 1024);
  });
});
