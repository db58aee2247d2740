import type { Example } from '../../http/route';
import { SANDBOX_CARDS, SAMPLE } from '../../openapi/samples';
import type { z } from '../../openapi/zod';
import type { CaptureChargeBody, ChargeSchema, CreateChargeBody, VoidChargeBody } from './schemas';

type Charge = z.input<typeof ChargeSchema>;
type TransactionRequest = Charge['transactionRequests'][number];

const CREDIT = { paymentType: 'credit', installments: 1 } as const;

export const CREATE_CHARGE: Record<string, Example<z.input<typeof CreateChargeBody>>> = {
  savedCard: {
    summary: 'Authorize only, on a saved card (capture later)',
    value: { merchantId: SAMPLE.merchantId, amount: 10_000, currency: 'BRL', capture: false, orderId: 'order-1001', paymentMethod: CREDIT, paymentSource: { sourceType: 'card', cardId: SAMPLE.cardId } },
  },
  sandboxCard: {
    summary: 'A card typed by the buyer: the SANDBOX card ending 0 authorizes',
    value: { merchantId: SAMPLE.merchantId, amount: 10_000, paymentMethod: { paymentType: 'credit', installments: 3 }, paymentSource: { sourceType: 'card', card: { ...SANDBOX_CARDS.approved } } },
  },
  declinedCard: {
    summary: 'The SANDBOX card ending 2 is declined (insufficient_funds)',
    value: { merchantId: SAMPLE.merchantId, amount: 1_000, paymentMethod: CREDIT, paymentSource: { sourceType: 'card', card: { ...SANDBOX_CARDS.declined } } },
  },
  pix: {
    summary: 'Pix for a stored customer: pending with its QR code until paid',
    value: { merchantId: SAMPLE.merchantId, amount: 2_500, paymentMethod: { paymentType: 'pix', expiresIn: 3_600 }, paymentSource: { sourceType: 'customer', customerId: SAMPLE.customerId } },
  },
};

const request = (fields: Partial<TransactionRequest> & Pick<TransactionRequest, 'id' | 'requestType' | 'amount'>): TransactionRequest => ({
  idempotencyKey: `${SAMPLE.chargeId}:${fields.requestType}:1`,
  providerId: SAMPLE.providerId,
  providerType: 'SANDBOX',
  transactionId: 'sbx_d655e5b6dd6c466a9ec1a7d43da54d29',
  authorizationNsu: '343833670',
  requestStatus: 'success',
  responseTs: '1',
  providerAuthorization: { networkAuthorizationCode: '18B916', networkResponseCode: '00' },
  declinedCode: null,
  message: null,
  splitRules: [],
  routingReason: fields.requestType === 'authorization' ? 'priority' : null,
  createdAt: SAMPLE.createdAt,
  updatedAt: SAMPLE.createdAt,
  ...fields,
});

const AUTHORIZATION = request({ id: '32fc5bcf-2d7a-4da6-ba55-cc69df3471e7', requestType: 'authorization', amount: 10_000, message: 'pre-authorized' });
const CAPTURE = request({
  id: '5b0c61f2-8e0a-4c57-9b1e-0f7d4c9a2e31',
  requestType: 'capture',
  amount: 5_000,
  message: 'capture done',
  providerAuthorization: { networkAuthorizationCode: '5A5371', networkResponseCode: '00' },
  createdAt: SAMPLE.updatedAt,
  updatedAt: SAMPLE.updatedAt,
});
const REFUND = request({
  id: 'c3a9e7d4-1f26-4b8e-a5d0-7e6f9b2c4a18',
  requestType: 'refund',
  amount: 5_000,
  message: 'refund done',
  providerAuthorization: { networkAuthorizationCode: '8FD2A6', networkResponseCode: '00' },
  createdAt: SAMPLE.updatedAt,
  updatedAt: SAMPLE.updatedAt,
});

/** The charge of CREATE_CHARGE.savedCard: authorized, not captured. */
export const PRE_AUTHORIZED: Charge = {
  id: SAMPLE.chargeId,
  clientId: SAMPLE.clientId,
  merchantId: SAMPLE.merchantId,
  customerId: null,
  sessionId: null,
  amount: 10_000,
  originalAmount: 10_000,
  capturedAmount: 0,
  refundedAmount: 0,
  currency: 'BRL',
  orderId: 'order-1001',
  statementDescriptor: null,
  description: null,
  capture: false,
  isDispute: false,
  status: 'pre_authorized',
  paymentMethod: {
    paymentType: 'credit',
    installments: 1,
    recurrence: null,
    expiresIn: null,
    expiresDate: null,
    instructions: null,
    interest: null,
    fine: null,
    qrCodeData: null,
    qrCodeImageUrl: null,
    barcodeData: null,
    barcodeImageUrl: null,
    digitableLine: null,
    expiresAt: null,
  },
  paymentSource: {
    sourceType: 'card',
    cardId: SAMPLE.cardId,
    customerId: null,
    brand: 'visa',
    first6digits: '400000',
    last4digits: '0010',
    cardHolderName: 'Ana Souza',
    expirationMonth: 12,
    expirationYear: 2030,
    cvvChecked: false,
    customer: null,
  },
  transactionRequests: [AUTHORIZATION],
  splitRules: [],
  platformFee: null,
  antifraud: null,
  appInfo: null,
  fraudAnalysis: null,
  providerId: SAMPLE.providerId,
  providerType: 'SANDBOX',
  providerName: 'sandbox-a',
  declinedCode: null,
  createdAt: SAMPLE.createdAt,
  updatedAt: SAMPLE.createdAt,
};

/** CREATE_CHARGE.declinedCard: a decline is still a charge, failed with the reason in its transaction request. */
export const DECLINED: Charge = {
  ...PRE_AUTHORIZED,
  id: SAMPLE.declinedChargeId,
  amount: 1_000,
  originalAmount: 1_000,
  orderId: null,
  capture: true,
  status: 'failed',
  paymentSource: { ...PRE_AUTHORIZED.paymentSource!, cardId: null, last4digits: '0002' },
  transactionRequests: [
    request({
      id: '0e4b7c2a-9d13-4f68-b2a5-6c8e1f3d7a90',
      idempotencyKey: `${SAMPLE.declinedChargeId}:authorization:1`,
      requestType: 'authorization',
      requestStatus: 'declined',
      amount: 1_000,
      transactionId: null,
      authorizationNsu: null,
      responseTs: '0',
      providerAuthorization: { networkAuthorizationCode: null, networkResponseCode: '51' },
      declinedCode: 'insufficient_funds',
      message: 'Declined by SANDBOX: insufficient_funds',
    }),
  ],
  declinedCode: 'insufficient_funds',
};

export const CAPTURE_CHARGE: z.input<typeof CaptureChargeBody> = { amount: 5_000 };

export const CAPTURED: Charge = {
  ...PRE_AUTHORIZED,
  status: 'authorized',
  capturedAmount: 5_000,
  transactionRequests: [AUTHORIZATION, CAPTURE],
  updatedAt: SAMPLE.updatedAt,
};

export const VOID_CHARGE: z.input<typeof VoidChargeBody> = { amount: 5_000 };

export const REFUNDED: Charge = {
  ...CAPTURED,
  status: 'voided',
  refundedAmount: 5_000,
  transactionRequests: [AUTHORIZATION, CAPTURE, REFUND],
};
