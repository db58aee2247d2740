/** Domain events: the NATS connection and the event stream, the outbox writer and relay, the durable consumer. */
export * from './stream';
export * from './outbox';
export * from './consumer';
