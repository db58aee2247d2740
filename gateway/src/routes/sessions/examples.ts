import type { Example } from '../../http/route';
import { SANDBOX_CARDS, SAMPLE } from '../../openapi/samples';
import type { z } from '../../openapi/zod';
import { PRE_AUTHORIZED } from '../charges/examples';
import type { ChargeSchema } from '../charges/schemas';
import type { ChargeSessionBody, CreateSessionBody, SessionSchema } from './schemas';

export const CREATE_SESSION: Record<string, Example<z.input<typeof CreateSessionBody>>> = {
  once: {
    summary: 'A payment link paid once, by card in up to 3 installments or by Pix',
    value: {
      merchantId: SAMPLE.merchantId,
      name: 'Pedido 42',
      orderId: 'order-42',
      paymentMethods: [
        { paymentType: 'credit', installments: 3 },
        { paymentType: 'pix', expiresIn: 3_600 },
      ],
      items: [
        { name: 'Camiseta', unitPrice: 4_000, quantity: 2 },
        { name: 'Frete', unitPrice: 1_500, quantity: 1 },
      ],
    },
  },
  many: {
    summary: 'A link paid up to 100 times by card, until its due date',
    value: {
      merchantId: SAMPLE.merchantId,
      name: 'Ingresso',
      maxPayments: 100,
      dueDate: '2026-04-30T23:59:59.000Z',
      paymentMethods: [{ paymentType: 'credit', installments: 1 }],
      items: [{ name: 'Ingresso', unitPrice: 5_000, quantity: 1 }],
    },
  },
};

export const SESSION: z.input<typeof SessionSchema> = {
  id: SAMPLE.sessionId,
  clientId: SAMPLE.clientId,
  merchantId: SAMPLE.merchantId,
  name: 'Pedido 42',
  orderId: 'order-42',
  amount: 9_500,
  currency: 'BRL',
  capture: null,
  dueDate: null,
  isActive: true,
  status: 'created',
  publicKey: 'sk_session_ExampleKeyThatReachesThisSessionOnly_0000',
  paymentLink: `${SAMPLE.publicUrl}/checkout/${SAMPLE.sessionId}`,
  paymentMethods: [
    { paymentType: 'credit', installments: 3, expiresIn: null, expiresDate: null, instructions: null },
    { paymentType: 'pix', installments: null, expiresIn: 3_600, expiresDate: null, instructions: null },
  ],
  items: [
    { name: 'Camiseta', unitPrice: 4_000, quantity: 2, description: null },
    { name: 'Frete', unitPrice: 1_500, quantity: 1, description: null },
  ],
  splitRules: [],
  statementDescriptor: null,
  multiplePayments: { allow: false, maxPayments: 1, paymentCount: 0, pendingCount: 0, status: 'enabled' },
  createdAt: SAMPLE.createdAt,
  updatedAt: SAMPLE.createdAt,
};

export const CHARGE_SESSION: z.input<typeof ChargeSessionBody> = {
  paymentMethod: { paymentType: 'credit', installments: 3 },
  paymentSource: { sourceType: 'card', card: { ...SANDBOX_CARDS.approved } },
};

/** The buyer's charge of SESSION, by the SANDBOX card that authorizes (captured, as the session does not say otherwise). */
export const SESSION_CHARGE: z.input<typeof ChargeSchema> = {
  ...PRE_AUTHORIZED,
  id: SAMPLE.sessionChargeId,
  sessionId: SAMPLE.sessionId,
  amount: 9_500,
  originalAmount: 9_500,
  capturedAmount: 9_500,
  orderId: 'order-42',
  capture: true,
  status: 'authorized',
  paymentMethod: { ...PRE_AUTHORIZED.paymentMethod!, installments: 3 },
  paymentSource: { ...PRE_AUTHORIZED.paymentSource!, cardId: null, cvvChecked: true },
  transactionRequests: [
    {
      ...PRE_AUTHORIZED.transactionRequests[0]!,
      id: 'a1f0c9d8-3e47-4b26-9c15-8d7e6f5a4b32',
      idempotencyKey: `${SAMPLE.sessionChargeId}:authorization:1`,
      amount: 9_500,
      message: 'authorized',
      providerAuthorization: { networkAuthorizationCode: 'B1CFB0', networkResponseCode: '00' },
    },
  ],
};
