import { DECLINED_CODES } from '../../../src/modules/charges/domain/charge';
import { NotificationRefusedError, ProviderUnavailableError } from '../../../src/modules/connectors/domain/types';
import { declineOf, statusOf, type DeclineDecision } from '../../../src/modules/connectors/kit/tables';
import { CIELO_CANCELLATION_CODES, CIELO_DECLINES } from '../../../src/modules/connectors/cielo/declineTable';
import { failureOf } from '../../../src/modules/connectors/cielo/errors';
import { cieloNotifications } from '../../../src/modules/connectors/cielo/notifications';
import { CIELO_STATUS } from '../../../src/modules/connectors/cielo/statusTable';
import { fromSale, fromVoid, merchantOrderIdOf, parseCieloDate, requestIdOf, toQueryResult } from '../../../src/modules/connectors/cielo/transformers';

const T0 = new Date('2026-03-10T15:00:00Z');
const PAYMENT_ID = '1997be4d-694a-472e-98f0-e7f4b4c8f1e7';

/** Every ReturnCode the decline table maps: [code, declinedCode, decision]. */
const DECLINES: Array<[string, string, DeclineDecision]> = [
  ['5', 'generic', 'retry_other_provider'], ['05', 'generic', 'retry_other_provider'], ['51', 'insufficient_funds', 'retry_later'], ['55', 'invalid_pin', 'do_not_retry'],
  ['86', 'invalid_pin', 'do_not_retry'], ['57', 'transaction_not_allowed', 'do_not_retry'], ['14', 'invalid_number', 'do_not_retry'], ['56', 'invalid_number', 'do_not_retry'],
  ['1', 'invalid_number', 'do_not_retry'], ['01', 'invalid_number', 'do_not_retry'], ['63', 'security_violation', 'do_not_retry'], ['N7', 'security_violation', 'do_not_retry'],
  ['59', 'fraud_suspect', 'do_not_retry'], ['58', 'transaction_not_allowed', 'do_not_retry'], ['3', 'invalid_merchant', 'do_not_retry'], ['03', 'invalid_merchant', 'do_not_retry'],
  ['4', 'pickup_card', 'do_not_retry'], ['04', 'pickup_card', 'do_not_retry'], ['6', 'generic', 'do_not_retry'], ['06', 'invalid_data', 'do_not_retry'],
  ['7', 'fraud_confirmed', 'do_not_retry'], ['07', 'fraud_confirmed', 'do_not_retry'], ['19', 'generic', 'do_not_retry'], ['30', 'invalid_data', 'do_not_retry'],
  ['12', 'invalid_data', 'do_not_retry'], ['13', 'invalid_amount', 'do_not_retry'], ['23', 'invalid_installment', 'do_not_retry'], ['38', 'pin_try_exceeded', 'do_not_retry'],
  ['75', 'pin_try_exceeded', 'do_not_retry'], ['41', 'lost_card', 'do_not_retry'], ['43', 'stolen_card', 'do_not_retry'], ['54', 'expired_card', 'do_not_retry'],
  ['61', 'insufficient_funds', 'retry_later'], ['N4', 'insufficient_funds', 'retry_later'], ['62', 'restricted_card', 'do_not_retry'], ['64', 'transaction_not_allowed', 'do_not_retry'],
  ['65', 'not_permitted', 'do_not_retry'], ['83', 'fraud_suspect', 'do_not_retry'], ['74', 'invalid_pin', 'do_not_retry'], ['81', 'invalid_pin', 'do_not_retry'],
  ['88', 'invalid_data', 'do_not_retry'], ['76', 'invalid_data', 'do_not_retry'], ['77', 'restricted_card', 'do_not_retry'], ['78', 'restricted_card', 'do_not_retry'],
  ['82', 'invalid_data', 'do_not_retry'], ['91', 'issuer_not_available', 'retry_other_provider'], ['96', 'try_again', 'retry_other_provider'], ['N8', 'invalid_amount', 'do_not_retry'],
  ['AB', 'card_not_supported', 'retry_other_provider'], ['52', 'card_not_supported', 'retry_other_provider'], ['53', 'card_not_supported', 'retry_other_provider'], ['AC', 'card_not_supported', 'retry_other_provider'],
  ['39', 'card_not_supported', 'retry_other_provider'], ['P5', 'invalid_pin', 'do_not_retry'], ['P6', 'invalid_pin', 'do_not_retry'], ['15', 'invalid_number', 'do_not_retry'],
  ['92', 'generic', 'do_not_retry'], ['93', 'transaction_not_allowed', 'do_not_retry'], ['94', 'generic', 'do_not_retry'], ['B1', 'not_permitted', 'do_not_retry'],
  ['B2', 'not_permitted', 'do_not_retry'], ['N0', 'generic', 'retry_other_provider'], ['N3', 'service_not_allowed', 'do_not_retry'], ['R0', 'service_not_allowed', 'do_not_retry'],
  ['R1', 'service_not_allowed', 'do_not_retry'], ['R2', 'transaction_not_allowed', 'do_not_retry'], ['R3', 'service_not_allowed', 'do_not_retry'], ['25', 'generic', 'do_not_retry'],
  ['28', 'generic', 'do_not_retry'], ['46', 'restricted_card', 'do_not_retry'], ['6P', 'invalid_data', 'do_not_retry'], ['FM', 'card_not_supported', 'do_not_retry'],
  ['FA', 'generic', 'retry_other_provider'], ['A5', 'insufficient_funds', 'retry_later'], ['A6', 'invalid_pin', 'do_not_retry'], ['FD', 'transaction_not_allowed', 'do_not_retry'],
  ['8', 'invalid_number', 'do_not_retry'], ['08', 'invalid_number', 'do_not_retry'], ['DA', 'invalid_merchant', 'do_not_retry'], ['A2', 'invalid_data', 'do_not_retry'],
  ['A3', 'invalid_data', 'do_not_retry'], ['JB', 'invalid_amount', 'do_not_retry'], ['A4', 'pin_try_exceeded', 'do_not_retry'], ['BV', 'expired_card', 'do_not_retry'],
  ['A7', 'invalid_pin', 'do_not_retry'], ['A1', 'issuer_not_available', 'retry_other_provider'], ['AE', 'try_again', 'retry_other_provider'], ['2', 'fraud_suspect', 'do_not_retry'],
  ['02', 'fraud_suspect', 'do_not_retry'], ['21', 'generic', 'retry_other_provider'], ['22', 'invalid_installment', 'do_not_retry'], ['24', 'invalid_installment', 'do_not_retry'],
  ['60', 'try_again', 'retry_other_provider'], ['67', 'restricted_card', 'do_not_retry'], ['70', 'insufficient_funds', 'retry_later'], ['72', 'generic', 'retry_other_provider'],
  ['79', 'transaction_not_allowed', 'do_not_retry'], ['80', 'invalid_data', 'do_not_retry'], ['85', 'invalid_data', 'do_not_retry'], ['89', 'try_again', 'retry_other_provider'],
  ['90', 'invalid_data', 'do_not_retry'], ['97', 'invalid_amount', 'do_not_retry'], ['98', 'try_again', 'retry_other_provider'], ['475', 'try_again', 'retry_other_provider'],
  ['999', 'issuer_not_available', 'retry_other_provider'], ['AA', 'issuer_not_available', 'retry_other_provider'], ['AF', 'invalid_data', 'do_not_retry'], ['AG', 'invalid_data', 'do_not_retry'],
  ['AH', 'card_not_supported', 'retry_other_provider'], ['AI', 'security_violation', 'do_not_retry'], ['AJ', 'card_not_supported', 'retry_other_provider'], ['AV', 'invalid_data', 'do_not_retry'],
  ['BD', 'invalid_data', 'do_not_retry'], ['BL', 'insufficient_funds', 'retry_later'], ['BM', 'invalid_number', 'do_not_retry'], ['BN', 'restricted_card', 'do_not_retry'],
  ['BO', 'invalid_data', 'do_not_retry'], ['BP', 'restricted_card', 'do_not_retry'], ['BP171', 'fraud_suspect', 'do_not_retry'], ['BP176', 'invalid_merchant', 'retry_other_provider'],
  ['BP900', 'try_again', 'retry_other_provider'], ['BP901', 'try_again', 'retry_other_provider'], ['BP902', 'try_again', 'retry_other_provider'], ['BP903', 'try_again', 'retry_other_provider'],
  ['BP904', 'try_again', 'retry_other_provider'], ['BR', 'restricted_card', 'do_not_retry'], ['C1', 'card_not_supported', 'retry_other_provider'], ['C2', 'invalid_data', 'do_not_retry'],
  ['C3', 'transaction_not_allowed', 'do_not_retry'], ['CF', 'invalid_data', 'do_not_retry'], ['CG', 'invalid_data', 'do_not_retry'], ['DF', 'invalid_data', 'do_not_retry'],
  ['DM', 'insufficient_funds', 'retry_later'], ['DQ', 'invalid_data', 'do_not_retry'], ['DS', 'transaction_not_allowed', 'do_not_retry'], ['EB', 'invalid_installment', 'do_not_retry'],
  ['EE', 'invalid_installment', 'do_not_retry'], ['EK', 'transaction_not_allowed', 'do_not_retry'], ['FC', 'generic', 'retry_other_provider'], ['FE', 'invalid_data', 'do_not_retry'],
  ['FG', 'generic', 'retry_other_provider'], ['GA', 'fraud_suspect', 'do_not_retry'], ['GF', 'invalid_merchant', 'retry_other_provider'], ['GD', 'invalid_merchant', 'retry_other_provider'],
  ['GT', 'security_violation', 'do_not_retry'], ['GK', 'security_violation', 'do_not_retry'], ['HJ', 'invalid_data', 'do_not_retry'], ['IA', 'invalid_data', 'do_not_retry'],
  ['KA', 'invalid_data', 'do_not_retry'], ['KB', 'invalid_data', 'do_not_retry'], ['KE', 'invalid_data', 'do_not_retry'], ['NR', 'not_permitted', 'retry_later'],
  ['RP', 'not_permitted', 'retry_later'], ['SC', 'service_not_allowed', 'do_not_retry'], ['U3', 'invalid_data', 'do_not_retry'], ['99', 'try_again', 'retry_other_provider'],
  ['841', 'generic', 'do_not_retry'], ['842', 'generic', 'do_not_retry'], ['843', 'generic', 'do_not_retry'],
];

