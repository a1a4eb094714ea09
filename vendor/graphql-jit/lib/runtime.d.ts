export { J as JitRuntime, j as jitRuntime } from './index-mKv2zpdA.js';
import '@graphql-typed-document-node/core';
import 'graphql';
import './types.js';
import './error.js';
import './resolve-info.js';
import './variables.js';
