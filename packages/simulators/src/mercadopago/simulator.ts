import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, readBody, sendJson, type RunningSimulator } from '../http';
import { dynamicBrCode } from '../pix/brcode';
import { cardholderOutcome, MERCADOPAGO_CAPTURE_DAYS, MERCADOPAGO_CARD_METHODS, MERCADOPAGO_PIX_EXPIRATION } from './rules';

/**
 * Mercado Pago's payments API on loopback, after its developer documentation (API reference "Payments",
 * "Card tokens" and "Refunds"; "Test cards"; "Webhooks"):
 * - `POST /v1/card_tokens`: raw card data (card_number, expiration_month/year, security_code, cardholder) -> a
 *   single-use token, as a server-side integration tokenizes with its access token.
 * - `POST /v1/payments`: a card payment (`token`, `payment_method_id`, `installments`, `capture`) or a Pix
 *   (`payment_method_id: "pix"`, answered with `point_of_interaction.transaction_data.qr_code`).
 * - `GET /v1/payments/{id}`, `PUT /v1/payments/{id}` (`{capture: true, transaction_amount}` captures an
 *   authorized payment, in whole or in part; `{status: "cancelled"}` cancels what was not captured) and
 *   `POST /v1/payments/{id}/refunds` (`{amount}` partial, empty body total).
 * Every call carries `Authorization: Bearer <access token>`; a POST or PUT is answered once per
 * `X-Idempotency-Key` (the same key gets the first answer again). Amounts are decimal reais, as Mercado Pago's;
 * the state is kept in centavos. The cardholder's name forces each card outcome (rules.ts). A change to a payment
 * is notified as Mercado Pago's Webhooks are, signed with the account's secret (`x-signature: ts=..,v1=..`).
 */

export interface MercadoPagoAccount {
  accessToken: string;
  /** The "secret signature" of the application's Webhooks (Your integrations). */
  webhookSecret?: string;
  /** The seller's user id, as notifications carry it. */
  userId?: number;
  /**
   * The Webhooks URL configured for the application: each notification is POSTed there (with `?data.id=...&type=payment`
   * appended, as Mercado Pago does) a moment after the answer that caused it.
   */
  webhookUrl?: string;
}

/** A notification posted to an account's webhookUrl, with what the receiver answered (or why it could not). */
export interface MercadoPagoDelivery {
  notification: MercadoPagoNotification;
  status?: number;
  error?: string;
}

/** A Webhooks notification as Mercado Pago posts it: the body, the query of the notification URL, the headers. */
export interface MercadoPagoNotification {
  body: { id: number; live_mode: boolean; type: 'payment'; date_created: string; user_id: number; api_version: 'v1'; action: string; data: { id: string } };
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: Buffer;
}

export interface MercadoPagoSimulatorOptions {
  port?: number;
  /** The simulator's clock (dates, the capture window, Pix expiry, the signature's ts). */
  clock?: () => Date;
  accounts: MercadoPagoAccount[];
  /** Every answer waits this long first (a slow provider). */
  latencyMs?: number;
  /** Receives each notification (payment.created, payment.updated) of an account that has a webhook secret. */
  notify?: (notification: MercadoPagoNotification) => void;
}

export interface MercadoPagoRefundState {
  id: number;
  amount: number;
  status: 'approved' | 'in_process';
  createdAt: Date;
}

export interface MercadoPagoPaymentState {
  id: number;
  accessToken: string;
  status: 'pending' | 'approved' | 'authorized' | 'in_process' | 'rejected' | 'cancelled' | 'refunded' | 'charged_back';
  statusDetail: string;
  paymentMethodId: string;
  paymentTypeId: string;
  /** Centavos: the authorized amount, then what was captured. */
  amount: number;
  refundedAmount: number;
  captured: boolean;
  installments: number;
  externalReference?: string;
  description?: string;
  statementDescriptor?: string;
  payer: Record<string, unknown>;
  card?: { firstSix: string; lastFour: string; expirationMonth: number; expirationYear: number; cardholderName: string };
  createdAt: Date;
  approvedAt?: Date;
  updatedAt: Date;
  expiresAt?: Date;
  qrCode?: string;
  authorizationCode?: string;
  refunds: MercadoPagoRefundState[];
}

