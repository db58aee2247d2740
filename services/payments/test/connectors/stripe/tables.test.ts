import type Stripe from 'stripe';
import { STRIPE_TEST_CARDS } from '@platform/simulators';
import { DECLINED_CODES } from '../../../src/modules/charges/domain/charge';
import { TECHNICAL_DECLINE_CODES } from '../../../src/modules/charges/domain/routing';
import { DECLINE_DECISIONS, declineOf } from '../../../src/modules/connectors/kit/tables';
import { STRIPE_DECLINES } from '../../../src/modules/connectors/stripe/declineTable';
import { redact } from '../../../src/modules/connectors/stripe/errors';
import { STRIPE_STATUS } from '../../../src/modules/connectors/stripe/statusTable';
import { descriptorSuffixOf, fromIntent, fromRefund, refundedOf, stateOf, toQueryResult } from '../../../src/modules/connectors/stripe/transformers';

/** Every code of Stripe's "Decline codes" and the card and PaymentIntent "Error codes" the table maps, by the declinedCode it becomes. */
const EXPECTED: Record<string, readonly string[]> = {
  'card_not_supported (retry_other_provider)': ['card_not_supported', 'currency_not_supported'],
  'expired_card (do_not_retry)': ['expired_card'],
  'fraud_suspect (do_not_retry)': ['fraudulent'],
  'generic (retry_other_provider)': [
    'call_issuer', 'do_not_honor', 'generic_decline', 'no_action_taken', 'card_declined', 'payment_intent_payment_attempt_expired',
    'payment_intent_payment_attempt_failed',
  ],
  'insufficient_funds (retry_later)': ['card_velocity_exceeded', 'insufficient_funds', 'withdrawal_count_limit_exceeded'],
  'invalid_amount (do_not_retry)': ['invalid_amount'],
  'invalid_cvv (do_not_retry)': ['incorrect_cvc', 'invalid_cvc'],
  'invalid_data (do_not_retry)': ['incorrect_zip', 'invalid_expiry_month', 'invalid_expiry_year'],
  'invalid_number (do_not_retry)': ['incorrect_number', 'invalid_number', 'testmode_decline', 'test_mode_live_card'],
  'invalid_pin (do_not_retry)': ['incorrect_pin', 'invalid_pin', 'offline_pin_required', 'online_or_offline_pin_required'],
  'issuer_not_available (retry_other_provider)': ['issuer_not_available'],
  'lost_card (do_not_retry)': ['lost_card'],
  'not_permitted (do_not_retry)': ['do_not_try_again', 'not_permitted', 'card_decline_rate_limit_exceeded'],
  'pickup_card (do_not_retry)': ['pickup_card'],
  'pin_try_exceeded (do_not_retry)': ['pin_try_exceeded'],
  'restricted_card (do_not_retry)': ['invalid_account', 'new_account_information_available', 'restricted_card'],
  'security_violation (do_not_retry)': ['authentication_required', 'security_violation', 'payment_intent_authentication_failure'],
  'service_not_allowed (do_not_retry)': [
    'revocation_of_all_authorizations', 'revocation_of_authorization', 'service_not_allowed', 'stop_payment_order',
  ],
  'stolen_card (do_not_retry)': ['stolen_card'],
  'transaction_not_allowed (do_not_retry)': ['duplicate_transaction', 'merchant_blacklist', 'transaction_not_allowed'],
  'try_again (retry_other_provider)': ['approve_with_id', 'processing_error', 'reenter_transaction', 'try_again_later'],
};

