import type { PaymentsDeps } from '../../deps';
import { createCardStore, type CardStore } from '../../store/cardStore';
import { createMerchantStore, type MerchantStore } from '../../store/merchantStore';
import { createTokenStore, type TokenStore } from '../../store/tokenStore';

/** What the vault use cases work with: the service's dependencies and their stores. */
export interface VaultContext extends PaymentsDeps {
  tokens: TokenStore;
  cards: CardStore;
  merchants: MerchantStore;
}

export function vaultContext(deps: PaymentsDeps): VaultContext {
  return { ...deps, tokens: createTokenStore(), cards: createCardStore(), merchants: createMerchantStore() };
}
