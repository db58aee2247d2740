import type { Clock, Logger, Pool } from '@platform/kit';
import type { SellerStore } from '../store/sellerStore';
import type { MerchantDirectory } from './merchants';
import type { PlanDirectory } from './plans';
import type { ProviderAdapters } from './providers';

export interface SellerDeps {
  pool: Pool;
  store: SellerStore;
  merchants: MerchantDirectory;
  /** Whether a seller's planId is a plan of the client (payouts owns plans). */
  plans: PlanDirectory;
  adapters: ProviderAdapters;
  clock: Clock;
  log: Logger;
  /** Told after a change commits, so its event is relayed now rather than at the next poll. */
  outbox?: { kick(): void };
}
