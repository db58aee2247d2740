import { eventSchema, type ConsumerOptions, type Queryable } from '@platform/kit';
import { z } from 'zod';

/**
 * Any domain event as the fan-out takes it: the envelope is parsed on arrival (UUID ids, a date, a type); `data` is
 * delivered as the publishing context wrote it, in the public JSON of its entity.
 */
export const FanOutEventSchema = eventSchema(z.unknown());
export type FanOutEvent = z.infer<typeof FanOutEventSchema>;

/**
 * The consumer of every event, in batches, fanning out the parsed events with `fanOut` (the use case, given by the
 * service's wiring): an event whose envelope does not parse is logged and dropped by the kit's consumer, never fanned
 * out and never redelivered. The use case may leave work for after the transaction's commit (the first attempts);
 * the consumer does not wait for it.
 */
export function fanOutConsumer(
  durable: string,
  fanOut: (tx: Queryable, events: FanOutEvent[]) => Promise<unknown>,
): Pick<ConsumerOptions<FanOutEvent>, 'durable' | 'parse' | 'handleBatch'> {
  return {
    durable,
    parse: (event) => FanOutEventSchema.parse(event),
    handleBatch: async (events: FanOutEvent[], tx: Queryable) => {
      await fanOut(tx, events);
    },
  };
}
