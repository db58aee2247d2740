import { DECLINED_CODES } from '../../../src/modules/charges/domain/charge';
import { ProviderUnavailableError, type AuthorizeRequest } from '../../../src/modules/connectors/domain/types';
import { isTechnicalDecline, statusOf, type DeclineDecision } from '../../../src/modules/connectors/kit/tables';
import { PAGARME_DECLINES, pagarmeDeclineOf } from '../../../src/modules/connectors/pagarme/declineTable';
import { failureOf } from '../../../src/modules/connectors/pagarme/errors';
import { PAGARME_CHARGE_STATUS, PAGARME_TRANSACTION_STATUS } from '../../../src/modules/connectors/pagarme/statusTable';
import {
  barcodeOfLine,
  customerOf,
  fromCancel,
  fromCapture,
  fromOrder,
  statementDescriptorOf,
  toQueryResult,
  type PagarmeCharge,
} from '../../../src/modules/connectors/pagarme/transformers';
import { cardData } from '../../support/cards';

const T0 = new Date('2026-11-10T15:00:00Z');

/** Every acquirer_return_code the decline table maps: [code, declinedCode, decision]. */
const DECLINES: Array<[string, string, DeclineDecision]> = [
  ['01', 'invalid_number', 'do_not_retry'], ['03', 'invalid_merchant', 'do_not_retry'], ['04', 'pickup_card', 'do_not_retry'], ['05', 'generic', 'retry_other_provider'],
  ['06', 'invalid_data', 'do_not_retry'], ['07', 'fraud_confirmed', 'do_not_retry'], ['12', 'invalid_data', 'do_not_retry'], ['13', 'invalid_amount', 'do_not_retry'],
  ['14', 'invalid_number', 'do_not_retry'], ['15', 'invalid_number', 'do_not_retry'], ['19', 'generic', 'do_not_retry'], ['23', 'invalid_installment', 'do_not_retry'],
  ['30', 'invalid_data', 'do_not_retry'], ['38', 'pin_try_exceeded', 'do_not_retry'], ['39', 'card_not_supported', 'retry_other_provider'], ['41', 'lost_card', 'do_not_retry'],
  ['43', 'stolen_card', 'do_not_retry'], ['46', 'restricted_card', 'do_not_retry'], ['51', 'insufficient_funds', 'retry_later'], ['52', 'card_not_supported', 'retry_other_provider'],
  ['53', 'card_not_supported', 'retry_other_provider'], ['54', 'expired_card', 'do_not_retry'], ['55', 'invalid_pin', 'do_not_retry'], ['56', 'invalid_number', 'do_not_retry'],
  ['57', 'transaction_not_allowed', 'do_not_retry'], ['58', 'transaction_not_allowed', 'do_not_retry'], ['59', 'fraud_suspect', 'do_not_retry'], ['61', 'insufficient_funds', 'retry_later'],
  ['62', 'restricted_card', 'do_not_retry'], ['63', 'security_violation', 'do_not_retry'], ['64', 'transaction_not_allowed', 'do_not_retry'], ['65', 'not_permitted', 'do_not_retry'],
  ['70', 'invalid_pin', 'do_not_retry'], ['74', 'invalid_pin', 'do_not_retry'], ['75', 'pin_try_exceeded', 'do_not_retry'], ['76', 'invalid_data', 'do_not_retry'],
  ['77', 'restricted_card', 'do_not_retry'], ['78', 'restricted_card', 'do_not_retry'], ['81', 'invalid_pin', 'do_not_retry'], ['82', 'invalid_data', 'do_not_retry'],
  ['83', 'fraud_suspect', 'do_not_retry'], ['86', 'invalid_pin', 'do_not_retry'], ['88', 'invalid_data', 'do_not_retry'], ['91', 'issuer_not_available', 'retry_other_provider'],
  ['92', 'generic', 'do_not_retry'], ['93', 'transaction_not_allowed', 'do_not_retry'], ['94', 'generic', 'do_not_retry'], ['96', 'try_again', 'retry_other_provider'],
  ['N0', 'generic', 'retry_other_provider'], ['N3', 'service_not_allowed', 'do_not_retry'], ['N4', 'insufficient_funds', 'retry_later'], ['N7', 'security_violation', 'do_not_retry'],
  ['N8', 'invalid_amount', 'do_not_retry'], ['R0', 'service_not_allowed', 'do_not_retry'], ['R1', 'service_not_allowed', 'do_not_retry'], ['R2', 'transaction_not_allowed', 'do_not_retry'],
  ['R3', 'service_not_allowed', 'do_not_retry'], ['AB', 'card_not_supported', 'retry_other_provider'], ['AC', 'card_not_supported', 'retry_other_provider'], ['P5', 'invalid_pin', 'do_not_retry'],
  ['P6', 'invalid_pin', 'do_not_retry'], ['6P', 'invalid_data', 'do_not_retry'], ['FM', 'card_not_supported', 'do_not_retry'], ['B1', 'not_permitted', 'do_not_retry'],
  ['B2', 'not_permitted', 'do_not_retry'], ['1000', 'generic', 'retry_other_provider'], ['1001', 'expired_card', 'do_not_retry'], ['1011', 'invalid_number', 'do_not_retry'],
  ['1016', 'insufficient_funds', 'retry_later'], ['1045', 'invalid_cvv', 'do_not_retry'], ['2000', 'pickup_card', 'do_not_retry'], ['9111', 'try_again', 'retry_other_provider'],
  ['antifraud_reproved', 'fraud_suspect', 'do_not_retry'],
];

