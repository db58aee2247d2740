import {
  toApiKeyRevokedJson,
  toCardJson,
  toChargeJson,
  toClientJson,
  toCustomerCardLinkJson,
  toCustomerJson,
  toFlowJson,
  toLinkSettingsJson,
  toMerchantJson,
  toPaymentBatchJson,
  toPrepaymentJson,
  toProviderJson,
  toSellerJson,
  toSessionJson,
  toSubscriptionCycleJson,
  toSubscriptionJson,
  toSubscriptionSettingsJson,
} from '@platform/api-model';
import { customers, payments, payouts, sellers, sessions, settings } from '@platform/contracts';
import type { PublicEvent, PublicEventKind } from './publicEvents';

/**
 * An example body of every public event, for `GET /v1/webhooks/event-types`. `data` is made by the same mapper the
 * publishing service uses (one per resource, in `@platform/api-model`), from a made-up resource, so an example has
 * every field a real event has, `null` where the example has no value, and cannot fall behind the REST shape.
 */

const CLIENT_ID = '7bd83048-0bc4-4e53-8d54-b50d167929d7';
const MERCHANT_ID = '91ea6caf-bad9-41f4-96bf-99d8201376a0';
const PROVIDER_ID = '1ce6e5ec-0cf9-445b-a7a6-9d109143c8aa';
const CUSTOMER_ID = '043aa3b9-ec5f-4d6c-b09f-dcea1f9dc113';
const CARD_ID = '3b7843a7-4d6e-4885-b868-97cdc6d4e30a';
const SELLER_ID = '2c4e8a10-7f3b-4d2e-9c1a-5e6f7a8b9c0d';
const SUBSCRIPTION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const EVENT_ID = '4e9e777a-6670-4daf-9fb7-6b06c458da0d';
const CREATED_AT = new Date('2026-11-22T03:10:48.415Z');
const UPDATED_AT = new Date('2026-11-22T03:10:48.447Z');
const times = { createdAt: CREATED_AT, updatedAt: UPDATED_AT };
/** The gateway's public origin in links of examples (payment links, logos). */
const PUBLIC_URL = 'https://api.example.com';
/** The `apiVersion` of the examples: a webhook's `version` (1 when it was registered without one). */
const EXAMPLE_API_VERSION = 1.1;

/** The part after the last dot: the status or step an event is named after. */
const what = (event: string) => event.slice(event.lastIndexOf('.') + 1);

function charge(status: string) {
  return toChargeJson(
    payments.Charge.fromPartial({
      id: 'd809a4ed-95a6-4495-ab67-c81d16120157',
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      amount: 10_000,
      originalAmount: 10_000,
      capturedAmount: ['authorized', 'voided', 'charged_back', 'refund_pending'].includes(status) ? 10_000 : 0,
      refundedAmount: status === 'voided' ? 10_000 : 0,
      currency: 'BRL',
      orderId: 'order-1',
      capture: status !== 'pre_authorized',
      status,
      paymentMethod: { paymentType: 'credit', installments: 1 },
      paymentSource: {
        sourceType: 'card',
        cardId: CARD_ID,
        brand: 'visa',
        first6digits: '411111',
        last4digits: '1111',
        cardHolderName: 'Ana Souza',
        expirationMonth: 12,
        expirationYear: 2030,
      },
      transactionRequests: [
        {
          id: '5962bcd1-9074-43f4-9c17-f03ca2efaf6b',
          idempotencyKey: 'd809a4ed-95a6-4495-ab67-c81d16120157:authorization:1',
          providerId: PROVIDER_ID,
          providerType: 'SANDBOX',
          transactionId: 'sbx_39958a55050f4d4b845298a08fc94126',
          amount: 10_000,
          authorizationNsu: '149159222',
          requestStatus: status === 'failed' ? 'failed' : 'success',
          requestType: 'authorization',
          message: status === 'failed' ? 'declined' : 'authorized',
          providerAuthorization: { networkAuthorizationCode: 'A2C47A', networkResponseCode: '00' },
          ...times,
        },
      ],
      providerId: PROVIDER_ID,
      providerType: 'SANDBOX',
      providerName: 'sandbox',
      ...times,
    }),
  );
}

