import type { PaymentsDeps } from '../../../shared/deps';
import type { FlowStore } from '../../flows/store/flowStore';
import type { MerchantStore } from '../store/merchantStore';
import type { ProviderRegistry } from '../../connectors/app/registry';
import type { MerchantCache } from './merchantCache';

/** What the merchant and flow use cases work with; service.ts builds the real ones. */
export interface MerchantContext extends PaymentsDeps {
  merchants: MerchantStore;
  flows: FlowStore;
  /** The adapters, asked to register where their provider posts notifications when an entry is saved. */
  providers: ProviderRegistry;
  /** The charges' copy of merchants in memory: told once a change to a merchant, its providers or flows has committed. */
  merchantCache?: MerchantCache;
}
