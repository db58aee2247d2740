import type { Clock, Logger, Pool, Queryable } from '@platform/kit';
import type { PaymentsConfig } from '../../../config';
import type { ProviderRegistry } from '../../connectors/app/registry';
import type { ProviderEntries } from '../../connectors/app/providerEntries';
import type { ChargeStore } from '../store/chargeStore';
import type { OutcomeRecorder } from './outcomeRecorder';
import type { CustomersPort } from '../../../shared/customersPort';
import type { SellersPort } from '../../../shared/sellersPort';
import type { CardSource, MerchantsPort } from '../../../shared/ports';

/** What the 3DS setup needs to know of the vault: that the card or token exists for this client. */
export interface VaultLookup {
  cardExists(db: Queryable, clientId: string, cardId: string): Promise<boolean>;
  tokenUsable(db: Queryable, clientId: string, tokenId: string, now: Date): Promise<boolean>;
}

/** What a 3DS2 setup answers. */
export interface ThreeDSSetup {
  id: string;
  token: string;
  collectUrl: string;
  providerType: string;
}

/** What the charge use cases work with; service.ts builds the real ones, tests may pass others. */
export interface ChargeDeps {
  pool: Pool;
  log: Logger;
  clock: Clock;
  config: Pick<PaymentsConfig, 'PROVIDER_TIMEOUT_MS' | 'PUBLIC_URL'> & Partial<Pick<PaymentsConfig, 'CASCADE_MAX_EXTRA_ATTEMPTS' | 'CASCADE_MAX_TECHNICAL_ATTEMPTS' | 'CHARGE_TIME_BUDGET_MS'>>;
  /** Told after a change commits, so its event is relayed now rather than at the next poll. */
  outbox?: { kick(): void };
  store: ChargeStore;
  /** The process's buffer of providers' outcomes (success-rate routing), written apart from the charges. */
  outcomes: OutcomeRecorder;
  providers: ProviderRegistry;
  /**
   * Provider entries by their id, of any client, credentials opened (provider notifications, the status sync).
   * service.ts always gives them; a use case test that leaves them out finds no entry.
   */
  providerEntries?: ProviderEntries;
  cards: CardSource;
  merchants: MerchantsPort;
  /** Whether a customer a charge names is the caller's; the customers service owns them. */
  customers: CustomersPort;
  /** Whether the sellers of a split are the caller's, of the merchant, and can receive; sellers-and-reviews owns them. */
  sellers: SellersPort;
  vault: VaultLookup;
}
