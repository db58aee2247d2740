import { ChargeEventDataSchema } from '@platform/api-model';
import { eventSchema, type ConsumerOptions, type Queryable } from '@platform/kit';
import type { z } from 'zod';

/** A `payments.charge.*` event as sessions takes it: the envelope and the public charge, parsed on arrival. */
export const ChargeEventSchema = eventSchema(ChargeEventDataSchema);

export type ChargeEvent = z.infer<typeof ChargeEventSchema>;

/**
 * The consumer of charge events (a later outcome of a session's charge), applying each parsed event with `apply` (the
 * use case, given by the service's wiring): an event that does not parse is logged and dropped by the kit's consumer,
 * never applied and never redelivered.
 */
export function chargeConsumer(
  durable: string,
  apply: (tx: Queryable, event: ChargeEvent) => Promise<void>,
): Pick<ConsumerOptions<ChargeEvent>, 'durable' | 'filterSubject' | 'parse' | 'handle'> {
  return {
    durable,
    filterSubject: 'payments.charge.>',
    parse: (event) => ChargeEventSchema.parse(event),
    handle: async (event: ChargeEvent, tx: Queryable) => apply(tx, event),
  };
}
