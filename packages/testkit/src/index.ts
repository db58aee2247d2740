export * from './failures';
export * from './nats';
export * from './ports';
export * from './postgres';
export * from './suite';
