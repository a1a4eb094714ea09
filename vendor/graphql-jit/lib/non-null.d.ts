import 'graphql';
export { N as NullTrimmer, d as createNullTrimmer } from './index-mKv2zpdA.js';
import '@graphql-typed-document-node/core';
import './types.js';
import './error.js';
import './resolve-info.js';
import './variables.js';
