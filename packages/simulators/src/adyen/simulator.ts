import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, readBody, sendJson, type RunningSimulator } from '../http';
import { testTls } from '../pix/tls';
import { decryptField } from './encryption';
import {
  ADYEN_CAPTURE_FAILED_HOLDER,
  ADYEN_REFUND_FAILED_HOLDER,
  ADYEN_TEST_AMEX_CVC,
  ADYEN_TEST_CARDS,
  ADYEN_TEST_CVC,
  ADYEN_TEST_EXPIRY,
  ADYEN_TEST_HOLDER_NAMES,
  forcedResult,
} from './rules';

/**
 * Adyen's Checkout API v72 on loopback, over HTTPS (the Adyen library speaks nothing else) with the test
 * certificates of packages/simulators/tls:
 * - `POST /v72/payments` with `X-API-Key`: card payments (`paymentMethod.type` scheme) with raw card data, or with
 *   the fields encrypted to the account's client encryption key (encryption.ts), captured
 *   at once (`captureDelayHours` 0, or the account's immediate default) or held (`additionalData.manualCapture`
 *   "true"); the test platform's rules: the documented test cards with expiry 03/2030 and CVC 737 (7373 Amex), a
 *   wrong CVC or expiry refused (2, Refused), a number that is not a test card refused (8, Invalid Card Number),
 *   the holder names that force a refusal reason, PENDING for a `Received` payment.
 * - `POST /v72/payments/{pspReference}/captures`, `/cancels`, `/refunds` (partial too): answered 201 `received`;
 *   the outcome comes in the Standard webhook (CAPTURE, CANCELLATION, REFUND with success true or false), signed
 *   with the account's HMAC key as the manual's "Verify HMAC signatures" computes it.
 * - A bad API key gets 401 (`000`), a merchant account the key may not use 403 (`901`), a malformed request 422 in
 *   Adyen's ServiceError shape; the same Idempotency-Key (per API key) gets the first answer again.
 * Notifications are kept (`notifications`) and, when `webhookUrl` is given, posted there after the answer.
 */
export interface AdyenSimulatorAccount {
  apiKey: string;
  merchantAccount: string;
  /** Hex HMAC key of the account's Standard webhook. */
  hmacKey: string;
  /** Whether the account may send raw card data (the API PCI role); true by default. */
  rawCardData?: boolean;
  /** The private half of the account's client encryption key (PKCS#8 PEM): encrypted card fields are decrypted with it. */
  clientEncryptionPrivateKey?: string;
  /** Where this account's Standard webhook posts (the Customer Area's webhook URL); else the simulator's `webhookUrl`. */
  webhookUrl?: string;
}

export interface AdyenSimulatorOptions {
  port?: number;
  /** Dates in notifications. */
  clock?: () => Date;
  accounts: AdyenSimulatorAccount[];
  /** Where notifications of accounts without their own `webhookUrl` are posted (JSON); none: they are only kept. */
  webhookUrl?: string;
  /**
   * How far from the simulator's clock an encrypted field's generationtime may be (Adyen: a day). A test whose
   * simulator runs on a fixed clock while the connector stamps fields with the system time widens it.
   */
  generationTimeWindowMs?: number;
  /**
   * How long after its event a notification is posted to a webhook URL (250 ms by default): Adyen posts a moment
   * later, never inside the answer that caused it. Notifications are in `notifications` at once either way.
   */
  webhookDelayMs?: number;
  /** Called with every notification as it is made (before any post). */
  notify?: (notification: AdyenNotification) => void;
}

export interface AdyenNotificationItem {
  additionalData: Record<string, string>;
  amount: { currency: string; value: number };
  eventCode: string;
  eventDate: string;
  merchantAccountCode: string;
  merchantReference: string;
  originalReference?: string;
  paymentMethod?: string;
  pspReference: string;
  reason?: string;
  success: 'true' | 'false';
}

export interface AdyenNotification {
  live: 'false';
  notificationItems: Array<{ NotificationRequestItem: AdyenNotificationItem }>;
}

