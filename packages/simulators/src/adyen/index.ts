export * from './rules';
export * from './simulator';
export * from './encryption';
