import { BRAND_RETRY_RULES, brandRetryRuleOf } from '../../src/modules/charges/domain/brandRetryRules';
import { cascadeVerdict, classifyAttempt, decisionOf, DEFAULT_DECISIONS, type CascadeInput } from '../../src/modules/charges/domain/cascade';
import { DECLINED_CODES } from '../../src/modules/charges/domain/charge';
import { declineOf, MASTERCARD_ADVICE_DECISIONS, withAdviceCode, type DeclineEntry } from '../../src/modules/connectors/kit/tables';
import { declinedFrom as adyenDeclinedFrom } from '../../src/modules/connectors/adyen/transformers';
import { fromSale } from '../../src/modules/connectors/cielo/transformers';
import { SANDBOX_DECLINES } from '../../src/modules/connectors/sandbox/declineTable';
import { stripeAdvised } from '../../src/modules/connectors/stripe/declineTable';

const soft = (overrides: Partial<CascadeInput> = {}): CascadeInput => ({
  providerType: 'CIELO',
  declinedCode: 'generic',
  decision: 'retry_other_provider',
  extraAttemptsSoFar: 0,
  maxExtraAttempts: 2,
  ...overrides,
});

describe('cascade: classification by decision', () => {
  it.each([
    [{ kind: 'unknown' } as const, 'unknown'],
    [{ kind: 'unavailable' } as const, 'technical'],
    [{ kind: 'declined', declinedCode: 'generic', decision: 'retry_other_provider' } as const, 'soft_decline'],
    [{ kind: 'declined', declinedCode: 'generic', decision: 'do_not_retry' } as const, 'final'],
    [{ kind: 'declined', declinedCode: 'insufficient_funds', decision: 'retry_later' } as const, 'final'],
    // A decision from the connector wins over the code's default: a try_again the advice code forbids stops.
    [{ kind: 'declined', declinedCode: 'try_again', decision: 'do_not_retry' } as const, 'final'],
    // Without a decision, the code's default.
    [{ kind: 'declined', declinedCode: 'try_again' } as const, 'soft_decline'],
    [{ kind: 'declined', declinedCode: 'invalid_merchant' } as const, 'soft_decline'],
    [{ kind: 'declined', declinedCode: 'lost_card' } as const, 'final'],
    [{ kind: 'declined', declinedCode: 'a_code_nobody_wrote' } as const, 'final'],
    [{ kind: 'authorized' } as const, 'final'],
    [{ kind: 'pending' } as const, 'final'],
    [{ kind: 'canceled' } as const, 'final'],
  ])('%j is %s', (outcome, expected) => {
    expect(classifyAttempt(outcome)).toBe(expected);
  });

  it('gives every declinedCode a default decision, and the hard ones never retry', () => {
    expect(Object.keys(DEFAULT_DECISIONS).sort()).toEqual([...DECLINED_CODES].sort());
    for (const hard of ['lost_card', 'stolen_card', 'pickup_card', 'fraud_confirmed', 'invalid_number', 'expired_card'] as const) {
      expect([hard, decisionOf({ declinedCode: hard })]).toEqual([hard, 'do_not_retry']);
    }
    expect(decisionOf({ declinedCode: 'insufficient_funds' })).toBe('retry_later');
  });

  it('decides every SANDBOX decline: try_again and issuer_not_available move on, the hard ones stop', () => {
    expect(Object.keys(SANDBOX_DECLINES).sort()).toEqual([...DECLINED_CODES].sort());
    expect(SANDBOX_DECLINES.try_again.decision).toBe('retry_other_provider');
    expect(SANDBOX_DECLINES.issuer_not_available.decision).toBe('retry_other_provider');
    expect(SANDBOX_DECLINES.lost_card.decision).toBe('do_not_retry');
    expect(SANDBOX_DECLINES.insufficient_funds.decision).toBe('retry_later');
  });
});

