import type { Queryable } from '@platform/kit';
import type { CardData } from '../modules/vault/domain/card';
import type { InlineCard } from '../modules/charges/domain/newCharge';
import type { FlowRule } from '../modules/flows/domain/flow';
import type { PlatformFeeRule } from '../modules/merchants/domain/merchant';

/**
 * The seams between the modules of the service: merchants, flows and the vault on one side
 * (src/modules/merchants, src/modules/flows, src/modules/vault), charges and the connectors on the other
 * (src/modules/charges, src/modules/connectors).
 */

/** Where the card of a charge is: a saved card (with its CVV, or none), an inline card, or a token. Empty is "not given". */
export interface CardSourceInput {
  sourceType: string;
  cardId: string;
  cardCvv: string;
  tokenId: string;
  card?: InlineCard | undefined;
}

export interface CardSource {
  /**
   * Turns a charge's paymentSource (`card` with cardId or an inline card, `token`) into card data. A token is
   * consumed (single use) by `chargeId` and its CVV erased in the caller's transaction; the same charge id may
   * open it again (without CVV). Unknown or foreign ids: not_found; invalid inline cards: validation; an expired
   * card: card_declined `expired_card`. A token pays a charge of the session it was made for (`sessionId`; a
   * token made with a client key pays a charge of no session): any other is `token_not_for_session`.
   */
  resolve(tx: Queryable, clientId: string, source: CardSourceInput, options?: { chargeId?: string; sessionId?: string | null }): Promise<CardData>;
}

/** A provider ready to be called: credentials decrypted. */
export interface RoutableProvider {
  id: string;
  merchantId: string;
  name: string;
  priority: number;
  /** credentials.type: SANDBOX, SANDBOX_ANTIFRAUD, SUBACQUIRER, ... */
  type: string;
  credentials: Record<string, unknown>;
  options: Record<string, unknown>;
}

export interface MerchantForCharge {
  id: string;
  clientId: string;
  mcc: string;
  platformFeeEnabled: boolean;
  platformFeeRules: PlatformFeeRule[];
  /** Every active provider of the merchant, sorted by priority (1 first). */
  providers: RoutableProvider[];
  /** The routing flow of the charge's payment method, if the merchant has one. */
  flow?: { id: string; rules: FlowRule[]; defaultRoute: string[] };
}

export interface MerchantsPort {
  /** not_found for an unknown, deleted or foreign merchant. */
  loadForCharge(db: Queryable, clientId: string, merchantId: string, paymentMethod: string): Promise<MerchantForCharge>;
}