describe('Pagar.me decline table', () => {
  it('lists every mapped code, each to one of our declined codes', () => {
    expect(Object.keys(PAGARME_DECLINES).sort()).toEqual(DECLINES.map(([code]) => code).sort());
    for (const [code, declinedCode, decision] of DECLINES) {
      expect([code, pagarmeDeclineOf(code).declinedCode, pagarmeDeclineOf(code).decision]).toEqual([code, declinedCode, decision]);
      expect(DECLINED_CODES).toContain(PAGARME_DECLINES[code]!.declinedCode);
      expect(PAGARME_DECLINES[code]!.meaning.length).toBeGreaterThan(0);
    }
    // Only the "try later" and "issuer down" codes are technical, and they retry on another provider.
    expect(DECLINES.filter(([code]) => isTechnicalDecline(pagarmeDeclineOf(code))).map(([code]) => code)).toEqual(['91', '96', '9111']);
    expect(DECLINES.filter(([, declinedCode]) => declinedCode === 'try_again' || declinedCode === 'issuer_not_available').every(([, , decision]) => decision === 'retry_other_provider')).toBe(true);
  });

  it('reads a one-digit ABECS code as its two-digit form, and the earlier codes by family', () => {
    expect(pagarmeDeclineOf('5')).toMatchObject({ declinedCode: 'generic', code: '05' });
    expect(pagarmeDeclineOf(51)).toMatchObject({ declinedCode: 'insufficient_funds', code: '51' });
    expect(pagarmeDeclineOf(' n7 ')).toMatchObject({ declinedCode: 'security_violation', code: 'N7' });
    expect(pagarmeDeclineOf('1025')).toMatchObject({ declinedCode: 'generic', decision: 'retry_other_provider', code: '1025' });
    expect(pagarmeDeclineOf('2004')).toMatchObject({ declinedCode: 'pickup_card', decision: 'do_not_retry' });
    expect(pagarmeDeclineOf('9107')).toMatchObject({ declinedCode: 'try_again', decision: 'retry_other_provider' });
  });

  it('a code the table does not know is a final generic decline, never an approval', () => {
    expect(pagarmeDeclineOf('ZZ')).toMatchObject({ declinedCode: 'generic', decision: 'do_not_retry', meaning: 'code ZZ not in the table' });
    expect(pagarmeDeclineOf(undefined)).toMatchObject({ declinedCode: 'generic', decision: 'do_not_retry', meaning: 'code (none) not in the table' });
    expect(pagarmeDeclineOf('0000').declinedCode).toBe('generic');
  });
});

