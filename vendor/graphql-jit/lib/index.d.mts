export { k as CompiledQuery, e as CompilerOptions, l as compileQuery, m as isCompiledQuery } from './index-CeluTkd4.mjs';
export { FieldExpansion, GraphQLJitResolveInfo, LeafField, ResolveInfoEnricherInput, TypeExpansion, fieldExpansionEnricher, isLeafField } from './resolve-info.mjs';
import '@graphql-typed-document-node/core';
import 'graphql';
import './types.mjs';
import './error.mjs';
import './variables.mjs';