export interface AdyenDelivery {
  body: AdyenNotification;
  status?: number;
  error?: string;
}

/** One request and its answer as seen on the wire (`route` as the OpenAPI document names it). */
export interface AdyenExchange {
  method: string;
  route: string;
  status: number;
  requestBody?: unknown;
  responseBody?: unknown;
  idempotencyKey?: string;
}

export interface AdyenPayment {
  pspReference: string;
  merchantAccount: string;
  reference: string;
  amount: number;
  currency: string;
  resultCode: string;
  brand: string;
  holderName: string;
  manualCapture: boolean;
  capturedAmount: number;
  refundedAmount: number;
  cancelled: boolean;
}

export interface RunningAdyenSimulator extends RunningSimulator {
  /** The Checkout base the connector is pointed at (`ADYEN_CHECKOUT_URL`): `${url}/v72`. */
  checkoutUrl: string;
  exchanges: AdyenExchange[];
  notifications: AdyenNotification[];
  payment(pspReference: string): AdyenPayment | undefined;
  /** The posts of notifications to `webhookUrl`, with the merchant's answer. */
  deliveries: AdyenDelivery[];
  /** Resolves once every modification taken so far is settled and every notification post is answered. */
  idle(): Promise<void>;
  /** How many payments reached it (a repeated Idempotency-Key creates none). */
  paymentsCreated(): number;
  /** Ends a `Received` payment (holder name PENDING): its AUTHORISATION notification. */
  completePending(pspReference: string, authorised: boolean): Promise<AdyenNotification>;
  /** Points an account's Standard webhook at a URL (as its Customer Area does), or stops its posts (undefined). */
  setWebhookUrl(merchantAccount: string, url: string | undefined): void;
  /** Cancels an authorisation as the merchant's Customer Area would (with its CANCELLATION notification). */
  cancelAtAdyen(pspReference: string): AdyenNotification;
  /** The next request is answered with this HTTP status in Adyen's ServiceError shape (a 500, a 429), once. */
  failNext(status: number): void;
  /** While on, requests get no answer at all: a provider that hangs. */
  stall(on: boolean): void;
  /** The signature Adyen's manual computes for an item with the given hex key (for tests that forge items). */
  sign(item: Omit<AdyenNotificationItem, 'additionalData'>, hmacKey: string): string;
}

const DAY_MS = 24 * 3_600_000;

class AdyenError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly errorType: string,
    readonly pspReference?: string,
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return { status: this.status, errorCode: this.errorCode, message: this.message, errorType: this.errorType, ...(this.pspReference ? { pspReference: this.pspReference } : {}) };
  }
}

/** "Verify HMAC signatures": the signed string and its HMAC-SHA256 (base64) with the hex key. */
export function adyenSignature(item: Omit<AdyenNotificationItem, 'additionalData'>, hmacKey: string): string {
  const fields = [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    String(item.amount.value),
    item.amount.currency,
    item.eventCode,
    item.success,
  ];
  return createHmac('sha256', Buffer.from(hmacKey, 'hex')).update(fields.join(':'), 'utf8').digest('base64');
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function luhn(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = number.charCodeAt(i) - 48;
    if (double) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

type Json = Record<string, unknown>;
const objectOf = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});

