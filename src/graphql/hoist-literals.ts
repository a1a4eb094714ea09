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
 * The shape (the client's text with each literal replaced by its variable and each default by
 * `null`, and the hoisted variables' definitions) is the compile key: `ticker: "ordi"` and
 * `ticker: "pepe"` share one compiled plan, and the values travel as variables. Equal shapes parse
 * to equal hoisted documents.
 *
 * A hoisted value is what a client would send as the variable (the literal's JSON value); it is
 * used only when graphql-js coerces it, as that variable, to exactly what it makes of the literal.
 * Anything else (an unknown field or argument, a custom scalar holding variables, a literal whose
 * coercion differs) hoists nothing: the document runs on graphql-js. One walk, each node once.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  coerceInputValue,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  print,
  GraphQLBoolean,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLString,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  valueFromAST,
  valueFromASTUntyped,
  type ArgumentNode,
  type DirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type Location,
  type NameNode,
  type NullValueNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type TypeNode,
  type ValueNode,
  type VariableDefinitionNode,
  type VariableNode,
} from 'graphql';

export interface HoistedDocument {
  /** The operation (the only one kept) and the document's fragments, every literal argument a variable. */
  document: DocumentNode;
  /** The compile key: the same for documents that differ only in their literals and defaults. */
  shape: string;
  /** The hoisted variables' values, as a client would send them; they win over the client's variables. */
  values: Record<string, unknown>;
}

/** Hoisted variables are named with this prefix (lengthened with `_` until no variable of the document starts with it) and a number. */
const PREFIX = '__literal';
const NULL_VALUE: NullValueNode = Object.freeze({ kind: Kind.NULL });

/** Thrown inside the walk: the document keeps its literals and runs on graphql-js. */
class Unhoistable extends Error {}

/** The operation's document with its literals hoisted, or undefined where that cannot keep graphql-js's meaning. */
export function hoistLiterals(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): HoistedDocument | undefined {
  const operation = operationOf(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return undefined;

  const used = new Set<string>();
  // Hoisted variables, named once every variable of the document is known.
  const hoisted: Array<{
    name: { kind: Kind.NAME; value: string };
    value: unknown;
    type: GraphQLInputType;
    definition: VariableDefinitionNode;
    loc: Location | undefined;
  }> = [];
  // Defaults replaced by null: their text leaves the shape too.
  const defaults: Array<Location | undefined> = [];

  const fail = (): never => {
    throw new Unhoistable();
  };

  /** A variable standing for `literal` (a value holding no variable) in a position of `type`. */
  const hoist = (literal: ValueNode, type: GraphQLInputType): VariableNode => {
    const value = valueFromASTUntyped(literal);
    if (!coercesAlike(literal, value, type)) fail();
    const name: { kind: Kind.NAME; value: string } = { kind: Kind.NAME, value: '' };
    const variable: VariableNode = { kind: Kind.VARIABLE, name };
    hoisted.push({ name, value, type, definition: { kind: Kind.VARIABLE_DEFINITION, variable, type: typeNode(type) }, loc: literal.loc });
    return variable;
  };

  /**
   * `value` with each of its parts that holds no variable made a variable of its position's type;
   * undefined when it holds no variable at all (the caller hoists it whole).
   */
  const rewrite = (value: ValueNode, type: GraphQLInputType | undefined): ValueNode | undefined => {
    if (value.kind === Kind.VARIABLE) {
      used.add(value.name.value);
      return value;
    }
    if (value.kind === Kind.LIST) {
      const list = type && getNullableType(type);
      const itemType = list && isListType(list) ? (list.ofType as GraphQLInputType) : undefined;
      const items = value.values.map((item) => rewrite(item, itemType));
      if (items.every((item) => item === undefined)) return undefined;
      if (!itemType) return fail();
      return { ...value, values: items.map((item, i) => item ?? hoist(value.values[i]!, itemType)) };
    }
    if (value.kind === Kind.OBJECT) {
      // A single object where a list goes is coerced as a list of it.
      let object = type && getNullableType(type);
      while (object && isListType(object)) object = getNullableType(object.ofType);
      const fieldTypes = object && isInputObjectType(object) ? object.getFields() : undefined;
      const parts = value.fields.map((field) => rewrite(field.value, fieldTypes?.[field.name.value]?.type));
      if (parts.every((part) => part === undefined)) return undefined;
      return {
        ...value,
        fields: value.fields.map((field, i) => {
          const fieldType = fieldTypes?.[field.name.value]?.type ?? fail();
          return { ...field, value: parts[i] ?? hoist(field.value, fieldType) };
        }),
      };
    }
    return undefined;
  };

  const withArguments = (nodes: readonly ArgumentNode[] | undefined, definitions: readonly GraphQLArgument[]): ArgumentNode[] | undefined =>
    nodes?.map((node) => {
      if (node.value.kind === Kind.VARIABLE) {
        used.add(node.value.name.value);
        return node;
      }
      const type = definitions.find((definition) => definition.name === node.name.value)?.type ?? fail();
      return { ...node, value: rewrite(node.value, type) ?? hoist(node.value, type) };
    });

  const withDirectives = (nodes: readonly DirectiveNode[] | undefined): DirectiveNode[] | undefined =>
    nodes?.map((node) => {
      if (!node.arguments?.length) return node;
      const directive = schema.getDirective(node.name.value) ?? fail();
      return { ...node, arguments: withArguments(node.arguments, directive.args) };
    });

  const fieldOf = (parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined => {
    if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
    if (parent === schema.getQueryType() && name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (parent === schema.getQueryType() && name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
    return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
  };

  const compositeType = (name: string): GraphQLCompositeType => {
    const type = schema.getType(name);
    return isCompositeType(type) ? type : fail();
  };

  // Every field node is copied: graphql-jit writes what it works out about @skip/@include onto the
  // field nodes it compiles, adding to what an earlier compilation wrote.
  const withSelections = (set: SelectionSetNode, parent: GraphQLCompositeType): SelectionSetNode => ({
    ...set,
    selections: set.selections.map((selection) => {
      if (selection.kind === Kind.FRAGMENT_SPREAD) return { ...selection, directives: withDirectives(selection.directives) };
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? compositeType(selection.typeCondition.name.value) : parent;
        return {
          ...selection,
          directives: withDirectives(selection.directives),
          selectionSet: withSelections(selection.selectionSet, type),
        };
      }
      const field = fieldOf(parent, selection.name.value) ?? fail();
      const type = getNamedType(field.type);
      return {
        ...selection,
        arguments: withArguments(selection.arguments, field.args),
        directives: withDirectives(selection.directives),
        selectionSet: selection.selectionSet && withSelections(selection.selectionSet, isCompositeType(type) ? type : fail()),
      };
    }),
  });

  let op: OperationDefinitionNode;
  const fragments: FragmentDefinitionNode[] = [];
  try {
    const variableDefinitions = operation.variableDefinitions?.map((definition) => {
      used.add(definition.variable.name.value);
      // Their arguments are constants, not to be hoisted; none is valid in satgate's schema.
      if (definition.directives?.some((directive) => directive.arguments?.length)) fail();
      if (!definition.defaultValue) return definition;
      defaults.push(definition.defaultValue.loc);
      return { ...definition, defaultValue: NULL_VALUE };
    });
    op = {
      ...operation,
      variableDefinitions,
      directives: withDirectives(operation.directives),
      selectionSet: withSelections(operation.selectionSet, root),
    };
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
      const type = compositeType(definition.typeCondition.name.value);
      fragments.push({
        ...definition,
        directives: withDirectives(definition.directives),
        selectionSet: withSelections(definition.selectionSet, type),
      });
    }
  } catch (error) {
    if (error instanceof Unhoistable) return undefined;
    throw error;
  }

  let prefix = PREFIX;
  while ([...used].some((name) => name.startsWith(prefix))) prefix += '_';
  const values: Record<string, unknown> = {};
  hoisted.forEach(({ name, value }, i) => {
    name.value = `${prefix}${i}`;
    values[name.value] = value;
  });
  const hoistedDocument: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      { ...op, variableDefinitions: [...(op.variableDefinitions ?? []), ...hoisted.map(({ definition }) => definition)] },
      ...fragments,
    ],
  };
  return {
    document: hoistedDocument,
    shape: shapeOf(document, operation, hoisted, defaults) ?? `print\n${print(hoistedDocument)}`,
    values,
  };
}

/**
 * The client's text with each hoisted literal replaced by its variable and each default by `null`,
 * after the operation's name and the hoisted definitions: it parses to the hoisted document, so two
 * texts with one shape compile alike. Undefined without locations (then the print is the shape).
 */
function shapeOf(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  hoisted: ReadonlyArray<{ name: NameNode; type: GraphQLInputType; loc: Location | undefined }>,
  defaults: ReadonlyArray<Location | undefined>,
): string | undefined {
  const source = document.loc?.source.body;
  if (source === undefined) return undefined;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const { name, loc } of hoisted) {
    if (!loc) return undefined;
    edits.push({ start: loc.start, end: loc.end, text: `$${name.value}` });
  }
  for (const loc of defaults) {
    if (!loc) return undefined;
    edits.push({ start: loc.start, end: loc.end, text: 'null' });
  }
  edits.sort((a, b) => a.start - b.start);
  let text = '';
  let at = 0;
  for (const { start, end, text: replacement } of edits) {
    text += source.slice(at, start) + replacement;
    at = end;
  }
  const definitions = hoisted.map(({ name, type }) => `$${name.value}: ${String(type)}`).join(', ');
  // Names and type names hold no line break: the first two lines cannot run into the text.
  return `${operation.name?.value ?? ''}\n${definitions}\n${text}${source.slice(at)}`;
}

