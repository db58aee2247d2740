import type { Clock, Logger, Pool } from '@platform/kit';
import type { CustomerStore } from '../store/customerStore';

export interface CustomerDeps {
  pool: Pool;
  store: CustomerStore;
  clock: Clock;
  log: Logger;
  /** Told after a change commits, so its event is relayed now rather than at the next poll. */
  outbox?: { kick(): void };
}
