/**
 * Hoists every literal argument value of an operation into a variable, so no text of the client's
 * document is ever written into the code graphql-jit generates.
 *
 * graphql-jit 0.8.9 writes literal arguments into its generated source with JSON.stringify and then
 * rewrites any string that starts with one of its markers (`__MAGIC_DATE__…`, `__MAGIC_NAN__…`,
 * `__MAGIC_PLUS_INFINITY__…`, `__MAGIC_MINUS_INFINITY__…`) into code: a ticker such as
 * `"__MAGIC_DATE__…(<js>)"` ran `<js>` in the gateway. Variables are coerced at run time and never
 * written into the source, so in the document handed to the compiler:
 * - every argument value (of fields and of directives, @skip/@include included) is a variable, or a
 *   list or input object whose leaves are all variables;
 * - every variable's default value is `null` (the caller fills omitted variables in with their
 *   defaults before it runs, so the compiler's copy of a default is never used);
 * - what is left of the client's text are names, which the lexer limits to `[_A-Za-z][_0-9A-Za-z]*`.
 * Its field nodes are its own (graphql-jit writes onto them); the rest is shared with the client's
 * document, locations included.
 *
 * The document's shape (its print, values left out) is then the compile key: `ticker: "ordi"` and
 * `ticker: "pepe"` share one compiled plan, and the values travel as variables.
 *
 * A hoisted value is what a client would send as the variable (the literal's JSON value); it is
 * used only when graphql-js coerces it, as that variable, to exactly what it makes of the literal.
 * Anything else (an unknown argument, a custom scalar holding variables, a literal whose coercion
 * differs) hoists nothing: the document runs on graphql-js.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  coerceInputValue,
  getNullableType,
  isInputObjectType,
  isListType,
  Kind,
  parseType,
  print,
  TypeInfo,
  valueFromAST,
  valueFromASTUntyped,
  visit,
  visitWithTypeInfo,
  BREAK,
  type ArgumentNode,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type NameNode,
  type NullValueNode,
  type OperationDefinitionNode,
  type ValueNode,
  type VariableDefinitionNode,
  type VariableNode,
} from 'graphql';

export interface HoistedDocument {
  /** The operation (the only one kept) and the document's fragments, every literal argument a variable. */
  document: DocumentNode;
  /** The printed document: the same for documents that differ only in literals, defaults, spacing and comments. */
  shape: string;
  /** The hoisted variables' values, as a client would send them; they win over the client's variables. */
  values: Record<string, unknown>;
}

/** Hoisted variables are named with this prefix (lengthened with `_` until no variable of the document starts with it) and a number. */
const PREFIX = '__literal';
const NULL_VALUE: NullValueNode = Object.freeze({ kind: Kind.NULL });

