export * from './nats';
export * from './platform';
export * from './processes';
export * from './simulators';
