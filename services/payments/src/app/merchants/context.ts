import type { PaymentsDeps } from '../../deps';
import { createFlowStore, type FlowStore } from '../../store/flowStore';
import { createMerchantStore, type MerchantStore } from '../../store/merchantStore';

/** What the merchant and flow use cases work with: the service's dependencies and their stores. */
export interface MerchantContext extends PaymentsDeps {
  merchants: MerchantStore;
  flows: FlowStore;
}

export function merchantContext(deps: PaymentsDeps): MerchantContext {
  return { ...deps, merchants: createMerchantStore(), flows: createFlowStore() };
}
