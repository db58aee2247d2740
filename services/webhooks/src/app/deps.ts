import type { Clock, Logger, Pool } from '@platform/kit';
import type { ClientsPort } from './clientsPort';
import type { DeliverySender } from '../delivery/httpSender';
import type { KeySealer } from '../signing/keySealer';
import type { DeliveryStore } from '../store/deliveryStore';
import type { WebhookStore } from '../store/webhookStore';

export interface WebhookDeps {
  pool: Pool;
  log: Logger;
  clock: Clock;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  sealer: KeySealer;
  sender: DeliverySender;
  /** Delays between failed attempts, in milliseconds. */
  retrySchedule: readonly number[];
  /** The operator's switch: private targets for sandbox clients (never for live ones), or for nobody when false. */
  allowPrivateTargets: boolean;
  /** Settings, asked for a client's environment when a target is private and the switch is on. */
  clients: ClientsPort;
  /**
   * How long an attempt holds its delivery (a receiver's answer within the delivery timeout, and the records around
   * it); another attempt of the same delivery waits until it is recorded or this has passed.
   */
  attemptLeaseMs?: number;
  /** Told after a change commits, so its event is relayed now rather than at the next poll. */
  outbox?: { kick(): void };
}
