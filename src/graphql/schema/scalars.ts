import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { decimal } from '../../upstream/shapes.js';
import { builder } from './builder.js';

const BLOCK_HEIGHT = /^[0-9]+$/;
/** The upstream's hash pattern: 64 hex characters, the first eight zeros. */
const BLOCK_HASH = /^[0]{8}[a-fA-F0-9]{56}$/;

/**
 * Thrown from parseValue/parseLiteral: graphql-js reports it as it is, so a literal's error names
 * its node (its `locations`, as the spec asks of an error at a point of the document).
 */
function invalid(message: string, node?: ValueNode): GraphQLError {
  return new GraphQLError(message, { nodes: node, extensions: { code: 'BAD_USER_INPUT' } });
}

builder.scalarType('Decimal', {
  description: 'An exact decimal number as a JSON string, e.g. "21000000.000000000000000000". Never rounded.',
  serialize: (value) => {
    if (decimal(value)) return value;
    throw new GraphQLError('Decimal cannot represent a value that is not a decimal string');
  },
  parseValue: (value) => {
    if (decimal(value)) return value;
    throw invalid('Decimal must be a string of digits with an optional fraction, e.g. "1000.5"');
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.STRING && decimal(node.value)) return node.value;
    throw invalid('Decimal must be a string of digits with an optional fraction, e.g. "1000.5"', node);
  },
});

builder.scalarType('Timestamp', {
  description: 'Unix epoch milliseconds as a JSON number. Upstream values in seconds (runes) are converted.',
  serialize: (value) => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    throw new GraphQLError('Timestamp cannot represent a value that is not an integer');
  },
  parseValue: (value) => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    throw invalid('Timestamp must be an integer number of milliseconds');
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.INT && Number.isSafeInteger(Number(node.value))) return Number(node.value);
    throw invalid('Timestamp must be an integer number of milliseconds', node);
  },
});

const BLOCK_ID_RULE =
  'BlockId must be a block height (an Int >= 0 or a string of digits) or a block hash (64 hex characters starting with eight zeros)';

/**
 * Normalises a BlockId to the upstream's `block` query value, or throws BAD_USER_INPUT. Called by
 * the resolver rather than by the scalar, so a bad block fails its own field, not the whole query.
 */
export function parseBlockId(value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && (BLOCK_HEIGHT.test(value) || BLOCK_HASH.test(value))) return value;
  throw invalid(BLOCK_ID_RULE);
}

builder.scalarType('BlockId', {
  description:
    'A block: a height (Int >= 0, or a String of digits) or a block hash (String: 64 hex characters, the first eight of them zeros, as the upstream requires).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node) => {
    if (node.kind === Kind.INT) return Number(node.value);
    // A Float literal (`1e3`, `775700.0`) is its text, which parseBlockId refuses, as the upstream
    // refuses `block=1e3`: its field fails alone.
    if (node.kind === Kind.FLOAT || node.kind === Kind.STRING || node.kind === Kind.BOOLEAN) return node.value;
    throw invalid(BLOCK_ID_RULE, node);
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function literal(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
    switch (node.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return node.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(node.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return node.values.map((item) => literal(item, variables));
      case Kind.OBJECT:
        return Object.fromEntries(node.fields.map((field) => [field.name.value, literal(field.value, variables)]));
      case Kind.VARIABLE:
        return variables?.[node.name.value];
      default:
        return undefined;
    }
  },
});
