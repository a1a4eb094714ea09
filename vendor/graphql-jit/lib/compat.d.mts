import 'graphql';
import './types.mjs';
export { E as ExecutionContext, c as coerceInputLiteral, f as formatError, b as getDefaultValue, a as getGraphQLErrorOptions, g as getOperationRootType, h as hasDefaultValue, r as resolveFieldDef } from './index-CeluTkd4.mjs';
import '@graphql-typed-document-node/core';
import './error.mjs';
import './resolve-info.mjs';
import './variables.mjs';
