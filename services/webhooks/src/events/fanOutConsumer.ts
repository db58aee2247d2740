import { eventSchema, type ConsumerOptions, type Queryable } from '@platform/kit';
import { z } from 'zod';
import type { WebhookDeps } from '../app/deps';
import { fanOutEvents } from '../app/fanOutEvent';

/**
 * Any domain event as the fan-out takes it: the envelope is parsed on arrival (UUID ids, a date, a type); `data` is
 * delivered as the publishing context wrote it, in the public JSON of its entity.
 */
export const FanOutEventSchema = eventSchema(z.unknown());
export type FanOutEvent = z.infer<typeof FanOutEventSchema>;

/**
 * The consumer of every event, in batches: an event whose envelope does not parse is logged and dropped by the kit's
 * consumer, never fanned out and never redelivered.
 */
export function fanOutConsumer(deps: Pick<WebhookDeps, 'webhooks' | 'deliveries' | 'clock'>, durable: string): Pick<ConsumerOptions<FanOutEvent>, 'durable' | 'parse' | 'handleBatch'> {
  return {
    durable,
    parse: (event) => FanOutEventSchema.parse(event),
    handleBatch: async (events: FanOutEvent[], tx: Queryable) => {
      await fanOutEvents(deps, events, tx);
    },
  };
}
