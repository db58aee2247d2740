import type { Clock, Pool } from '@platform/kit';
import type { Stores } from '../store';
import type { MerchantsPort } from './merchantsPort';

export interface AppDeps {
  pool: Pool;
  stores: Stores;
  clock: Clock;
  /** Whether a merchant a caller names (X-Merchant-Id) is the caller's; the payments service owns them. */
  merchants: MerchantsPort;
  /** The gateway's public origin, for the logo URL in link-settings events. */
  publicUrl: string;
}
