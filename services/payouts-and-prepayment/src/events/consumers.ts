import { ChargeEventDataSchema, SellerSchema } from '@platform/api-model';
import { eventSchema, type ConsumerOptions, type Queryable } from '@platform/kit';
import type { z } from 'zod';

/** A `payments.charge.*` event as the ledger takes it: the envelope and the public charge, parsed on arrival. */
export const ChargeEventSchema = eventSchema(ChargeEventDataSchema);
export type ChargeEvent = z.infer<typeof ChargeEventSchema>;

/** A `sellers.seller.*` event as this service takes it: the public seller's id, status and plan, parsed on arrival. */
export const SellerEventSchema = eventSchema(SellerSchema.pick({ id: true, status: true }).extend({ planId: SellerSchema.shape.planId.optional() }));
export type SellerEvent = z.infer<typeof SellerEventSchema>;

type Consumer<E extends ChargeEvent | SellerEvent> = Pick<ConsumerOptions<E>, 'durable' | 'filterSubject' | 'parse' | 'handle' | 'handleBatch'>;

/**
 * The consumers of other contexts' events, each applying parsed events with `apply` (the use case, given by the
 * service's wiring). An event that does not parse is logged and dropped by the kit's consumer, never applied and
 * never redelivered.
 *
 * Charge events are applied in batches: the events that arrived together (not yet processed, each once) in the one
 * transaction that records them, so that many captures are booked in a few statements; when the batch fails, the
 * kit's consumer rolls it back and applies each event on its own (a batch of one).
 */
export function chargeConsumer(durable: string, apply: (tx: Queryable, events: ChargeEvent[]) => Promise<unknown>): Consumer<ChargeEvent> {
  return {
    durable,
    filterSubject: 'payments.charge.>',
    parse: (event) => ChargeEventSchema.parse(event),
    handleBatch: async (events: ChargeEvent[], tx: Queryable) => {
      await apply(tx, events);
    },
  };
}

export function sellerConsumer(durable: string, apply: (tx: Queryable, event: SellerEvent) => Promise<void>): Consumer<SellerEvent> {
  return {
    durable,
    filterSubject: 'sellers.seller.>',
    parse: (event) => SellerEventSchema.parse(event),
    handle: async (event: SellerEvent, tx: Queryable) => apply(tx, event),
  };
}
