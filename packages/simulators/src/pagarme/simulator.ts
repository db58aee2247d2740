import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dynamicPixCode } from '../cielo/brcode';
import { listen, readBody, sendJson } from '../http';
import {
  boletoScenarioOf,
  cardScenarioOf,
  PAGARME_APPROVAL,
  PAGARME_BOLETO_DIFFERENCE,
  PAGARME_PIX_SUCCESS_LIMIT,
  PAGARME_REFUSAL,
  PAGARME_UNAUTHORIZED,
  type PagarmeBoletoScenario,
  type PagarmeCardScenario,
} from './rules';

/**
 * Pagar.me's core API v5 on loopback (docs.pagar.me, "API Reference" v5), with the gateway sandbox's rules
 * (rules.ts). Under `/core/v5`:
 * - `POST /orders`: an order with its items, its customer and one payment (credit_card, debit_card, pix or
 *   boleto), closed; answers the order with its charge;
 * - `GET /orders/{order_id}`, `GET /charges/{charge_id}`;
 * - `POST /charges/{charge_id}/capture` (`amount`: the whole authorization or less);
 * - `DELETE /charges/{charge_id}` (`amount`: cancels what was not captured, or refunds what was paid, in parts).
 * Every request authenticates with HTTP Basic, the account's secret key as the user and an empty password; a
 * wrong one gets 401. An `Idempotency-Key` seen again for the same account answers the first answer and
 * creates nothing. Amounts are integers in centavos, as Pagar.me's.
 *
 * What the sandbox does later (a card in "processing", a Pix paid, a boleto conciliated) happens once the
 * simulator's clock reaches `settleAfterMs` past the charge's creation (looked at on every request), or at once
 * with `settle()`; each change is posted to the webhook URL as Pagar.me posts a hook (`{id, account, type,
 * created_at, data}`), with the hook's Basic credentials when configured.
 */

export interface PagarmeAccount {
  /** The secret key (`sk_test_...` in the sandbox). */
  secretKey: string;
  /** The account's id and name, as hooks name them. */
  id?: string;
  name?: string;
}

export interface PagarmeHook {
  id: string;
  account: { id: string; name: string };
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export interface PagarmeSimulatorOptions {
  port?: number;
  /** The simulator's clock (dates in answers, when processing and payments settle). */
  clock?: () => Date;
  accounts: PagarmeAccount[];
  /** How long after its creation a charge's pending sandbox outcome happens ("seconds after"); 5 s by default. */
  settleAfterMs?: number;
  /** Every answer waits this long first (a slow provider). */
  latencyMs?: number;
  /** Where hooks are posted (the webhook's URL configured in the dashboard). */
  webhookUrl?: string;
  /** The webhook's Basic credentials, sent in every hook's Authorization header when set. */
  webhookAuth?: { user: string; password: string };
  /** Receives each hook as it is sent. */
  notify?: (hook: PagarmeHook) => void | Promise<void>;
  /** Called as each request arrives, before any latency. */
  onRequest?: (request: { method: string; path: string; headers: Record<string, string>; body: Buffer }) => void;
}

export interface PagarmeSimulator {
  url: string;
  /** The API's base (`PAGARME_API_URL`): the documented https://api.pagar.me/core/v5 on loopback. */
  apiUrl: string;
  close(): Promise<void>;
  /** The charge as `GET /charges/{id}` answers it, or undefined. */
  charge(chargeId: string): Record<string, unknown> | undefined;
  /** How many orders were created (a repeated Idempotency-Key creates none). */
  readonly ordersCreated: number;
  /** Applies every pending sandbox outcome now (or only the charge's), posting their hooks; resolves once they were delivered. */
  settle(chargeId?: string): Promise<void>;
  /** While on, requests get no answer at all (until turned off or close). */
  stall(on: boolean): void;
  setLatency(ms: number): void;
}

type Method = 'credit_card' | 'debit_card' | 'pix' | 'boleto';
type ChargeStatus = 'pending' | 'processing' | 'paid' | 'overpaid' | 'underpaid' | 'failed' | 'canceled';

interface Transaction {
  id: string;
  status: string;
  success: boolean;
  returnCode?: string;
  returnMessage?: string;
  authCode?: string;
  nsu?: string;
  createdAt: Date;
  updatedAt: Date;
}

interface ChargeState {
  account: PagarmeAccount;
  id: string;
  code: string;
  orderId: string;
  orderCode: string;
  method: Method;
  amount: number;
  paidAmount: number;
  canceledAmount: number;
  status: ChargeStatus;
  capture: boolean;
  customer: Record<string, unknown>;
  items: unknown[];
  metadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  paidAt?: Date;
  canceledAt?: Date;
  transaction: Transaction;
  /** The sandbox outcome still to happen, and when. */
  pending?: { at: number; outcome: PagarmeCardScenario | 'pix_paid' | PagarmeBoletoScenario };
  card?: { first_six_digits: string; last_four_digits: string; holder_name: string; exp_month: number; exp_year: number; brand: string; type: string };
  installments?: number;
  statementDescriptor?: string;
  pix?: { qrCode: string; expiresAt: Date };
  boleto?: { line: string; barcode: string; dueAt: Date; nossoNumero: string; instructions?: string };
}

interface Answer {
  status: number;
  body: unknown;
}

class Invalid extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super('The request is invalid.');
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DAY_MS = 86_400_000;

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'Mastercard';
  if (/^3[47]/.test(number)) return 'Amex';
  return 'Elo';
}