describe('Stripe decline table', () => {
  it('maps exactly the listed codes, each to the listed declinedCode', () => {
    const actual: Record<string, string[]> = {};
    for (const [code, entry] of Object.entries(STRIPE_DECLINES)) {
      const group = `${entry.declinedCode} (${entry.decision})`;
      (actual[group] ??= []).push(code);
    }
    const sorted = (groups: Record<string, readonly string[]>) => Object.fromEntries(Object.entries(groups).map(([group, codes]) => [group, [...codes].sort()]));
    expect(sorted(actual)).toEqual(sorted(EXPECTED));
  });

  it('decides every code: technical ones retry on another provider, insufficient funds later, and uses only our declined codes', () => {
    for (const [code, entry] of Object.entries(STRIPE_DECLINES)) {
      expect([code, (DECLINED_CODES as readonly string[]).includes(entry.declinedCode)]).toEqual([code, true]);
      expect([code, DECLINE_DECISIONS.includes(entry.decision)]).toEqual([code, true]);
      if (TECHNICAL_DECLINE_CODES.includes(entry.declinedCode)) expect([code, entry.decision]).toEqual([code, 'retry_other_provider']);
      if (entry.declinedCode === 'insufficient_funds') expect([code, entry.decision]).not.toEqual([code, 'retry_other_provider']);
      expect(entry.meaning.length).toBeGreaterThan(0);
    }
  });

  it('knows the code of every declining test card of Stripe’s testing page, and declines an unknown code as generic', () => {
    for (const [number, card] of Object.entries(STRIPE_TEST_CARDS)) {
      if (!card.decline) continue;
      expect([number, STRIPE_DECLINES[card.decline.declineCode ?? card.decline.code] !== undefined, STRIPE_DECLINES[card.decline.code] !== undefined]).toEqual([number, true, true]);
    }
    expect(declineOf(STRIPE_DECLINES, 'a_code_stripe_never_wrote')).toMatchObject({ declinedCode: 'generic', decision: 'do_not_retry' });
  });
});

