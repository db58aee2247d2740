import type { CardBrand } from '../../vault/domain/card';
import type { DeclinedCode } from './charge';

/**
 * The card brands' retry rules in Brazil, as data. Source: Cielo, "Card Brands Retry Program" (developercielo,
 * documentos-adicionais, "Programa de Retentativa das Bandeiras"), which states each brand's programme:
 * - Mastercard, Transaction Processing Excellence, "Excessive Attempts": at most 35 failed attempts on the same card
 *   and merchant in a continuous 30-day period (and 7 retries in 24 hours); "MAC 03 and 21": never retry (charged
 *   from the first retry). The response codes Mastercard no longer sends (04, 14, 43, 54, 57, 62, 63) are
 *   irreversible.
 * - Visa: reversible codes up to 15 attempts of the same transaction within 30 days; category 1 ("issuer will
 *   never approve": 04 and 07 pick up, 12 invalid transaction, 14 and 15 invalid account or issuer, 41 lost, 43
 *   stolen, 46 closed account, 57 not permitted to cardholder, R0, R1 and R3 stop payment and revocations) never
 *   retried.
 * - Elo: charged from the 16th retry on the same card within 30 days; its IRREVERSIBLE codes (12, 13, 14, 19, 23,
 *   30, 41, 43, 54, 56, 57, 58, 63, 64, 76, 77, 82, 83, AB, AC, FM, P5) never retried.
 * - Other brands: reversible codes without a limit; irreversible codes never retried after the first refusal.
 *
 * `reattemptsPer30Days`: the declined or failed authorizations a card may have in 30 days (this platform counts
 * them per card fingerprint across the client) before no charge of it moves on to another provider; null: no
 * limit. `neverRetry`: our declinedCodes of the decline categories the brand forbids to retry at all, whatever a
 * connector's table says.
 */
export interface BrandRetryRule {
  reattemptsPer30Days: number | null;
  neverRetry: readonly DeclinedCode[];
}

/** The irreversible categories every brand shares: the card can never be approved. */
const IRREVERSIBLE: readonly DeclinedCode[] = ['lost_card', 'stolen_card', 'pickup_card', 'fraud_confirmed', 'invalid_number', 'expired_card'];

export const BRAND_RETRY_WINDOW_DAYS = 30;

export const BRAND_RETRY_RULES: Readonly<Record<CardBrand | 'other', BrandRetryRule>> = {
  mastercard: { reattemptsPer30Days: 35, neverRetry: [...IRREVERSIBLE, 'transaction_not_allowed', 'restricted_card', 'security_violation'] },
  visa: { reattemptsPer30Days: 15, neverRetry: [...IRREVERSIBLE, 'transaction_not_allowed', 'service_not_allowed', 'invalid_data'] },
  elo: {
    reattemptsPer30Days: 15,
    neverRetry: [
      ...IRREVERSIBLE,
      'invalid_data',
      'invalid_amount',
      'invalid_installment',
      'transaction_not_allowed',
      'invalid_merchant',
      'security_violation',
      'card_not_supported',
    ],
  },
  amex: { reattemptsPer30Days: null, neverRetry: IRREVERSIBLE },
  hipercard: { reattemptsPer30Days: null, neverRetry: IRREVERSIBLE },
  diners: { reattemptsPer30Days: null, neverRetry: IRREVERSIBLE },
  other: { reattemptsPer30Days: null, neverRetry: IRREVERSIBLE },
};

export function brandRetryRuleOf(brand: string | undefined): BrandRetryRule {
  const key = (brand ?? '').toLowerCase();
  return Object.hasOwn(BRAND_RETRY_RULES, key) ? BRAND_RETRY_RULES[key as CardBrand] : BRAND_RETRY_RULES.other;
}
