import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, readBody, sendJson } from '../http';
import { dynamicPixCode } from './brcode';
import { AUTHORIZED_RETURN, simuladoOutcome } from './simulado';

/**
 * A loopback API E-commerce Cielo (API 3.0), after Cielo's public manual ("API E-commerce Cielo",
 * developercielo.github.io) and its sandbox rules ("Simulado"). One server answers both the transactional
 * paths (POST /1/sales/, PUT /1/sales/{PaymentId}/capture and /void) and the query path (GET
 * /1/sales/{PaymentId}), which Cielo serves from two hosts. The same resources under /v2/ answer as the
 * Braspag gateway (API Pagador) does: `Payment.Provider` is required there and the acquirer's code comes back
 * in `ProviderReturnCode`/`ProviderReturnMessage` beside `ReasonCode`/`ReasonMessage`.
 *
 * State lives in memory: what was authorized can be captured once (in whole or in part), voided, refunded in
 * parts up to what was captured, and queried; a Pix is paid with `payPix`.
 */

export interface CieloMerchant {
  merchantId: string;
  merchantKey: string;
}

/** What Cielo posts to the merchant's "Payment Status URL" (manual, "Notification Post"). */
export interface CieloNotification {
  RecurrentPaymentId?: string;
  PaymentId: string;
  ChangeType: number;
}

export interface CieloSimulatorOptions {
  port?: number;
  /** The simulator's clock (ReceivedDate, CapturedDate, VoidedDate, the refund-or-void day). */
  clock?: () => Date;
  merchants: CieloMerchant[];
  /** Every answer waits this long first (a slow acquirer, to test timeouts). */
  latencyMs?: number;
  /** The coin of the cards ending 9 (below 0.5: authorized, otherwise Time Out). */
  random?: () => number;
  /** Receives each notification the simulator sends. */
  notify?: (notification: CieloNotification) => void | Promise<void>;
  /** Or where to POST it (Cielo's "Payment Status URL"). */
  notificationUrl?: string;
  /** The up to three static headers the merchant registered for the Notification Post. */
  notificationHeaders?: Record<string, string>;
  /** Called as each request arrives, before any latency (tests wait on it instead of on time). */
  onRequest?: (request: { method: string; path: string; query: string; headers: Record<string, string>; body: Buffer }) => void;
}

export interface CieloSimulator {
  url: string;
  close(): Promise<void>;
  /** Marks a pending Pix paid (status 2) and sends its notification (ChangeType 1); rejects when the notification cannot be delivered (the Pix stays paid). */
  payPix(paymentId: string): Promise<void>;
  /** The sale as the query API would answer it, or undefined. */
  sale(paymentId: string): Readonly<SaleState> | undefined;
  /** How many sales were created (a repeated RequestId creates none). */
  readonly salesCreated: number;
  setLatency(ms: number): void;
}

type Gateway = 'cielo' | 'braspag';
type PaymentType = 'CreditCard' | 'DebitCard' | 'Pix';

export interface SaleState {
  gateway: Gateway;
  merchantId: string;
  paymentId: string;
  merchantOrderId: string;
  customer: Record<string, unknown>;
  type: PaymentType;
  provider: string;
  amount: number;
  capturedAmount: number;
  voidedAmount: number;
  installments: number;
  capture: boolean;
  authenticate: boolean;
  softDescriptor?: string;
  card?: { masked: string; holder: string; expirationDate: string; brand: string };
  status: number;
  returnCode: string;
  returnMessage: string;
  tid?: string;
  proofOfSale?: string;
  authorizationCode?: string;
  receivedAt: Date;
  capturedAt?: Date;
  voidedAt?: Date;
  qrCodeString?: string;
  acquirerTransactionId?: string;
}

/** Transactional status (manual, "API codes" > "Transactional status"). */
const STATUS = { notFinished: 0, authorized: 1, paymentConfirmed: 2, denied: 3, voided: 10, refunded: 11, pending: 12, aborted: 13 } as const;

