export * from './health';
export * from './platform';
export * from './processes';