export interface MercadoPagoSimulator extends RunningSimulator {
  /** The payment as the simulator holds it (amounts in centavos), or undefined. */
  payment(id: number | string): Readonly<MercadoPagoPaymentState> | undefined;
  /** Pays a pending Pix (approved, accredited) and notifies it. */
  payPix(id: number | string): void;
  /** Decides a payment in process (CONT): approved or rejected (cc_rejected_other_reason), and notifies it. */
  review(id: number | string, approve: boolean): void;
  /** A signed notification of the payment, as Mercado Pago would post it now. */
  notification(id: number | string, action?: string): MercadoPagoNotification;
  /** While on, new refunds stay in_process (not counted as refunded) until settleRefunds. */
  holdRefunds(on: boolean): void;
  /** Approves the refunds of a payment still in process, and notifies it. */
  settleRefunds(id: number | string): void;
  /** The notifications posted to webhook URLs so far. */
  readonly deliveries: ReadonlyArray<MercadoPagoDelivery>;
  /** Resolves when every post started so far has been answered (or failed). */
  delivered(): Promise<void>;
  /** How many payments were created (a repeated idempotency key creates none). */
  readonly paymentsCreated: number;
  /** The requests received: method, path and the idempotency key (never bodies: they carry card data). */
  readonly requests: ReadonlyArray<{ method: string; path: string; idempotencyKey?: string }>;
  /** While on, no request is answered (until turned off or close): a provider that hangs. */
  stall(on: boolean): void;
  setLatency(ms: number): void;
}

interface CardToken {
  id: string;
  accessToken: string;
  cardNumber: string;
  expirationMonth: number;
  expirationYear: number;
  cardholderName: string;
  identification?: { type?: string; number?: string };
  createdAt: Date;
  used: boolean;
}

interface Answer {
  status: number;
  body: unknown;
}

/** Mercado Pago's error shape: `{message, error, status, cause: [{code, description, data}]}`. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly causes: Array<{ code: number | string; description: string }> = [],
  ) {
    super(message);
  }

  answer(): Answer {
    return { status: this.status, body: { message: this.message, error: this.error, status: this.status, cause: this.causes.map((c) => ({ ...c, data: null })) } };
  }
}

const bad = (code: number | string, description: string) => new ApiError(400, 'bad_request', description, [{ code, description }]);
const DAY_MS = 86_400_000;
const TOKEN_LIFETIME_MS = 7 * DAY_MS;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Dates as Mercado Pago writes them: ISO 8601 with milliseconds, Brasília's offset (-03:00). */
function mpDate(at: Date): string {
  return `${new Date(at.getTime() - 3 * 3600_000).toISOString().slice(0, 23)}-03:00`;
}

/** Decimal reais (at most two decimals) -> centavos; undefined when it is not such an amount. */
function centavos(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  const cents = Math.round(value * 100);
  return Math.abs(cents - value * 100) < 1e-6 ? cents : undefined;
}

const reais = (cents: number) => cents / 100;

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

function intOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

