export { J as JitRuntime, j as jitRuntime } from './index-CeluTkd4.mjs';
import '@graphql-typed-document-node/core';
import 'graphql';
import './types.mjs';
import './error.mjs';
import './resolve-info.mjs';
import './variables.mjs';
