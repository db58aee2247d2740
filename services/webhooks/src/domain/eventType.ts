import type { PublicEvent } from './publicEvents';

/** One entry of the public event catalogue, as `GET /v1/webhooks/event-types` answers it. */
export interface EventType {
  /** The name a webhook registers for. */
  name: string;
  /** What `data` is. */
  object: string;
  description: string;
  example: PublicEvent;
}
