export * from './execution/index.cjs';
