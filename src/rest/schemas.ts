/**
 * The upstreams' querystring schemas (hirosystems/bitcoin-indexer api/ordinals and api/runes
 * src/api/schemas.ts), validated with Fastify's own Ajv options and error formatter, so that a bad
 * request is answered with the upstream's exact 400 body without ever reaching the upstream.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import AjvModule, { type ErrorObject } from 'ajv';

const Ajv = AjvModule.default ?? AjvModule;

const OffsetParam = Type.Integer({ minimum: 0, title: 'Offset' });
const LimitParam = Type.Integer({ minimum: 1, maximum: 60, title: 'Limit' });

export const PageQuerySchema = Type.Object({
  offset: Type.Optional(OffsetParam),
  limit: Type.Optional(LimitParam),
});

export const TransfersQuerySchema = Type.Object({
  block: Type.Union([Type.RegEx(/^[0]{8}[a-fA-F0-9]{56}$/, { title: 'Block hash' }), Type.RegEx(/^[0-9]+$/, { title: 'Block height' })]),
  offset: Type.Optional(OffsetParam),
  limit: Type.Optional(LimitParam),
});

/**
 * The single-etching route's parameter (api/runes RuneSchema). satgate serves no single etching,
 * but `/runes/v1/etchings/` reaches that route upstream with an empty id, which this refuses.
 */
export const EtchingParamsSchema = Type.Object({
  etching: Type.Union([
    Type.RegEx(/^[0-9]+:[0-9]+$/, { title: 'Rune ID' }),
    Type.RegEx(/^[0-9]+$/, { title: 'Rune number' }),
    Type.RegEx(/^[A-Z]+$/, { title: 'Rune name' }),
    Type.RegEx(/^[A-Za-z]+(•[A-Za-z]+)+$/, { title: 'Rune name with spacers' }),
  ]),
});

export type PageQueryInput = Static<typeof PageQuerySchema>;
export type TransfersQueryInput = Static<typeof TransfersQuerySchema>;

// @fastify/ajv-compiler's defaults, which decide coercion ("5" → 5, repeated keys → arrays).
const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false });

export type Validator<T> = (query: Record<string, unknown>) => { value: T } | { message: string };

/** Compiles a querystring (or params) schema into a validator that answers Fastify's 400 message on failure. */
export function querystringValidator<S extends TSchema>(
  schema: S,
  dataVar: 'querystring' | 'params' = 'querystring',
): Validator<Static<S>> {
  const validate = ajv.compile(schema);
  return (query) => {
    // A spread: an own `__proto__` key stays a key (Object.assign would set the prototype).
    const value = { ...query };
    if (validate(value)) return { value: value as Static<S> };
    return { message: formatErrors(validate.errors ?? [], dataVar) };
  };
}

/** fastify/lib/context.js defaultSchemaErrorFormatter. */
function formatErrors(errors: ErrorObject[], dataVar: string): string {
  return errors.map((e) => `${dataVar}${e.instancePath || ''} ${e.message}`).join(', ');
}
