export * from './rules';
export * from './simulator';
