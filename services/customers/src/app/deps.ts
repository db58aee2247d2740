import type { Clock, Logger, Pool } from '@platform/kit';
import type { CustomerCardStore } from '../store/customerCardStore';
import type { CustomerStore } from '../store/customerStore';
import type { CardsPort } from './cardsPort';

export interface CustomerDeps {
  pool: Pool;
  store: CustomerStore;
  cardLinks: CustomerCardStore;
  /** Saved cards live in the payments vault; this asks payments about them. */
  cards: CardsPort;
  clock: Clock;
  log: Logger;
  /** Told after a change commits, so its event is relayed now rather than at the next poll. */
  outbox?: { kick(): void };
}
