import { DECLINED_CODES } from '../../../src/modules/charges/domain/charge';
import { NotificationRefusedError, ProviderUnavailableError } from '../../../src/modules/connectors/domain/types';
import { declineOf, statusOf } from '../../../src/modules/connectors/kit/tables';
import { CIELO_CANCELLATION_CODES, CIELO_DECLINES } from '../../../src/modules/connectors/cielo/declineTable';
import { failureOf } from '../../../src/modules/connectors/cielo/errors';
import { cieloNotifications } from '../../../src/modules/connectors/cielo/notifications';
import { CIELO_STATUS } from '../../../src/modules/connectors/cielo/statusTable';
import { fromSale, fromVoid, merchantOrderIdOf, parseCieloDate, requestIdOf, toQueryResult } from '../../../src/modules/connectors/cielo/transformers';

const T0 = new Date('2026-03-10T15:00:00Z');
const PAYMENT_ID = '1997be4d-694a-472e-98f0-e7f4b4c8f1e7';

/** Every ReturnCode the decline table maps: [code, declinedCode, technical]. */
const DECLINES: Array<[string, string, boolean]> = [
  ['5', 'generic', false], ['05', 'generic', false], ['51', 'insufficient_funds', false], ['55', 'invalid_pin', false],
  ['86', 'invalid_pin', false], ['57', 'transaction_not_allowed', false], ['14', 'invalid_number', false], ['56', 'invalid_number', false],
  ['1', 'invalid_number', false], ['01', 'invalid_number', false], ['63', 'security_violation', false], ['N7', 'security_violation', false],
  ['59', 'fraud_suspect', false], ['58', 'transaction_not_allowed', false], ['3', 'invalid_merchant', false], ['03', 'invalid_merchant', false],
  ['4', 'pickup_card', false], ['04', 'pickup_card', false], ['6', 'generic', false], ['06', 'invalid_data', false],
  ['7', 'fraud_confirmed', false], ['07', 'fraud_confirmed', false], ['19', 'generic', false], ['30', 'invalid_data', false],
  ['12', 'invalid_data', false], ['13', 'invalid_amount', false], ['23', 'invalid_installment', false], ['38', 'pin_try_exceeded', false],
  ['75', 'pin_try_exceeded', false], ['41', 'lost_card', false], ['43', 'stolen_card', false], ['54', 'expired_card', false],
  ['61', 'insufficient_funds', false], ['N4', 'insufficient_funds', false], ['62', 'restricted_card', false], ['64', 'transaction_not_allowed', false],
  ['65', 'not_permitted', false], ['83', 'fraud_suspect', false], ['74', 'invalid_pin', false], ['81', 'invalid_pin', false],
  ['88', 'invalid_data', false], ['76', 'invalid_data', false], ['77', 'restricted_card', false], ['78', 'restricted_card', false],
  ['82', 'invalid_data', false], ['91', 'issuer_not_available', true], ['96', 'try_again', true], ['N8', 'invalid_amount', false],
  ['AB', 'card_not_supported', false], ['52', 'card_not_supported', false], ['53', 'card_not_supported', false], ['AC', 'card_not_supported', false],
  ['39', 'card_not_supported', false], ['P5', 'invalid_pin', false], ['P6', 'invalid_pin', false], ['15', 'invalid_number', false],
  ['92', 'generic', false], ['93', 'transaction_not_allowed', false], ['94', 'generic', false], ['B1', 'not_permitted', false],
  ['B2', 'not_permitted', false], ['N0', 'generic', false], ['N3', 'service_not_allowed', false], ['R0', 'service_not_allowed', false],
  ['R1', 'service_not_allowed', false], ['R2', 'transaction_not_allowed', false], ['R3', 'service_not_allowed', false], ['25', 'generic', false],
  ['28', 'generic', false], ['46', 'restricted_card', false], ['6P', 'invalid_data', false], ['FM', 'card_not_supported', false],
  ['FA', 'generic', false], ['A5', 'insufficient_funds', false], ['A6', 'invalid_pin', false], ['FD', 'transaction_not_allowed', false],
  ['8', 'invalid_number', false], ['08', 'invalid_number', false], ['DA', 'invalid_merchant', false], ['A2', 'invalid_data', false],
  ['A3', 'invalid_data', false], ['JB', 'invalid_amount', false], ['A4', 'pin_try_exceeded', false], ['BV', 'expired_card', false],
  ['A7', 'invalid_pin', false], ['A1', 'issuer_not_available', true], ['AE', 'try_again', true], ['2', 'fraud_suspect', false],
  ['02', 'fraud_suspect', false], ['21', 'generic', false], ['22', 'invalid_installment', false], ['24', 'invalid_installment', false],
  ['60', 'try_again', true], ['67', 'restricted_card', false], ['70', 'insufficient_funds', false], ['72', 'generic', false],
  ['79', 'transaction_not_allowed', false], ['80', 'invalid_data', false], ['85', 'invalid_data', false], ['89', 'try_again', true],
  ['90', 'invalid_data', false], ['97', 'invalid_amount', false], ['98', 'try_again', true], ['475', 'try_again', true],
  ['999', 'issuer_not_available', true], ['AA', 'issuer_not_available', true], ['AF', 'invalid_data', false], ['AG', 'invalid_data', false],
  ['AH', 'card_not_supported', false], ['AI', 'security_violation', false], ['AJ', 'card_not_supported', false], ['AV', 'invalid_data', false],
  ['BD', 'invalid_data', false], ['BL', 'insufficient_funds', false], ['BM', 'invalid_number', false], ['BN', 'restricted_card', false],
  ['BO', 'invalid_data', false], ['BP', 'restricted_card', false], ['BP171', 'fraud_suspect', false], ['BP176', 'invalid_merchant', false],
  ['BP900', 'try_again', true], ['BP901', 'try_again', true], ['BP902', 'try_again', true], ['BP903', 'try_again', true],
  ['BP904', 'try_again', true], ['BR', 'restricted_card', false], ['C1', 'card_not_supported', false], ['C2', 'invalid_data', false],
  ['C3', 'transaction_not_allowed', false], ['CF', 'invalid_data', false], ['CG', 'invalid_data', false], ['DF', 'invalid_data', false],
  ['DM', 'insufficient_funds', false], ['DQ', 'invalid_data', false], ['DS', 'transaction_not_allowed', false], ['EB', 'invalid_installment', false],
  ['EE', 'invalid_installment', false], ['EK', 'transaction_not_allowed', false], ['FC', 'generic', false], ['FE', 'invalid_data', false],
  ['FG', 'generic', false], ['GA', 'fraud_suspect', false], ['GF', 'invalid_merchant', false], ['GD', 'invalid_merchant', false],
  ['GT', 'security_violation', false], ['GK', 'security_violation', false], ['HJ', 'invalid_data', false], ['IA', 'invalid_data', false],
  ['KA', 'invalid_data', false], ['KB', 'invalid_data', false], ['KE', 'invalid_data', false], ['NR', 'not_permitted', false],
  ['RP', 'not_permitted', false], ['SC', 'service_not_allowed', false], ['U3', 'invalid_data', false], ['99', 'try_again', true],
  ['841', 'generic', false], ['842', 'generic', false], ['843', 'generic', false],
];

