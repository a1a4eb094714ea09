export * from './execution/index.js';