/** Every cancellation ReturnCode mapped: [code, declinedCode, decision] (retry_other_provider: Cielo could not answer, the void is asked again). */
const CANCELLATIONS: Array<[string, string, DeclineDecision]> = [
  ['3', 'generic', 'do_not_retry'], ['5', 'generic', 'retry_other_provider'], ['10', 'generic', 'retry_other_provider'], ['17', 'generic', 'do_not_retry'],
  ['40', 'generic', 'do_not_retry'], ['41', 'generic', 'do_not_retry'], ['42', 'generic', 'do_not_retry'], ['51', 'invalid_amount', 'do_not_retry'],
  ['52', 'generic', 'do_not_retry'], ['53', 'generic', 'do_not_retry'], ['54', 'generic', 'do_not_retry'], ['55', 'generic', 'do_not_retry'],
  ['56', 'generic', 'do_not_retry'], ['57', 'generic', 'retry_other_provider'], ['58', 'generic', 'do_not_retry'], ['60', 'generic', 'do_not_retry'],
  ['72', 'generic', 'do_not_retry'], ['76', 'generic', 'do_not_retry'], ['77', 'generic', 'do_not_retry'], ['97', 'generic', 'retry_other_provider'],
  ['98', 'generic', 'retry_other_provider'], ['99', 'generic', 'retry_other_provider'], ['100', 'generic', 'do_not_retry'], ['101', 'generic', 'do_not_retry'],
  ['102', 'invalid_amount', 'do_not_retry'], ['103', 'generic', 'do_not_retry'], ['104', 'generic', 'do_not_retry'], ['105', 'generic', 'do_not_retry'],
  ['106', 'generic', 'do_not_retry'], ['107', 'generic', 'do_not_retry'], ['108', 'invalid_merchant', 'do_not_retry'], ['116', 'generic', 'do_not_retry'],
  ['117', 'generic', 'retry_other_provider'], ['120', 'generic', 'do_not_retry'], ['121', 'generic', 'do_not_retry'], ['130', 'generic', 'do_not_retry'],
  ['160', 'generic', 'do_not_retry'], ['206', 'invalid_amount', 'do_not_retry'], ['209', 'generic', 'do_not_retry'], ['215', 'generic', 'do_not_retry'],
  ['217', 'generic', 'do_not_retry'], ['221', 'invalid_amount', 'do_not_retry'], ['223', 'generic', 'retry_other_provider'], ['475', 'generic', 'retry_other_provider'],
  ['476', 'generic', 'retry_other_provider'], ['477', 'generic', 'do_not_retry'], ['504', 'generic', 'retry_other_provider'], ['576', 'generic', 'do_not_retry'],
  ['9016', 'generic', 'do_not_retry'],
];