/** The brands API 3.0 takes in `Brand` (manual, "Products and Supported Brands"). */
const BRANDS = ['visa', 'master', 'amex', 'elo', 'aura', 'jcb', 'diners', 'discover', 'hipercard', 'hiper'];

/** The Braspag gateway's acquirer names for Cielo (API Pagador, "Test Cards (Simulado)" and Pix). */
const BRASPAG_PROVIDERS = ['simulado', 'cielo30'];

interface Answer {
  status: number;
  body: unknown;
}

class ApiError {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}
}

const PIX_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** Brasília time (UTC-3, no daylight saving since 2019), as Cielo writes dates: "YYYY-MM-DD HH:mm:ss". */
function cieloDate(at: Date): string {
  return new Date(at.getTime() - 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function brasiliaDay(at: Date): string {
  return cieloDate(at).slice(0, 10);
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export async function startCieloSimulator(options: CieloSimulatorOptions): Promise<CieloSimulator> {
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? Math.random;
  let latencyMs = options.latencyMs ?? 0;
  const sales = new Map<string, SaleState>();
  const answers = new Map<string, Answer>();
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;
  let created = 0;
  let baseUrl = '';

  const next = () => {
    counter += 1;
    return counter;
  };
  const digits = (length: number) => String(next()).padStart(length, '0').slice(-length);

  function merchantOf(req: IncomingMessage): CieloMerchant | undefined {
    const id = req.headers['merchantid'];
    const key = req.headers['merchantkey'];
    if (typeof id !== 'string' || typeof key !== 'string') return undefined;
    const merchant = options.merchants.find((m) => m.merchantId.toLowerCase() === id.trim().toLowerCase());
    return merchant && sameSecret(merchant.merchantKey, key) ? merchant : undefined;
  }

  function wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  function links(gateway: Gateway, paymentId: string, rels: Array<'self' | 'capture' | 'void'>) {
    const prefix = gateway === 'braspag' ? '/v2' : '/1';
    return rels.map((rel) => ({
      Method: rel === 'self' ? 'GET' : 'PUT',
      Rel: rel,
      Href: `${baseUrl}${prefix}/sales/${paymentId}${rel === 'self' ? '' : `/${rel}`}`,
    }));
  }

  /** The acquirer's return, in the fields each gateway uses. */
  function returnFields(gateway: Gateway, returnCode: string, returnMessage: string, reason: { code: number; message: string }) {
    if (gateway === 'braspag') {
      return { ReasonCode: reason.code, ReasonMessage: reason.message, ProviderReturnCode: returnCode, ProviderReturnMessage: returnMessage };
    }
    return { ReturnCode: returnCode, ReturnMessage: returnMessage };
  }

  function reasonOf(sale: SaleState): { code: number; message: string } {
    // Reason Code and Reason Message table of the manual.
    if (sale.status === STATUS.denied) return { code: 7, message: 'Denied' };
    if (sale.status === STATUS.pending) return { code: 9, message: 'Waiting' };
    return { code: 0, message: 'Successful' };
  }

  function saleBody(sale: SaleState): Record<string, unknown> {
    const rels: Array<'self' | 'capture' | 'void'> = ['self'];
    if (sale.status === STATUS.authorized && sale.type !== 'Pix') rels.push('capture');
    if (sale.status === STATUS.authorized || sale.status === STATUS.paymentConfirmed) rels.push('void');
    const payment: Record<string, unknown> = {
      ServiceTaxAmount: 0,
      Installments: sale.installments,
      Interest: 'ByMerchant',
      Capture: sale.capture,
      Authenticate: sale.authenticate,
      Recurrent: false,
      ...(sale.card
        ? {
            [sale.type === 'DebitCard' ? 'DebitCard' : 'CreditCard']: {
              CardNumber: sale.card.masked,
              Holder: sale.card.holder,
              ExpirationDate: sale.card.expirationDate,
              SaveCard: false,
              Brand: sale.card.brand,
            },
          }
        : {}),
      ...(sale.tid ? { Tid: sale.tid } : {}),
      ...(sale.proofOfSale ? { ProofOfSale: sale.proofOfSale } : {}),
      ...(sale.authorizationCode ? { AuthorizationCode: sale.authorizationCode } : {}),
      ...(sale.softDescriptor ? { SoftDescriptor: sale.softDescriptor } : {}),
      ...(sale.acquirerTransactionId ? { AcquirerTransactionId: sale.acquirerTransactionId } : {}),
      ...(sale.qrCodeString ? { QrCodeString: sale.qrCodeString } : {}),
      Provider: sale.provider,
      PaymentId: sale.paymentId,
      Type: sale.type,
      Amount: sale.amount,
      ReceivedDate: cieloDate(sale.receivedAt),
      ...(sale.capturedAt ? { CapturedAmount: sale.capturedAmount, CapturedDate: cieloDate(sale.capturedAt) } : {}),
      ...(sale.voidedAt ? { VoidedAmount: sale.voidedAmount, VoidedDate: cieloDate(sale.voidedAt) } : {}),
      Currency: 'BRL',
      Country: 'BRA',
      ExtraDataCollection: [],
      Status: sale.status,
      ...returnFields(sale.gateway, sale.returnCode, sale.returnMessage, reasonOf(sale)),
      Links: links(sale.gateway, sale.paymentId, rels),
    };
    return { MerchantOrderId: sale.merchantOrderId, Customer: sale.customer, Payment: payment };
  }

  /** "Creating a credit card transaction", "Creating a debit transaction", "Creating a transaction with Pix QR Code". */
  function createSale(gateway: Gateway, merchant: CieloMerchant, raw: Buffer): Answer {
    if (raw.length === 0) throw new ApiError(184, 'Request could not be empty');
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new ApiError(184, 'Request could not be empty');
    }
    if (!isRecord(body)) throw new ApiError(184, 'Request could not be empty');
    const merchantOrderId = text(body.MerchantOrderId);
    if (!merchantOrderId) throw new ApiError(122, 'MerchantOrderId is required');
    if (!/^[A-Za-z0-9]{1,50}$/.test(merchantOrderId)) throw new ApiError(107, 'OrderId is invalid or does not exists');
    const payment = body.Payment;
    if (!isRecord(payment)) throw new ApiError(119, 'At least one Payment is required');
    const type = text(payment.Type);
    if (!type) throw new ApiError(102, 'Payment Type is required');
    if (!/^[A-Za-z]+$/.test(type)) throw new ApiError(103, 'Payment Type can only contain letters');
    if (type !== 'CreditCard' && type !== 'DebitCard' && type !== 'Pix') throw new ApiError(173, 'Payment method is not enabled');
    const amount = payment.Amount;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) throw new ApiError(108, 'Amount must be greater or equal to zero');
    if (payment.Currency !== undefined && payment.Currency !== 'BRL') throw new ApiError(110, 'Invalid Payment Currency');
    if (payment.Country !== undefined && payment.Country !== 'BRA') throw new ApiError(112, 'Invalid Payment Country');
    let provider = 'Simulado';
    if (gateway === 'braspag') {
      const named = text(payment.Provider);
      if (!named || !BRASPAG_PROVIDERS.includes(named.toLowerCase())) throw new ApiError(133, 'Provider is not supported for this Payment Type');
      provider = named;
    }
    const customer = isRecord(body.Customer) ? body.Customer : undefined;
    if (type === 'Pix') return createPix(gateway, merchant, merchantOrderId, customer, amount, provider);
    return createCardSale(gateway, merchant, merchantOrderId, customer, payment, type, amount, provider);
  }

  function createPix(gateway: Gateway, merchant: CieloMerchant, merchantOrderId: string, customer: Record<string, unknown> | undefined, amount: number, provider: string): Answer {
    // Pix request table: Customer.Name, Customer.Identity and Customer.IdentityType are required.
    if (!customer) throw new ApiError(121, 'Customer is required');
    if (!text(customer.Name)) throw new ApiError(105, 'Customer Name is required');
    if (!text(customer.Identity)) throw new ApiError(104, 'Customer Identity is required');
    if (String(customer.Identity).replace(/\D/g, '').length > 14) throw new ApiError(156, 'Customer Identity length exceeded');
    const paymentId = randomUUID();
    const reference = digits(8);
    const sale: SaleState = {
      gateway,
      merchantId: merchant.merchantId,
      paymentId,
      merchantOrderId,
      customer: { Name: customer.Name },
      type: 'Pix',
      provider,
      amount,
      capturedAmount: 0,
      voidedAmount: 0,
      installments: 1,
      capture: false,
      authenticate: false,
      status: STATUS.pending,
      returnCode: '0',
      returnMessage: 'Pix gerado com sucesso',
      proofOfSale: digits(6),
      acquirerTransactionId: randomUUID(),
      receivedAt: clock(),
      qrCodeString: dynamicPixCode({
        location: `qrcodes-h.cielo.com.br/pix-qr/${paymentId}`,
        amountInCents: amount,
        merchantName: 'Merchant Teste HML',
        merchantCity: 'Sao Paulo',
        reference,
      }),
    };
    sales.set(paymentId, sale);
    created += 1;
    return { status: 201, body: saleBody(sale) };
  }

  function createCardSale(
    gateway: Gateway,
    merchant: CieloMerchant,
    merchantOrderId: string,
    customer: Record<string, unknown> | undefined,
    payment: Record<string, unknown>,
    type: 'CreditCard' | 'DebitCard',
    amount: number,
    provider: string,
  ): Answer {
    const card = payment[type];
    if (!isRecord(card)) throw new ApiError(124, 'Credit Card is Required');
    const number = text(card.CardNumber);
    if (!number) throw new ApiError(118, 'Credit Card Number is required');
    if (!/^\d+$/.test(number)) throw new ApiError(213, 'Credit Card Number is invalid');
    if (number.length > 19) throw new ApiError(128, 'Card Number length exceeded');
    if (number.length < 12) throw new ApiError(177, 'Card Number is invalid');
    const holder = text(card.Holder);
    if (!holder) throw new ApiError(117, 'Credit Card Holder is required');
    const expiration = text(card.ExpirationDate);
    if (!expiration) throw new ApiError(125, 'Credit Card Expiration Date is required');
    const parsed = /^(0[1-9]|1[0-2])\/(\d{4})$/.exec(expiration);
    if (!parsed) throw new ApiError(126, 'Credit Card Expiration Date is invalid');
    const brand = text(card.Brand);
    if (!brand) throw new ApiError(182, 'Brand is required');
    if (!BRANDS.includes(brand.toLowerCase())) throw new ApiError(185, 'Brand is not supported by selected provider');
    if (card.SecurityCode !== undefined && !/^\d{3,4}$/.test(String(card.SecurityCode))) throw new ApiError(146, 'SecurityCode length exceeded');
    const installments = payment.Installments === undefined ? 1 : payment.Installments;
    if (typeof installments !== 'number' || !Number.isInteger(installments) || installments < 1) throw new ApiError(123, 'Installments must be greater or equal to one');
    if (type === 'DebitCard' && installments !== 1) throw new ApiError(186, 'The selected provider does not support the options provided (Capture, Authenticate, Recurrent or Installments)');
    const softDescriptor = text(payment.SoftDescriptor);
    if (softDescriptor !== undefined && !/^[A-Za-z0-9 ]{1,13}$/.test(softDescriptor)) throw new ApiError(0, 'Internal error');
    const authenticate = payment.Authenticate === true || payment.Authenticate === 'true';
    if (type === 'DebitCard' && authenticate && !isRecord(payment.ExternalAuthentication)) {
      throw new ApiError(186, 'The selected provider does not support the options provided (Capture, Authenticate, Recurrent or Installments)');
    }
    // A debit is captured in its authorization (manual, "Debit cards": the answer is PaymentConfirmed, 2).
    const capture = type === 'DebitCard' ? true : payment.Capture === true || payment.Capture === 'true';
    const now = clock();
    const outcome = simuladoOutcome(number, random);
    const sale: SaleState = {
      gateway,
      merchantId: merchant.merchantId,
      paymentId: randomUUID(),
      merchantOrderId,
      customer: customer && text(customer.Name) ? { Name: customer.Name } : {},
      type,
      provider,
      amount,
      capturedAmount: 0,
      voidedAmount: 0,
      installments,
      capture,
      authenticate,
      ...(softDescriptor ? { softDescriptor } : {}),
      card: { masked: `${number.slice(0, 6)}******${number.slice(-4)}`, holder, expirationDate: expiration, brand },
      status: STATUS.denied,
      returnCode: '',
      returnMessage: '',
      tid: `${cieloDate(now).replace(/\D/g, '').slice(4, 14)}${digits(3)}`,
      proofOfSale: digits(6),
      receivedAt: now,
    };
    if (outcome.authorized) {
      sale.authorizationCode = digits(6);
      if (capture) {
        sale.status = STATUS.paymentConfirmed;
        sale.capturedAmount = amount;
        sale.capturedAt = now;
        sale.returnCode = AUTHORIZED_RETURN.captured.returnCode;
        sale.returnMessage = AUTHORIZED_RETURN.captured.returnMessage;
      } else {
        sale.status = STATUS.authorized;
        sale.returnCode = AUTHORIZED_RETURN.authorized.returnCode;
        sale.returnMessage = AUTHORIZED_RETURN.authorized.returnMessage;
      }
    } else {
      sale.returnCode = outcome.returnCode;
      sale.returnMessage = outcome.returnMessage;
    }
    sales.set(sale.paymentId, sale);
    created += 1;
    return { status: 201, body: saleBody(sale) };
  }

  function owned(merchant: CieloMerchant, paymentId: string): SaleState {
    const sale = sales.get(paymentId.toLowerCase());
    if (!sale || sale.merchantId !== merchant.merchantId) throw new ApiError(307, 'Transaction not found');
    return sale;
  }

  /** Amount query parameter (cents); undefined when absent or 0. */
  function amountParameter(url: URL): number | undefined {
    const raw = url.searchParams.get('amount') ?? url.searchParams.get('Amount');
    if (raw === null || raw === '' || raw === '0') return undefined;
    const amount = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(amount)) throw new ApiError(108, 'Amount must be greater or equal to zero');
    return amount;
  }

  function operationBody(sale: SaleState, returnCode: string, returnMessage: string, rels: Array<'self' | 'capture' | 'void'>): Record<string, unknown> {
    return {
      Status: sale.status,
      ...(sale.tid ? { Tid: sale.tid } : {}),
      ...(sale.proofOfSale ? { ProofOfSale: sale.proofOfSale } : {}),
      ...(sale.authorizationCode ? { AuthorizationCode: sale.authorizationCode } : {}),
      ...returnFields(sale.gateway, returnCode, returnMessage, { code: 0, message: 'Successful' }),
      Links: links(sale.gateway, sale.paymentId, rels),
    };
  }

  /** "Partial or total capture": once per transaction, up to the authorized amount. */
  function capture(merchant: CieloMerchant, paymentId: string, url: URL): Answer {
    const sale = owned(merchant, paymentId);
    if (sale.type === 'Pix') throw new ApiError(310, 'Payment method doest not support this operation');
    if (sale.status !== STATUS.authorized) throw new ApiError(308, 'Transaction not available to capture');
    const amount = amountParameter(url) ?? sale.amount;
    if (amount > sale.amount) throw new ApiError(308, 'Transaction not available to capture');
    sale.status = STATUS.paymentConfirmed;
    sale.capturedAmount = amount;
    sale.capturedAt = clock();
    sale.returnCode = AUTHORIZED_RETURN.captured.returnCode;
    sale.returnMessage = AUTHORIZED_RETURN.captured.returnMessage;
    return { status: 200, body: operationBody(sale, '6', 'Operation Successful', ['self', 'void']) };
  }

  /**
   * "Canceling a transaction": an authorization not captured is voided whole; a captured one is cancelled in
   * parts ("Partial cancellation") until nothing is left; a Pix paid is refunded ("Requesting Pix refund").
   * Cancellation return codes: 0 partial cancellation approved, 9 total cancellation approved, 51 above the
   * sale's amount.
   */
  function voidSale(merchant: CieloMerchant, paymentId: string, url: URL): Answer {
    const sale = owned(merchant, paymentId);
    const requested = amountParameter(url);
    const now = clock();
    if (sale.status === STATUS.authorized) {
      if (requested !== undefined && requested !== sale.amount) throw new ApiError(309, 'Transaction not available to void');
      sale.status = STATUS.voided;
      sale.voidedAmount = sale.amount;
      sale.voidedAt = now;
      return { status: 200, body: operationBody(sale, '9', 'Operation Successful', ['self']) };
    }
    if (sale.status !== STATUS.paymentConfirmed) throw new ApiError(309, 'Transaction not available to void');
    const left = sale.capturedAmount - sale.voidedAmount;
    const amount = requested ?? left;
    if (amount > left) {
      return { status: 200, body: operationBody(sale, '51', 'Cancellation above the original sales price', ['self', 'void']) };
    }
    sale.voidedAmount += amount;
    sale.voidedAt = now;
    const whole = sale.voidedAmount === sale.capturedAmount;
    if (whole) {
      const sameDay = brasiliaDay(now) === brasiliaDay(sale.capturedAt ?? sale.receivedAt);
      sale.status = sale.type === 'Pix' || !sameDay ? STATUS.refunded : STATUS.voided;
    }
    if (sale.type === 'Pix') {
      // The Pix refund is asked for and confirmed by notification; the answer says it was requested.
      const body = { Status: STATUS.pending, ReasonCode: 0, ReasonMessage: 'Successful', ...returnFields(sale.gateway, '0', 'Reembolso solicitado com sucesso', { code: 0, message: 'Successful' }), Links: links(sale.gateway, sale.paymentId, ['self']) };
      // Posted after the answer; a merchant endpoint that is down loses it, as a post that exhausted its retries.
      sendNotification({ PaymentId: sale.paymentId, ChangeType: 1 }).catch(() => undefined);
      return { status: 200, body };
    }
    const body = operationBody(sale, whole && requested === undefined ? '9' : '0', 'Operation Successful', whole ? ['self'] : ['self', 'void']);
    return { status: 200, body: sale.gateway === 'cielo' && !whole ? { ...body, ReasonCode: 0, ReasonMessage: 'Successful' } : body };
  }

  async function sendNotification(notification: CieloNotification): Promise<void> {
    if (options.notify) await options.notify(notification);
    if (options.notificationUrl) {
      await fetch(options.notificationUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.notificationHeaders },
        body: JSON.stringify(notification),
      });
    }
  }

  async function route(req: IncomingMessage, url: URL, raw: Buffer): Promise<Answer> {
    const match = /^\/(1|v2)\/sales(?:\/([^/]+))?(?:\/(capture|void))?\/?$/.exec(url.pathname);
    if (!match) return { status: 404, body: undefined };
    const gateway: Gateway = match[1] === 'v2' ? 'braspag' : 'cielo';
    const paymentId = match[2];
    const operation = match[3];
    const merchant = merchantOf(req);
    // A wrong MerchantId or MerchantKey: 401 Unauthorized, and no JSON body ("HTTP Status Code": 401).
    if (!merchant) return { status: 401, body: undefined };
    try {
      if (req.method === 'POST' && !paymentId) return createSale(gateway, merchant, raw);
      if (req.method === 'GET' && !paymentId) {
        // "Consulta por MerchantOrderId": the PaymentIds of the merchant's sales with that order id; 404 when none.
        const orderId = url.searchParams.get('merchantOrderId') ?? url.searchParams.get('MerchantOrderId');
        if (!orderId) return { status: 404, body: undefined };
        const found = [...sales.values()].filter((s) => s.merchantId === merchant.merchantId && s.gateway === gateway && s.merchantOrderId === orderId);
        if (found.length === 0) return { status: 404, body: undefined };
        return {
          status: 200,
          body: {
            Payments: found.map((s) => ({ PaymentId: s.paymentId, ReceivedDate: cieloDate(s.receivedAt) })),
            Links: [{ Method: 'GET', Rel: 'self', Href: `${baseUrl}${gateway === 'braspag' ? '/v2' : '/1'}/sales?merchantOrderId=${orderId}` }],
          },
        };
      }
      if (req.method === 'GET' && paymentId && !operation) {
        const sale = sales.get(paymentId.toLowerCase());
        // "404 Not Found: for order search, the order does not exist, or was created by another merchant".
        if (!sale || sale.merchantId !== merchant.merchantId) return { status: 404, body: undefined };
        return { status: 200, body: saleBody(sale) };
      }
      if (req.method === 'PUT' && paymentId && operation === 'capture') return capture(merchant, paymentId, url);
      if (req.method === 'PUT' && paymentId && operation === 'void') return voidSale(merchant, paymentId, url);
      return { status: 405, body: undefined };
    } catch (error) {
      if (error instanceof ApiError) return { status: 400, body: [{ Code: error.code, Message: error.message }] };
      throw error;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.local');
    const raw = await readBody(req);
    if (options.onRequest) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      options.onRequest({ method: req.method ?? '', path: url.pathname, query: url.search, headers, body: raw });
    }
    await wait(latencyMs);
    const requestId = req.headers['requestid'];
    const merchantId = typeof req.headers['merchantid'] === 'string' ? req.headers['merchantid'].toLowerCase() : '';
    const replayKey = typeof requestId === 'string' && requestId !== '' && req.method !== 'GET' ? `${merchantId} ${req.method} ${url.pathname} ${requestId}` : undefined;
    const replay = replayKey ? answers.get(replayKey) : undefined;
    const answer = replay ?? (await route(req, url, raw));
    if (replayKey && !replay && answer.status < 500 && answer.status !== 401) answers.set(replayKey, answer);
    if (answer.body === undefined) {
      res.writeHead(answer.status, { 'content-length': 0 });
      res.end();
      return;
    }
    sendJson(res, answer.status, answer.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, [{ Code: 0, Message: 'Internal error' }]);
      else res.end();
    });
  });
  const running = await listen(server, options.port ?? 0);
  baseUrl = running.url;

  return {
    url: running.url,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await running.close();
    },
    async payPix(paymentId) {
      const sale = sales.get(paymentId.toLowerCase());
      if (!sale || sale.type !== 'Pix') throw new Error(`no Pix ${paymentId}`);
      if (sale.status !== STATUS.pending) throw new Error(`Pix ${paymentId} is not pending (status ${sale.status})`);
      if (clock().getTime() > sale.receivedAt.getTime() + PIX_LIFETIME_MS) throw new Error(`Pix ${paymentId} expired (a Cielo QR code lasts two hours)`);
      sale.status = STATUS.paymentConfirmed;
      sale.capturedAmount = sale.amount;
      sale.capturedAt = clock();
      sale.returnCode = '0';
      sale.returnMessage = 'Pix pago';
      await sendNotification({ PaymentId: sale.paymentId, ChangeType: 1 });
    },
    sale: (paymentId) => sales.get(paymentId.toLowerCase()),
    get salesCreated() {
      return created;
    },
    setLatency(ms) {
      latencyMs = ms;
    },
  };
}
