import type { payments } from '@platform/contracts';
import { CLIENT_ID, CREATED_AT, UPDATED_AT } from './helpers';

export const MERCHANT_ID = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const PROVIDER_ID = '1f2e3d4c-5b6a-4978-8a6b-5c4d3e2f1a0b';
export const BACKUP_PROVIDER_ID = '2a3b4c5d-6e7f-4081-9a2b-3c4d5e6f7a8b';
export const CARD_ID = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const TOKEN_ID = '3b4c5d6e-7f80-4192-a3b4-c5d6e7f8091a';
export const CHARGE_ID = '5d6e7f80-91a2-4b3c-8d4e-5f60718293a4';
export const FLOW_ID = '7f8091a2-b3c4-4d5e-9f60-718293a4b5c6';
export const SELLER_ID = '8091a2b3-c4d5-4e6f-8071-8293a4b5c6d7';

export const emptyMeta = { itemCount: 0, totalItems: 0, itemsPerPage: 10, totalPages: 0, currentPage: 1 };
export const meta = (over: Partial<Record<string, number>> = {}) => ({ itemCount: 1, totalItems: 1, itemsPerPage: 10, totalPages: 1, currentPage: 1, ...over });

export function sampleProvider(overrides: Partial<payments.Provider> = {}): payments.Provider {
  return {
    id: PROVIDER_ID,
    merchantId: MERCHANT_ID,
    name: 'sandbox-primary',
    priority: 1,
    credentialsType: 'SANDBOX',
    options: undefined,
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

export function sampleMerchant(overrides: Partial<payments.Merchant> = {}): payments.Merchant {
  return {
    id: MERCHANT_ID,
    clientId: CLIENT_ID,
    mcc: '5411',
    name: 'Loja Centro',
    merchantName: '',
    merchantUrl: 'https://shop.example.com',
    status: 'active',
    providers: [sampleProvider()],
    platformFeeEnabled: false,
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

export function sampleFlow(overrides: Partial<payments.Flow> = {}): payments.Flow {
  return {
    id: FLOW_ID,
    clientId: CLIENT_ID,
    merchantId: MERCHANT_ID,
    name: 'high tickets',
    paymentMethod: 'credit',
    rules: [{ when: { amountGte: 100_000, cardBrand: 'visa' }, route: [BACKUP_PROVIDER_ID, PROVIDER_ID] }],
    defaultRoute: [PROVIDER_ID],
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

export function sampleCard(overrides: Partial<payments.Card> = {}): payments.Card {
  return {
    id: CARD_ID,
    clientId: CLIENT_ID,
    customerId: '',
    status: 'active',
    brand: 'visa',
    cardHolderName: 'ANA SOUZA',
    first6digits: '411111',
    last4digits: '1111',
    expirationMonth: 12,
    expirationYear: 2030,
    fingerprint: 'fp_5b1c',
    cvvChecked: true,
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    merchantId: MERCHANT_ID,
    ...overrides,
  };
}

export function sampleTransactionRequest(overrides: Partial<payments.TransactionRequest> = {}): payments.TransactionRequest {
  return {
    id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    idempotencyKey: 'idem-1',
    providerId: PROVIDER_ID,
    providerType: 'SANDBOX',
    transactionId: 'sbx_tx_1',
    amount: 1500,
    authorizationNsu: '123456',
    requestStatus: 'success',
    requestType: 'authorization',
    responseTs: '182',
    providerAuthorization: { networkAuthorizationCode: 'A1B2C3', networkResponseCode: '00' },
    declinedCode: '',
    message: '',
    splitRules: [],
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

export function sampleCharge(overrides: Partial<payments.Charge> = {}): payments.Charge {
  return {
    id: CHARGE_ID,
    clientId: CLIENT_ID,
    merchantId: MERCHANT_ID,
    customerId: '',
    sessionId: '',
    amount: 1500,
    originalAmount: 1500,
    capturedAmount: 1500,
    refundedAmount: 0,
    currency: 'BRL',
    orderId: 'order-42',
    statementDescriptor: '',
    description: '',
    capture: true,
    isDispute: false,
    status: 'authorized',
    paymentMethod: {
      paymentType: 'credit',
      installments: 3,
      recurrence: '',
      expiresIn: 0,
      expiresDate: '',
      instructions: '',
      qrCodeData: '',
      qrCodeImageUrl: '',
      barcodeData: '',
      barcodeImageUrl: '',
      digitableLine: '',
    },
    paymentSource: {
      sourceType: 'card',
      cardId: CARD_ID,
      customerId: '',
      brand: 'visa',
      first6digits: '411111',
      last4digits: '1111',
      cardHolderName: 'ANA SOUZA',
      expirationMonth: 12,
      expirationYear: 2030,
      cvvChecked: true,
    },
    transactionRequests: [sampleTransactionRequest()],
    splitRules: [],
    providerId: PROVIDER_ID,
    providerType: 'SANDBOX',
    providerName: 'sandbox-primary',
    declinedCode: '',
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}