describe('Cielo decline table', () => {
  const byCode = (table: typeof CIELO_DECLINES) => Object.fromEntries(Object.entries(table).map(([code, entry]) => [code, [entry.declinedCode, entry.decision]]));
  const listed = (rows: Array<[string, string, DeclineDecision]>) => Object.fromEntries(rows.map(([code, declinedCode, decision]) => [code, [declinedCode, decision]]));

  it('maps exactly the listed codes', () => {
    expect(byCode(CIELO_DECLINES)).toEqual(listed(DECLINES));
    expect(Object.keys(CIELO_DECLINES)).toHaveLength(DECLINES.length);
    expect(byCode(CIELO_CANCELLATION_CODES)).toEqual(listed(CANCELLATIONS));
    expect(Object.keys(CIELO_CANCELLATION_CODES)).toHaveLength(CANCELLATIONS.length);
  });

  it('uses only our declined codes and says what each code means', () => {
    for (const entry of [...Object.values(CIELO_DECLINES), ...Object.values(CIELO_CANCELLATION_CODES)]) {
      expect(DECLINED_CODES).toContain(entry.declinedCode);
      expect(entry.meaning.length).toBeGreaterThan(3);
    }
  });

  it.each([
    ['05', 'generic', 'retry_other_provider'],
    ['57', 'transaction_not_allowed', 'do_not_retry'],
    ['78', 'restricted_card', 'do_not_retry'],
    ['99', 'try_again', 'retry_other_provider'],
    ['77', 'restricted_card', 'do_not_retry'],
    ['70', 'insufficient_funds', 'retry_later'],
    ['91', 'issuer_not_available', 'retry_other_provider'],
    ['96', 'try_again', 'retry_other_provider'],
    ['AA', 'issuer_not_available', 'retry_other_provider'],
    ['841', 'generic', 'do_not_retry'],
    ['842', 'generic', 'do_not_retry'],
    ['843', 'generic', 'do_not_retry'],
  ])('the sandbox, try-later and capture code %s', (code, declinedCode, decision) => {
    expect(declineOf(CIELO_DECLINES, code)).toMatchObject({ declinedCode, decision });
  });

  it('an unknown code is a final generic decline', () => {
    expect(declineOf(CIELO_DECLINES, 'ZZ')).toMatchObject({ declinedCode: 'generic', decision: 'do_not_retry' });
  });
});

