import { ADYEN_TEST_HOLDER_NAMES } from '@platform/simulators';
import { DECLINED_CODES } from '../../../src/modules/charges/domain/charge';
import { TECHNICAL_DECLINE_CODES } from '../../../src/modules/charges/domain/routing';
import { ADYEN_DECLINES } from '../../../src/modules/connectors/adyen/declineTable';
import { ADYEN_NOTIFICATION_STATUSES, ADYEN_RESULT_CODES } from '../../../src/modules/connectors/adyen/statusTable';
import { fromModificationResponse, fromPaymentResponse } from '../../../src/modules/connectors/adyen/transformers';
import type { AuthorizeRequest } from '../../../src/modules/connectors/domain/types';
import { declineOf } from '../../../src/modules/connectors/kit/tables';

/** Every refusalReasonCode of Adyen's "Refusal reasons" the table maps, by the declinedCode it becomes (technical ones marked). */
const EXPECTED: Record<string, readonly string[]> = {
  card_not_supported: ['10', '34', '35'],
  expired_card: ['6'],
  fraud_suspect: ['14', '20', '22', '31'],
  generic: ['2', '3', '15', '16', '27'],
  insufficient_funds: ['12', '28'],
  invalid_amount: ['7'],
  invalid_cvv: ['24'],
  invalid_data: ['21', '32'],
  invalid_number: ['8'],
  invalid_pin: ['17', '19'],
  'issuer_not_available (technical)': ['9'],
  not_permitted: ['26', '29', '33', '36', '37', '40', '41', '43', '44', '45', '46'],
  pin_try_exceeded: ['18'],
  restricted_card: ['5', '25'],
  security_violation: ['11', '38'],
  transaction_not_allowed: ['23'],
  'try_again (technical)': ['0', '4', '39', '42'],
};

describe('Adyen decline table', () => {
  it('maps exactly the listed refusal reason codes, each to the listed declinedCode', () => {
    const actual: Record<string, string[]> = {};
    for (const [code, entry] of Object.entries(ADYEN_DECLINES)) {
      const group = entry.technical ? `${entry.declinedCode} (technical)` : entry.declinedCode;
      (actual[group] ??= []).push(code);
    }
    const sorted = (groups: Record<string, readonly string[]>) =>
      Object.fromEntries(Object.entries(groups).map(([group, codes]) => [group, [...codes].sort((a, b) => Number(a) - Number(b))]));
    expect(sorted(actual)).toEqual(sorted(EXPECTED));
  });

  it('marks technical exactly the codes the routing treats as technical, and uses only our declined codes', () => {
    for (const [code, entry] of Object.entries(ADYEN_DECLINES)) {
      expect([code, (DECLINED_CODES as readonly string[]).includes(entry.declinedCode)]).toEqual([code, true]);
      expect([code, entry.technical]).toEqual([code, TECHNICAL_DECLINE_CODES.includes(entry.declinedCode)]);
    }
  });

  it('knows every refusal the test platform can force, and an unknown code is a final generic decline', () => {
    for (const [name, [code, , resultCode]] of Object.entries(ADYEN_TEST_HOLDER_NAMES)) {
      if (resultCode === 'Authorised' || resultCode === 'Received') continue;
      expect([name, ADYEN_DECLINES[String(code)] !== undefined]).toEqual([name, true]);
    }
    expect(declineOf(ADYEN_DECLINES, '999')).toMatchObject({ declinedCode: 'generic', technical: false });
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
