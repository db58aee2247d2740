import type { Clock, Logger, Pool } from '@platform/kit';
import type { ReviewStore } from '../store/reviewStore';
import type { SellerStore } from '../store/sellerStore';
import type { MerchantsPort } from './merchantsPort';
import type { PlansPort } from './plansPort';
import type { ProviderAdapters } from './providers';

export interface SellerDeps {
  pool: Pool;
  store: SellerStore;
  reviews: ReviewStore;
  merchants: MerchantsPort;
  /** Whether a seller's planId is a plan of the client (payouts owns plans). */
  plans: PlansPort;
  adapters: ProviderAdapters;
  clock: Clock;
  log: Logger;
  /** Told after a change commits, so its event is relayed now rather than at the next poll. */
  outbox?: { kick(): void };
}