describe('Stripe status table', () => {
  const intent = (overrides: Partial<Stripe.PaymentIntent> & { status: Stripe.PaymentIntent.Status }): Stripe.PaymentIntent =>
    ({ id: 'pi_1', object: 'payment_intent', amount: 1000, amount_received: 0, latest_charge: null, last_payment_error: null, next_action: null, ...overrides }) as Stripe.PaymentIntent;
  const charge = (overrides: Partial<Stripe.Charge>): Stripe.Charge =>
    ({ id: 'ch_1', object: 'charge', amount: 1000, amount_captured: 1000, amount_refunded: 0, captured: true, ...overrides }) as Stripe.Charge;

  it('reads each PaymentIntent state to its charge status', () => {
    expect(STRIPE_STATUS).toEqual({
      requires_payment_method: 'pending',
      'requires_payment_method/declined': 'failed',
      requires_confirmation: 'pending',
      requires_action: 'pending',
      processing: 'pending',
      requires_capture: 'pre_authorized',
      succeeded: 'authorized',
      'succeeded/refunded': 'voided',
      canceled: 'voided',
      'canceled/unpaid': 'canceled',
    });
    expect(stateOf(intent({ status: 'requires_payment_method' }))).toBe('requires_payment_method');
    expect(stateOf(intent({ status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'card_declined' } as Stripe.PaymentIntent.LastPaymentError }))).toBe(
      'requires_payment_method/declined',
    );
    expect(stateOf(intent({ status: 'succeeded', latest_charge: charge({ amount_refunded: 999 }) }))).toBe('succeeded');
    expect(stateOf(intent({ status: 'succeeded', latest_charge: charge({ amount_refunded: 1000 }) }))).toBe('succeeded/refunded');
    expect(stateOf(intent({ status: 'canceled', latest_charge: 'ch_1' }))).toBe('canceled');
    expect(stateOf(intent({ status: 'canceled' }))).toBe('canceled/unpaid');
  });

  it('does not count what a partial capture released as refunded', () => {
    const partial = charge({ amount: 1000, amount_captured: 600, amount_refunded: 400 });
    expect(refundedOf(partial)).toBe(0);
    expect(refundedOf(charge({ amount: 1000, amount_captured: 600, amount_refunded: 650 }))).toBe(250);
    expect(refundedOf(charge({ captured: false, amount_captured: 0, amount_refunded: 1000 }))).toBe(0);
    expect(toQueryResult(intent({ status: 'succeeded', amount_received: 600, latest_charge: partial }))).toEqual({
      found: true,
      status: 'authorized',
      providerStatus: 'succeeded',
      capturedAmount: 600,
    });
    expect(toQueryResult(intent({ status: 'succeeded', amount_received: 600, latest_charge: charge({ amount: 1000, amount_captured: 600, amount_refunded: 1000 }) }))).toEqual({
      found: true,
      status: 'voided',
      providerStatus: 'succeeded/refunded',
      capturedAmount: 600,
      refundedAmount: 600,
    });
  });

  it('gives a failed attempt its declinedCode, and changes nothing for a status it does not know', () => {
    const failed = intent({ status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'lost_card' } as Stripe.PaymentIntent.LastPaymentError });
    expect(toQueryResult(failed)).toEqual({ found: true, status: 'failed', providerStatus: 'requires_payment_method/declined (lost_card)', declinedCode: 'lost_card' });
    expect(toQueryResult(intent({ status: 'paused' as Stripe.PaymentIntent.Status }))).toEqual({ found: true, providerStatus: 'paused' });
  });

  it('reads an intent waiting for 3D Secure as a decline and one waiting for a Pix payment as pending', () => {
    expect(fromIntent(intent({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } as Stripe.PaymentIntent.NextAction }))).toMatchObject({
      status: 'declined',
      declinedCode: 'security_violation',
      transactionId: 'pi_1',
    });
    const pix = { type: 'pix_display_qr_code', pix_display_qr_code: { data: '000201abc', expires_at: 1_773_151_200, image_url_png: 'https://qr.example.test/1.png' } };
    expect(fromIntent(intent({ status: 'requires_action', next_action: pix as Stripe.PaymentIntent.NextAction }))).toEqual({
      status: 'pending',
      transactionId: 'pi_1',
      pix: { qrCodeData: '000201abc', qrCodeImageUrl: 'https://qr.example.test/1.png', expiresAt: new Date('2026-03-10T14:00:00Z') },
    });
    expect(fromIntent(intent({ status: 'processing' }))).toEqual({ status: 'pending', transactionId: 'pi_1' });
    expect(fromIntent(intent({ status: 'canceled', cancellation_reason: 'abandoned' }))).toMatchObject({ status: 'canceled', transactionId: 'pi_1' });
  });

  it('reads each refund status', () => {
    const refund = (status: string, failure_reason: string | null = null) => ({ id: 're_1', object: 'refund', status, failure_reason }) as Stripe.Refund;
    expect(fromRefund(refund('succeeded'), 'pi_1')).toEqual({ status: 'success', transactionId: 'pi_1' });
    expect(fromRefund(refund('pending'), 'pi_1')).toMatchObject({ status: 'pending', transactionId: 'pi_1' });
    expect(fromRefund(refund('requires_action'), 'pi_1')).toMatchObject({ status: 'pending' });
    expect(fromRefund(refund('failed', 'expired_or_canceled_card'), 'pi_1')).toEqual({ status: 'failed', message: 'Stripe refund failed: expired_or_canceled_card' });
    expect(fromRefund(refund('canceled'), 'pi_1')).toMatchObject({ status: 'failed' });
  });

  it('writes a statement descriptor suffix Stripe takes, and keeps keys and card numbers out of messages', () => {
    expect(descriptorSuffixOf('Loja São João <Centro>*')).toBe('Loja Sao Joao Centro');
    expect(descriptorSuffixOf('1234')).toBeUndefined();
    expect(descriptorSuffixOf('A very long store name beyond the limit')).toHaveLength(22);
    expect(redact('Invalid API Key provided: sk_test_****************abcd')).toBe('Invalid API Key provided: [redacted]');
    expect(redact('card 4242 4242 4242 4242 and pi_123_secret_abc and whsec_xyz')).toBe('card [redacted] and [redacted] and [redacted]');
  });
});