describe('Cielo status table', () => {
  it.each([
    [0, 'pending'],
    [1, 'pre_authorized'],
    [2, 'authorized'],
    [3, 'failed'],
    [10, 'voided'],
    [11, 'voided'],
    [12, 'pending'],
    [13, 'failed'],
    [20, 'pending'],
  ])('Payment.Status %d is %s', (status, expected) => {
    expect(statusOf(CIELO_STATUS, status)).toBe(expected);
  });

  it('a status the manual does not list changes nothing', () => {
    expect(Object.keys(CIELO_STATUS)).toEqual(['0', '1', '2', '3', '10', '11', '12', '13', '20']);
    expect(statusOf(CIELO_STATUS, 5)).toBeUndefined();
  });
});

describe('Cielo notifications', () => {
  const read = (body: unknown, headers: Record<string, string> = {}, credentials: Record<string, unknown> = { type: 'CIELO' }) =>
    cieloNotifications.read({ headers, rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), query: {} }, credentials);

  it('names the PaymentId to query back and trusts no status', () => {
    expect(read({ RecurrentPaymentId: '24bc8366-fc31-4d6c-8555-17049a836a07', PaymentId: PAYMENT_ID, ChangeType: 2 })).toEqual({
      transactions: [{ transactionId: PAYMENT_ID }],
      reply: { status: 200 },
    });
    expect(read({ PaymentId: PAYMENT_ID, ChangeType: '1', Status: 2 }).transactions).toEqual([{ transactionId: PAYMENT_ID }]);
  });

  it.each([
    ['no PaymentId', { ChangeType: 1 }],
    ['a PaymentId that is not a GUID', { PaymentId: '12345', ChangeType: 1 }],
    ['an unknown ChangeType', { PaymentId: PAYMENT_ID, ChangeType: 6 }],
    ['no ChangeType', { PaymentId: PAYMENT_ID }],
    ['not JSON', '{PaymentId'],
    ['an array', [{ PaymentId: PAYMENT_ID, ChangeType: 1 }]],
  ])('refuses a body with %s', (_case, body) => {
    expect(() => read(body)).toThrow(NotificationRefusedError);
  });

  it('requires the headers registered with Cielo when the entry lists them, without echoing them', () => {
    const credentials = { type: 'CIELO', notificationHeaders: { 'X-Store-Key': 's3cr3t-value' } };
    const body = { PaymentId: PAYMENT_ID, ChangeType: 1 };
    expect(read(body, { 'x-store-key': 's3cr3t-value' }, credentials).transactions).toHaveLength(1);
    expect(() => read(body, {}, credentials)).toThrow(NotificationRefusedError);
    let message = '';
    try {
      read(body, { 'x-store-key': 'wrong' }, credentials);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('X-Store-Key');
    expect(message).not.toContain('s3cr3t');
  });
});

