import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dynamicPixCode } from '../cielo/brcode';
import { listen, readBody, type RunningSimulator } from '../http';
import { canonicalForm, list, object, parseForm, text, type FormObject } from './form';
import {
  brandOfNumber,
  luhnValid,
  STRIPE_AUTHENTICATION_REQUIRED,
  STRIPE_INCORRECT_NUMBER,
  STRIPE_INVALID_CVC,
  STRIPE_INVALID_EXPIRY_MONTH,
  STRIPE_INVALID_EXPIRY_YEAR,
  STRIPE_RAW_CARD_DATA_REFUSED,
  STRIPE_SIGNATURE_SCHEME,
  STRIPE_TEST_CARDS,
  type StripeCardOutcome,
  type StripeTestCard,
} from './rules';

/**
 * Stripe's API (v1) on loopback, for the resources a server-side card integration uses (API reference:
 * "Payment Intents", "Refunds", "Events", "Errors", "Idempotent requests"; "Testing"):
 * - `POST /v1/payment_intents` (with `confirm=true` and `payment_method_data`: a card's raw data, or `pix`),
 *   `GET /v1/payment_intents/{id}` (`expand[]=latest_charge`), `POST /v1/payment_intents/{id}/capture`
 *   (`amount_to_capture`), `POST /v1/payment_intents/{id}/cancel`;
 * - `POST /v1/refunds` (`payment_intent`, `amount`), `GET /v1/refunds/{id}`;
 * - requests form-encoded as Stripe's libraries send them, `Authorization: Bearer <secret key>` (a wrong key
 *   gets Stripe's 401), `Idempotency-Key` (the first answer replayed with `Idempotent-Replayed: true`; other
 *   parameters under the same key get an `idempotency_error`);
 * - the documented test cards (rules.ts); other numbers that pass the Luhn check are approved;
 * - events signed as Stripe signs webhooks (`Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.payload">`),
 *   posted to the account's endpoint after the answer.
 * Answers follow the shapes of Stripe's own example objects (openapi fixtures: payment_intent, charge, refund,
 * event) and of its error object. Amounts are integers in the currency's smallest unit, as Stripe's.
 */
export interface StripeSimulatorAccount {
  /** `sk_test_...`: the key the requests carry. */
  secretKey: string;
  /** The endpoint's signing secret (`whsec_...`). */
  webhookSecret?: string;
  /** Where the account's events are posted (the endpoint URL registered at Stripe). */
  webhookUrl?: string;
  /** "Raw card data APIs" enabled for the account (default true); false refuses card numbers as Stripe does. */
  rawCardData?: boolean;
}

export interface StripeSimulatorOptions {
  port?: number;
  /** The platform's clock for the simulator: `created`, signatures' timestamps, Pix expiry. */
  clock?: () => Date;
  accounts: StripeSimulatorAccount[];
  latencyMs?: number;
}

export interface StripeEventDelivery {
  event: StripeEvent;
  /** The body exactly as posted (and signed). */
  payload: string;
  /** The `Stripe-Signature` header it was posted with. */
  signature: string;
  /** The endpoint's HTTP status, or undefined when it could not be reached (or no endpoint was set). */
  status?: number;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  data: { object: Record<string, unknown> };
  [key: string]: unknown;
}

export interface RunningStripeSimulator extends RunningSimulator {
  /** The SDK's `host`, `port` and `protocol` options point here (`STRIPE_API_URL` is `url`). */
  host: string;
  port: number;
  protocol: 'http';
  /** A PaymentIntent as Stripe would answer it (with its latest charge expanded), or undefined. */
  paymentIntent(id: string): Record<string, unknown> | undefined;
  /** How many PaymentIntents were created (an idempotent replay creates none). */
  paymentIntentsCreated(): number;
  /** Pays a Pix PaymentIntent waiting for its payer (requires_action): it succeeds and its events are sent. */
  payPix(id: string): Promise<void>;
  /** Every event so far, signed, with what its endpoint answered. */
  events(): StripeEventDelivery[];
  /** Waits for the events being posted. */
  flush(): Promise<void>;
  /** While on, API requests get no answer at all (a provider that hangs). */
  stall(on: boolean): void;
  /** While on, API requests are answered 500 with Stripe's `api_error` (an outage on Stripe's side). */
  outage(on: boolean): void;
  /** Points an account's events at another endpoint URL (or at none): the endpoint registered at Stripe. */
  setWebhookUrl(secretKey: string, url: string | undefined): void;
  setLatency(ms: number): void;
  /** The `Stripe-Signature` header Stripe would send for this payload with this secret, at the simulator's time. */
  sign(payload: string, secret: string): string;
}

type IntentStatus = 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'requires_capture' | 'canceled' | 'succeeded';

interface Card {
  brand: StripeTestCard['brand'];
  funding: StripeTestCard['funding'];
  last4: string;
  expMonth: number;
  expYear: number;
  cvcCheck: 'pass' | 'fail' | null;
  fingerprint: string;
}

interface PaymentMethod {
  id: string;
  type: 'card' | 'pix';
  card?: Card;
  billingName: string | null;
  billingEmail: string | null;
  created: number;
}

interface Refund {
  id: string;
  amount: number;
  created: number;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled';
  chargeId: string;
  intentId: string;
  reason: string | null;
  metadata: Record<string, string>;
  currency: string;
  balanceTransaction: string;
}

