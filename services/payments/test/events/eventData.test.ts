import { toChargeJson, toMerchantJson } from '@platform/api-model';
import type { Charge, TransactionRequestRecord } from '../../src/modules/charges/domain/charge';
import type { Merchant } from '../../src/modules/merchants/domain/merchant';
import { chargeEventData } from '../../src/modules/charges/events/chargeEvents';
import { toChargeMessage } from '../../src/modules/charges/wire/chargeMessages';
import { toMerchantMessage } from '../../src/modules/merchants/wire/merchantMessages';

const at = new Date('2030-01-01T00:00:00Z');

function request(overrides: Partial<TransactionRequestRecord> = {}): TransactionRequestRecord {
  return {
    id: 'r1',
    chargeId: 'c1',
    clientId: 'k1',
    idempotencyKey: 'c1:authorization:1',
    providerId: 'p1',
    providerType: 'SANDBOX',
    transactionId: 't1',
    amount: 1000,
    authorizationNsu: '123456',
    requestStatus: 'success',
    requestType: 'authorization',
    responseMs: 12,
    networkAuthorizationCode: null,
    networkResponseCode: '00',
    declinedCode: null,
    message: null,
    splitRules: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

function charge(overrides: Partial<Charge> = {}): Charge {
  return {
    id: 'c1',
    clientId: 'k1',
    merchantId: 'm1',
    customerId: null,
    sessionId: null,
    cardId: null,
    amount: 1000,
    originalAmount: 1000,
    capturedAmount: 1000,
    refundedAmount: 0,
    currency: 'BRL',
    orderId: 'order-1',
    statementDescriptor: null,
    description: null,
    capture: true,
    isDispute: false,
    status: 'authorized',
    paymentMethod: { paymentType: 'credit', installments: 1 },
    paymentSource: { sourceType: 'card', brand: 'visa', first6digits: '411111', last4digits: '1111', cvvChecked: true },
    splitRules: [],
    platformFee: null,
    antifraud: null,
    appInfo: null,
    fraudAnalysis: null,
    providerId: 'p1',
    providerType: 'SANDBOX',
    providerName: 'sandbox',
    declinedCode: null,
    transactionRequests: [request()],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe('the data of a charge event', () => {
  it('is the charge as the REST API answers it, from the same mapper', () => {
    const data = chargeEventData(charge());
    expect(data).toEqual(toChargeJson(toChargeMessage(charge())));
    expect(data).toMatchObject({ id: 'c1', status: 'authorized', statementDescriptor: null, createdAt: '2030-01-01T00:00:00.000Z' });
    expect(data.paymentMethod).toMatchObject({ paymentType: 'credit', installments: 1, recurrence: null, expiresAt: null });
    expect(data.paymentSource).toMatchObject({ last4digits: '1111', cardId: null, customer: null });
    expect(JSON.stringify(data)).not.toMatch(/cardNumber|cardCvv/);
  });

  it('shows each transaction request with its provider authorization and split, empty or not', () => {
    const [plain] = chargeEventData(charge()).transactionRequests;
    expect(plain).toMatchObject({ providerAuthorization: { networkAuthorizationCode: null, networkResponseCode: '00' }, splitRules: [], responseTs: '12' });
    const refund = request({ id: 'r2', requestType: 'refund', splitRules: [{ sellerId: 's1', amount: 400 }] });
    const [, split] = chargeEventData(charge({ transactionRequests: [request(), refund] })).transactionRequests;
    expect(split!.splitRules).toEqual([{ sellerId: 's1', amount: 400 }]);
  });

  it('keeps a split charge and its platform fee as percentages and amounts, null when not given', () => {
    const data = chargeEventData(
      charge({
        splitRules: [{ sellerId: 's1', percentage: 10_000, processingFee: true, chargeRemainderFee: false, liable: true }],
        platformFee: { amount: 50, fixedAmount: 50 },
      }),
    );
    expect(data.splitRules).toEqual([{ sellerId: 's1', percentage: 10_000, amount: null, processingFee: true, chargeRemainderFee: false, liable: true }]);
    expect(data.platformFee).toEqual({ amount: 50, percentage: null, fixedAmount: 50 });
  });
});

describe('the data of a merchant event', () => {
  it('shows the providers with their credentials type only', () => {
    const merchant: Merchant = {
      id: 'm',
      clientId: 'c',
      mcc: '5411',
      name: '',
      merchantName: '',
      merchantUrl: '',
      status: 'active',
      platformFeeEnabled: false,
      platformFeeRules: [],
      providers: [{ id: 'p', clientId: 'c', merchantId: 'm', name: 'sandbox', priority: 1, credentialsType: 'SANDBOX', options: {}, createdAt: at, updatedAt: at }],
      createdAt: at,
      updatedAt: at,
    };
    expect(toMerchantJson(toMerchantMessage(merchant)).providers).toEqual([
      { id: 'p', merchantId: 'm', name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' }, options: {}, createdAt: at.toISOString(), updatedAt: at.toISOString() },
    ]);
  });
});
