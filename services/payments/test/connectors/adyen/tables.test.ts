import { ADYEN_TEST_HOLDER_NAMES } from '@platform/simulators';
import { DECLINED_CODES } from '../../../src/modules/charges/domain/charge';
import { TECHNICAL_DECLINE_CODES } from '../../../src/modules/charges/domain/routing';
import { ADYEN_DECLINES } from '../../../src/modules/connectors/adyen/declineTable';
import { ADYEN_NOTIFICATION_STATUSES, ADYEN_RESULT_CODES } from '../../../src/modules/connectors/adyen/statusTable';
import { fromModificationResponse, fromPaymentResponse } from '../../../src/modules/connectors/adyen/transformers';
import type { AuthorizeRequest } from '../../../src/modules/connectors/domain/types';
import { DECLINE_DECISIONS, declineOf } from '../../../src/modules/connectors/kit/tables';

/** Every refusalReasonCode of Adyen's "Refusal reasons" the table maps, by the declinedCode it becomes and the decision it leads to. */
const EXPECTED: Record<string, readonly string[]> = {
  'card_not_supported (retry_other_provider)': ['10', '34', '35'],
  'expired_card (do_not_retry)': ['6'],
  'fraud_suspect (do_not_retry)': ['14', '20', '22', '31'],
  'generic (retry_other_provider)': ['2', '3', '15', '16', '27'],
  'insufficient_funds (retry_later)': ['12', '28'],
  'invalid_amount (do_not_retry)': ['7'],
  'invalid_cvv (do_not_retry)': ['24'],
  'invalid_data (do_not_retry)': ['21', '32'],
  'invalid_number (do_not_retry)': ['8'],
  'invalid_pin (do_not_retry)': ['17', '19'],
  'issuer_not_available (retry_other_provider)': ['9'],
  'not_permitted (do_not_retry)': ['26', '29', '33', '36', '37', '40', '41', '43', '44', '45', '46'],
  'pin_try_exceeded (do_not_retry)': ['18'],
  'restricted_card (do_not_retry)': ['5', '25'],
  'security_violation (do_not_retry)': ['11', '38'],
  'transaction_not_allowed (do_not_retry)': ['23'],
  'try_again (retry_other_provider)': ['0', '4', '39', '42'],
};

describe('Adyen decline table', () => {
  it('maps exactly the listed refusal reason codes, each to the listed declinedCode', () => {
    const actual: Record<string, string[]> = {};
    for (const [code, entry] of Object.entries(ADYEN_DECLINES)) {
      const group = `${entry.declinedCode} (${entry.decision})`;
      (actual[group] ??= []).push(code);
    }
    const sorted = (groups: Record<string, readonly string[]>) =>
      Object.fromEntries(Object.entries(groups).map(([group, codes]) => [group, [...codes].sort((a, b) => Number(a) - Number(b))]));
    expect(sorted(actual)).toEqual(sorted(EXPECTED));
  });

  it('decides every code: technical ones retry on another provider, insufficient funds later, and uses only our declined codes', () => {
    for (const [code, entry] of Object.entries(ADYEN_DECLINES)) {
      expect([code, (DECLINED_CODES as readonly string[]).includes(entry.declinedCode)]).toEqual([code, true]);
      expect([code, DECLINE_DECISIONS.includes(entry.decision)]).toEqual([code, true]);
      if (TECHNICAL_DECLINE_CODES.includes(entry.declinedCode)) expect([code, entry.decision]).toEqual([code, 'retry_other_provider']);
      if (entry.declinedCode === 'insufficient_funds') expect([code, entry.decision]).not.toEqual([code, 'retry_other_provider']);
    }
  });

  it('knows every refusal the test platform can force, and an unknown code is a final generic decline', () => {
    for (const [name, [code, , resultCode]] of Object.entries(ADYEN_TEST_HOLDER_NAMES)) {
      if (resultCode === 'Authorised' || resultCode === 'Received') continue;
      expect([name, ADYEN_DECLINES[String(code)] !== undefined]).toEqual([name, true]);
    }
    expect(declineOf(ADYEN_DECLINES, '999')).toMatchObject({ declinedCode: 'generic', decision: 'do_not_retry' });
  });
});

describe('Adyen status tables', () => {
  const request = (capture: boolean): AuthorizeRequest => ({
    chargeId: 'c',
    merchantId: 'm',
    amount: 1000,
    currency: 'BRL',
    capture,
    paymentType: 'credit',
    installments: 1,
  });

  it('maps every resultCode a card payment answers', () => {
    expect(ADYEN_RESULT_CODES).toEqual({
      Authorised: 'authorized',
      Refused: 'failed',
      Error: 'failed',
      Cancelled: 'canceled',
      Pending: 'pending',
      Received: 'pending',
      PartiallyAuthorised: 'failed',
    });
  });

  it('turns each resultCode into the authorization result it means', () => {
    const answer = (resultCode: string, extra: Record<string, unknown> = {}) => ({ pspReference: '8800000000000001', resultCode, ...extra }) as Parameters<typeof fromPaymentResponse>[0];
    expect(fromPaymentResponse(answer('Authorised', { additionalData: { authCode: '123456' } }), request(true))).toMatchObject({ status: 'authorized', captured: true, networkAuthorizationCode: '123456' });
    expect(fromPaymentResponse(answer('Authorised'), request(false))).toMatchObject({ status: 'authorized', captured: false });
    expect(fromPaymentResponse(answer('Received'), request(true))).toEqual({ status: 'pending', transactionId: '8800000000000001' });
    expect(fromPaymentResponse(answer('Pending'), request(true))).toEqual({ status: 'pending', transactionId: '8800000000000001' });
    expect(fromPaymentResponse(answer('Cancelled'), request(true))).toMatchObject({ status: 'canceled' });
    expect(fromPaymentResponse(answer('Refused', { refusalReasonCode: '24' }), request(true))).toMatchObject({ status: 'declined', declinedCode: 'invalid_cvv' });
    expect(fromPaymentResponse(answer('Error', { refusalReasonCode: '4' }), request(true))).toMatchObject({ status: 'declined', declinedCode: 'try_again' });
    expect(fromPaymentResponse(answer('RedirectShopper'), request(true))).toMatchObject({ status: 'declined', declinedCode: 'not_permitted' });
    expect(fromPaymentResponse(answer('ChallengeShopper'), request(true))).toMatchObject({ status: 'declined', declinedCode: 'not_permitted' });
  });

  it('maps every notification event it acts on, and nothing else', () => {
    expect(ADYEN_NOTIFICATION_STATUSES).toEqual({
      'AUTHORISATION:true': 'authorized',
      'AUTHORISATION:true:held': 'pre_authorized',
      'AUTHORISATION:false': 'failed',
      'CAPTURE:true': 'authorized',
      'CAPTURE:false': 'failed',
      'CAPTURE_FAILED:true': 'failed',
      'CANCELLATION:true': 'voided',
      'CANCELLATION:false': 'failed',
      'REFUND:true': 'voided',
      'REFUND:false': 'authorized',
      'CANCEL_OR_REFUND:true': 'voided',
      'TECHNICAL_CANCEL:true': 'voided',
      'CHARGEBACK:true': 'charged_back',
    });
  });

  it('a modification answered received is pending; any other answer is a failure', () => {
    expect(fromModificationResponse({ status: 'received', pspReference: '8800000000000002' }, 'refund')).toMatchObject({ status: 'pending', transactionId: '8800000000000002' });
    expect(fromModificationResponse({ status: 'refused' }, 'refund')).toMatchObject({ status: 'failed' });
  });
});
