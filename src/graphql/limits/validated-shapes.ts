/**
 * Validation shared by documents that differ only in their string literals. graphql-js validates
 * each new document text from scratch: some 30 rules, and a visitor per syntax kind for each, about
 * 50 KB of garbage and a few hundred microseconds a document. A client that writes a new ticker into
 * each document (a subscription per token, a cache-busting query) paid that every time.
 *
 * Whether a document is valid does not depend on what a string literal says where a `String` or
 * `ID` is expected: both accept any string, and the rules that compare literals (fields merged under
 * one response name, @defer/@stream labels) ask only whether two are equal. So the key here is the
 * document printed with each such literal replaced by a placeholder numbered by its distinct value
 * (equal literals, equal placeholders). A key whose document passed every rule stands for every
 * document with that key; anything else (a document with errors, literals of other types) is
 * validated as it is, so an error is always the document's own, with its own locations.
 */
import {
  GraphQLID,
  GraphQLString,
  getNamedType,
  Kind,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type StringValueNode,
  type ValidationRule,
} from 'graphql';
import { ByteLru } from '../../lib/byte-lru.js';

const ENTRY_BYTES = 160;

export function createValidatedShapes(maxBytes: number) {
  const valid = new ByteLru<true>(maxBytes, (key) => 2 * key.length + ENTRY_BYTES);

  /** The document's key, or undefined when it has no string literal to stand in for (it is its own key). */
  function keyOf(schema: GraphQLSchema, document: DocumentNode, rules: readonly ValidationRule[] | undefined): string | undefined {
    const placeholders = new Map<string, string>();
    const typeInfo = new TypeInfo(schema);
    const replaced = visit(
      document,
      visitWithTypeInfo(typeInfo, {
        StringValue(node): StringValueNode | undefined {
          const type = typeInfo.getInputType();
          const named = type && getNamedType(type);
          if (named !== GraphQLString && named !== GraphQLID) return undefined;
          let placeholder = placeholders.get(node.value);
          if (placeholder === undefined) placeholders.set(node.value, (placeholder = `s${placeholders.size}`));
          // A block string stays one: graphql-js compares arguments as printed, so `"x"` and `"""x"""`
          // conflict where `"x"` twice does not.
          return { kind: Kind.STRING, value: placeholder, block: node.block };
        },
      }),
    );
    if (placeholders.size === 0) return undefined;
    return `${rules?.map((rule) => rule.name).join(',') ?? ''}\n${print(replaced)}`;
  }

  return {
    /**
     * graphql-js's errors for `document` under `rules`, by `validate`; none, without running it,
     * when a document with the same key passed them.
     */
    validate<E>(
      schema: GraphQLSchema,
      document: DocumentNode,
      rules: readonly ValidationRule[] | undefined,
      validate: () => readonly E[],
    ): readonly E[] {
      const key = keyOf(schema, document, rules);
      if (key !== undefined && valid.get(key)) return [];
      const errors = validate();
      if (key !== undefined && errors.length === 0) valid.set(key, true);
      return errors;
    },
  };
}