describe('Pagar.me status tables', () => {
  it('maps every charge status the API Reference lists', () => {
    expect(PAGARME_CHARGE_STATUS).toEqual({
      pending: 'pending',
      processing: 'pending',
      paid: 'authorized',
      overpaid: 'authorized',
      underpaid: 'authorized',
      failed: 'failed',
      canceled: 'voided',
      chargedback: 'charged_back',
    });
    expect(statusOf(PAGARME_CHARGE_STATUS, 'refunded_elsewhere')).toBeUndefined();
  });

  it('maps the transaction statuses that say more than their charge', () => {
    expect(PAGARME_TRANSACTION_STATUS).toEqual({
      authorized_pending_capture: 'pre_authorized',
      waiting_capture: 'capture_pending',
      waiting_cancellation: 'refund_pending',
      with_error: 'pending',
    });
  });

  it.each<[PagarmeCharge, Record<string, unknown>]>([
    [{ status: 'pending', last_transaction: { status: 'authorized_pending_capture' } }, { status: 'pre_authorized' }],
    [{ status: 'pending', last_transaction: { status: 'waiting_capture' } }, { status: 'capture_pending' }],
    [{ status: 'paid', paid_amount: 1000, canceled_amount: 300, last_transaction: { status: 'waiting_cancellation' } }, { status: 'refund_pending', capturedAmount: 1000, refundedAmount: 300 }],
    [{ status: 'processing', last_transaction: { status: 'with_error' } }, { status: 'pending' }],
    [{ status: 'underpaid', paid_amount: 900 }, { status: 'authorized', capturedAmount: 900 }],
    [{ status: 'chargedback', paid_amount: 1000 }, { status: 'charged_back', capturedAmount: 1000 }],
    [{ status: 'canceled', canceled_amount: 1000, last_transaction: { status: 'voided' } }, { status: 'voided' }],
    [{ status: 'failed', last_transaction: { status: 'not_authorized', acquirer_return_code: '51' } }, { status: 'failed', declinedCode: 'insufficient_funds' }],
  ])('queries %j as %j', (charge, expected) => {
    const result = toQueryResult(charge);
    expect(result).toMatchObject({ found: true, ...expected });
    if (!('refundedAmount' in expected)) expect(result.refundedAmount).toBeUndefined();
  });

  it('a status neither table knows changes nothing, and says what Pagar.me said', () => {
    const result = toQueryResult({ status: 'something_new', last_transaction: { status: 'odd' } });
    expect(result.status).toBeUndefined();
    expect(result.providerStatus).toBe('something_new (odd)');
  });
});

describe('Pagar.me answers', () => {
  const order = (charge: PagarmeCharge) => ({ id: 'or_1', charges: [{ id: 'ch_1', ...charge }] });

  it('a refusal by the antifraud, a technical code and a canceled charge', () => {
    expect(fromOrder(order({ status: 'failed', payment_method: 'credit_card', last_transaction: { status: 'not_authorized', antifraud_response: { status: 'reproved' } } }), () => T0, 60)).toMatchObject({
      status: 'declined',
      declinedCode: 'fraud_suspect',
    });
    expect(fromOrder(order({ status: 'failed', payment_method: 'credit_card', last_transaction: { acquirer_return_code: '96', acquirer_message: 'Falha no sistema' } }), () => T0, 60)).toMatchObject({
      status: 'declined',
      declinedCode: 'try_again',
      networkResponseCode: '96',
      message: 'Pagar.me failed: 96 Falha no sistema',
    });
    expect(fromOrder(order({ status: 'canceled' }), () => T0, 60)).toMatchObject({ status: 'canceled', transactionId: 'ch_1' });
    expect(fromOrder({ id: 'or_1', charges: [] }, () => T0, 60)).toMatchObject({ status: 'declined', declinedCode: 'generic' });
  });

  it('gateway errors are kept in the message without card numbers', () => {
    const result = fromOrder(order({ status: 'failed', last_transaction: { gateway_response: { code: '400', errors: [{ message: 'card 4000000000000010 refused' }] } } }), () => T0, 60);
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'generic' });
    expect((result as { message: string }).message).toBe('Pagar.me failed: (no code) card [redacted] refused');
  });

  it('a Pix without its expiry expires as asked', () => {
    const result = fromOrder(order({ status: 'pending', payment_method: 'pix', last_transaction: { qr_code: '000201', qr_code_url: 'https://x.test/qr' } }), () => T0, 120);
    expect(result).toMatchObject({ status: 'pending', pix: { qrCodeData: '000201', expiresAt: new Date(T0.getTime() + 120_000) } });
  });

  it('captures, cancellations and refunds the acquirer settles later are pending; a technical refusal is technical', () => {
    expect(fromCapture({ status: 'pending', last_transaction: { status: 'waiting_capture' } }, 'ch_1').result).toMatchObject({ status: 'pending' });
    expect(fromCancel({ status: 'paid', last_transaction: { status: 'waiting_cancellation' } }, 'ch_1').result).toMatchObject({ status: 'pending' });
    expect(fromCancel({ status: 'paid', canceled_amount: 100 }, 'ch_1').result).toMatchObject({ status: 'success' });
    expect(fromCancel({ status: 'paid' }, 'ch_1').result).toMatchObject({ status: 'failed' });
    expect(fromCapture({ status: 'failed', last_transaction: { acquirer_return_code: '9111' } }, 'ch_1')).toMatchObject({ technical: true, result: { status: 'failed', declinedCode: 'try_again' } });
  });

  it('the bar code of a digitable line (FEBRABAN layout), check digits included', () => {
    const mod10 = (digits: string) => {
      let sum = 0;
      [...digits].reverse().forEach((d, i) => {
        const product = Number(d) * (i % 2 === 0 ? 2 : 1);
        sum += Math.floor(product / 10) + (product % 10);
      });
      return String((10 - (sum % 10)) % 10);
    };
    const mod11 = (digits: string) => {
      let sum = 0;
      [...digits].reverse().forEach((d, i) => (sum += Number(d) * ((i % 8) + 2)));
      const dv = 11 - (sum % 11);
      return dv === 0 || dv === 10 || dv === 11 ? '1' : String(dv);
    };
    const free = '3141592653589793238462643';
    const rest = `0019${'1116'}${'0000001500'}${free}`;
    const dv = mod11(rest);
    const barcode = `${rest.slice(0, 4)}${dv}${rest.slice(4)}`;
    const f1 = `0019${free.slice(0, 5)}`;
    const f2 = free.slice(5, 15);
    const f3 = free.slice(15, 25);
    const line = `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${dv}11160000001500`;
    expect(line).toHaveLength(47);
    expect(barcodeOfLine(line)).toBe(barcode);
    expect(barcodeOfLine(`${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10)}`)).toBe(barcode);
    expect(barcodeOfLine('123')).toBeUndefined();
  });

  it('statement descriptors of 13 letters, digits and spaces', () => {
    expect(statementDescriptorOf('Loja São João*Online')).toBe('Loja Sao Joao');
    expect(statementDescriptorOf('***')).toBeUndefined();
  });
});