const customer = () =>
  toCustomerJson(
    customers.Customer.fromPartial({
      id: CUSTOMER_ID,
      clientId: CLIENT_ID,
      name: 'Ana Souza',
      email: 'ana@example.com',
      phoneNumber: '11988887777',
      document: { type: 'cpf', number: '52998224725', country: 'BR' },
      ...times,
    }),
  );

const card = () =>
  toCardJson(
    payments.Card.fromPartial({
      id: CARD_ID,
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      status: 'active',
      brand: 'visa',
      cardHolderName: 'Ana Souza',
      first6digits: '411111',
      last4digits: '1111',
      expirationMonth: 12,
      expirationYear: 2030,
      fingerprint: 'f3c1b2a4d5e6f708',
      ...times,
    }),
  );

const provider = () =>
  payments.Provider.fromPartial({ id: PROVIDER_ID, merchantId: MERCHANT_ID, name: 'sandbox', priority: 1, credentialsType: 'SANDBOX', options: {}, ...times });

const merchant = (status: string) =>
  toMerchantJson(payments.Merchant.fromPartial({ id: MERCHANT_ID, clientId: CLIENT_ID, mcc: '5999', name: 'Loja Exemplo', status, providers: [provider()], ...times }));

const flow = () =>
  toFlowJson(
    payments.Flow.fromPartial({
      id: '53458aaf-b0dc-4a89-999c-35bb28fd8b14',
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      paymentMethod: 'credit',
      rules: [{ when: { amountGte: 100_000 }, route: [PROVIDER_ID] }],
      defaultRoute: [PROVIDER_ID],
      ...times,
    }),
  );

const session = (status: string, isActive: boolean) =>
  toSessionJson(
    sessions.Session.fromPartial({
      id: '0f3e8a2c-71f4-4b1e-9b55-3c0c2d7e9a41',
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      name: 'Blue mugs',
      orderId: 'order-1',
      amount: 5000,
      currency: 'BRL',
      isActive,
      status,
      publicKey: 'sk_session_1dY0mB3kq6hM6nE2rQ8yJv0o2cF5tW9pX4sL7aZ1uKg',
      paymentMethods: [{ paymentType: 'credit', installments: 1 }],
      items: [{ name: 'Blue mug', unitPrice: 2500, quantity: 2 }],
      multiplePayments: { allow: false, maxPayments: 1, paymentCount: status === 'paid' ? 1 : 0, pendingCount: 0, status: isActive ? 'active' : 'disabled' },
      ...times,
    }),
    PUBLIC_URL,
  );

const SELLER_STATUS: Record<string, string> = { created: 'pending', updated: 'active', active: 'active', inactive: 'inactive', blocked: 'blocked' };

const seller = (status: string) =>
  toSellerJson(
    sellers.Seller.fromPartial({
      id: SELLER_ID,
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      mcc: '5411',
      status,
      owner: { name: 'Ana Souza', email: 'ana@example.com', document: { type: 'cpf', number: '52998224725', country: 'BR' } },
      bankAccount: { holderName: 'Ana Souza', bank: '341', branchNumber: '1234', accountNumber: '123456', accountCheckDigit: '7', type: 'conta_corrente' },
      providers: [{ providerId: PROVIDER_ID, providerType: 'SANDBOX', status, ...times }],
      ...times,
    }),
  );

const REVIEW_STATUS: Record<string, string> = {
  opened: 'pending',
  fields_requested: 'pending',
  overdue: 'overdue',
  submitted: 'submitting',
  finished: 'finished',
  submit_failed: 'submit_failed',
  expired: 'expired',
  canceled: 'canceled',
};