/** Every cancellation ReturnCode mapped: [code, declinedCode, technical]. */
const CANCELLATIONS: Array<[string, string, boolean]> = [
  ['3', 'generic', false], ['5', 'generic', true], ['10', 'generic', true], ['17', 'generic', false],
  ['40', 'generic', false], ['41', 'generic', false], ['42', 'generic', false], ['51', 'invalid_amount', false],
  ['52', 'generic', false], ['53', 'generic', false], ['54', 'generic', false], ['55', 'generic', false],
  ['56', 'generic', false], ['57', 'generic', true], ['58', 'generic', false], ['60', 'generic', false],
  ['72', 'generic', false], ['76', 'generic', false], ['77', 'generic', false], ['97', 'generic', true],
  ['98', 'generic', true], ['99', 'generic', true], ['100', 'generic', false], ['101', 'generic', false],
  ['102', 'invalid_amount', false], ['103', 'generic', false], ['104', 'generic', false], ['105', 'generic', false],
  ['106', 'generic', false], ['107', 'generic', false], ['108', 'invalid_merchant', false], ['116', 'generic', false],
  ['117', 'generic', true], ['120', 'generic', false], ['121', 'generic', false], ['130', 'generic', false],
  ['160', 'generic', false], ['206', 'invalid_amount', false], ['209', 'generic', false], ['215', 'generic', false],
  ['217', 'generic', false], ['221', 'invalid_amount', false], ['223', 'generic', true], ['475', 'generic', true],
  ['476', 'generic', true], ['477', 'generic', false], ['504', 'generic', true], ['576', 'generic', false],
  ['9016', 'generic', false],
];

describe('Cielo decline table', () => {
  const byCode = (table: typeof CIELO_DECLINES) => Object.fromEntries(Object.entries(table).map(([code, entry]) => [code, [entry.declinedCode, entry.technical]]));
  const listed = (rows: Array<[string, string, boolean]>) => Object.fromEntries(rows.map(([code, declinedCode, technical]) => [code, [declinedCode, technical]]));

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
    ['05', 'generic', false],
    ['57', 'transaction_not_allowed', false],
    ['78', 'restricted_card', false],
    ['99', 'try_again', true],
    ['77', 'restricted_card', false],
    ['70', 'insufficient_funds', false],
    ['91', 'issuer_not_available', true],
    ['96', 'try_again', true],
    ['AA', 'issuer_not_available', true],
    ['841', 'generic', false],
    ['842', 'generic', false],
    ['843', 'generic', false],
  ])('the sandbox, try-later and capture code %s', (code, declinedCode, technical) => {
    expect(declineOf(CIELO_DECLINES, code)).toMatchObject({ declinedCode, technical });
  });

  it('an unknown code is a final generic decline', () => {
    expect(declineOf(CIELO_DECLINES, 'ZZ')).toMatchObject({ declinedCode: 'generic', technical: false });
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
