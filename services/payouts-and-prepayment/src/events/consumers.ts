import { ChargeEventDataSchema, SellerSchema } from '@platform/api-model';
import { eventSchema, type ConsumerOptions, type Queryable } from '@platform/kit';
import type { z } from 'zod';

/** A `payments.charge.*` event as the ledger takes it: the envelope and the public charge, parsed on arrival. */
export const ChargeEventSchema = eventSchema(ChargeEventDataSchema);
export type ChargeEvent = z.infer<typeof ChargeEventSchema>;

/** A `sellers.seller.*` event as this service takes it: the public seller's id, status and plan, parsed on arrival. */
export const SellerEventSchema = eventSchema(SellerSchema.pick({ id: true, status: true }).extend({ planId: SellerSchema.shape.planId.optional() }));
export type SellerEvent = z.infer<typeof SellerEventSchema>;

type Consumer<E extends ChargeEvent | SellerEvent> = Pick<ConsumerOptions<E>, 'durable' | 'filterSubject' | 'parse' | 'handle'>;

/**
 * The consumers of other contexts' events, each applying a parsed event with `apply` (the use case, given by the
 * service's wiring). An event that does not parse is logged and dropped by the kit's consumer, never applied and
 * never redelivered.
 */
export function chargeConsumer(durable: string, apply: (tx: Queryable, event: ChargeEvent) => Promise<void>): Consumer<ChargeEvent> {
  return {
    durable,
    filterSubject: 'payments.charge.>',
    parse: (event) => ChargeEventSchema.parse(event),
    handle: async (event: ChargeEvent, tx: Queryable) => apply(tx, event),
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