export async function startAdyenSimulator(options: AdyenSimulatorOptions): Promise<RunningAdyenSimulator> {
  const clock = options.clock ?? (() => new Date());
  const tls = testTls();
  const payments = new Map<string, AdyenPayment>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const exchanges: AdyenExchange[] = [];
  const notifications: AdyenNotification[] = [];
  const held = new Set<ServerResponse>();
  const deliveries: AdyenDelivery[] = [];
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const timers = new Map<NodeJS.Timeout, () => void>();
  let closed = false;
  let stalled = false;
  let failure: number | undefined;
  let sequence = 0;
  let created = 0;

  const nextPsp = () => `88${String(Date.parse('2026-01-01T00:00:00Z') / 1000 + ++sequence).padStart(14, '0')}`;

  const accountOfKey = (req: IncomingMessage): AdyenSimulatorAccount => {
    const key = req.headers['x-api-key'];
    const account = typeof key === 'string' ? options.accounts.find((a) => safeEqual(a.apiKey, key)) : undefined;
    if (!account) throw new AdyenError(401, '000', 'HTTP Status Response - Unauthorized', 'security');
    return account;
  };

  const checkMerchant = (account: AdyenSimulatorAccount, body: Json) => {
    if (typeof body.merchantAccount !== 'string' || body.merchantAccount === '') {
      throw new AdyenError(422, '14_003', 'Required field merchantAccount is missing', 'validation');
    }
    if (body.merchantAccount !== account.merchantAccount) throw new AdyenError(403, '901', 'Invalid Merchant Account', 'security', nextPsp());
  };

  const amountOf = (body: Json): { currency: string; value: number } => {
    const amount = objectOf(body.amount);
    if (typeof amount.currency !== 'string' || !/^[A-Z]{3}$/.test(amount.currency) || !Number.isSafeInteger(amount.value) || (amount.value as number) < 0) {
      throw new AdyenError(422, '137', 'Invalid amount specified', 'validation');
    }
    return { currency: amount.currency, value: amount.value as number };
  };

  const webhooks = new Map<string, string | undefined>(options.accounts.map((a) => [a.merchantAccount, a.webhookUrl ?? options.webhookUrl]));
  const deliver = (notification: AdyenNotification) => {
    notifications.push(notification);
    options.notify?.(notification);
    const url = webhooks.get(notification.notificationItems[0]!.NotificationRequestItem.merchantAccountCode);
    if (!url) return;
    track(
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, options.webhookDelayMs ?? 250);
        timers.set(timer, resolve);
      })
        .then(() => (closed ? Promise.reject(new Error('closed')) : fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(notification) })))
        .then((answer) => void deliveries.push({ status: answer.status, body: notification }))
        .catch(() => void deliveries.push({ error: 'not delivered', body: notification })),
    );
  };

  const notifyEvent = (payment: AdyenPayment, event: { eventCode: string; success: boolean; value: number; pspReference?: string; reason?: string }) => {
    const account = options.accounts.find((a) => a.merchantAccount === payment.merchantAccount)!;
    const modification = event.pspReference !== undefined;
    const item: Omit<AdyenNotificationItem, 'additionalData'> = {
      amount: { currency: payment.currency, value: event.value },
      eventCode: event.eventCode,
      eventDate: clock().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      merchantAccountCode: payment.merchantAccount,
      merchantReference: payment.reference,
      ...(modification ? { originalReference: payment.pspReference } : {}),
      paymentMethod: payment.brand,
      pspReference: modification ? event.pspReference! : payment.pspReference,
      ...(event.reason ? { reason: event.reason } : {}),
      success: event.success ? 'true' : 'false',
    };
    const notification: AdyenNotification = {
      live: 'false',
      notificationItems: [{ NotificationRequestItem: { additionalData: { hmacSignature: adyenSignature(item, account.hmacKey) }, ...item } }],
    };
    deliver(notification);
    return notification;
  };

  /**
   * The card's fields: raw (only for an account with the API PCI role: else 403 `010` "Not allowed"), or encrypted
   * with the account's client encryption key (a field that does not decrypt, or was generated more than a day
   * before the simulator's clock, is refused with 422 `174` "Unable to decrypt data").
   */
  const cardOf = (account: AdyenSimulatorAccount, method: Json): Json => {
    const encrypted = ['encryptedCardNumber', 'encryptedExpiryMonth', 'encryptedExpiryYear', 'encryptedSecurityCode'].some((field) => field in method);
    if (!encrypted) {
      if ('number' in method && account.rawCardData === false) throw new AdyenError(403, '010', 'Not allowed', 'security', nextPsp());
      return method;
    }
    const key = account.clientEncryptionPrivateKey;
    const open = (field: string, name: string): string | undefined => {
      if (!(field in method)) return undefined;
      const opened = key ? decryptField(key, name, method[field]) : undefined;
      if (!opened || Math.abs(clock().getTime() - opened.generatedAt.getTime()) > (options.generationTimeWindowMs ?? DAY_MS)) {
        throw new AdyenError(422, '174', 'Unable to decrypt data', 'validation');
      }
      return opened.value;
    };
    const { encryptedCardNumber: _number, encryptedExpiryMonth: _month, encryptedExpiryYear: _year, encryptedSecurityCode: _cvc, ...rest } = method;
    const number = open('encryptedCardNumber', 'number');
    const expiryMonth = open('encryptedExpiryMonth', 'expiryMonth');
    const expiryYear = open('encryptedExpiryYear', 'expiryYear');
    const cvc = open('encryptedSecurityCode', 'cvc');
    return { ...rest, ...(number ? { number } : {}), ...(expiryMonth ? { expiryMonth } : {}), ...(expiryYear ? { expiryYear } : {}), ...(cvc ? { cvc } : {}) };
  };

  /** "Make a payment". */
  const pay = (account: AdyenSimulatorAccount, body: Json): { status: number; body: unknown } => {
    checkMerchant(account, body);
    const amount = amountOf(body);
    if (typeof body.reference !== 'string' || body.reference === '') throw new AdyenError(422, '130', 'Required field reference is missing', 'validation');
    if (typeof body.returnUrl !== 'string' || body.returnUrl === '') throw new AdyenError(422, '14_030', 'Return URL is missing.', 'validation');
    const method = cardOf(account, objectOf(body.paymentMethod));
    if (method.type !== 'scheme') throw new AdyenError(422, '905_1', 'Could not find an acquirer account for the provided txvariant', 'configuration');
    const number = typeof method.number === 'string' ? method.number : '';
    if (!/^\d{12,19}$/.test(number) || !luhn(number)) throw new AdyenError(422, '101', 'Invalid card number', 'validation');
    if (typeof method.expiryMonth !== 'string' || !/^(0[1-9]|1[0-2])$/.test(method.expiryMonth) || typeof method.expiryYear !== 'string' || !/^\d{4}$/.test(method.expiryYear)) {
      throw new AdyenError(422, '129', 'Expiry Date Invalid', 'validation');
    }
    const cvc = typeof method.cvc === 'string' ? method.cvc : undefined;
    if (cvc !== undefined && !/^\d{3,4}$/.test(cvc)) throw new AdyenError(422, '103', 'CVC is not the right length', 'validation');
    const holderName = typeof method.holderName === 'string' ? method.holderName : '';
    const additional = objectOf(body.additionalData);
    const pspReference = nextPsp();
    const brand = ADYEN_TEST_CARDS[number];
    const requested = additional.RequestedTestAcquirerResponseCode;
    const forced = forcedResult(holderName) ?? (requested !== undefined ? Object.values(ADYEN_TEST_HOLDER_NAMES).find(([code]) => String(code) === String(requested)) : undefined);
    let resultCode = 'Authorised';
    let refusal: { code: number; reason: string } | undefined;
    if (!brand) refusal = { code: 8, reason: 'Invalid Card Number' };
    else if (method.expiryMonth !== ADYEN_TEST_EXPIRY.month || method.expiryYear !== ADYEN_TEST_EXPIRY.year) refusal = { code: 2, reason: 'Refused' };
    else if (cvc !== undefined && cvc !== (brand === 'amex' ? ADYEN_TEST_AMEX_CVC : ADYEN_TEST_CVC)) refusal = { code: 2, reason: 'Refused' };
    else if (forced && forced[2] !== 'Authorised') {
      resultCode = forced[2];
      if (resultCode !== 'Received') refusal = { code: forced[0], reason: forced[1] };
    }
    if (refusal) resultCode = resultCode === 'Authorised' ? 'Refused' : resultCode;
    const manualCapture = additional.manualCapture === 'true';
    const payment: AdyenPayment = {
      pspReference,
      merchantAccount: account.merchantAccount,
      reference: body.reference,
      amount: amount.value,
      currency: amount.currency,
      resultCode,
      brand: brand ?? 'visa',
      holderName,
      manualCapture,
      capturedAmount: resultCode === 'Authorised' && !manualCapture ? amount.value : 0,
      refundedAmount: 0,
      cancelled: false,
    };
    payments.set(pspReference, payment);
    created++;
    if (resultCode !== 'Received') notifyEvent(payment, { eventCode: 'AUTHORISATION', success: resultCode === 'Authorised', value: amount.value, ...(refusal ? { reason: refusal.reason } : {}) });
    const answer: Json = { pspReference, resultCode, amount: { currency: amount.currency, value: amount.value }, merchantReference: body.reference };
    if (resultCode === 'Authorised') answer.additionalData = { authCode: String(100000 + (sequence % 900000)) };
    if (refusal) {
      answer.refusalReason = refusal.reason;
      answer.refusalReasonCode = String(refusal.code);
    }
    return { status: 200, body: answer };
  };

  type Kind = 'captures' | 'cancels' | 'refunds';

  /** "Capture", "Cancel", "Refund": answered `received`; the outcome is the notification's. */
  const modify = (account: AdyenSimulatorAccount, kind: Kind, paymentPsp: string, body: Json): { status: number; body: unknown } => {
    checkMerchant(account, body);
    const amount = kind === 'cancels' ? undefined : amountOf(body);
    const payment = payments.get(paymentPsp);
    if (!payment || payment.merchantAccount !== account.merchantAccount) {
      throw new AdyenError(422, '167', 'Original pspReference required for this operation', 'validation');
    }
    const pspReference = nextPsp();
    const answer: Json = {
      merchantAccount: account.merchantAccount,
      paymentPspReference: paymentPsp,
      pspReference,
      ...(typeof body.reference === 'string' ? { reference: body.reference } : {}),
      status: 'received',
      ...(amount ? { amount } : {}),
    };
    // Settled right after the answer, as Adyen does asynchronously.
    track(new Promise<void>((resolve) => setImmediate(() => {
      settle(payment, kind, pspReference, amount);
      resolve();
    })));
    return { status: 201, body: answer };
  };

  const settle = (payment: AdyenPayment, kind: Kind, pspReference: string, amount: { currency: string; value: number } | undefined) => {
    const authorised = payment.resultCode === 'Authorised' && !payment.cancelled;
    if (kind === 'captures') {
      const value = amount!.value;
      const ok = authorised && payment.manualCapture && payment.capturedAmount === 0 && amount!.currency === payment.currency && value > 0 && value <= payment.amount;
      if (ok) payment.capturedAmount = value;
      notifyEvent(payment, { eventCode: 'CAPTURE', success: ok, value, pspReference, ...(ok ? {} : { reason: 'Insufficient balance on payment' }) });
      if (ok && payment.holderName === ADYEN_CAPTURE_FAILED_HOLDER) notifyEvent(payment, { eventCode: 'CAPTURE_FAILED', success: true, value, pspReference });
      return;
    }
    if (kind === 'cancels') {
      const ok = authorised && payment.capturedAmount === 0;
      if (ok) payment.cancelled = true;
      notifyEvent(payment, { eventCode: 'CANCELLATION', success: ok, value: payment.amount, pspReference, ...(ok ? {} : { reason: 'Transaction not cancellable' }) });
      return;
    }
    const value = amount!.value;
    const ok = payment.capturedAmount > 0 && amount!.currency === payment.currency && value > 0 && payment.refundedAmount + value <= payment.capturedAmount;
    if (ok) payment.refundedAmount += value;
    notifyEvent(payment, { eventCode: 'REFUND', success: ok, value, pspReference, ...(ok ? {} : { reason: 'Insufficient balance on payment' }) });
    if (ok && payment.holderName === ADYEN_REFUND_FAILED_HOLDER) notifyEvent(payment, { eventCode: 'REFUND_FAILED', success: true, value, pspReference });
  };

  const route = (method: string, path: string): { route: string; run: (account: AdyenSimulatorAccount, body: Json) => { status: number; body: unknown } } | undefined => {
    if (method !== 'POST') return undefined;
    if (path === '/v72/payments') return { route: '/payments', run: pay };
    const match = /^\/v72\/payments\/([^/]+)\/(captures|cancels|refunds)$/.exec(path);
    if (!match) return undefined;
    const kind = match[2] as Kind;
    const psp = decodeURIComponent(match[1]!);
    return { route: `/payments/{paymentPspReference}/${kind}`, run: (account, body) => modify(account, kind, psp, body) };
  };

  const server: Server = createServer({ key: tls.serverKey, cert: tls.serverCert }, (req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    if (stalled) {
      held.add(res);
      return;
    }
    const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
    const found = route(req.method ?? '', path);
    const routeName = found?.route ?? path;
    let requestBody: unknown;
    const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    try {
      if (failure !== undefined) {
        const status = failure;
        failure = undefined;
        throw status === 500 ? new AdyenError(500, '905', 'Payment details are not supported', 'configuration') : new AdyenError(status, '000', 'Too many requests', 'technical');
      }
      if (!found) throw new AdyenError(404, '000', 'Not Found', 'validation');
      const account = accountOfKey(req);
      try {
        requestBody = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AdyenError(400, '702', 'Unexpected input', 'validation');
      }
      const remembered = idempotencyKey ? `${createHash('sha256').update(account.apiKey).digest('hex')}|${idempotencyKey}` : undefined;
      const earlier = remembered ? idempotent.get(remembered) : undefined;
      const answer = earlier ?? found.run(account, objectOf(requestBody));
      if (remembered && !earlier) idempotent.set(remembered, answer);
      exchanges.push({ method: req.method ?? '', route: routeName, status: answer.status, requestBody, responseBody: answer.body, ...(idempotencyKey ? { idempotencyKey } : {}) });
      sendJson(res, answer.status, answer.body);
    } catch (error) {
      const failure = error instanceof AdyenError ? error : new AdyenError(500, '905', 'Payment details are not supported', 'configuration');
      exchanges.push({ method: req.method ?? '', route: routeName, status: failure.status, requestBody, responseBody: failure.body() });
      sendJson(res, failure.status, failure.body());
    }
  }

  const running = await listen(server, options.port ?? 0, 'https');
  return {
    ...running,
    checkoutUrl: `${running.url}/v72`,
    exchanges,
    notifications,
    payment: (pspReference) => {
      const found = payments.get(pspReference);
      return found ? { ...found } : undefined;
    },
    paymentsCreated: () => created,
    deliveries,
    idle: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    completePending: async (pspReference, authorised) => {
      const payment = payments.get(pspReference);
      if (!payment || payment.resultCode !== 'Received') throw new Error(`payment ${pspReference} is not waiting`);
      payment.resultCode = authorised ? 'Authorised' : 'Refused';
      if (authorised && !payment.manualCapture) payment.capturedAmount = payment.amount;
      return notifyEvent(payment, { eventCode: 'AUTHORISATION', success: authorised, value: payment.amount, ...(authorised ? {} : { reason: 'Refused' }) });
    },
    setWebhookUrl: (merchantAccount, url) => {
      if (!webhooks.has(merchantAccount)) throw new Error(`no account ${merchantAccount}`);
      webhooks.set(merchantAccount, url);
    },
    cancelAtAdyen: (pspReference) => {
      const payment = payments.get(pspReference);
      if (!payment || payment.resultCode !== 'Authorised' || payment.capturedAmount > 0 || payment.cancelled) throw new Error(`payment ${pspReference} cannot be cancelled`);
      payment.cancelled = true;
      return notifyEvent(payment, { eventCode: 'CANCELLATION', success: true, value: payment.amount, pspReference: nextPsp() });
    },
    failNext: (status) => {
      failure = status;
    },
    stall: (on) => {
      stalled = on;
      if (!on) for (const res of held) res.destroy();
      if (!on) held.clear();
    },
    sign: adyenSignature,
    close: async () => {
      closed = true;
      // Posts still waiting are dropped, as a webhook to a merchant that went away.
      for (const [timer, resolve] of timers) {
        clearTimeout(timer);
        resolve();
      }
      timers.clear();
      for (const res of held) res.destroy();
      held.clear();
      await running.close();
    },
  };
}
