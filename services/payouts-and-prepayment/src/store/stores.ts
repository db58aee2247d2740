import { createBatchStore } from './batchStore';
import { createLedgerStore } from './ledgerStore';
import { createPlanStore } from './planStore';
import { createPrepaymentStore } from './prepaymentStore';
import { createSellerStore } from './sellerStore';

/** Every store of the service, as `PayoutsDeps` holds them; built where the service is wired. */
export function createPayoutsStores() {
  return {
    planStore: createPlanStore(),
    sellerStore: createSellerStore(),
    ledgerStore: createLedgerStore(),
    batchStore: createBatchStore(),
    prepaymentStore: createPrepaymentStore(),
  };
}