/**
 * A registration review as the sellers service writes its events: the process of
 * `GET /v1/sellers/registration-reviews/{processId}` with `daysRemaining` at the time of the event.
 */
function review(status: string, fieldsKnown: boolean) {
  return {
    processId: '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
    sellerId: SELLER_ID,
    provider: 'SANDBOX',
    providerId: PROVIDER_ID,
    reviewType: 'acp',
    status,
    deadlineAt: '2026-12-22T03:10:48.415Z',
    expiresAt: '2027-01-21T03:10:48.415Z',
    daysRemaining: 30,
    requestedFieldsPending: !fieldsKnown,
    ...(fieldsKnown ? { requestedFields: { raw: ['owner.birthdate'], fields: [{ path: 'owner.birthdate', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }] } } : {}),
    createdAt: CREATED_AT.toISOString(),
  };
}

const BATCH_STATUS: Record<string, string> = { created: 'pending', paid: 'paid', failed: 'failed' };

const paymentBatch = (status: string) =>
  toPaymentBatchJson(
    payouts.PaymentBatch.fromPartial({
      id: '8d2e6f40-5c1a-4b9e-8f3d-2a7c0e9b1d65',
      sellerId: SELLER_ID,
      amount: 2252,
      feeAmount: 82,
      refundAmount: 0,
      finalBalance: 0,
      paymentDate: '2026-11-23',
      status,
      paymentMethod: 'ted',
      ...times,
    }),
  );

const prepayment = (committed: boolean) =>
  toPrepaymentJson(
    payouts.Prepayment.fromPartial({
      id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
      sellerId: SELLER_ID,
      status: committed ? 'committed' : 'pending',
      grossAmount: 9000,
      netAmount: 8784,
      feeAmount: 216,
      monthlyRate: 0.0199,
      expiresAt: new Date('2026-11-22T18:00:00.000Z'),
      paymentDate: '2026-11-23',
      calendar: 'BR',
      feeConvention: 'monthly_rate_per_30_days',
      items: [
        {
          receivableId: 'c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f',
          settlementDate: '2026-12-22',
          paymentArrangement: 'VCC',
          amount: 9000,
          days: 29,
          feeAmount: 216,
          netAmount: 8784,
        },
      ],
      createdAt: CREATED_AT,
      committedAt: committed ? UPDATED_AT : undefined,
    }),
  );

const SUBSCRIPTION_STATUS: Record<string, string> = {
  created: 'created',
  updated: 'active',
  trial_started: 'trialing',
  activated: 'active',
  paused: 'paused',
  resumed: 'active',
  canceled: 'canceled',
  expired: 'expired',
  unpaid: 'unpaid',
};

const subscription = (status: string) =>
  toSubscriptionJson(
    payments.Subscription.fromPartial({
      id: SUBSCRIPTION_ID,
      clientId: CLIENT_ID,
      merchantId: MERCHANT_ID,
      customerId: CUSTOMER_ID,
      name: 'Coffee club',
      items: [{ name: 'Beans', amount: 2990, quantity: 2 }],
      amount: 5980,
      currency: 'BRL',
      recurrence: { interval: 'monthly', cycles: 12, startAt: CREATED_AT },
      paymentMethod: { type: 'credit', cardId: CARD_ID, installments: 1 },
      trialEndAt: status === 'trialing' ? new Date('2026-12-06T03:10:48.415Z') : undefined,
      status,
      cyclesBilled: status === 'created' || status === 'trialing' ? 0 : 1,
      nextBillingAt: ['canceled', 'expired', 'paused'].includes(status) ? undefined : new Date('2026-12-22T03:10:48.415Z'),
      canceledAt: status === 'canceled' ? UPDATED_AT : undefined,
      pausedAt: status === 'paused' ? UPDATED_AT : undefined,
      ...times,
    }),
  );