/** The operation a request runs: the named one, or the only one. */
export function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operationName) return operations.length === 1 ? operations[0] : undefined;
  return operations.find((operation) => operation.name?.value === operationName);
}

/** The schema's few input types, each as written in a variable definition (the nodes are never changed). */
const typeNodes = new WeakMap<GraphQLInputType, TypeNode>();

function typeNode(type: GraphQLInputType): TypeNode {
  let node = typeNodes.get(type);
  if (!node) {
    if (isNonNullType(type))
      node = { kind: Kind.NON_NULL_TYPE, type: typeNode(type.ofType) as Exclude<TypeNode, { kind: Kind.NON_NULL_TYPE }> };
    else if (isListType(type)) node = { kind: Kind.LIST_TYPE, type: typeNode(type.ofType as GraphQLInputType) };
    else node = { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: type.name } };
    typeNodes.set(type, node);
  }
  return node;
}

/** Whether graphql-js coerces `value`, sent as a variable of `type`, to what it makes of `literal`. */
export function coercesAlike(literal: ValueNode, value: unknown, type: GraphQLInputType): boolean {
  // The common cases, settled without graphql-js: a String or Boolean literal where one goes is its
  // own JSON value, and so is an Int literal within 32 bits where an Int goes.
  const named = type instanceof GraphQLNonNull ? type.ofType : type;
  if (named === GraphQLString && literal.kind === Kind.STRING) return true;
  if (named === GraphQLBoolean && literal.kind === Kind.BOOLEAN) return true;
  if (named === GraphQLInt && literal.kind === Kind.INT) return typeof value === 'number' && value <= 2 ** 31 - 1 && value >= -(2 ** 31);
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
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameValue(a[key], b[key]))
    );
  }
  return isDeepStrictEqual(a, b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === null || prototype === Object.prototype;
}
