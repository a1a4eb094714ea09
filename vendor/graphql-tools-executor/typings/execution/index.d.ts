export * from './execute.js';
export * from './values.js';
export * from './normalizedExecutor.js';