const cycle = (paid: boolean) =>
  toSubscriptionCycleJson(
    payments.SubscriptionCycle.fromPartial({
      id: 'e5f6a7b8-c9d0-4e1f-8a2b-3c4d5e6f7a8b',
      subscriptionId: SUBSCRIPTION_ID,
      number: 1,
      status: paid ? 'authorized' : 'retrying',
      amount: 5980,
      dueAt: CREATED_AT,
      nextAttemptAt: paid ? undefined : new Date('2026-11-23T03:10:48.415Z'),
      attempts: [
        {
          attempt: 1,
          chargeId: 'd809a4ed-95a6-4495-ab67-c81d16120157',
          status: paid ? 'authorized' : 'failed',
          declinedCode: paid ? undefined : 'insufficient_funds',
          attemptedAt: UPDATED_AT,
        },
      ],
      retryDays: paid ? [] : [1, 3],
      cancelAfterAllRetries: !paid,
      ...times,
    }),
  );

/** The `data` of an event of that kind. */
function exampleDataOf(kind: PublicEventKind): unknown {
  const step = what(kind.event);
  switch (kind.object) {
    case 'transaction':
      return charge(kind.event);
    case 'customer':
      return kind.event === 'customer.card_added' ? toCustomerCardLinkJson(CUSTOMER_ID, { id: CARD_ID, brand: 'visa', last4digits: '1111' }) : customer();
    case 'card':
      return card();
    case 'merchant':
      return merchant(step === 'deleted' ? 'deleted' : 'active');
    case 'provider':
      return toProviderJson(provider());
    case 'flow':
      return flow();
    case 'client':
      return toClientJson(settings.Client.fromPartial({ id: CLIENT_ID, name: 'Loja Exemplo Ltda', environment: 'sandbox', prepaymentEnabled: false, ...times }));
    case 'api_key':
      return toApiKeyRevokedJson({ keyId: '5d9e2f0c-8a1b-4c3d-9e4f-0a1b2c3d4e5f', kind: 'secret', revokedAt: UPDATED_AT });
    case 'link_settings':
      return toLinkSettingsJson(
        settings.LinkSettings.fromPartial({ id: '83c62d1d-964b-46d1-8c1a-40c9ee9ab5f5', clientId: CLIENT_ID, mainColor: '#445566', logoId: '0f0a6c1e-5b1e-4a53-9d8e-2c1b7a3e9f10', ...times }),
        PUBLIC_URL,
      );
    case 'subscription_settings':
      return toSubscriptionSettingsJson(
        settings.SubscriptionSettings.fromPartial({ clientId: CLIENT_ID, retryPolicy: [{ daysAfterLastAttempt: 1 }], cancelAfterAllRetries: true, ...times }),
      );
    case 'session':
      return session(step === 'paid' || step === 'canceled' ? step : 'created', !['paid', 'canceled', 'disabled'].includes(step));
    case 'seller':
      return seller(SELLER_STATUS[step] ?? 'active');
    case 'registration_review':
      return review(REVIEW_STATUS[step] ?? 'pending', step !== 'opened');
    case 'payment_batch':
      return paymentBatch(BATCH_STATUS[step] ?? 'pending');
    case 'prepayment':
      return prepayment(step === 'committed');
    case 'subscription':
      return subscription(SUBSCRIPTION_STATUS[step] ?? 'active');
    case 'subscription_cycle':
      return cycle(step === 'cycle_paid');
    default:
      throw new Error(`no example for object ${kind.object}`);
  }
}

/** What a receiver gets for an event of that kind, as an example. */
export function exampleEventOf(kind: PublicEventKind): PublicEvent {
  return { id: EVENT_ID, createdAt: UPDATED_AT.toISOString(), object: kind.object, event: kind.event, apiVersion: EXAMPLE_API_VERSION, data: exampleDataOf(kind) };
}
