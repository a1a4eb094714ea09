// Variables as the executor comparisons send them (test/executor-pair.ts): the compiled path fills in
// defaults and reads variables itself, where graphql-js coerces both.

/**
 * A variable's declared type, and a field that takes it at §. Some fields carry a literal too (it is
 * hoisted into the variables), some none.
 */
export const VARIABLE_USES: Array<[string, string]> = [
  ['String!', 'brc20Token(ticker: §) { token { ticker } }'],
  ['String', 'brc20Token(ticker: §) { token { ticker } }'],
  ['[String!]!', 'brc20Tokens(tickers: §) { token { ticker } }'],
  ['[String]', 'brc20Tokens(tickers: §) { token { ticker } }'],
  ['BlockId!', 'transfers(block: §, limit: 1) { total results { id } }'],
  ['BlockId', 'transfersConnection(block: §, first: 1) { totalCount }'],
  ['Int!', 'etchings(limit: §) { limit offset }'],
  ['Int', 'etchings(offset: §, limit: 1) { offset results { id } }'],
  ['Int', 'etchings(limit: §) { limit }'],
  ['Float', 'etchings(limit: §) { limit }'],
  ['ID!', 'node(id: §) { id }'],
  ['[ID!]!', 'nodes(ids: §) { id }'],
  ['String', 'etchingsConnection(after: §) { totalCount }'],
  ['Boolean!', 'status @include(if: §) { status }'],
];
/** Default literals of every kind, many of the wrong type for where they go. */
export const DEFAULT_LITERALS = [
  ...['0', '1', '-1', '20', '61', '775700', '775700.0', '7.757e5', '1e3', '1.5', '2147483648', '9007199254740993'],
  ...['"ordi"', '"ORDI"', '"775700"', '"""ordi"""', '"UnVuZUV0Y2hpbmc6ODQ3MDQxOjky"', '""'],
  ...['null', 'true', 'ORDI', '[]', '["ordi"]', '["ordi", null]', '[1]', '[[1]]', '{}', '{ a: 1 }', '$v'],
];
/** Keys a variables object may carry besides the declared variables': some name the prototype's own properties. */
export const ODD_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'v2'];
