import { MERCADOPAGO_CARDHOLDER_OUTCOMES } from '@platform/simulators';
import { DECLINED_CODES } from '../../../src/modules/charges/domain/charge';
import { TECHNICAL_DECLINE_CODES } from '../../../src/modules/charges/domain/routing';
import { DECLINE_DECISIONS, declineOf } from '../../../src/modules/connectors/kit/tables';
import { MERCADOPAGO_DECLINES } from '../../../src/modules/connectors/mercadopago/declineTable';
import { MERCADOPAGO_STATUS } from '../../../src/modules/connectors/mercadopago/statusTable';
import { fromPayment, stateOf, toCentavos, toQueryResult, toReais } from '../../../src/modules/connectors/mercadopago/transformers';

/** Every rejected `status_detail` of Mercado Pago's "Get payment status" table, by the declinedCode it becomes. */
const EXPECTED: Record<string, readonly string[]> = {
  'card_not_supported (retry_other_provider)': ['cc_rejected_card_type_not_allowed'],
  'expired_card (do_not_retry)': ['cc_rejected_bad_filled_date'],
  'fraud_suspect (do_not_retry)': ['cc_rejected_high_risk'],
  'generic (retry_other_provider)': ['cc_rejected_call_for_authorize', 'cc_rejected_card_error', 'cc_rejected_other_reason', 'rejected_by_bank'],
  'insufficient_funds (retry_later)': ['cc_rejected_insufficient_amount', 'insufficient_amount'],
  'invalid_cvv (do_not_retry)': ['cc_rejected_bad_filled_security_code'],
  'invalid_data (do_not_retry)': ['cc_rejected_bad_filled_other', 'rejected_insufficient_data'],
  'invalid_installment (do_not_retry)': ['cc_rejected_invalid_installments'],
  'invalid_number (do_not_retry)': ['cc_rejected_bad_filled_card_number'],
  'issuer_not_available (retry_other_provider)': ['bank_error'],
  'not_permitted (do_not_retry)': ['rejected_by_regulations'],
  'pin_try_exceeded (do_not_retry)': ['cc_rejected_max_attempts'],
  'restricted_card (do_not_retry)': ['cc_rejected_blacklist', 'cc_rejected_card_disabled'],
  'security_violation (do_not_retry)': ['cc_rejected_3ds_challenge'],
  'transaction_not_allowed (do_not_retry)': ['cc_rejected_3ds_mandatory', 'cc_rejected_duplicated_payment'],
  'try_again (retry_other_provider)': ['cc_amount_rate_limit_exceeded'],
};

describe('Mercado Pago decline table', () => {
  it('maps exactly the listed status_detail values, each to the listed declinedCode', () => {
    const actual: Record<string, string[]> = {};
    for (const [detail, entry] of Object.entries(MERCADOPAGO_DECLINES)) {
      const group = `${entry.declinedCode} (${entry.decision})`;
      (actual[group] ??= []).push(detail);
    }
    const sorted = (groups: Record<string, readonly string[]>) => Object.fromEntries(Object.entries(groups).map(([group, details]) => [group, [...details].sort()]));
    expect(sorted(actual)).toEqual(sorted(EXPECTED));
  });

  it('decides every code: technical ones retry on another provider, insufficient funds later, and uses only our declined codes', () => {
    for (const [detail, entry] of Object.entries(MERCADOPAGO_DECLINES)) {
      expect([detail, (DECLINED_CODES as readonly string[]).includes(entry.declinedCode)]).toEqual([detail, true]);
      expect([detail, DECLINE_DECISIONS.includes(entry.decision)]).toEqual([detail, true]);
      if (TECHNICAL_DECLINE_CODES.includes(entry.declinedCode)) expect([detail, entry.decision]).toEqual([detail, 'retry_other_provider']);
      if (entry.declinedCode === 'insufficient_funds') expect([detail, entry.decision]).not.toEqual([detail, 'retry_other_provider']);
      expect(entry.meaning.length).toBeGreaterThan(0);
    }
  });

  it('knows every rejection the sandbox’s cardholder names force, and a detail it does not know is a final generic decline', () => {
    for (const [code, outcome] of Object.entries(MERCADOPAGO_CARDHOLDER_OUTCOMES)) {
      if (outcome.status !== 'rejected') continue;
      expect([code, MERCADOPAGO_DECLINES[outcome.statusDetail] !== undefined]).toEqual([code, true]);
    }
    expect(declineOf(MERCADOPAGO_DECLINES, 'cc_rejected_something_new')).toMatchObject({ declinedCode: 'generic', decision: 'do_not_retry' });
    expect(fromPayment({ id: 7, status: 'rejected', status_detail: 'cc_rejected_insufficient_amount' }, { cvvSent: true, pixExpiresAt: new Date(0) })).toMatchObject({
      status: 'declined',
      declinedCode: 'insufficient_funds',
      transactionId: '7',
      networkResponseCode: 'cc_rejected_insufficient_amount',
    });
  });
});

describe('Mercado Pago status table', () => {
  it('maps every payment status of the manual but in_mediation', () => {
    expect(MERCADOPAGO_STATUS).toEqual({
      pending: 'pending',
      in_process: 'pending',
      authorized: 'pre_authorized',
      approved: 'authorized',
      'approved/refund in_process': 'refund_pending',
      rejected: 'failed',
      cancelled: 'canceled',
      refunded: 'voided',
      charged_back: 'charged_back',
    });
    expect(toQueryResult({ id: 1, status: 'in_mediation', status_detail: 'in_process' })).toEqual({ found: true, providerStatus: 'in_mediation/in_process' });
  });

  it('reads an approved payment with a refund in process as refund_pending, and what was captured and refunded in centavos', () => {
    const payment = { id: 3, status: 'approved', status_detail: 'partially_refunded', captured: true, transaction_amount: 60, transaction_amount_refunded: 25.5, refunds: [{ id: 9, amount: 10, status: 'in_process' }] };
    expect(stateOf(payment)).toBe('approved/refund in_process');
    expect(toQueryResult(payment)).toEqual({ found: true, status: 'refund_pending', providerStatus: 'approved/partially_refunded', capturedAmount: 6000, refundedAmount: 2550 });
    expect(toQueryResult({ id: 4, status: 'authorized', status_detail: 'pending_capture', captured: false, transaction_amount: 100 })).toEqual({
      found: true,
      status: 'pre_authorized',
      providerStatus: 'authorized/pending_capture',
    });
    expect(toQueryResult({ id: 5, status: 'rejected', status_detail: 'cc_rejected_high_risk', transaction_amount: 1 })).toMatchObject({ status: 'failed', declinedCode: 'fraud_suspect' });
  });

  it('converts centavos to decimal reais and back without losing a centavo', () => {
    for (const cents of [1, 10, 99, 1050, 2099, 123_456_789, 0.29 * 100]) {
      expect(toCentavos(toReais(cents))).toBe(Math.round(cents));
    }
    expect(toReais(1050)).toBe(10.5);
    expect(toCentavos(0.07)).toBe(7);
  });
});