interface Charge {
  id: string;
  amount: number;
  amountCaptured: number;
  amountRefunded: number;
  captured: boolean;
  created: number;
  status: 'succeeded' | 'failed' | 'pending';
  failure?: StripeCardOutcome;
  authorizationCode: string | null;
  networkTransactionId: string | null;
  refunds: Refund[];
}

interface Intent {
  id: string;
  account: string;
  amount: number;
  currency: string;
  captureMethod: 'automatic' | 'automatic_async' | 'manual';
  status: IntentStatus;
  amountCapturable: number;
  amountReceived: number;
  created: number;
  canceledAt: number | null;
  cancellationReason: string | null;
  lastPaymentError: Record<string, unknown> | null;
  paymentMethod: PaymentMethod | null;
  paymentMethodTypes: string[];
  charge: Charge | null;
  description: string | null;
  metadata: Record<string, string>;
  statementDescriptorSuffix: string | null;
  installments: number | null;
  nextAction: Record<string, unknown> | null;
  pixExpiresAt: number | null;
  clientSecret: string;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Events to send once the answer is out. */
  events?: StripeEvent[];
}

interface SavedAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newId = (prefix: string, length = 24) => {
  const bytes = randomBytes(length);
  return `${prefix}_${[...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
};

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function error(status: number, body: Record<string, unknown>): Answer {
  return { status, body: { error: body } };
}

/** "Errors": an `invalid_request_error` (400 unless told). */
function invalidRequest(message: string, extra: Record<string, unknown> = {}, status = 400): Answer {
  return error(status, { type: 'invalid_request_error', message, ...extra });
}

function docUrl(code: string): string {
  return `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;
}

const MINIMUM_AMOUNT: Readonly<Record<string, number>> = { brl: 50, usd: 50, eur: 50, gbp: 30, mxn: 1000 };
const CANCELABLE: readonly IntentStatus[] = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'];
/** "pix" > `expires_after_seconds`: between 10 and 1209600; 14400 (4 hours) when not given. */
const PIX_DEFAULT_EXPIRY_SECONDS = 14_400;

