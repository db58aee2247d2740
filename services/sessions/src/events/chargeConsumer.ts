import { ChargeEventDataSchema } from '@platform/api-model';
import { eventSchema, type ConsumerOptions, type Queryable } from '@platform/kit';
import type { z } from 'zod';
import { applyChargeEvent } from '../app/applyChargeEvent';
import type { SessionDeps } from '../app/deps';

/** A `payments.charge.*` event as sessions takes it: the envelope and the public charge, parsed on arrival. */
export const ChargeEventSchema = eventSchema(ChargeEventDataSchema);

export type ChargeEvent = z.infer<typeof ChargeEventSchema>;

/**
 * The consumer of charge events (a later outcome of a session's charge): an event that does not parse is logged and
 * dropped by the kit's consumer, never handled and never redelivered.
 */
export function chargeConsumer(deps: SessionDeps, durable: string): Pick<ConsumerOptions<ChargeEvent>, 'durable' | 'filterSubject' | 'parse' | 'handle'> {
  return {
    durable,
    filterSubject: 'payments.charge.>',
    parse: (event) => ChargeEventSchema.parse(event),
    handle: async (event: ChargeEvent, tx: Queryable) => {
      await applyChargeEvent(deps, tx, event.clientId, event.data);
    },
  };
}
