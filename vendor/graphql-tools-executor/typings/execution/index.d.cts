export * from './execute.cjs';
export * from './values.cjs';
export * from './normalizedExecutor.cjs';
