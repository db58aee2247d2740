import type { PaymentsDeps } from '../../../shared/deps';
import type { CardStore } from '../store/cardStore';
import type { MerchantStore } from '../../merchants/store/merchantStore';
import type { TokenStore } from '../store/tokenStore';

/** What the vault use cases work with; service.ts builds the real ones. */
export interface VaultContext extends PaymentsDeps {
  tokens: TokenStore;
  cards: CardStore;
  merchants: MerchantStore;
}