/** Módulo 10 of the digitable line's fields (FEBRABAN). */
function mod10(digits: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = Number(digits[i]) * weight;
    sum += Math.floor(product / 10) + (product % 10);
    weight = weight === 2 ? 1 : 2;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Módulo 11 of the bar code's general check digit (FEBRABAN): 0, 10 and 11 become 1. */
function mod11(digits: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? '1' : String(dv);
}

/** A boleto's 44-digit bar code and 47-digit line: bank 001, currency 9, due-date factor, amount, free field. */
function boletoNumbers(amount: number, dueAt: Date, freeField: string): { barcode: string; line: string } {
  const days = Math.floor((Date.UTC(dueAt.getUTCFullYear(), dueAt.getUTCMonth(), dueAt.getUTCDate()) - Date.UTC(1997, 9, 7)) / DAY_MS);
  // The factor restarted at 1000 on 2025-02-22, after 9999.
  const factor = String(days >= 1000 ? ((days - 1000) % 9000) + 1000 : days).padStart(4, '0');
  const value = String(amount).padStart(10, '0');
  const withoutDv = `0019${factor}${value}${freeField}`;
  const dv = mod11(withoutDv);
  const barcode = `${withoutDv.slice(0, 4)}${dv}${withoutDv.slice(4)}`;
  const field1 = `0019${freeField.slice(0, 5)}`;
  const field2 = freeField.slice(5, 15);
  const field3 = freeField.slice(15, 25);
  const line = `${field1}${mod10(field1)}${field2}${mod10(field2)}${field3}${mod10(field3)}${dv}${factor}${value}`;
  return { barcode, line };
}

function digitsOf(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\D/g, '') : '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function startPagarmeSimulator(options: PagarmeSimulatorOptions): Promise<PagarmeSimulator> {
  const clock = options.clock ?? (() => new Date());
  const settleAfterMs = options.settleAfterMs ?? 5_000;
  let latencyMs = options.latencyMs ?? 0;
  let stalled = false;
  const held = new Set<ServerResponse>();
  const waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  const charges = new Map<string, ChargeState>();
  const orders = new Map<string, { account: PagarmeAccount; chargeId: string }>();
  const idempotent = new Map<string, Answer>();
  const deliveries = new Set<Promise<void>>();
  let created = 0;
  let sequence = 0;

  const newId = (prefix: string) => `${prefix}_${Array.from(randomBytes(16), (byte) => ALPHABET[byte % ALPHABET.length]).join('')}`;
  const nextNumber = (digits: number) => String(++sequence).padStart(digits, '0');
  const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const accountIdOf = (account: PagarmeAccount) => account.id ?? `acc_${createHash('sha256').update(account.secretKey).digest('hex').slice(0, 16)}`;

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

  // ---------------------------------------------------------------- answers

  const transactionView = (charge: ChargeState): Record<string, unknown> => {
    const t = charge.transaction;
    const common = {
      id: t.id,
      transaction_type: charge.method,
      gateway_id: t.nsu ?? t.id,
      amount: charge.amount,
      status: t.status,
      success: t.success,
      created_at: iso(t.createdAt),
      updated_at: iso(t.updatedAt),
      gateway_response: { code: '200', errors: [] },
      antifraud_response: {},
      metadata: {},
    };
    if (charge.method === 'pix' && charge.pix) {
      return {
        ...common,
        qr_code: charge.pix.qrCode,
        qr_code_url: `https://api.pagar.me/core/v5/transactions/${t.id}/qrcode?payment_method=pix`,
        expires_at: iso(charge.pix.expiresAt),
      };
    }
    if (charge.method === 'boleto' && charge.boleto) {
      return {
        ...common,
        url: `https://api.pagar.me/core/v5/transactions/${t.id}/pdf`,
        pdf: `https://api.pagar.me/core/v5/transactions/${t.id}/pdf`,
        line: charge.boleto.line,
        barcode: `https://api.pagar.me/core/v5/transactions/${t.id}/barcode`,
        qr_code: `https://api.pagar.me/core/v5/transactions/${t.id}/qrcode`,
        nosso_numero: charge.boleto.nossoNumero,
        bank: '001',
        document_number: charge.code.slice(0, 16),
        type: 'DM',
        due_at: iso(charge.boleto.dueAt),
        ...(charge.boleto.instructions ? { instructions: charge.boleto.instructions } : {}),
        ...(charge.paidAt ? { paid_at: iso(charge.paidAt), paid_amount: String(charge.paidAmount) } : {}),
      };
    }
    return {
      ...common,
      operation_type: charge.capture ? 'auth_and_capture' : 'auth_only',
      installments: charge.installments ?? 1,
      ...(charge.statementDescriptor ? { statement_descriptor: charge.statementDescriptor } : {}),
      acquirer_name: 'simulator',
      acquirer_tid: t.nsu ?? '',
      acquirer_nsu: t.nsu ?? '',
      ...(t.authCode ? { acquirer_auth_code: t.authCode } : {}),
      ...(t.returnCode !== undefined ? { acquirer_return_code: t.returnCode } : {}),
      ...(t.returnMessage !== undefined ? { acquirer_message: t.returnMessage } : {}),
      funding_source: charge.method === 'debit_card' ? 'debit' : 'credit',
      ...(charge.card ? { card: { id: `card_${charge.id.slice(3)}`, ...charge.card, status: 'active' } } : {}),
    };
  };

  const orderStatusOf = (charge: ChargeState): string => {
    if (charge.status === 'overpaid' || charge.status === 'underpaid') return 'paid';
    if (charge.status === 'processing') return 'pending';
    return charge.status;
  };

  const chargeView = (charge: ChargeState, withOrder = true): Record<string, unknown> => ({
    id: charge.id,
    code: charge.code,
    gateway_id: charge.transaction.nsu ?? charge.transaction.id,
    amount: charge.amount,
    ...(charge.paidAmount > 0 ? { paid_amount: charge.paidAmount } : {}),
    ...(charge.canceledAmount > 0 ? { canceled_amount: charge.canceledAmount } : {}),
    status: charge.status,
    currency: 'BRL',
    payment_method: charge.method,
    ...(charge.paidAt ? { paid_at: iso(charge.paidAt) } : {}),
    ...(charge.canceledAt ? { canceled_at: iso(charge.canceledAt) } : {}),
    created_at: iso(charge.createdAt),
    updated_at: iso(charge.updatedAt),
    customer: charge.customer,
    metadata: charge.metadata,
    last_transaction: transactionView(charge),
    ...(withOrder
      ? { order: { id: charge.orderId, code: charge.orderCode, amount: charge.amount, currency: 'BRL', closed: true, status: orderStatusOf(charge), created_at: iso(charge.createdAt), updated_at: iso(charge.updatedAt) } }
      : {}),
  });

  const orderView = (charge: ChargeState): Record<string, unknown> => ({
    id: charge.orderId,
    code: charge.orderCode,
    amount: charge.amount,
    currency: 'BRL',
    closed: true,
    items: charge.items,
    customer: charge.customer,
    status: orderStatusOf(charge),
    created_at: iso(charge.createdAt),
    updated_at: iso(charge.updatedAt),
    closed_at: iso(charge.createdAt),
    charges: [chargeView(charge, false)],
    metadata: charge.metadata,
  });

  // ---------------------------------------------------------------- hooks

  const post = (charge: ChargeState, type: string): void => {
    const hook: PagarmeHook = {
      id: newId('hook'),
      account: { id: accountIdOf(charge.account), name: charge.account.name ?? 'Loja' },
      type,
      created_at: iso(clock()),
      data: chargeView(charge),
    };
    const delivery = (async () => {
      if (options.notify) await options.notify(hook);
      if (options.webhookUrl) {
        const auth = options.webhookAuth;
        await fetch(options.webhookUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(auth ? { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` } : {}),
          },
          body: JSON.stringify(hook),
        });
      }
    })()
      // A merchant endpoint that is down loses the hook here, as one whose retries ran out.
      .catch(() => undefined)
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };

  const touch = (charge: ChargeState, status: string, success: boolean) => {
    const now = clock();
    charge.updatedAt = now;
    charge.transaction.status = status;
    charge.transaction.success = success;
    charge.transaction.updatedAt = now;
  };

  /** The sandbox outcome of a charge, now. */
  const apply = (charge: ChargeState): void => {
    const pending = charge.pending;
    if (!pending) return;
    charge.pending = undefined;
    const now = clock();
    switch (pending.outcome) {
      case 'processing_success':
        charge.transaction.returnCode = PAGARME_APPROVAL.code;
        charge.transaction.returnMessage = PAGARME_APPROVAL.message;
        charge.transaction.authCode = nextNumber(6);
        if (charge.capture) {
          charge.status = 'paid';
          charge.paidAmount = charge.amount;
          charge.paidAt = now;
          touch(charge, 'captured', true);
          post(charge, 'charge.paid');
        } else {
          charge.status = 'pending';
          touch(charge, 'authorized_pending_capture', true);
          post(charge, 'charge.updated');
        }
        return;
      case 'processing_failure':
        charge.status = 'failed';
        charge.transaction.returnMessage = 'Transação não encontrada na adquirente';
        touch(charge, 'failed', false);
        post(charge, 'charge.payment_failed');
        return;
      case 'pix_paid':
      case 'paid':
      case 'underpaid':
      case 'overpaid': {
        const kind = pending.outcome === 'pix_paid' ? 'paid' : pending.outcome;
        charge.status = kind;
        charge.paidAmount = charge.amount + (kind === 'overpaid' ? PAGARME_BOLETO_DIFFERENCE : kind === 'underpaid' ? -PAGARME_BOLETO_DIFFERENCE : 0);
        charge.paidAt = now;
        touch(charge, kind, true);
        post(charge, `charge.${kind}`);
        return;
      }
      default:
        return;
    }
  };

  const due = (charge: ChargeState) => {
    if (charge.pending && clock().getTime() >= charge.pending.at) apply(charge);
  };

  // ---------------------------------------------------------------- POST /orders

  const validateCustomer = (customer: unknown, method: Method | undefined, errors: Record<string, string[]>): Record<string, unknown> => {
    if (!isObject(customer)) {
      errors['order.customer'] = ['The customer field is required.'];
      return {};
    }
    const name = customer.name;
    if (typeof name !== 'string' || name.trim() === '') errors['order.customer.name'] = ['The name field is required.'];
    else if (name.length > 64) errors['order.customer.name'] = ['The field name must be a string with a maximum length of 64.'];
    const email = customer.email;
    if (email !== undefined && (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 64)) {
      errors['order.customer.email'] = ['The email field is not a valid e-mail address.'];
    }
    const type = customer.type ?? 'individual';
    if (type !== 'individual' && type !== 'company') errors['order.customer.type'] = ['The type field must be individual or company.'];
    const document = digitsOf(customer.document);
    if (customer.document !== undefined || method === 'pix' || method === 'boleto') {
      if (document === '') errors['order.customer.document'] = ['The document field is required.'];
      else if ((type === 'company' && document.length !== 14) || (type !== 'company' && document.length !== 11)) {
        errors['order.customer.document'] = ['The document field is invalid.'];
      }
    }
    const address = isObject(customer.address) ? customer.address : undefined;
    return {
      id: `cus_${createHash('sha256').update(`${document}:${String(name)}`).digest('hex').slice(0, 16)}`,
      name,
      ...(typeof email === 'string' ? { email } : {}),
      ...(document ? { document, document_type: type === 'company' ? 'cnpj' : 'cpf' } : {}),
      type,
      delinquent: false,
      ...(address ? { address } : {}),
      ...(isObject(customer.phones) ? { phones: customer.phones } : {}),
    };
  };

  const createOrder = (account: PagarmeAccount, body: Record<string, unknown>): Answer => {
    const errors: Record<string, string[]> = {};
    const items = body.items;
    let total = 0;
    if (!Array.isArray(items) || items.length === 0) errors['order.items'] = ['The items field is required.'];
    else {
      items.forEach((item, i) => {
        if (!isObject(item)) {
          errors[`order.items[${i}]`] = ['The item is invalid.'];
          return;
        }
        if (typeof item.amount !== 'number' || !Number.isInteger(item.amount) || item.amount <= 0) errors[`order.items[${i}].amount`] = ['The field amount must be greater than 0.'];
        if (typeof item.description !== 'string' || item.description.trim() === '') errors[`order.items[${i}].description`] = ['The description field is required.'];
        const quantity = item.quantity ?? 1;
        if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) errors[`order.items[${i}].quantity`] = ['The field quantity must be greater than 0.'];
        if (typeof item.amount === 'number' && typeof quantity === 'number') total += item.amount * quantity;
      });
    }
    const payments = body.payments;
    const payment = Array.isArray(payments) && payments.length === 1 && isObject(payments[0]) ? payments[0] : undefined;
    if (!payment) errors['order.payments'] = ['Exactly one payment is supported here.'];
    const method = payment?.payment_method;
    const methods: Method[] = ['credit_card', 'debit_card', 'pix', 'boleto'];
    if (payment && (typeof method !== 'string' || !methods.includes(method as Method))) errors['order.payments[0].payment_method'] = ['The payment_method field is invalid.'];
    const kind = methods.includes(method as Method) ? (method as Method) : undefined;
    if (payment?.amount !== undefined && payment.amount !== total) errors['order.payments[0].amount'] = ['The sum of the payments must be the order amount.'];
    const code = body.code;
    if (code !== undefined && (typeof code !== 'string' || code.length > 52)) errors['order.code'] = ['The field code must be a string with a maximum length of 52.'];
    const customer = validateCustomer(body.customer, kind, errors);

    const now = clock();
    const charge: Partial<ChargeState> = {};
    if (kind === 'credit_card' || kind === 'debit_card') {
      const details = payment?.[kind];
      const card = isObject(details) && isObject(details.card) ? details.card : undefined;
      const prefix = `order.payments[0].${kind}.card`;
      if (!card) errors[prefix] = ['The card field is required.'];
      else {
        const number = typeof card.number === 'string' ? card.number : '';
        if (!/^\d{13,19}$/.test(number) || !luhn(number)) errors[`${prefix}.number`] = ['The number field is invalid.'];
        if (typeof card.holder_name !== 'string' || card.holder_name.trim() === '') errors[`${prefix}.holder_name`] = ['The holder_name field is required.'];
        const month = card.exp_month;
        const year = card.exp_year;
        if (typeof month !== 'number' || !Number.isInteger(month) || month < 1 || month > 12) errors[`${prefix}.exp_month`] = ['The exp_month field is invalid.'];
        if (typeof year !== 'number' || !Number.isInteger(year)) errors[`${prefix}.exp_year`] = ['The exp_year field is invalid.'];
        else if (typeof month === 'number' && (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))) {
          errors[`${prefix}.exp_year`] = ['The card is expired.'];
        }
        if (card.cvv !== undefined && (typeof card.cvv !== 'string' || !/^\d{3,4}$/.test(card.cvv))) errors[`${prefix}.cvv`] = ['The cvv field is invalid.'];
        const installments = isObject(details) ? (details.installments ?? 1) : 1;
        if (typeof installments !== 'number' || !Number.isInteger(installments) || installments < 1 || installments > 24) {
          errors[`order.payments[0].${kind}.installments`] = ['The installments field is invalid.'];
        }
        if (kind === 'debit_card' && installments !== 1) errors['order.payments[0].debit_card.installments'] = ['Debit is paid in one installment.'];
        const descriptor = isObject(details) ? details.statement_descriptor : undefined;
        if (descriptor !== undefined && (typeof descriptor !== 'string' || descriptor.length > 22)) {
          errors[`order.payments[0].${kind}.statement_descriptor`] = ['The field statement_descriptor must be a string with a maximum length of 22.'];
        }
        const capture = isObject(details) && kind === 'credit_card' ? (details.capture ?? true) : true;
        if (typeof capture !== 'boolean') errors['order.payments[0].credit_card.capture'] = ['The capture field is invalid.'];
        charge.capture = capture !== false;
        charge.installments = typeof installments === 'number' ? installments : 1;
        if (typeof descriptor === 'string') charge.statementDescriptor = descriptor;
        charge.card = {
          first_six_digits: number.slice(0, 6),
          last_four_digits: number.slice(-4),
          holder_name: String(card.holder_name ?? ''),
          exp_month: typeof month === 'number' ? month : 0,
          exp_year: typeof year === 'number' ? year : 0,
          brand: brandOf(number),
          type: kind === 'debit_card' ? 'debit' : 'credit',
        };
      }
    } else if (kind === 'pix') {
      const details = isObject(payment?.pix) ? payment.pix : {};
      const expiresIn = details.expires_in;
      const expiresAt = details.expires_at;
      let expiry = new Date(now.getTime() + 86_400_000);
      if (expiresIn !== undefined) {
        if (typeof expiresIn !== 'number' || !Number.isInteger(expiresIn) || expiresIn <= 0) errors['order.payments[0].pix.expires_in'] = ['The expires_in field is invalid.'];
        else expiry = new Date(now.getTime() + expiresIn * 1000);
      } else if (expiresAt !== undefined) {
        const parsed = typeof expiresAt === 'string' ? new Date(expiresAt) : new Date(NaN);
        if (Number.isNaN(parsed.getTime()) || parsed.getTime() <= now.getTime()) errors['order.payments[0].pix.expires_at'] = ['The expires_at field is invalid.'];
        else expiry = parsed;
      }
      charge.pix = { qrCode: '', expiresAt: expiry };
    } else if (kind === 'boleto') {
      const details = isObject(payment?.boleto) ? payment.boleto : {};
      const dueAt = details.due_at === undefined ? new Date(now.getTime() + 3 * DAY_MS) : typeof details.due_at === 'string' ? new Date(details.due_at) : new Date(NaN);
      if (Number.isNaN(dueAt.getTime())) errors['order.payments[0].boleto.due_at'] = ['The due_at field is invalid.'];
      const instructions = details.instructions;
      if (instructions !== undefined && (typeof instructions !== 'string' || instructions.length > 256)) {
        errors['order.payments[0].boleto.instructions'] = ['The field instructions must be a string with a maximum length of 256.'];
      }
      charge.boleto = { line: '', barcode: '', dueAt, nossoNumero: '', ...(typeof instructions === 'string' ? { instructions } : {}) };
    }
    if (Object.keys(errors).length > 0) throw new Invalid(errors);

    const state: ChargeState = {
      account,
      id: newId('ch'),
      code: typeof code === 'string' ? code : nextNumber(10),
      orderId: newId('or'),
      orderCode: typeof code === 'string' ? code : nextNumber(10),
      method: kind!,
      amount: total,
      paidAmount: 0,
      canceledAmount: 0,
      status: 'pending',
      capture: charge.capture ?? true,
      customer,
      items: (items as Array<Record<string, unknown>>).map((item) => ({ id: newId('oi'), ...item, status: 'active', created_at: iso(now), updated_at: iso(now) })),
      metadata: isObject(body.metadata) ? body.metadata : {},
      createdAt: now,
      updatedAt: now,
      transaction: { id: newId('tran'), status: 'pending', success: true, nsu: nextNumber(10), createdAt: now, updatedAt: now },
      ...(charge.card ? { card: charge.card } : {}),
      ...(charge.installments !== undefined ? { installments: charge.installments } : {}),
      ...(charge.statementDescriptor !== undefined ? { statementDescriptor: charge.statementDescriptor } : {}),
    };
    const later = now.getTime() + settleAfterMs;
    if (kind === 'credit_card' || kind === 'debit_card') {
      const number = String(((payment?.[kind] as Record<string, unknown>).card as Record<string, unknown>).number);
      const scenario = cardScenarioOf(number);
      if (scenario === 'success') {
        state.transaction.returnCode = PAGARME_APPROVAL.code;
        state.transaction.returnMessage = PAGARME_APPROVAL.message;
        state.transaction.authCode = nextNumber(6);
        if (state.capture) {
          state.status = 'paid';
          state.paidAmount = total;
          state.paidAt = now;
          state.transaction.status = 'captured';
        } else {
          state.transaction.status = 'authorized_pending_capture';
        }
      } else if (scenario === 'failure') {
        state.status = 'failed';
        state.transaction.status = 'not_authorized';
        state.transaction.success = false;
        state.transaction.returnCode = PAGARME_REFUSAL.code;
        state.transaction.returnMessage = PAGARME_REFUSAL.message;
      } else {
        // "The transaction gets the error status, and later ...".
        state.status = 'processing';
        state.transaction.status = 'with_error';
        state.transaction.success = false;
        state.pending = { at: later, outcome: scenario };
      }
    } else if (kind === 'pix') {
      const expiresAt = charge.pix!.expiresAt;
      state.pix = {
        expiresAt,
        qrCode: dynamicPixCode({ location: `pix.simulator.test/qr/v2/${state.transaction.id}`, amountInCents: total, merchantName: account.name ?? 'Loja', merchantCity: 'SAO PAULO', reference: '***' }),
      };
      if (total > PAGARME_PIX_SUCCESS_LIMIT) {
        state.status = 'failed';
        state.transaction.status = 'failed';
        state.transaction.success = false;
      } else {
        state.transaction.status = 'waiting_payment';
        state.pending = { at: later, outcome: 'pix_paid' };
      }
    } else {
      const boleto = charge.boleto!;
      const nossoNumero = nextNumber(11);
      const numbers = boletoNumbers(total, boleto.dueAt, `${nossoNumero}${'0'.repeat(14)}`.slice(0, 25));
      state.boleto = { ...boleto, ...numbers, nossoNumero };
      state.transaction.status = 'generated';
      const address = isObject(customer.address) ? customer.address : undefined;
      const scenario = boletoScenarioOf(typeof address?.zip_code === 'string' ? address.zip_code : undefined);
      if (scenario !== 'unconciliated') state.pending = { at: later, outcome: scenario };
    }
    charges.set(state.id, state);
    orders.set(state.orderId, { account, chargeId: state.id });
    created += 1;
    return { status: 200, body: orderView(state) };
  };

  // ---------------------------------------------------------------- charges

  const precondition = (message: string): Answer => ({ status: 412, body: { message } });

  const capture = (charge: ChargeState, body: Record<string, unknown>): Answer => {
    if (charge.method !== 'credit_card' || charge.status !== 'pending' || charge.transaction.status !== 'authorized_pending_capture') {
      return precondition('The charge cannot be captured.');
    }
    const amount = body.amount ?? charge.amount;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) throw new Invalid({ amount: ['The field amount must be greater than 0.'] });
    if (amount > charge.amount) return precondition('The capture amount is greater than the authorized amount.');
    const now = clock();
    charge.status = 'paid';
    charge.paidAmount = amount;
    charge.paidAt = now;
    touch(charge, 'captured', true);
    post(charge, 'charge.paid');
    return { status: 200, body: chargeView(charge) };
  };

  const cancel = (charge: ChargeState, body: Record<string, unknown>): Answer => {
    const now = clock();
    if (charge.status === 'pending') {
      // What was never paid is canceled whole: a pre-authorization, a Pix or boleto not paid.
      const amount = body.amount ?? charge.amount;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) throw new Invalid({ amount: ['The field amount must be greater than 0.'] });
      if (amount > charge.amount) return precondition('The amount is greater than the charge amount.');
      charge.pending = undefined;
      charge.status = 'canceled';
      charge.canceledAmount = charge.amount;
      charge.canceledAt = now;
      touch(charge, charge.method === 'credit_card' || charge.method === 'debit_card' ? 'voided' : 'canceled', true);
      post(charge, 'charge.canceled');
      return { status: 200, body: chargeView(charge) };
    }
    if (charge.status !== 'paid' && charge.status !== 'overpaid' && charge.status !== 'underpaid') return precondition('The charge cannot be canceled.');
    if (charge.method === 'boleto' && !isObject(body.bank_account)) {
      // A paid boleto is given back to a bank account the request names.
      throw new Invalid({ bank_account: ['The bank_account field is required.'] });
    }
    const left = charge.paidAmount - charge.canceledAmount;
    const amount = body.amount ?? left;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) throw new Invalid({ amount: ['The field amount must be greater than 0.'] });
    if (amount > left) return precondition('The amount is greater than the amount available to refund.');
    charge.canceledAmount += amount;
    charge.canceledAt = now;
    const whole = charge.canceledAmount === charge.paidAmount;
    if (whole) charge.status = 'canceled';
    touch(charge, whole ? 'refunded' : 'partial_refunded', true);
    post(charge, whole ? 'charge.refunded' : 'charge.partial_canceled');
    return { status: 200, body: chargeView(charge) };
  };

  const notFound = (what: string): Answer => ({ status: 404, body: { message: `${what} not found.` } });

  /**
   * "Pedidos" > "Listar pedidos": `GET /orders` of the caller's own orders, filtered by `code`, `status` and
   * `customer_id`, newest first, paged by `page` (from 1) and `size` (10 by default):
   * `{data: [order], paging: {total}}`.
   */
  const listOrders = (account: PagarmeAccount, query: URLSearchParams): Answer => {
    const code = query.get('code');
    const status = query.get('status');
    const size = Math.min(Math.max(Number(query.get('size') ?? 10) || 10, 1), 100);
    const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
    const found = [...orders.values()]
      .filter((entry) => entry.account === account)
      .map((entry) => charges.get(entry.chargeId))
      .filter((charge): charge is NonNullable<typeof charge> => charge !== undefined)
      .filter((charge) => code === null || charge.orderCode === code)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    found.forEach(due);
    const views = found.map(orderView).filter((view) => status === null || (view as { status?: unknown }).status === status);
    return { status: 200, body: { data: views.slice((page - 1) * size, page * size), paging: { total: views.length } } };
  };

  const route = (account: PagarmeAccount, method: string, path: string, body: Record<string, unknown>, query: URLSearchParams = new URLSearchParams()): Answer => {
    if (path === '/core/v5/orders' && method === 'POST') return createOrder(account, body);
    if (path === '/core/v5/orders' && method === 'GET') return listOrders(account, query);
    const order = /^\/core\/v5\/orders\/([^/]+)$/.exec(path);
    if (order && method === 'GET') {
      const found = orders.get(decodeURIComponent(order[1]!));
      const charge = found && found.account === account ? charges.get(found.chargeId) : undefined;
      if (!charge) return notFound('Order');
      due(charge);
      return { status: 200, body: orderView(charge) };
    }
    const match = /^\/core\/v5\/charges\/([^/]+)(\/capture)?$/.exec(path);
    if (!match) return { status: 404, body: { message: 'No HTTP resource was found that matches the request URI.' } };
    const found = charges.get(decodeURIComponent(match[1]!));
    const charge = found && found.account === account ? found : undefined;
    if (!charge) return notFound('Charge');
    due(charge);
    if (match[2]) return method === 'POST' ? capture(charge, body) : { status: 405, body: { message: 'The requested resource does not support this method.' } };
    if (method === 'GET') return { status: 200, body: chargeView(charge) };
    if (method === 'DELETE') return cancel(charge, body);
    return { status: 405, body: { message: 'The requested resource does not support this method.' } };
  };

  const accountOf = (req: IncomingMessage): PagarmeAccount | undefined => {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return undefined;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon >= 0 ? decoded.slice(0, colon) : decoded;
    return options.accounts.find((account) => safeEqual(account.secretKey, user));
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
    options.onRequest?.({ method, path: url.pathname, headers, body: raw });
    if (stalled) {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    let result: Answer;
    const account = accountOf(req);
    if (!account) {
      result = { status: 401, body: PAGARME_UNAUTHORIZED };
    } else {
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
      const remembered = key ? idempotent.get(`${account.secretKey}:${key}`) : undefined;
      if (remembered) {
        result = remembered;
      } else {
        let body: unknown = {};
        let parsed = true;
        if (raw.length > 0) {
          try {
            body = JSON.parse(raw.toString('utf8'));
          } catch {
            parsed = false;
          }
        }
        if (!parsed || !isObject(body)) {
          result = { status: 400, body: { message: 'The request is invalid.', errors: { request: ['The body is not a JSON object.'] } } };
        } else {
          try {
            result = route(account, method, url.pathname.replace(/\/+$/, ''), body, url.searchParams);
          } catch (error) {
            if (!(error instanceof Invalid)) throw error;
            result = { status: 422, body: { message: error.message, errors: error.errors } };
          }
        }
        // Only what changed something is remembered; a refused request may be sent again, corrected.
        if (key && method !== 'GET' && result.status === 200) idempotent.set(`${account.secretKey}:${key}`, result);
      }
    }
    if (latencyMs > 0) await wait(latencyMs);
    if (!res.destroyed) sendJson(res, result.status, result.body);
  };

  const server = createServer((req, res) => {
    answer(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { message: 'An error has occurred.' });
    });
  });
  const running = await listen(server, options.port ?? 0);
  return {
    url: running.url,
    apiUrl: `${running.url}/core/v5`,
    get ordersCreated() {
      return created;
    },
    charge(chargeId) {
      const charge = charges.get(chargeId);
      if (!charge) return undefined;
      due(charge);
      return chargeView(charge);
    },
    async settle(chargeId) {
      for (const charge of charges.values()) if (chargeId === undefined || charge.id === chargeId) apply(charge);
      await Promise.all([...deliveries]);
    },
    stall(on) {
      stalled = on;
      if (!on) for (const res of held) res.destroy();
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    close: async () => {
      for (const res of held) res.destroy();
      for (const entry of waits) {
        clearTimeout(entry.timer);
        entry.resolve();
      }
      waits.clear();
      await Promise.all([...deliveries]);
      await running.close();
    },
  };
}
