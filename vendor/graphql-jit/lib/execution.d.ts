import '@graphql-typed-document-node/core';
export { C as CompilationContext, k as CompiledQuery, e as CompilerOptions, i as ExecutionContext, G as GLOBAL_VARIABLES_NAME, q as buildCompilationContext, l as compileQuery, n as createBoundQuery, s as isAsyncIterable, m as isCompiledQuery, o as isPromise, p as isPromiseInliner } from './index-mKv2zpdA.js';
import 'graphql';
import './error.js';
import './resolve-info.js';
import './types.js';
import './variables.js';
