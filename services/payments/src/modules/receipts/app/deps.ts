import type { Clock, Logger, Pool } from '@platform/kit';
import type { ChargeStore } from '../../charges/store/chargeStore';
import type { MerchantStore } from '../../merchants/store/merchantStore';
import type { ReceiptStore } from '../store/receiptStore';

/** What payments needs to know of a client for its documents: its name, which the settings service owns. */
export interface ClientsPort {
  clientName(clientId: string): Promise<string>;
}

/** What the receipts use cases work with; service.ts builds the real ones. */
export interface ReceiptDeps {
  pool: Pool;
  log: Logger;
  clock: Clock;
  charges: Pick<ChargeStore, 'findById'>;
  merchants: Pick<MerchantStore, 'findMerchant'>;
  clients: ClientsPort;
  receipts: ReceiptStore;
}