describe('Pagar.me customer', () => {
  const request = (overrides: Partial<AuthorizeRequest>): AuthorizeRequest => ({
    chargeId: 'c',
    merchantId: 'm',
    amount: 100,
    currency: 'BRL',
    capture: true,
    paymentType: 'credit',
    installments: 1,
    ...overrides,
  });

  it('is the payer’s own data when the charge names one, else the entry’s fallback, else the name on the card', () => {
    const fallback = { customer: { name: 'Loja', email: 'fin@loja.test', document: '11222333000181', phones: { mobile_phone: { country_code: '55', area_code: '11', number: '999999999' } } } };
    expect(customerOf(request({ payer: { name: 'Ana', document: { type: 'cpf', number: '111.444.777-35' } } }), fallback)).toEqual({
      name: 'Ana',
      document: '11144477735',
      type: 'individual',
    });
    expect(customerOf(request({ payer: { email: 'ana@example.test' }, card: cardData('4000000000000010', '123') }), fallback)).toEqual({ name: 'Maria Souza', email: 'ana@example.test', type: 'individual' });
    expect(customerOf(request({}), fallback)).toMatchObject({ name: 'Loja', document: '11222333000181', type: 'company' });
    expect(customerOf(request({ card: cardData('4000000000000010', '123') }), {})).toEqual({ name: 'Maria Souza', type: 'individual' });
    expect(customerOf(request({ payer: { email: 'x@y.test' } }), {})).toBeUndefined();
  });
});

describe('Pagar.me errors', () => {
  it('credentials, not found, requests and the technical statuses', () => {
    expect(failureOf({ status: 401, headers: {}, body: { message: 'Authorization has been denied for this request.' } })).toEqual({ kind: 'credentials', message: 'Pagar.me refused the secret key (HTTP 401)' });
    expect(failureOf({ status: 403, headers: {}, body: '' }).kind).toBe('credentials');
    expect(failureOf({ status: 404, headers: {}, body: { message: 'Charge not found.' } })).toEqual({ kind: 'not_found', message: 'Pagar.me does not know it (HTTP 404): Charge not found.' });
    expect(failureOf({ status: 412, headers: {}, body: { message: 'The charge cannot be captured.' } })).toEqual({ kind: 'request', message: 'Pagar.me refused the request (HTTP 412): The charge cannot be captured.' });
    expect(() => failureOf({ status: 429, headers: {}, body: '' })).toThrow(ProviderUnavailableError);
  });

  it('a validation error names the fields and never what the request carried', () => {
    const failure = failureOf({
      status: 422,
      headers: {},
      body: { message: 'The request is invalid.', errors: { 'order.customer.document': ['The document 11144477735 is invalid.'], key: ['sk_test_abcdef123456 is not yours'] } },
    });
    expect(failure).toEqual({
      kind: 'request',
      message: 'Pagar.me refused the request (HTTP 422): The request is invalid.; order.customer.document: The document [redacted] is invalid.; key: [redacted] is not yours',
    });
  });
});
