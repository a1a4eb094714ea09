export { k as CompiledQuery, e as CompilerOptions, l as compileQuery, m as isCompiledQuery } from './index-mKv2zpdA.js';
export { FieldExpansion, GraphQLJitResolveInfo, LeafField, ResolveInfoEnricherInput, TypeExpansion, fieldExpansionEnricher, isLeafField } from './resolve-info.js';
import '@graphql-typed-document-node/core';
import 'graphql';
import './types.js';
import './error.js';
import './variables.js';