/** The operation's document with its literals hoisted, or undefined where that cannot keep graphql-js's meaning. */
export function hoistLiterals(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): HoistedDocument | undefined {
  const operation = operationOf(document, operationName);
  if (!operation) return undefined;
  const kept: DefinitionNode[] = [operation, ...document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)];

  const typeInfo = new TypeInfo(schema);
  const used = new Set<string>();
  // Hoisted variables, named once every name of the document is known.
  const hoisted: Array<{ name: { value: string }; value: unknown; definition: VariableDefinitionNode }> = [];
  let failed = false;

  /** A variable standing for `literal` (a value holding no variable) in a position of `type`. */
  const hoist = (literal: ValueNode, type: GraphQLInputType): VariableNode | undefined => {
    const value = valueFromASTUntyped(literal);
    if (!coercesAlike(literal, value, type)) return undefined;
    const name: NameNode = { kind: Kind.NAME, value: '' };
    const variable: VariableNode = { kind: Kind.VARIABLE, name };
    const definition: VariableDefinitionNode = { kind: Kind.VARIABLE_DEFINITION, variable, type: parseType(String(type), { noLocation: true }) };
    hoisted.push({ name, value, definition });
    return variable;
  };

  /**
   * `value` with each of its parts that holds no variable made a variable of its position's type;
   * undefined when it holds no variable at all (the caller hoists it whole). Each node is seen once.
   */
  const rewrite = (value: ValueNode, type: GraphQLInputType | undefined): ValueNode | undefined => {
    if (value.kind === Kind.VARIABLE) return value;
    if (value.kind === Kind.LIST) {
      const list = type && getNullableType(type);
      const itemType = list && isListType(list) ? (list.ofType as GraphQLInputType) : undefined;
      const items = value.values.map((item) => rewrite(item, itemType));
      if (items.every((item) => item === undefined)) return undefined;
      if (!itemType) return fail();
      const values: ValueNode[] = [];
      for (let i = 0; i < items.length; i++) {
        const item = items[i] ?? hoist(value.values[i]!, itemType);
        if (!item) return fail();
        values.push(item);
      }
      return { ...value, values };
    }
    if (value.kind === Kind.OBJECT) {
      // A single object where a list goes is coerced as a list of it.
      let object = type && getNullableType(type);
      while (object && isListType(object)) object = getNullableType(object.ofType);
      const fieldTypes = object && isInputObjectType(object) ? object.getFields() : undefined;
      const parts = value.fields.map((field) => rewrite(field.value, fieldTypes?.[field.name.value]?.type));
      if (parts.every((part) => part === undefined)) return undefined;
      if (!fieldTypes) return fail();
      const fields = [];
      for (let i = 0; i < parts.length; i++) {
        const field = value.fields[i]!;
        const fieldType = fieldTypes[field.name.value]?.type;
        const part = parts[i] ?? (fieldType && hoist(field.value, fieldType));
        if (!part) return fail();
        fields.push({ ...field, value: part });
      }
      return { ...value, fields };
    }
    return undefined;
  };

  const fail = (): undefined => {
    failed = true;
    return undefined;
  };

  const rewritten = visit(
    { kind: Kind.DOCUMENT, definitions: kept },
    visitWithTypeInfo(typeInfo, {
      // graphql-jit writes what it works out about @skip/@include onto the field nodes it compiles,
      // adding to what an earlier compilation wrote: each hoisted document has field nodes of its own.
      Field(node) {
        return { ...node };
      },
      Variable(node) {
        used.add(node.name.value);
      },
      VariableDefinition(node) {
        // The caller fills omitted variables in with their defaults: the compiler's copy is never used.
        if (node.defaultValue) return { ...node, defaultValue: NULL_VALUE };
        return undefined;
      },
      Argument(node): ArgumentNode | typeof BREAK | undefined {
        if (node.value.kind === Kind.VARIABLE) return undefined;
        const type = typeInfo.getInputType();
        const value = type ? (rewrite(node.value, type) ?? (failed ? undefined : hoist(node.value, type))) : undefined;
        if (!value || failed) {
          failed = true;
          return BREAK;
        }
        return { ...node, value };
      },
    }),
  );
  if (failed) return undefined;

  let prefix = PREFIX;
  while ([...used].some((name) => name.startsWith(prefix))) prefix += '_';
  const values: Record<string, unknown> = {};
  hoisted.forEach(({ name, value }, i) => {
    name.value = `${prefix}${i}`;
    values[name.value] = value;
  });
  const [op, ...fragments] = rewritten.definitions as [OperationDefinitionNode, ...DefinitionNode[]];
  const withVariables: OperationDefinitionNode = {
    ...op,
    variableDefinitions: [...(op.variableDefinitions ?? []), ...hoisted.map(({ definition }) => definition)],
  };
  const hoistedDocument: DocumentNode = { kind: Kind.DOCUMENT, definitions: [withVariables, ...fragments] };
  return { document: hoistedDocument, shape: print(hoistedDocument), values };
}

/** The operation a request runs: the named one, or the only one. */
export function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operationName) return operations.length === 1 ? operations[0] : undefined;
  return operations.find((operation) => operation.name?.value === operationName);
}

/** Whether graphql-js coerces `value`, sent as a variable of `type`, to what it makes of `literal`. */
function coercesAlike(literal: ValueNode, value: unknown, type: GraphQLInputType): boolean {
  const fromLiteral = valueFromAST(literal, type);
  if (fromLiteral === undefined) return false;
  try {
    return sameValue(coerceInputValue(value, type), fromLiteral);
  } catch {
    return false;
  }
}

/** Deep equality; input objects compare by their own keys (graphql-js builds them with and without a prototype). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameValue(a[key], b[key]));
  }
  return isDeepStrictEqual(a, b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === null || prototype === Object.prototype;
}
