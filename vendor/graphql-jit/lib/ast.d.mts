import 'graphql';
export { A as Arguments, F as FieldsAndNodes, t as JitFieldNode, O as ObjectPath, z as addPath, u as collectFields, v as collectSubfields, y as computeLocations, B as flattenPath, w as getArgumentDefs, H as joinSkipIncludePath, r as resolveFieldDef, D as serializeObjectPathForSkipInclude, x as valueFromAST } from './index-CeluTkd4.mjs';
import '@graphql-typed-document-node/core';
import './types.mjs';
import './error.mjs';
import './resolve-info.mjs';
import './variables.mjs';