export async function startMercadoPagoSimulator(options: MercadoPagoSimulatorOptions): Promise<MercadoPagoSimulator> {
  const clock = options.clock ?? (() => new Date());
  let latencyMs = options.latencyMs ?? 0;
  let stalled = false;
  const held = new Set<ServerResponse>();
  const tokens = new Map<string, CardToken>();
  const payments = new Map<number, MercadoPagoPaymentState>();
  const answered = new Map<string, Answer>();
  const requests: Array<{ method: string; path: string; idempotencyKey?: string }> = [];
  let nextPaymentId = 1_325_000_000;
  let nextRefundId = 2_000_000_000;
  let nextNotificationId = 10_000_000;
  let created = 0;
  let refundsHeld = false;
  const deliveries: MercadoPagoDelivery[] = [];
  const inFlight = new Set<Promise<void>>();

  const accountOf = (token: string) => options.accounts.find((a) => sameSecret(a.accessToken, token));

  const authenticate = (req: IncomingMessage): string => {
    const header = req.headers.authorization;
    if (!header) throw new ApiError(401, 'unauthorized', 'Must provide your access_token to proceed', [{ code: 5, description: 'Must provide your access_token to proceed' }]);
    const match = /^Bearer (.+)$/.exec(header);
    const account = match ? accountOf(match[1]!) : undefined;
    if (!account) throw new ApiError(401, 'unauthorized', 'invalid access token');
    return account.accessToken;
  };

  /** Time moves what waits: an authorization past the capture window, a Pix past its date_of_expiration. */
  const settle = (payment: MercadoPagoPaymentState) => {
    const now = clock();
    if (payment.status === 'authorized' && now.getTime() - payment.createdAt.getTime() > MERCADOPAGO_CAPTURE_DAYS * DAY_MS) {
      Object.assign(payment, { status: 'cancelled', statusDetail: 'expired', updatedAt: now });
    }
    if (payment.status === 'pending' && payment.expiresAt && now.getTime() > payment.expiresAt.getTime()) {
      Object.assign(payment, { status: 'cancelled', statusDetail: 'expired', updatedAt: now });
    }
  };

  const view = (payment: MercadoPagoPaymentState) => {
    settle(payment);
    return {
      id: payment.id,
      date_created: mpDate(payment.createdAt),
      date_approved: payment.approvedAt ? mpDate(payment.approvedAt) : null,
      date_last_updated: mpDate(payment.updatedAt),
      date_of_expiration: payment.expiresAt ? mpDate(payment.expiresAt) : null,
      money_release_date: null,
      operation_type: 'regular_payment',
      payment_method_id: payment.paymentMethodId,
      payment_type_id: payment.paymentTypeId,
      status: payment.status,
      status_detail: payment.statusDetail,
      currency_id: 'BRL',
      description: payment.description ?? null,
      live_mode: false,
      authorization_code: payment.authorizationCode ?? null,
      external_reference: payment.externalReference ?? null,
      statement_descriptor: payment.statementDescriptor ?? null,
      transaction_amount: reais(payment.amount),
      transaction_amount_refunded: reais(payment.refundedAmount),
      installments: payment.installments,
      captured: payment.captured,
      binary_mode: false,
      payer: payment.payer,
      card: payment.card
        ? {
            first_six_digits: payment.card.firstSix,
            last_four_digits: payment.card.lastFour,
            expiration_month: payment.card.expirationMonth,
            expiration_year: payment.card.expirationYear,
            cardholder: { name: payment.card.cardholderName },
          }
        : {},
      transaction_details: { total_paid_amount: reais(payment.amount), net_received_amount: reais(payment.amount), installment_amount: reais(Math.round(payment.amount / payment.installments)) },
      refunds: payment.refunds.map((r) => refundView(payment, r)),
      point_of_interaction: payment.qrCode
        ? {
            type: 'PIX',
            transaction_data: {
              qr_code: payment.qrCode,
              // The simulator renders no image: the base64 carries the copia e cola text.
              qr_code_base64: Buffer.from(payment.qrCode).toString('base64'),
              ticket_url: `https://www.mercadopago.com.br/payments/${payment.id}/ticket?caller_id=0&hash=${payment.id.toString(16)}`,
            },
          }
        : {},
    };
  };

  const refundView = (payment: MercadoPagoPaymentState, refund: MercadoPagoRefundState) => ({
    id: refund.id,
    payment_id: payment.id,
    amount: reais(refund.amount),
    metadata: {},
    source: { id: '0', name: 'Seller', type: 'collector' },
    date_created: mpDate(refund.createdAt),
    unique_sequence_number: null,
    refund_mode: 'standard',
    adjustment_amount: 0,
    status: refund.status,
    reason: null,
    labels: [],
    amount_refunded_to_payer: reais(refund.amount),
    partition_details: [],
  });

  const notificationOf = (payment: MercadoPagoPaymentState, action: string): MercadoPagoNotification => {
    const account = options.accounts.find((a) => a.accessToken === payment.accessToken);
    const now = clock();
    const body = {
      id: ++nextNotificationId,
      live_mode: false,
      type: 'payment' as const,
      date_created: mpDate(now),
      user_id: account?.userId ?? 0,
      api_version: 'v1' as const,
      action,
      data: { id: String(payment.id) },
    };
    const requestId = randomUUID();
    const ts = String(Math.floor(now.getTime() / 1000));
    // "Validate notification origin": HMAC-SHA256 (hex) of id:[data.id_url];request-id:[x-request-id_header];ts:[ts_header];
    const manifest = `id:${String(payment.id)};request-id:${requestId};ts:${ts};`;
    const v1 = createHmac('sha256', account?.webhookSecret ?? '').update(manifest).digest('hex');
    const rawBody = Buffer.from(JSON.stringify(body));
    return {
      body,
      query: { 'data.id': String(payment.id), type: 'payment' },
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-signature': `ts=${ts},v1=${v1}` },
      rawBody,
    };
  };

  /** "Webhooks": posted after the answer (never inside it); a receiver that is down leaves a failed delivery, never a rejection. */
  const post = (url: string, notification: MercadoPagoNotification) => {
    const delivery: MercadoPagoDelivery = { notification };
    deliveries.push(delivery);
    const target = new URL(url);
    for (const [name, value] of Object.entries(notification.query)) target.searchParams.set(name, value);
    const sending = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => fetch(target, { method: 'POST', headers: notification.headers, body: notification.rawBody }))
      .then(async (answer) => {
        delivery.status = answer.status;
        await answer.arrayBuffer();
      })
      .catch((error: unknown) => {
        delivery.error = error instanceof Error ? error.message : 'delivery failed';
      })
      .finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  };

  const notify = (payment: MercadoPagoPaymentState, action: string) => {
    const account = options.accounts.find((a) => a.accessToken === payment.accessToken);
    if (!account?.webhookSecret) return;
    const notification = notificationOf(payment, action);
    options.notify?.(notification);
    if (account.webhookUrl) post(account.webhookUrl, notification);
  };

  const paymentOf = (accessToken: string, id: string): MercadoPagoPaymentState => {
    const payment = /^\d+$/.test(id) ? payments.get(Number(id)) : undefined;
    if (!payment || payment.accessToken !== accessToken) {
      throw new ApiError(404, 'not_found', 'Payment not found', [{ code: 2000, description: 'Payment not found' }]);
    }
    settle(payment);
    return payment;
  };

  const createToken = (accessToken: string, body: unknown): Answer => {
    if (!isRecord(body)) throw bad(1, 'Params Error');
    const number = typeof body.card_number === 'string' ? body.card_number.replace(/\s/g, '') : '';
    if (number === '') throw bad(205, 'parameter cardNumber can not be null/empty');
    if (!/^\d{13,19}$/.test(number) || !luhn(number)) throw bad('E301', 'invalid parameter cardNumber');
    const month = intOf(body.expiration_month);
    const year = intOf(body.expiration_year);
    if (body.expiration_month === undefined) throw bad(208, 'parameter expirationMonth can not be null/empty');
    if (body.expiration_year === undefined) throw bad(209, 'parameter expirationYear can not be null/empty');
    if (month === undefined || month < 1 || month > 12) throw bad(325, 'invalid parameter expirationMonth');
    if (year === undefined || year < 2000) throw bad(326, 'invalid parameter expirationYear');
    const securityCode = body.security_code;
    if (securityCode === undefined || securityCode === '') throw bad(224, 'parameter securityCode can not be null/empty');
    if (typeof securityCode !== 'string' || !/^\d{3,4}$/.test(securityCode)) throw bad('E302', 'invalid parameter securityCode');
    const cardholder = isRecord(body.cardholder) ? body.cardholder : {};
    const name = typeof cardholder.name === 'string' ? cardholder.name.trim() : '';
    if (name === '') throw bad(221, 'parameter cardholderName can not be null/empty');
    const identification = isRecord(cardholder.identification) ? cardholder.identification : undefined;
    const now = clock();
    const token: CardToken = {
      id: randomBytes(16).toString('hex'),
      accessToken,
      cardNumber: number,
      expirationMonth: month,
      expirationYear: year,
      cardholderName: name,
      ...(identification ? { identification: { type: String(identification.type ?? ''), number: String(identification.number ?? '') } } : {}),
      createdAt: now,
      used: false,
    };
    tokens.set(token.id, token);
    return {
      status: 201,
      body: {
        id: token.id,
        card_id: null,
        first_six_digits: number.slice(0, 6),
        last_four_digits: number.slice(-4),
        expiration_month: month,
        expiration_year: year,
        cardholder: { name, identification: token.identification ?? {} },
        status: 'active',
        date_created: mpDate(now),
        date_last_updated: mpDate(now),
        date_due: mpDate(new Date(now.getTime() + TOKEN_LIFETIME_MS)),
        luhn_validation: true,
        live_mode: false,
        require_esc: false,
        card_number_length: number.length,
        security_code_length: securityCode.length,
      },
    };
  };

  const createPayment = (accessToken: string, body: unknown): Answer => {
    if (!isRecord(body)) throw bad(1, 'Params Error');
    const amount = centavos(body.transaction_amount);
    if (body.transaction_amount === undefined || body.transaction_amount === null) throw bad(4023, "transaction_amount attribute can't be null");
    if (amount === undefined) throw bad(4037, 'Invalid transaction_amount');
    const method = body.payment_method_id;
    if (typeof method !== 'string' || method === '') throw bad(4001, "payment_method_id attribute can't be null");
    const payer = isRecord(body.payer) ? body.payer : {};
    if (typeof payer.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(payer.email)) throw bad(4050, 'payer.email must be a valid email');
    const now = clock();
    const base = {
      id: ++nextPaymentId,
      accessToken,
      paymentMethodId: method,
      amount,
      refundedAmount: 0,
      installments: 1,
      payer: { email: payer.email, ...(isRecord(payer.identification) ? { identification: payer.identification } : {}) },
      createdAt: now,
      updatedAt: now,
      refunds: [],
      ...(typeof body.external_reference === 'string' ? { externalReference: body.external_reference } : {}),
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      ...(typeof body.statement_descriptor === 'string' ? { statementDescriptor: body.statement_descriptor } : {}),
    };
    let payment: MercadoPagoPaymentState;
    if (method === 'pix') {
      let expiresAt = new Date(now.getTime() + MERCADOPAGO_PIX_EXPIRATION.defaultMs);
      if (body.date_of_expiration !== undefined) {
        const parsed = typeof body.date_of_expiration === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(body.date_of_expiration) ? new Date(body.date_of_expiration) : undefined;
        if (!parsed || Number.isNaN(parsed.getTime())) throw bad(23, "The following parameters must be valid date and format (yyyy-MM-dd'T'HH:mm:ssz) date_of_expiration");
        const ahead = parsed.getTime() - now.getTime();
        if (ahead < MERCADOPAGO_PIX_EXPIRATION.minMs || ahead > MERCADOPAGO_PIX_EXPIRATION.maxMs) throw bad(1, 'Params Error: date_of_expiration must be between 30 minutes and 30 days from now');
        expiresAt = parsed;
      }
      const qrCode = dynamicBrCode({ location: `pix-qr.mercadopago.com/instore/o/v2/${randomUUID()}`, amount: reais(amount).toFixed(2), merchantName: 'MERCADO PAGO SIMULADOR', city: 'SAO PAULO' });
      payment = { ...base, status: 'pending', statusDetail: 'pending_waiting_transfer', paymentTypeId: 'bank_transfer', captured: true, expiresAt, qrCode };
    } else {
      const type = MERCADOPAGO_CARD_METHODS[method];
      if (!type) throw bad(3014, 'Invalid parameter payment_method');
      const installments = body.installments === undefined ? undefined : intOf(body.installments);
      if (installments === undefined || installments < 1) throw bad(4005, 'installments attribute must be numeric');
      const tokenId = body.token;
      const token = typeof tokenId === 'string' ? tokens.get(tokenId) : undefined;
      if (!token || token.accessToken !== accessToken || token.used || now.getTime() - token.createdAt.getTime() > TOKEN_LIFETIME_MS) {
        throw bad(2006, 'Card Token not found');
      }
      token.used = true;
      const outcome = cardholderOutcome(token.cardholderName);
      const capture = body.capture !== false;
      const card = { firstSix: token.cardNumber.slice(0, 6), lastFour: token.cardNumber.slice(-4), expirationMonth: token.expirationMonth, expirationYear: token.expirationYear, cardholderName: token.cardholderName };
      const common = { ...base, paymentTypeId: type, installments, card };
      if (type === 'debit_card' && installments !== 1) {
        payment = { ...common, status: 'rejected', statusDetail: 'cc_rejected_invalid_installments', captured: false };
      } else if (outcome.status === 'approved') {
        const authorizationCode = String(100000 + (common.id % 900000));
        payment = capture
          ? { ...common, status: 'approved', statusDetail: 'accredited', captured: true, approvedAt: now, authorizationCode }
          : { ...common, status: 'authorized', statusDetail: 'pending_capture', captured: false, authorizationCode };
      } else {
        payment = { ...common, status: outcome.status, statusDetail: outcome.statusDetail, captured: false };
      }
    }
    payments.set(payment.id, payment);
    created++;
    notify(payment, 'payment.created');
    return { status: 201, body: view(payment) };
  };

  const updatePayment = (accessToken: string, id: string, body: unknown): Answer => {
    const payment = paymentOf(accessToken, id);
    if (!isRecord(body)) throw bad(1, 'Params Error');
    const now = clock();
    const notAllowed = () => bad(3005, 'Not valid action, the resource is in a state that does not allow this operation.');
    if (body.capture === true) {
      if (payment.status !== 'authorized') throw notAllowed();
      const amount = body.transaction_amount === undefined ? payment.amount : centavos(body.transaction_amount);
      if (amount === undefined || amount > payment.amount) throw bad(4037, 'Invalid transaction_amount');
      Object.assign(payment, { status: 'approved', statusDetail: 'accredited', captured: true, amount, approvedAt: now, updatedAt: now });
    } else if (body.status === 'cancelled') {
      if (!['pending', 'in_process', 'authorized'].includes(payment.status)) throw notAllowed();
      Object.assign(payment, { status: 'cancelled', statusDetail: 'by_collector', updatedAt: now });
    } else {
      throw bad(1, 'Params Error');
    }
    notify(payment, 'payment.updated');
    return { status: 200, body: view(payment) };
  };

  /** A refund done: counted in transaction_amount_refunded; the whole amount refunded makes the payment refunded. */
  const credit = (payment: MercadoPagoPaymentState, amount: number) => {
    payment.refundedAmount += amount;
    if (payment.refundedAmount >= payment.amount) Object.assign(payment, { status: 'refunded', statusDetail: 'refunded' });
    else payment.statusDetail = 'partially_refunded';
  };

  const refundPayment = (accessToken: string, id: string, body: unknown): Answer => {
    const payment = paymentOf(accessToken, id);
    if (payment.status !== 'approved') throw bad(3005, 'Not valid action, the resource is in a state that does not allow this operation.');
    // What can still be refunded: the amount less what was refunded and what a refund in process will give back.
    const waiting = payment.refunds.filter((r) => r.status === 'in_process').reduce((sum, r) => sum + r.amount, 0);
    const remaining = payment.amount - payment.refundedAmount - waiting;
    const requested = isRecord(body) && body.amount !== undefined ? centavos(body.amount) : remaining;
    if (requested === undefined || requested <= 0 || requested > remaining) throw bad(4037, 'Invalid transaction_amount');
    const now = clock();
    const refund: MercadoPagoRefundState = { id: ++nextRefundId, amount: requested, status: refundsHeld ? 'in_process' : 'approved', createdAt: now };
    payment.refunds.push(refund);
    payment.updatedAt = now;
    if (refund.status === 'approved') credit(payment, requested);
    notify(payment, 'payment.updated');
    return { status: 201, body: refundView(payment, refund) };
  };

  /**
   * "Payments" > "Search payments": `GET /v1/payments/search` of the caller's own payments, filtered by
   * `external_reference` (and `status`), sorted by `sort`/`criteria` (date_created, asc by default), paged by
   * `limit` (30 by default) and `offset`: `{paging: {total, limit, offset}, results: [payment]}`.
   */
  const searchPayments = (accessToken: string, query: URLSearchParams): Answer => {
    const reference = query.get('external_reference');
    const status = query.get('status');
    const limit = Math.min(Math.max(Number(query.get('limit') ?? 30) || 30, 1), 1000);
    const offset = Math.max(Number(query.get('offset') ?? 0) || 0, 0);
    const descending = query.get('criteria') === 'desc';
    const matching = [...payments.values()]
      .filter((payment) => payment.accessToken === accessToken)
      .filter((payment) => reference === null || payment.externalReference === reference)
      .filter((payment) => status === null || payment.status === status)
      .sort((a, b) => (a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id) * (descending ? -1 : 1));
    return { status: 200, body: { paging: { total: matching.length, limit, offset }, results: matching.slice(offset, offset + limit).map(view) } };
  };

  const route = async (req: IncomingMessage, body: Buffer): Promise<Answer> => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const method = req.method ?? 'GET';
    const accessToken = authenticate(req);
    let parsed: unknown;
    if (body.length > 0) {
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        throw bad(1, 'Params Error');
      }
    }
    const key = req.headers['x-idempotency-key'];
    const idempotent = async (run: () => Answer): Promise<Answer> => {
      if (typeof key !== 'string' || key === '') return run();
      const remembered = answered.get(`${accessToken}\u0000${key}`);
      if (remembered) return remembered;
      let answer: Answer;
      try {
        answer = run();
      } catch (error) {
        if (error instanceof ApiError && error.status < 500) answer = error.answer();
        else throw error;
      }
      answered.set(`${accessToken}\u0000${key}`, answer);
      return answer;
    };
    const path = url.pathname.replace(/\/+$/, '');
    if (method === 'POST' && path === '/v1/card_tokens') return createToken(accessToken, parsed);
    if (method === 'POST' && path === '/v1/payments') return idempotent(() => createPayment(accessToken, parsed));
    if (method === 'GET' && path === '/v1/payments/search') return searchPayments(accessToken, url.searchParams);
    const one = /^\/v1\/payments\/([^/]+)$/.exec(path);
    if (one && method === 'GET') return { status: 200, body: view(paymentOf(accessToken, one[1]!)) };
    if (one && method === 'PUT') return idempotent(() => updatePayment(accessToken, one[1]!, parsed));
    const refunds = /^\/v1\/payments\/([^/]+)\/refunds$/.exec(path);
    if (refunds && method === 'POST') return idempotent(() => refundPayment(accessToken, refunds[1]!, parsed));
    if (refunds && method === 'GET') return { status: 200, body: paymentOf(accessToken, refunds[1]!).refunds.map((r) => refundView(paymentOf(accessToken, refunds[1]!), r)) };
    throw new ApiError(404, 'not_found', `resource ${path} not found`);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      const key = req.headers['x-idempotency-key'];
      requests.push({ method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://simulator').pathname, ...(typeof key === 'string' ? { idempotencyKey: key } : {}) });
      if (stalled) {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      let answer: Answer;
      try {
        answer = await route(req, body);
      } catch (error) {
        answer = error instanceof ApiError ? error.answer() : { status: 500, body: { message: 'internal_error', error: 'internal_error', status: 500, cause: [] } };
      }
      if (!res.destroyed) sendJson(res, answer.status, answer.body);
    })();
  });
  const running = await listen(server, options.port ?? 0);

  const byId = (id: number | string) => payments.get(Number(id));
  const mustFind = (id: number | string) => {
    const payment = byId(id);
    if (!payment) throw new Error(`no payment ${String(id)}`);
    settle(payment);
    return payment;
  };

  return {
    url: running.url,
    close: async () => {
      for (const res of held) res.destroy();
      await Promise.all([...inFlight]);
      await running.close();
    },
    payment(id) {
      const payment = byId(id);
      if (payment) settle(payment);
      return payment;
    },
    payPix(id) {
      const payment = mustFind(id);
      if (payment.paymentMethodId !== 'pix' || payment.status !== 'pending') throw new Error(`payment ${String(id)} is not a pending Pix`);
      const now = clock();
      Object.assign(payment, { status: 'approved', statusDetail: 'accredited', approvedAt: now, updatedAt: now });
      notify(payment, 'payment.updated');
    },
    review(id, approve) {
      const payment = mustFind(id);
      if (payment.status !== 'in_process') throw new Error(`payment ${String(id)} is not in process`);
      const now = clock();
      if (approve) Object.assign(payment, { status: 'approved', statusDetail: 'accredited', captured: true, approvedAt: now, updatedAt: now });
      else Object.assign(payment, { status: 'rejected', statusDetail: 'cc_rejected_other_reason', updatedAt: now });
      notify(payment, 'payment.updated');
    },
    notification: (id, action = 'payment.updated') => notificationOf(mustFind(id), action),
    holdRefunds(on) {
      refundsHeld = on;
    },
    settleRefunds(id) {
      const payment = mustFind(id);
      const waiting = payment.refunds.filter((r) => r.status === 'in_process');
      if (waiting.length === 0) throw new Error(`payment ${String(id)} has no refund in process`);
      payment.updatedAt = clock();
      for (const refund of waiting) {
        refund.status = 'approved';
        credit(payment, refund.amount);
      }
      notify(payment, 'payment.updated');
    },
    deliveries,
    async delivered() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    get paymentsCreated() {
      return created;
    },
    requests,
    stall(on) {
      stalled = on;
    },
    setLatency(ms) {
      latencyMs = ms;
    },
  };
}
