import type { IdempotencyCodec } from '@platform/kit';
import type { PaymentsDeps } from '../../deps';
import type { IssuedToken, SavedCard } from '../../domain/card';
import type { CardStore } from '../../store/cardStore';
import type { MerchantStore } from '../../store/merchantStore';
import type { TokenStore } from '../../store/tokenStore';

/** How the idempotency record keeps a saved card or an issued token (the transport's choice, handed over by service.ts). */
export interface VaultAnswers {
  card: IdempotencyCodec<SavedCard>;
  token: IdempotencyCodec<IssuedToken>;
}

/** What the vault use cases work with; service.ts builds the real ones. */
export interface VaultContext extends PaymentsDeps {
  tokens: TokenStore;
  cards: CardStore;
  merchants: MerchantStore;
  answers: VaultAnswers;
}
