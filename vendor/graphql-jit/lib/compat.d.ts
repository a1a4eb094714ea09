import 'graphql';
import './types.js';
export { E as ExecutionContext, c as coerceInputLiteral, f as formatError, b as getDefaultValue, a as getGraphQLErrorOptions, g as getOperationRootType, h as hasDefaultValue, r as resolveFieldDef } from './index-mKv2zpdA.js';
import '@graphql-typed-document-node/core';
import './error.js';
import './resolve-info.js';
import './variables.js';