describe('Cielo errors', () => {
  it('reads the API error array', () => {
    expect(failureOf({ status: 400, headers: {}, body: [{ Code: 126, Message: 'Credit Card Expiration Date is invalid' }] })).toEqual({
      kind: 'request',
      message: 'Cielo refused the request: 126 Credit Card Expiration Date is invalid',
      codes: ['126'],
    });
  });

  it('a 401 is refused credentials, a 404 an unknown sale, a 429 technical', () => {
    expect(failureOf({ status: 401, headers: {}, body: '' }).kind).toBe('credentials');
    expect(failureOf({ status: 404, headers: {}, body: '' }).kind).toBe('not_found');
    expect(() => failureOf({ status: 429, headers: {}, body: '' })).toThrow(ProviderUnavailableError);
  });
});

describe('Cielo transformers', () => {
  it('derives one GUID RequestId per idempotency key', () => {
    expect(requestIdOf('a')).toBe(requestIdOf('a'));
    expect(requestIdOf('a')).not.toBe(requestIdOf('b'));
    expect(requestIdOf('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keeps MerchantOrderId to letters and digits', () => {
    expect(merchantOrderIdOf('ch_0f4a-3c2e')).toBe('ch0f4a3c2e');
  });

  it('reads Cielo dates as Brasília time', () => {
    expect(parseCieloDate('2020-10-15 18:53:20')).toEqual(new Date('2020-10-15T21:53:20Z'));
    expect(parseCieloDate('yesterday')).toBeUndefined();
  });

  it('reads the manual\'s Pix answer, spelled Paymentid', () => {
    const result = fromSale(
      { Payment: { Paymentid: PAYMENT_ID, Type: 'Pix', QrCodeString: '000201', QrcodeBase64Image: 'rfhviy64ak', Amount: 100, ReceivedDate: '2020-10-15 18:53:20', Status: 12, ReturnCode: '0' } },
      () => T0,
    );
    expect(result).toEqual({
      status: 'pending',
      transactionId: PAYMENT_ID,
      pix: { qrCodeData: '000201', qrCodeImageUrl: 'data:image/png;base64,rfhviy64ak', expiresAt: new Date('2020-10-15T23:53:20Z') },
    });
  });

  it('a sale NotFinished is pending, an Aborted one declined by its code', () => {
    expect(fromSale({ Payment: { PaymentId: PAYMENT_ID, Status: 0 } }, () => T0)).toEqual({ status: 'pending', transactionId: PAYMENT_ID });
    expect(fromSale({ Payment: { PaymentId: PAYMENT_ID, Status: 13, ReturnCode: '96' } }, () => T0)).toMatchObject({ status: 'declined', declinedCode: 'try_again' });
  });

  it('a decline message keeps no card number or key Cielo wrote back', () => {
    const result = fromSale({ Payment: { PaymentId: PAYMENT_ID, Status: 3, ReturnCode: '05', ReturnMessage: 'Not Authorized 4551870000000181 JVFMTZCHFMYKJNSAPXMOUMJTQLDKWFOVKISZXOLK' } }, () => T0);
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'generic' });
    expect(JSON.stringify(result)).not.toMatch(/4551870000000181|JVFMTZCHFMYKJNSAPXMOUMJTQLDKWFOVKISZXOLK/);
  });

  it('a void with a cancellation code is refused, technical when Cielo could not answer', () => {
    expect(fromVoid({ Status: 2, ReturnCode: '9' }, PAYMENT_ID).result.status).toBe('success');
    expect(fromVoid({ Status: 2, ReturnCode: '98', ReturnMessage: 'Timeout' }, PAYMENT_ID)).toMatchObject({ result: { status: 'failed' }, technical: true });
    expect(fromVoid({ Status: 2, ReturnCode: '55' }, PAYMENT_ID)).toMatchObject({ result: { status: 'failed' }, technical: false });
  });

  it('a query of a voided pre-authorization reports no refund', () => {
    expect(toQueryResult({ Payment: { PaymentId: PAYMENT_ID, Status: 10, Amount: 100, VoidedAmount: 100 } })).toEqual({
      found: true,
      status: 'voided',
      providerStatus: '10 Voided',
    });
  });
});
