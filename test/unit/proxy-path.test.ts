import { expect, test } from 'vitest';
import { UnsafePathError } from '../../src/errors.js';
import { proxyPath, segment } from '../../src/upstream/paths.js';

test.each([
  ['rest/chaininfo.json', { path: 'rest/chaininfo.json', query: '' }],
  ['/rest/chaininfo.json', { path: 'rest/chaininfo.json', query: '' }],
  ['rest/headers/000abc.json?count=5', { path: 'rest/headers/000abc.json', query: 'count=5' }],
  ['rest/a b/x', { path: 'rest/a%20b/x', query: '' }],
  ['rest/a%20b', { path: 'rest/a%20b', query: '' }],
  ['', { path: '', query: '' }],
  ['wallet/', { path: 'wallet/', query: '' }],
])('a safe path stays below the node root: %j', (input, expected) => {
  expect(proxyPath(input)).toEqual(expected);
});

test.each([
  ['x?y=%20z', 'y=%20z'],
  ['x?y=+z', 'y=+z'],
  ['x?a=1&a=2&b&c=', 'a=1&a=2&b&c='],
  ['x?a=%2F..%2F&b=../..', 'a=%2F..%2F&b=../..'],
  ['x?a=%zz&b=100%', 'a=%zz&b=100%'],
  ['x?q=a?b;c=d', 'q=a?b;c=d'],
  ['x?j={"k":[1,2]}|`^\'<>', 'j={"k":[1,2]}|`^\'<>'],
  ['x?A=%c3%a9', 'A=%c3%a9'],
])('the query string is forwarded byte for byte: %j', (input, query) => {
  expect(proxyPath(input)).toEqual({ path: 'x', query });
});

test.each([
  ['x?a=1&b=two words', 'a=1&b=two%20words'],
  ['x?q=é🐸', 'q=%C3%A9%F0%9F%90%B8'],
])('only what cannot travel in a request target is percent-encoded (as UTF-8): %j', (input, query) => {
  expect(proxyPath(input)).toEqual({ path: 'x', query });
});

test.each([
  '..',
  '../chainhooks',
  'rest/../../chainhooks/x',
  'rest/%2e%2e/x',
  '%2E%2E/%2e%2e/chainhooks',
  '.%2e/x',
  'rest/%252e%252e/x',
  'rest/%2fchainhooks',
  'rest%2F..%2Fx',
  'rest\\..\\x',
  '%5c..%5cx',
  './x',
  '//evil.example/x',
  'http://evil.example/x',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'rest//x',
  'rest/%zz',
  'rest/\u0000',
  'rest/x#frag',
  'x?a=1#frag',
  'x?a=\r\nx-injected: 1',
  'x?a=\u0000',
  'x?a=\u007f',
  'x?a=\\',
  'x?a=\ud800',
  'rest/\udc00',
])('an unsafe path is refused: %j', (input) => {
  expect(() => proxyPath(input)).toThrow(UnsafePathError);
});

test('segment() encodes everything that could change a route, and refuses dot segments', () => {
  expect(['x%y', 'a b', 'or/di', '?q', '#h', '...', '🐸'].map((value) => segment(value))).toEqual([
    'x%25y',
    'a%20b',
    'or%2Fdi',
    '%3Fq',
    '%23h',
    '...',
    '%F0%9F%90%B8',
  ]);
  expect(() => segment('..')).toThrow(UnsafePathError);
  expect(() => segment('.')).toThrow(UnsafePathError);
});
