import type { Clock, Logger, Pool, Queryable } from '@platform/kit';
import type { PaymentsConfig } from '../../config';
import type { PaymentsDeps } from '../../deps';
import { createProviderRegistry, type ProviderRegistry } from '../../providers/registry';
import { createChargeStore, type ChargeStore } from '../../store/chargeStore';
import { createCardStore } from '../../store/cardStore';
import { createTokenStore } from '../../store/tokenStore';
import { createMerchantDirectory } from '../merchants/merchantDirectory';
import type { CardSource, MerchantDirectory } from '../ports';
import { createCardSource } from '../vault/cardSource';

/** What the 3DS setup needs to know of the vault: that the card or token exists for this client. */
export interface VaultLookup {
  cardExists(db: Queryable, clientId: string, cardId: string): Promise<boolean>;
  tokenUsable(db: Queryable, clientId: string, tokenId: string, now: Date): Promise<boolean>;
}

/** What the charge use cases work with. */
export interface ChargeDeps {
  pool: Pool;
  log: Logger;
  clock: Clock;
  config: Pick<PaymentsConfig, 'PROVIDER_TIMEOUT_MS' | 'PUBLIC_URL'>;
  /** Told after a change commits, so its event is relayed now rather than at the next poll. */
  outbox?: { kick(): void };
  store: ChargeStore;
  providers: ProviderRegistry;
  cards: CardSource;
  merchants: MerchantDirectory;
  vault: VaultLookup;
}

export function chargeDeps(deps: PaymentsDeps, overrides: Partial<Pick<ChargeDeps, 'providers'>> = {}): ChargeDeps {
  const cards = createCardStore();
  const tokens = createTokenStore();
  return {
    pool: deps.pool,
    log: deps.log,
    clock: deps.clock,
    config: deps.config,
    outbox: deps.outbox,
    store: createChargeStore(),
    providers: overrides.providers ?? createProviderRegistry({ publicUrl: deps.config.PUBLIC_URL }),
    cards: createCardSource(deps),
    merchants: createMerchantDirectory(deps),
    vault: {
      cardExists: async (db, clientId, cardId) => (await cards.findById(db, clientId, cardId)) !== null,
      tokenUsable: async (db, clientId, tokenId, now) => (await tokens.findUsable(db, clientId, tokenId, now)) !== null,
    },
  };
}
