import '@graphql-typed-document-node/core';
export { C as CompilationContext, k as CompiledQuery, e as CompilerOptions, i as ExecutionContext, G as GLOBAL_VARIABLES_NAME, q as buildCompilationContext, l as compileQuery, n as createBoundQuery, s as isAsyncIterable, m as isCompiledQuery, o as isPromise, p as isPromiseInliner } from './index-CeluTkd4.mjs';
import 'graphql';
import './error.mjs';
import './resolve-info.mjs';
import './types.mjs';
import './variables.mjs';
