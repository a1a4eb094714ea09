import 'graphql';
export { N as NullTrimmer, d as createNullTrimmer } from './index-CeluTkd4.mjs';
import '@graphql-typed-document-node/core';
import './types.mjs';
import './error.mjs';
import './resolve-info.mjs';
import './variables.mjs';