describe('cascade: Mastercard merchant advice codes', () => {
  const generic: DeclineEntry = { declinedCode: 'generic', decision: 'retry_other_provider', meaning: 'Not Authorized' };

  it.each(['03', '3', '21'])('MAC %s forces do_not_retry on a soft decline', (mac) => {
    expect(withAdviceCode(generic, mac).decision).toBe('do_not_retry');
  });

  it.each(['24', '25', '26', '27', '28', '29', '02'])('MAC %s asks for a later retry', (mac) => {
    expect(withAdviceCode(generic, mac).decision).toBe('retry_later');
  });

  it('keeps the decision without a code or with one the table does not list', () => {
    expect(withAdviceCode(generic, undefined)).toBe(generic);
    expect(withAdviceCode(generic, '99')).toBe(generic);
    expect(MASTERCARD_ADVICE_DECISIONS['03']).toBe('do_not_retry');
    expect(MASTERCARD_ADVICE_DECISIONS['21']).toBe('do_not_retry');
  });

  it("Cielo's Payment.MerchantAdviceCode and Adyen's additionalData.merchantAdviceCode reach the decline's decision", () => {
    const sale = (advice?: string) => ({ Payment: { PaymentId: 'd1f6a8f4-8d3b-4e0e-9b8f-0d6b3b1f7a11', Status: 3, ReturnCode: '05', ...(advice ? { MerchantAdviceCode: advice } : {}) } });
    const now = () => new Date('2026-05-01T12:00:00Z');
    expect(fromSale(sale(), now)).toMatchObject({ status: 'declined', declinedCode: 'generic', decision: 'retry_other_provider' });
    expect(fromSale(sale('3'), now)).toMatchObject({ status: 'declined', declinedCode: 'generic', decision: 'do_not_retry' });
    expect(fromSale(sale('21'), now)).toMatchObject({ decision: 'do_not_retry' });
    expect(fromSale(sale('24'), now)).toMatchObject({ decision: 'retry_later' });
    const refused = (advice?: string) =>
      ({
        pspReference: 'PSP0001',
        resultCode: 'Refused',
        refusalReasonCode: '2',
        ...(advice ? { additionalData: { merchantAdviceCode: advice } } : {}),
      }) as Parameters<typeof adyenDeclinedFrom>[0];
    expect(adyenDeclinedFrom(refused())).toMatchObject({ declinedCode: 'generic', decision: 'retry_other_provider' });
    expect(adyenDeclinedFrom(refused('03: Do not try again'))).toMatchObject({ declinedCode: 'generic', decision: 'do_not_retry' });
    expect(adyenDeclinedFrom(refused('21 : Payment cancellation'))).toMatchObject({ decision: 'do_not_retry' });
  });

  it("Stripe's advice_code and network_advice_code override a retryable decline", () => {
    const processing = declineOf({ processing_error: { declinedCode: 'try_again', decision: 'retry_other_provider', meaning: 'x' } }, 'processing_error');
    expect(stripeAdvised(processing, {}).decision).toBe('retry_other_provider');
    expect(stripeAdvised(processing, { advice_code: 'do_not_try_again' }).decision).toBe('do_not_retry');
    expect(stripeAdvised(processing, { advice_code: 'try_again_later' }).decision).toBe('retry_later');
    expect(stripeAdvised(processing, { network_advice_code: '21' }).decision).toBe('do_not_retry');
    expect(stripeAdvised(processing, { advice_code: 'try_again_later', network_advice_code: '03' }).decision).toBe('do_not_retry');
  });
});

describe('cascade: the cap and the brands', () => {
  it('moves on after a soft decline, naming the decline in the next attempt', () => {
    expect(cascadeVerdict(soft())).toEqual({ cascade: true, reason: 'cascade after CIELO declined generic (retry_other_provider)' });
  });

  it('stops at once on do_not_retry and retry_later', () => {
    expect(cascadeVerdict(soft({ decision: 'do_not_retry' })).cascade).toBe(false);
    expect(cascadeVerdict(soft({ declinedCode: 'insufficient_funds', decision: 'retry_later' })).cascade).toBe(false);
  });

  it('stops when the charge made its CASCADE_MAX_EXTRA_ATTEMPTS extra attempts', () => {
    expect(cascadeVerdict(soft({ extraAttemptsSoFar: 1, maxExtraAttempts: 2 })).cascade).toBe(true);
    expect(cascadeVerdict(soft({ extraAttemptsSoFar: 2, maxExtraAttempts: 2 }))).toEqual({
      cascade: false,
      reason: 'no cascade: 2 extra attempts already made (CASCADE_MAX_EXTRA_ATTEMPTS)',
    });
    expect(cascadeVerdict(soft({ maxExtraAttempts: 0 })).cascade).toBe(false);
  });

  it('stops for a card past its brand reattempt limit over 30 days', () => {
    expect(BRAND_RETRY_RULES.visa.reattemptsPer30Days).toBe(15);
    expect(BRAND_RETRY_RULES.mastercard.reattemptsPer30Days).toBe(35);
    expect(BRAND_RETRY_RULES.elo.reattemptsPer30Days).toBe(15);
    expect(cascadeVerdict(soft({ card: { brand: 'visa', failedAttempts: 14 } })).cascade).toBe(true);
    expect(cascadeVerdict(soft({ card: { brand: 'visa', failedAttempts: 15 } }))).toEqual({
      cascade: false,
      reason: 'no cascade: the card has 15 failed attempts in 30 days, visa allows 15',
    });
    expect(cascadeVerdict(soft({ card: { brand: 'mastercard', failedAttempts: 15 } })).cascade).toBe(true);
    expect(cascadeVerdict(soft({ card: { brand: 'mastercard', failedAttempts: 35 } })).cascade).toBe(false);
    // A brand without a limit (amex, an unknown brand): only the cap.
    expect(cascadeVerdict(soft({ card: { brand: 'amex', failedAttempts: 500 } })).cascade).toBe(true);
    expect(cascadeVerdict(soft({ card: { brand: 'unknown', failedAttempts: 500 } })).cascade).toBe(true);
  });

  it('never retries a category the brand forbids, whatever the connector decided', () => {
    expect(cascadeVerdict(soft({ declinedCode: 'card_not_supported', card: { brand: 'visa', failedAttempts: 1 } })).cascade).toBe(true);
    expect(cascadeVerdict(soft({ declinedCode: 'card_not_supported', card: { brand: 'elo', failedAttempts: 1 } }))).toEqual({
      cascade: false,
      reason: 'no cascade: elo forbids retrying card_not_supported',
    });
    expect(cascadeVerdict(soft({ declinedCode: 'invalid_merchant', card: { brand: 'elo', failedAttempts: 0 } })).cascade).toBe(false);
    for (const brand of Object.keys(BRAND_RETRY_RULES)) {
      expect([brand, cascadeVerdict(soft({ declinedCode: 'stolen_card', card: { brand, failedAttempts: 0 } })).cascade]).toEqual([brand, false]);
    }
    expect(brandRetryRuleOf('VISA')).toBe(BRAND_RETRY_RULES.visa);
    expect(brandRetryRuleOf(undefined)).toBe(BRAND_RETRY_RULES.other);
  });
});
