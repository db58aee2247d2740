import type { Clock, Logger, Pool } from '@platform/kit';
import type { CardStore } from '../../vault/store/cardStore';
import type { MerchantStore } from '../../merchants/store/merchantStore';
import type { ChargeDeps } from '../../charges/app/deps';
import type { CustomersPort } from '../../../shared/customersPort';
import type { SellersPort } from '../../../shared/sellersPort';
import type { SubscriptionStore } from '../store/subscriptionStore';
import type { SubscriptionSettingsPort } from './settingsPort';

/** What the subscriptions engine works with; service.ts builds the real ones. */
export interface SubscriptionDeps {
  pool: Pool;
  log: Logger;
  clock: Clock;
  outbox?: { kick(): void };
  subscriptions: SubscriptionStore;
  merchants: Pick<MerchantStore, 'findMerchant'>;
  cards: Pick<CardStore, 'findById'>;
  customers: CustomersPort;
  sellers: SellersPort;
  settings: SubscriptionSettingsPort;
  /** The charges of the cycles are made by the charge use case, as any other charge. */
  charges: ChargeDeps;
}

/** The durable job that makes one attempt at a cycle, at its time. */
export const BILL_CYCLE_JOB = 'subscriptions.bill_cycle';