export async function startStripeSimulator(options: StripeSimulatorOptions): Promise<RunningStripeSimulator> {
  const clock = options.clock ?? (() => new Date());
  const seconds = () => Math.floor(clock().getTime() / 1000);
  let latencyMs = options.latencyMs ?? 0;
  let stalled = false;
  let down = false;
  const accounts = options.accounts.map((account) => ({ ...account }));
  const held = new Set<ServerResponse>();
  const waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          waits.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      waits.add(entry);
    });
  const intents = new Map<string, Intent>();
  const refunds = new Map<string, Refund>();
  const saved = new Map<string, SavedAnswer>();
  const deliveries: StripeEventDelivery[] = [];
  const posting = new Set<Promise<void>>();
  let created = 0;
  let sequence = 0;

  const accountOf = (req: IncomingMessage): StripeSimulatorAccount | undefined => {
    const header = req.headers.authorization ?? '';
    const key = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (key === '') return undefined;
    return accounts.find((a) => safeEqual(a.secretKey, key));
  };

  // ---- Views, in the shapes of Stripe's example objects (fixtures3.json).

  const cardView = (card: Card) => ({
    amount_authorized: null,
    authorization_code: null,
    brand: card.brand,
    checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: card.cvcCheck },
    country: 'BR',
    exp_month: card.expMonth,
    exp_year: card.expYear,
    extended_authorization: { status: 'disabled' },
    fingerprint: card.fingerprint,
    funding: card.funding,
    incremental_authorization: { status: 'unavailable' },
    installments: null,
    last4: card.last4,
    mandate: null,
    multicapture: { status: 'unavailable' },
    network: card.brand,
    network_token: { used: false },
    overcapture: { maximum_amount_capturable: 0, status: 'unavailable' },
    three_d_secure: null,
    wallet: null,
    regulated_status: 'unregulated',
    network_transaction_id: null,
    transaction_link_id: null,
  });

  const refundView = (refund: Refund) => ({
    amount: refund.amount,
    balance_transaction: refund.status === 'succeeded' ? refund.balanceTransaction : null,
    charge: refund.chargeId,
    created: refund.created,
    currency: refund.currency,
    destination_details: { card: { type: 'refund' }, type: 'card' },
    id: refund.id,
    metadata: refund.metadata,
    object: 'refund',
    payment_intent: refund.intentId,
    reason: refund.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: refund.status,
    transfer_reversal: null,
    customer: null,
    customer_account: null,
    payment_method: null,
  });

  const chargeView = (intent: Intent, charge: Charge) => {
    const method = intent.paymentMethod;
    const failure = charge.failure;
    const cardDetails = method?.card ? { ...cardView(method.card), authorization_code: charge.authorizationCode, network_transaction_id: charge.networkTransactionId } : undefined;
    return {
      amount: charge.amount,
      amount_captured: charge.amountCaptured,
      amount_refunded: charge.amountRefunded,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: charge.captured ? `txn_${charge.id.slice(3)}` : null,
      billing_details: {
        address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
        email: method?.billingEmail ?? null,
        name: method?.billingName ?? null,
        phone: null,
        tax_id: null,
      },
      calculated_statement_descriptor: intent.statementDescriptorSuffix ? `LOJA* ${intent.statementDescriptorSuffix}`.slice(0, 22) : 'LOJA',
      captured: charge.captured,
      created: charge.created,
      currency: intent.currency,
      customer: null,
      description: intent.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: failure ? failure.code : null,
      failure_message: failure ? failure.message : null,
      fraud_details: {},
      id: charge.id,
      livemode: false,
      metadata: intent.metadata,
      object: 'charge',
      on_behalf_of: null,
      outcome: failure
        ? {
            advice_code: failure.declineCode === 'fraudulent' ? 'do_not_try_again' : 'try_again_later',
            network_advice_code: null,
            network_decline_code: null,
            network_status: failure.declineCode === 'fraudulent' ? 'not_sent_to_network' : 'declined_by_network',
            reason: failure.declineCode ?? failure.code,
            risk_level: 'normal',
            risk_score: 20,
            seller_message: failure.declineCode === 'fraudulent' ? 'Stripe blocked this payment.' : 'The bank did not return any further details with this decline.',
            type: failure.declineCode === 'fraudulent' ? 'blocked' : 'issuer_declined',
          }
        : {
            advice_code: null,
            network_advice_code: null,
            network_decline_code: null,
            network_status: 'approved_by_network',
            reason: null,
            risk_level: 'normal',
            risk_score: 20,
            seller_message: 'Payment complete.',
            type: 'authorized',
          },
      paid: charge.status === 'succeeded',
      payment_intent: intent.id,
      payment_method: method?.id ?? null,
      payment_method_details: cardDetails ? { card: cardDetails, type: 'card' } : { pix: { bank_transaction_id: charge.networkTransactionId }, type: 'pix' },
      receipt_email: null,
      receipt_number: null,
      receipt_url: `https://pay.stripe.com/receipts/payment/${charge.id}`,
      refunded: charge.amountRefunded >= charge.amount,
      refunds: { data: charge.refunds.map(refundView), has_more: false, object: 'list', url: `/v1/charges/${charge.id}/refunds` },
      review: null,
      shipping: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: intent.statementDescriptorSuffix,
      status: charge.status,
      transfer_data: null,
      transfer_group: null,
      source: null,
    };
  };

  const intentView = (intent: Intent, expandCharge: boolean) => ({
    amount: intent.amount,
    amount_capturable: intent.amountCapturable,
    amount_details: { tip: {} },
    amount_received: intent.amountReceived,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: intent.canceledAt,
    cancellation_reason: intent.cancellationReason,
    capture_method: intent.captureMethod,
    client_secret: intent.clientSecret,
    confirmation_method: 'automatic',
    created: intent.created,
    currency: intent.currency,
    customer: null,
    description: intent.description,
    id: intent.id,
    last_payment_error: intent.lastPaymentError,
    latest_charge: intent.charge ? (expandCharge ? chargeView(intent, intent.charge) : intent.charge.id) : null,
    livemode: false,
    metadata: intent.metadata,
    next_action: intent.nextAction,
    object: 'payment_intent',
    on_behalf_of: null,
    payment_method: intent.paymentMethod?.id ?? null,
    payment_method_configuration_details: null,
    payment_method_options: intent.paymentMethodTypes.includes('pix')
      ? { pix: { expires_after_seconds: null, expires_at: intent.pixExpiresAt } }
      : {
          card: {
            installments: intent.installments ? { enabled: true, plan: { count: intent.installments, interval: 'month', type: 'fixed_count' } } : null,
            mandate_options: null,
            network: null,
            request_three_d_secure: 'automatic',
          },
        },
    allowed_payment_method_types: intent.paymentMethodTypes,
    payment_method_types: intent.paymentMethodTypes,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    statement_descriptor: null,
    statement_descriptor_suffix: intent.statementDescriptorSuffix,
    status: intent.status,
    transfer_data: null,
    transfer_group: null,
    source: null,
    excluded_payment_method_types: null,
    customer_account: null,
    managed_payments: { enabled: false },
  });

  const event = (type: string, data: Record<string, unknown>, idempotencyKey: string | null): StripeEvent => ({
    api_version: '2026-10-28.endive',
    created: seconds(),
    data: { object: data },
    id: newId('evt'),
    livemode: false,
    object: 'event',
    pending_webhooks: 1,
    request: { id: idempotencyKey ? newId('req', 14) : null, idempotency_key: idempotencyKey },
    type,
  });

  /** A Pix past its expiry that was not paid: its attempt expired and it waits for a payment method again. */
  const expire = (intent: Intent): StripeEvent[] => {
    if (intent.status !== 'requires_action' || intent.pixExpiresAt === null || seconds() < intent.pixExpiresAt) return [];
    intent.status = 'requires_payment_method';
    intent.nextAction = null;
    intent.lastPaymentError = {
      code: 'payment_intent_payment_attempt_expired',
      doc_url: docUrl('payment_intent_payment_attempt_expired'),
      message: 'The latest payment attempt of this PaymentIntent has expired. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
      type: 'invalid_request_error',
    };
    return [event('payment_intent.payment_failed', intentView(intent, false), null)];
  };

  const notFound = (kind: string, id: string, param: string): Answer =>
    invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', doc_url: docUrl('resource_missing'), param }, 404);

  // ---- "Create a PaymentIntent" (with confirm=true).

  const cardOf = (data: FormObject | undefined, account: StripeSimulatorAccount): { card?: Card; outcome?: StripeCardOutcome; test?: StripeTestCard; refused?: Answer } => {
    const raw = object(data, 'card');
    const number = text(raw, 'number')?.replace(/\s+/g, '') ?? '';
    if (number === '') return { refused: invalidRequest('Missing required param: payment_method_data[card][number].', { code: 'parameter_missing', param: 'payment_method_data[card][number]' }) };
    if (account.rawCardData === false) return { refused: invalidRequest(STRIPE_RAW_CARD_DATA_REFUSED) };
    if (!luhnValid(number)) return { outcome: STRIPE_INCORRECT_NUMBER };
    const expMonth = Number(text(raw, 'exp_month'));
    const expYear = Number(text(raw, 'exp_year'));
    if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) return { outcome: STRIPE_INVALID_EXPIRY_MONTH };
    const now = clock();
    const fullYear = expYear < 100 ? 2000 + expYear : expYear;
    if (!Number.isInteger(expYear) || fullYear < now.getUTCFullYear() || fullYear > now.getUTCFullYear() + 50) return { outcome: STRIPE_INVALID_EXPIRY_YEAR };
    if (fullYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1) return { outcome: STRIPE_INVALID_EXPIRY_YEAR };
    const cvc = text(raw, 'cvc');
    if (cvc !== undefined && !/^\d{3,4}$/.test(cvc)) return { outcome: STRIPE_INVALID_CVC };
    const test = STRIPE_TEST_CARDS[number] ?? { brand: brandOfNumber(number), funding: 'credit' };
    const card: Card = {
      brand: test.brand,
      funding: test.funding,
      last4: number.slice(-4),
      expMonth,
      expYear: fullYear,
      cvcCheck: cvc === undefined ? null : (test.cvcCheck ?? 'pass'),
      fingerprint: createHmac('sha256', 'fingerprint').update(number).digest('base64url').slice(0, 16),
    };
    return { card, test };
  };

  const cardError = (outcome: StripeCardOutcome, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    type: 'card_error',
    code: outcome.code,
    ...(outcome.declineCode ? { decline_code: outcome.declineCode } : {}),
    doc_url: docUrl(outcome.code),
    message: outcome.message,
    ...(outcome.code === 'incorrect_number' || outcome.code.startsWith('invalid_expiry') || outcome.code === 'invalid_cvc'
      ? { param: outcome.code === 'incorrect_number' ? 'number' : outcome.code === 'invalid_cvc' ? 'cvc' : outcome.code.replace('invalid_', '') }
      : {}),
    ...extra,
  });

  const createIntent = (accountKey: string, account: StripeSimulatorAccount, form: FormObject, idempotencyKey: string | null): Answer => {
    const amountText = text(form, 'amount');
    if (amountText === undefined) return invalidRequest('Missing required param: amount.', { code: 'parameter_missing', param: 'amount' });
    const amount = Number(amountText);
    if (!/^\d+$/.test(amountText) || !Number.isSafeInteger(amount)) return invalidRequest(`Invalid integer: ${amountText.slice(0, 20)}`, { code: 'parameter_invalid_integer', param: 'amount' });
    const currency = text(form, 'currency');
    if (currency === undefined) return invalidRequest('Missing required param: currency.', { code: 'parameter_missing', param: 'currency' });
    if (!/^[a-z]{3}$/.test(currency)) return invalidRequest(`Invalid currency: ${currency.slice(0, 10)}. Stripe currently supports these currencies: brl, usd, eur, ...`, { param: 'currency' });
    const minimum = MINIMUM_AMOUNT[currency] ?? 1;
    if (amount < minimum) {
      return invalidRequest(`Amount must be at least ${minimum} ${currency}`, { code: 'amount_too_small', doc_url: docUrl('amount_too_small'), param: 'amount' });
    }
    if (amount > 99_999_999) return invalidRequest('Amount must be no more than 999,999.99', { code: 'amount_too_large', doc_url: docUrl('amount_too_large'), param: 'amount' });
    const captureMethod = text(form, 'capture_method') ?? 'automatic_async';
    if (captureMethod !== 'automatic' && captureMethod !== 'automatic_async' && captureMethod !== 'manual') {
      return invalidRequest(`Invalid capture_method: must be one of automatic, automatic_async, or manual`, { param: 'capture_method' });
    }
    const data = object(form, 'payment_method_data');
    const type = text(data, 'type');
    // `allowed_payment_method_types` (API versions since 2026; `payment_method_types` before).
    const allowed = list(form, 'allowed_payment_method_types');
    const types = allowed.length > 0 ? allowed : list(form, 'payment_method_types');
    const paymentMethodTypes = types.length > 0 ? types : type ? [type] : ['card'];
    if (type !== undefined && type !== 'card' && type !== 'pix') return invalidRequest(`Invalid payment_method_data[type]: ${type.slice(0, 20)}`, { param: 'payment_method_data[type]' });
    if (type !== undefined && !paymentMethodTypes.includes(type)) {
      return invalidRequest(`The PaymentMethod type ${type} is not in this PaymentIntent's allowed_payment_method_types.`, { param: 'payment_method_data[type]' });
    }
    if (type === 'pix') {
      if (currency !== 'brl') return invalidRequest('Pix only supports the brl currency.', { param: 'currency' });
      if (captureMethod === 'manual') return invalidRequest('The payment method `pix` does not support manual capture.', { param: 'capture_method' });
    }
    const suffix = text(form, 'statement_descriptor_suffix') ?? null;
    if (suffix !== null && (suffix.length > 22 || /[<>\\'"*]/.test(suffix))) {
      return invalidRequest('The statement descriptor suffix must be at most 22 characters and not contain <, >, \\, \', " or *.', { param: 'statement_descriptor_suffix' });
    }
    const installmentsText = text(object(object(object(object(form, 'payment_method_options'), 'card'), 'installments'), 'plan'), 'count');
    const installments = installmentsText === undefined ? null : Number(installmentsText);
    // "Mexico installments": plans of 3, 6, 9, 12, 18 or 24 monthly payments, in MXN.
    if (installments !== null && currency !== 'mxn') {
      return invalidRequest('Installments are only available for payments in mxn.', { param: 'payment_method_options[card][installments]' });
    }
    if (installments !== null && ![3, 6, 9, 12, 18, 24].includes(installments)) {
      return invalidRequest('Installment plan count must be one of 3, 6, 9, 12, 18 or 24.', { param: 'payment_method_options[card][installments][plan][count]' });
    }
    const confirm = text(form, 'confirm') === 'true';
    const metadata = Object.fromEntries(Object.entries(object(form, 'metadata') ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));

    let method: PaymentMethod | null = null;
    let test: StripeTestCard | undefined;
    let failure: StripeCardOutcome | undefined;
    if (type === 'card') {
      const read = cardOf(data, account);
      if (read.refused) return read.refused;
      if (read.outcome && !read.card) {
        // The card's data is refused before a PaymentMethod exists: no PaymentIntent is made.
        return error(402, cardError(read.outcome));
      }
      test = read.test;
      const billing = object(data, 'billing_details');
      method = { id: newId('pm'), type: 'card', card: read.card!, billingName: text(billing, 'name') ?? null, billingEmail: text(billing, 'email') ?? null, created: seconds() };
      if (method.card?.cvcCheck === 'fail') failure = { code: 'incorrect_cvc', declineCode: 'incorrect_cvc', message: "Your card's security code is incorrect." };
      else failure = test?.decline;
    } else if (type === 'pix') {
      const billing = object(data, 'billing_details');
      method = { id: newId('pm'), type: 'pix', billingName: text(billing, 'name') ?? null, billingEmail: text(billing, 'email') ?? null, created: seconds() };
    }

    const intent: Intent = {
      id: newId('pi'),
      account: accountKey,
      amount,
      currency,
      captureMethod,
      status: method ? 'requires_confirmation' : 'requires_payment_method',
      amountCapturable: 0,
      amountReceived: 0,
      created: seconds(),
      canceledAt: null,
      cancellationReason: null,
      lastPaymentError: null,
      paymentMethod: method,
      paymentMethodTypes,
      charge: null,
      description: text(form, 'description') ?? null,
      metadata,
      statementDescriptorSuffix: suffix,
      installments,
      nextAction: null,
      pixExpiresAt: null,
      clientSecret: '',
    };
    intent.clientSecret = `${intent.id}_secret_${randomBytes(12).toString('hex')}`;
    intents.set(intent.id, intent);
    created += 1;
    const events: StripeEvent[] = [];
    const expand = list(form, 'expand').includes('latest_charge');
    if (!confirm || !method) {
      events.push(event('payment_intent.created', intentView(intent, false), idempotencyKey));
      return { status: 200, body: intentView(intent, expand), events };
    }

    if (method.type === 'pix') {
      const options = object(object(form, 'payment_method_options'), 'pix');
      const after = text(options, 'expires_after_seconds');
      const lifetime = after === undefined ? PIX_DEFAULT_EXPIRY_SECONDS : Number(after);
      if (!Number.isInteger(lifetime) || lifetime < 10 || lifetime > 1_209_600) {
        intents.delete(intent.id);
        created -= 1;
        return invalidRequest('expires_after_seconds must be between 10 and 1209600.', { param: 'payment_method_options[pix][expires_after_seconds]' });
      }
      intent.status = 'requires_action';
      intent.pixExpiresAt = seconds() + lifetime;
      const data = dynamicPixCode({
        location: `pix.stripe.com/qr/v2/${intent.id}`,
        amountInCents: amount,
        merchantName: 'Stripe Pagamentos',
        merchantCity: 'Sao Paulo',
        reference: '***',
      });
      intent.nextAction = {
        type: 'pix_display_qr_code',
        pix_display_qr_code: {
          data,
          expires_at: intent.pixExpiresAt,
          hosted_instructions_url: `https://payments.stripe.com/pix/instructions/${intent.id}`,
          image_url_png: `https://qr.stripe.com/${intent.id}.png`,
          image_url_svg: `https://qr.stripe.com/${intent.id}.svg`,
        },
      };
      events.push(event('payment_intent.created', intentView(intent, false), idempotencyKey));
      events.push(event('payment_intent.requires_action', intentView(intent, false), idempotencyKey));
      return { status: 200, body: intentView(intent, expand), events };
    }

    const errorOnAction = text(form, 'error_on_requires_action') === 'true';
    if (test?.requiresAction && !errorOnAction) {
      intent.status = 'requires_action';
      intent.nextAction = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `https://hooks.stripe.com/3d_secure_2/hosted?intent=${intent.id}` } };
      events.push(event('payment_intent.created', intentView(intent, false), idempotencyKey));
      events.push(event('payment_intent.requires_action', intentView(intent, false), idempotencyKey));
      return { status: 200, body: intentView(intent, expand), events };
    }
    if (test?.requiresAction) failure = STRIPE_AUTHENTICATION_REQUIRED;

    const charge: Charge = {
      id: newId('ch'),
      amount,
      amountCaptured: 0,
      amountRefunded: 0,
      captured: false,
      created: seconds(),
      status: failure ? 'failed' : 'succeeded',
      ...(failure ? { failure } : {}),
      authorizationCode: failure ? null : String(100000 + (++sequence % 900000)),
      networkTransactionId: failure ? null : String(Date.UTC(2026, 0, 1) + sequence).padStart(15, '0'),
      refunds: [],
    };
    intent.charge = charge;
    events.push(event('payment_intent.created', intentView(intent, false), idempotencyKey));
    if (failure) {
      intent.status = 'requires_payment_method';
      const methodView = { id: method.id, object: 'payment_method', type: 'card', card: method.card ? { brand: method.card.brand, last4: method.card.last4, funding: method.card.funding } : null };
      intent.lastPaymentError = cardError(failure, { charge: charge.id, payment_method: methodView });
      events.push(event('payment_intent.payment_failed', intentView(intent, false), idempotencyKey));
      return {
        ...error(402, {
          ...cardError(failure, { charge: charge.id, payment_method: methodView }),
          payment_intent: intentView(intent, false),
          request_log_url: `https://dashboard.stripe.com/test/logs/${newId('req', 14)}`,
        }),
        events,
      };
    }
    if (captureMethod === 'manual') {
      intent.status = 'requires_capture';
      intent.amountCapturable = amount;
      events.push(event('payment_intent.amount_capturable_updated', intentView(intent, false), idempotencyKey));
    } else {
      intent.status = 'succeeded';
      intent.amountReceived = amount;
      charge.captured = true;
      charge.amountCaptured = amount;
      events.push(event('payment_intent.succeeded', intentView(intent, false), idempotencyKey));
    }
    return { status: 200, body: intentView(intent, expand), events };
  };

  // ---- "Capture a PaymentIntent".
  const capture = (intent: Intent, form: FormObject, idempotencyKey: string | null): Answer => {
    if (intent.status !== 'requires_capture' || !intent.charge) {
      return invalidRequest(
        `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
        { code: 'payment_intent_unexpected_state', doc_url: docUrl('payment_intent_unexpected_state'), payment_intent: intentView(intent, false) },
      );
    }
    const requested = text(form, 'amount_to_capture');
    const amount = requested === undefined ? intent.amountCapturable : Number(requested);
    if (requested !== undefined && (!/^\d+$/.test(requested) || !Number.isSafeInteger(amount))) {
      return invalidRequest(`Invalid integer: ${requested.slice(0, 20)}`, { code: 'parameter_invalid_integer', param: 'amount_to_capture' });
    }
    if (amount > intent.amountCapturable) {
      return invalidRequest('The amount to capture must be less than or equal to the amount capturable.', { code: 'amount_too_large', doc_url: docUrl('amount_too_large'), param: 'amount_to_capture' });
    }
    if (amount < 1) return invalidRequest('Amount must be at least 1', { code: 'amount_too_small', param: 'amount_to_capture' });
    intent.status = 'succeeded';
    intent.amountReceived = amount;
    intent.amountCapturable = 0;
    const charge = intent.charge;
    charge.captured = true;
    charge.amountCaptured = amount;
    // What is not captured is released: a refund of the rest, which the charge counts as refunded.
    if (amount < charge.amount) {
      const released: Refund = {
        id: newId('re'),
        amount: charge.amount - amount,
        created: seconds(),
        status: 'succeeded',
        chargeId: charge.id,
        intentId: intent.id,
        reason: null,
        metadata: {},
        currency: intent.currency,
        balanceTransaction: newId('txn'),
      };
      charge.refunds.push(released);
      refunds.set(released.id, released);
      charge.amountRefunded = released.amount;
    }
    return { status: 200, body: intentView(intent, list(form, 'expand').includes('latest_charge')), events: [event('payment_intent.succeeded', intentView(intent, false), idempotencyKey)] };
  };

  // ---- "Cancel a PaymentIntent".
  const cancel = (intent: Intent, form: FormObject, idempotencyKey: string | null): Answer => {
    if (!CANCELABLE.includes(intent.status)) {
      return invalidRequest(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
        { code: 'payment_intent_unexpected_state', doc_url: docUrl('payment_intent_unexpected_state'), payment_intent: intentView(intent, false) },
      );
    }
    const reason = text(form, 'cancellation_reason') ?? null;
    if (reason !== null && !['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'].includes(reason)) {
      return invalidRequest('Invalid cancellation_reason: must be one of duplicate, fraudulent, requested_by_customer, or abandoned', { param: 'cancellation_reason' });
    }
    if (intent.status === 'requires_capture' && intent.charge) {
      intent.charge.amountRefunded = intent.charge.amount;
    }
    intent.status = 'canceled';
    intent.canceledAt = seconds();
    intent.cancellationReason = reason;
    intent.amountCapturable = 0;
    intent.nextAction = null;
    return { status: 200, body: intentView(intent, list(form, 'expand').includes('latest_charge')), events: [event('payment_intent.canceled', intentView(intent, false), idempotencyKey)] };
  };

  // ---- "Create a refund".
  const refund = (accountKey: string, form: FormObject, idempotencyKey: string | null): Answer => {
    const intentId = text(form, 'payment_intent');
    const chargeId = text(form, 'charge');
    let intent: Intent | undefined;
    if (intentId) intent = intents.get(intentId);
    else if (chargeId) intent = [...intents.values()].find((i) => i.charge?.id === chargeId);
    else return invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', { code: 'parameter_missing' });
    if (!intent || intent.account !== accountKey) {
      return intentId ? notFound('payment_intent', intentId, 'payment_intent') : notFound('charge', chargeId ?? '', 'charge');
    }
    const charge = intent.charge;
    if (intent.status !== 'succeeded' || !charge || !charge.captured) {
      return invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
        code: 'charge_not_refundable',
        doc_url: docUrl('charge_not_refundable'),
        param: intentId ? 'payment_intent' : 'charge',
      });
    }
    const remaining = charge.amount - charge.amountRefunded;
    if (remaining <= 0) {
      return invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded', doc_url: docUrl('charge_already_refunded') });
    }
    const requested = text(form, 'amount');
    const amount = requested === undefined ? remaining : Number(requested);
    if (requested !== undefined && (!/^\d+$/.test(requested) || !Number.isSafeInteger(amount) || amount < 1)) {
      return invalidRequest(`Invalid positive integer: ${requested.slice(0, 20)}`, { code: 'parameter_invalid_integer', param: 'amount' });
    }
    if (amount > remaining) {
      return invalidRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`, { code: 'amount_too_large', doc_url: docUrl('amount_too_large'), param: 'amount' });
    }
    const reason = text(form, 'reason') ?? null;
    if (reason !== null && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason)) {
      return invalidRequest('Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer', { param: 'reason' });
    }
    const entry: Refund = {
      id: newId('re'),
      amount,
      created: seconds(),
      status: 'succeeded',
      chargeId: charge.id,
      intentId: intent.id,
      reason,
      metadata: Object.fromEntries(Object.entries(object(form, 'metadata') ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string')),
      currency: intent.currency,
      balanceTransaction: newId('txn'),
    };
    charge.refunds.push(entry);
    charge.amountRefunded += amount;
    refunds.set(entry.id, entry);
    return {
      status: 200,
      body: refundView(entry),
      events: [event('refund.created', refundView(entry), idempotencyKey), event('charge.refunded', chargeView(intent, charge), idempotencyKey)],
    };
  };

  const route = (accountKey: string, account: StripeSimulatorAccount, method: string, path: string, form: FormObject, idempotencyKey: string | null): Answer => {
    if (path === '/v1/payment_intents' && method === 'POST') return createIntent(accountKey, account, form, idempotencyKey);
    if (path === '/v1/refunds' && method === 'POST') return refund(accountKey, form, idempotencyKey);
    const intentMatch = /^\/v1\/payment_intents\/([^/]+)(?:\/(capture|cancel))?$/.exec(path);
    if (intentMatch) {
      const id = decodeURIComponent(intentMatch[1]!);
      const intent = intents.get(id);
      if (!intent || intent.account !== accountKey) return notFound('payment_intent', id, 'intent');
      const expired = expire(intent);
      const action = intentMatch[2];
      let answer: Answer;
      if (!action && method === 'GET') answer = { status: 200, body: intentView(intent, list(form, 'expand').includes('latest_charge')) };
      else if (action === 'capture' && method === 'POST') answer = capture(intent, form, idempotencyKey);
      else if (action === 'cancel' && method === 'POST') answer = cancel(intent, form, idempotencyKey);
      else answer = unrecognized(method, path);
      return { ...answer, events: [...expired, ...(answer.events ?? [])] };
    }
    const refundMatch = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (refundMatch && method === 'GET') {
      const id = decodeURIComponent(refundMatch[1]!);
      const found = refunds.get(id);
      if (!found || intents.get(found.intentId)?.account !== accountKey) return notFound('refund', id, 'refund');
      return { status: 200, body: refundView(found) };
    }
    return unrecognized(method, path);
  };

  const unrecognized = (method: string, path: string): Answer =>
    invalidRequest(
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      {},
      404,
    );

  // ---- Webhooks ("Receive Stripe events in your webhook endpoint": Stripe-Signature).
  const sign = (payload: string, secret: string): string => {
    const t = seconds();
    const v1 = createHmac('sha256', secret).update(`${t}.${payload}`, 'utf8').digest('hex');
    return `t=${t},${STRIPE_SIGNATURE_SCHEME}=${v1}`;
  };

  const send = (account: StripeSimulatorAccount, events: StripeEvent[]) => {
    for (const item of events) {
      const payload = JSON.stringify(item, null, 2);
      const delivery: StripeEventDelivery = { event: item, payload, signature: account.webhookSecret ? sign(payload, account.webhookSecret) : '' };
      deliveries.push(delivery);
      if (!account.webhookUrl || !account.webhookSecret) continue;
      const url = account.webhookUrl;
      const post = (async () => {
        try {
          const answer = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': delivery.signature, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
            body: payload,
          });
          delivery.status = answer.status;
          await answer.arrayBuffer();
        } catch {
          delivery.status = undefined;
        }
      })();
      posting.add(post);
      void post.finally(() => posting.delete(post));
    }
  };

  const reply = (res: ServerResponse, answer: { status: number; body: unknown; headers?: Record<string, string> }, requestId: string, idempotencyKey: string | null) => {
    const textBody = JSON.stringify(answer.body, null, 2);
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(textBody),
      'request-id': requestId,
      'stripe-version': '2026-10-28.endive',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      ...(answer.status === 401 ? { 'www-authenticate': 'Bearer realm="Stripe"' } : {}),
      ...answer.headers,
    });
    res.end(textBody);
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = (await readBody(req)).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const requestId = newId('req', 14);
    const idempotencyKey = method === 'POST' ? (req.headers['idempotency-key'] as string | undefined)?.trim() || null : null;
    const account = accountOf(req);
    if (!account) {
      const header = req.headers.authorization ?? '';
      const message =
        header === ''
          ? "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/."
          : `Invalid API Key provided: ${maskKey(header.replace(/^Bearer\s+/, ''))}`;
      if (latencyMs > 0) await wait(latencyMs);
      reply(res, error(401, { type: 'invalid_request_error', message }), requestId, null);
      return;
    }
    if (stalled) {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    if (down) {
      if (latencyMs > 0) await wait(latencyMs);
      reply(res, error(500, { type: 'api_error', message: 'An unknown error occurred' }), requestId, idempotencyKey);
      return;
    }
    const accountKey = account.secretKey;
    const form = method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(raw);
    let result: Answer;
    const savedKey = idempotencyKey ? `${accountKey}\n${idempotencyKey}` : undefined;
    const fingerprint = `${method} ${url.pathname}?${canonicalForm(method === 'GET' ? url.search.slice(1) : raw)}`;
    const previous = savedKey ? saved.get(savedKey) : undefined;
    if (previous) {
      result =
        previous.fingerprint === fingerprint
          ? { status: previous.status, body: previous.body, headers: { ...previous.headers, 'idempotent-replayed': 'true' } }
          : error(400, {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            });
    } else {
      const contentType = req.headers['content-type'] ?? '';
      if (method === 'POST' && raw !== '' && !contentType.includes('application/x-www-form-urlencoded')) {
        result = invalidRequest('Invalid request: the body must be application/x-www-form-urlencoded.');
      } else {
        result = route(accountKey, account, method, url.pathname.replace(/\/+$/, ''), form, idempotencyKey);
      }
      // "Idempotent requests": the result is saved once the endpoint started executing (answers of 200 and
      // 402); a request refused in validation saves nothing.
      if (savedKey && (result.status === 200 || result.status === 402)) saved.set(savedKey, { fingerprint, status: result.status, body: result.body });
    }
    if (latencyMs > 0) await wait(latencyMs);
    if (!res.destroyed) reply(res, result, requestId, idempotencyKey);
    if (result.events && result.events.length > 0) send(account, result.events);
  };

  const server = createServer((req, res) => {
    answer(req, res).catch(() => {
      if (!res.headersSent) reply(res, error(500, { type: 'api_error', message: 'An unknown error occurred' }), newId('req', 14), null);
    });
  });
  const running = await listen(server, options.port ?? 0);
  const address = new URL(running.url);
  return {
    ...running,
    host: address.hostname,
    port: Number(address.port),
    protocol: 'http',
    paymentIntent: (id) => {
      const intent = intents.get(id);
      return intent ? intentView(intent, true) : undefined;
    },
    paymentIntentsCreated: () => created,
    async payPix(id) {
      const intent = intents.get(id);
      if (!intent || intent.paymentMethod?.type !== 'pix' || intent.status !== 'requires_action') throw new Error(`no Pix waiting for payment: ${id}`);
      const account = accounts.find((a) => a.secretKey === intent.account)!;
      intent.status = 'succeeded';
      intent.nextAction = null;
      intent.amountReceived = intent.amount;
      intent.charge = {
        id: newId('py'),
        amount: intent.amount,
        amountCaptured: intent.amount,
        amountRefunded: 0,
        captured: true,
        created: seconds(),
        status: 'succeeded',
        authorizationCode: null,
        networkTransactionId: `E${randomBytes(15).toString('hex').toUpperCase()}`.slice(0, 32),
        refunds: [],
      };
      send(account, [event('payment_intent.succeeded', intentView(intent, false), null)]);
      await Promise.all([...posting]);
    },
    events: () => [...deliveries],
    flush: async () => {
      while (posting.size > 0) await Promise.all([...posting]);
    },
    stall(on) {
      stalled = on;
      if (!on) for (const res of held) res.destroy();
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    outage(on) {
      down = on;
    },
    setWebhookUrl(secretKey, url) {
      const account = accounts.find((a) => a.secretKey === secretKey);
      if (!account) throw new Error('no such account');
      account.webhookUrl = url;
    },
    sign,
    close: async () => {
      for (const res of held) res.destroy();
      for (const entry of waits) {
        clearTimeout(entry.timer);
        entry.resolve();
      }
      waits.clear();
      await Promise.allSettled([...posting]);
      await running.close();
    },
  };
}

/** How Stripe repeats a wrong key: its prefix and last four characters only. */
function maskKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(0, key.length - prefix.length - 4))}${key.slice(-4)}`;
}
