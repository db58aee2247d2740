import type { AuthorizeRequest, AuthorizeResult, NetworkCodes, OperationResult, QueryResult } from '../domain/types';
import { isTechnicalDecline, statusOf } from '../kit/tables';
import { pagarmeDeclineOf } from './declineTable';
import { redact } from './errors';
import { PAGARME_CHARGE_STATUS, PAGARME_TRANSACTION_STATUS } from './statusTable';

/**
 * Our requests -> Pagar.me core API v5's, and its answers -> our results. Field names are the API Reference's
 * (docs.pagar.me/reference, "Pedidos", "Cobranças", "Cartão de crédito", "Pix", "Boleto"); the section each
 * shape follows is named beside it.
 *
 * Amounts: Pagar.me takes and answers amounts in centavos, as integers ("amount: valor em centavos"), which are
 * our minor units: they pass through unchanged, never as decimals.
 */

/** "Clientes" > customer: who pays. Pagar.me requires one on every order. */
export interface PagarmeCustomer {
  name: string;
  email?: string;
  /** CPF (11 digits) or CNPJ (14), digits only. */
  document?: string;
  type: 'individual' | 'company';
  phones?: Record<string, unknown>;
  address?: Record<string, unknown>;
}

/** "Cartão de crédito" > card. */
export interface PagarmeCard {
  number: string;
  holder_name: string;
  exp_month: number;
  exp_year: number;
  cvv?: string;
}

/** "Pedidos" > "Criar pedido" (POST /orders). */
export interface PagarmeOrderRequest {
  code: string;
  closed: true;
  items: Array<{ amount: number; description: string; quantity: number; code: string }>;
  customer: PagarmeCustomer;
  payments: Array<
    | { payment_method: 'credit_card'; amount: number; credit_card: { installments: number; capture: boolean; statement_descriptor?: string; card: PagarmeCard } }
    | { payment_method: 'pix'; amount: number; pix: { expires_in: number } }
    | { payment_method: 'boleto'; amount: number; boleto: { due_at?: string; instructions?: string; type: 'DM' } }
  >;
  metadata: Record<string, string>;
}

/** "Cobranças" > last_transaction (card, Pix and boleto fields together). */
export interface PagarmeTransaction {
  id?: string;
  transaction_type?: string;
  status?: string;
  success?: boolean;
  amount?: number;
  acquirer_return_code?: string | number;
  acquirer_message?: string;
  acquirer_auth_code?: string;
  acquirer_nsu?: string;
  acquirer_tid?: string;
  gateway_response?: { code?: string; errors?: Array<{ message?: string }> };
  antifraud_response?: { status?: string; return_code?: string; return_message?: string };
  qr_code?: string;
  qr_code_url?: string;
  expires_at?: string;
  line?: string;
  barcode?: string;
  url?: string;
  pdf?: string;
  due_at?: string;
}

/** "Cobranças" > "Obter cobrança" (GET /charges/{charge_id}). */
export interface PagarmeCharge {
  id?: string;
  code?: string;
  amount?: number;
  paid_amount?: number;
  canceled_amount?: number;
  status?: string;
  payment_method?: string;
  last_transaction?: PagarmeTransaction;
}

/** "Pedidos" > the order answered by "Criar pedido". */
export interface PagarmeOrder {
  id?: string;
  code?: string;
  status?: string;
  charges?: PagarmeCharge[];
}

/** `statement_descriptor`: 13 characters for PSP accounts (22 for gateway ones), letters, digits and spaces. */
export function statementDescriptorOf(descriptor: string | undefined): string | undefined {
  if (!descriptor) return undefined;
  const plain = descriptor
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .trim()
    .slice(0, 13)
    .trim();
  return plain === '' ? undefined : plain;
}

/** `code` of the order (52 characters at most): the charge's id, which finds it in Pagar.me's dashboard. */
export function orderCodeOf(chargeId: string): string {
  return chargeId.slice(0, 52);
}

/**
 * The customer Pagar.me requires ("Clientes" > customer). A charge that names a payer (inline or stored customer)
 * sends that person's own data only (name, e-mail, CPF or CNPJ; for a card without the payer's name, the name on
 * the card): nothing of the provider entry's fallback `customer` (its phones and address are another person's).
 * A charge that names no payer sends the entry's fallback (`customer: {name, email, document, type?, phones?,
 * address?}`, the merchant's payer for such charges), else, for a card, the name on the card. Undefined when
 * there is no name at all.
 */
export function customerOf(request: AuthorizeRequest, options: Record<string, unknown>): PagarmeCustomer | undefined {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const payer = request.payer;
  if (payer && (text(payer.name) ?? text(payer.email) ?? text(payer.document?.number))) {
    const own = payer.document && (payer.document.type === 'cpf' || payer.document.type === 'cnpj') ? payer.document.number.replace(/\D/g, '') : undefined;
    const name = (text(payer.name) ?? text(request.card?.holderName))?.slice(0, 64);
    if (!name) return undefined;
    const email = text(payer.email);
    return { name, ...(email ? { email } : {}), ...(own ? { document: own } : {}), type: payer.document?.type === 'cnpj' ? 'company' : 'individual' };
  }
  const fallback = typeof options.customer === 'object' && options.customer !== null ? (options.customer as Record<string, unknown>) : {};
  const document = text(fallback.document)?.replace(/\D/g, '');
  const name = (text(fallback.name) ?? text(request.card?.holderName))?.slice(0, 64);
  if (!name) return undefined;
  const email = text(fallback.email);
  const type = fallback.type === 'company' || (document?.length ?? 0) === 14 ? 'company' : 'individual';
  return {
    name,
    ...(email ? { email } : {}),
    ...(document ? { document } : {}),
    type,
    ...(typeof fallback.phones === 'object' && fallback.phones !== null ? { phones: fallback.phones as Record<string, unknown> } : {}),
    ...(typeof fallback.address === 'object' && fallback.address !== null ? { address: fallback.address as Record<string, unknown> } : {}),
  };
}

/** Our authorization -> "Criar pedido" with one payment: "Cartão de crédito", "Pix" or "Boleto". */
export function toOrderRequest(request: AuthorizeRequest, customer: PagarmeCustomer, description: string): PagarmeOrderRequest {
  const code = orderCodeOf(request.chargeId);
  const base = {
    code,
    closed: true as const,
    items: [{ amount: request.amount, description: description.slice(0, 256) || 'Pedido', quantity: 1, code }],
    customer,
    metadata: { charge_id: request.chargeId },
  };
  if (request.paymentType === 'pix') {
    // "Pix": expires_in, in seconds.
    return { ...base, payments: [{ payment_method: 'pix', amount: request.amount, pix: { expires_in: Math.max(1, Math.floor(request.pix?.expiresIn ?? 3600)) } }] };
  }
  if (request.paymentType === 'boleto') {
    // "Boleto": due_at (a date and time; the due day at midnight UTC; without it Pagar.me sets its default),
    // instructions (256 characters), type DM.
    const due = request.boleto?.expiresDate;
    return {
      ...base,
      payments: [
        {
          payment_method: 'boleto',
          amount: request.amount,
          boleto: { ...(due ? { due_at: `${due}T00:00:00Z` } : {}), ...(request.boleto?.instructions ? { instructions: request.boleto.instructions.slice(0, 256) } : {}), type: 'DM' },
        },
      ],
    };
  }
  const card = request.card;
  if (!card) throw new Error('a card payment without card data');
  const descriptor = statementDescriptorOf(request.statementDescriptor);
  // "Cartão de crédito": capture false holds the amount (authorized_pending_capture) until "Capturar cobrança".
  return {
    ...base,
    payments: [
      {
        payment_method: 'credit_card',
        amount: request.amount,
        credit_card: {
          installments: Math.max(1, request.installments),
          capture: request.capture,
          ...(descriptor ? { statement_descriptor: descriptor } : {}),
          card: {
            number: card.number,
            holder_name: card.holderName.trim().slice(0, 64),
            exp_month: card.expirationMonth,
            exp_year: card.expirationYear,
            ...(card.cvv ? { cvv: card.cvv } : {}),
          },
        },
      },
    ],
  };
}

/**
 * A boleto's 44-digit bar code from its 47-digit digitable line (`last_transaction.line`; the `barcode` field is
 * an image's URL). FEBRABAN layout: the line's three fields carry the bank, the currency and the free field with
 * their check digits, then the general check digit, the due-date factor and the amount.
 */
export function barcodeOfLine(line: string): string | undefined {
  const digits = line.replace(/\D/g, '');
  if (digits.length !== 47) return undefined;
  return digits.slice(0, 4) + digits[32] + digits.slice(33, 47) + digits.slice(4, 9) + digits.slice(10, 20) + digits.slice(21, 31);
}

function networkCodes(transaction: PagarmeTransaction): NetworkCodes {
  const code = transaction.acquirer_return_code;
  return {
    ...(transaction.acquirer_nsu ? { nsu: transaction.acquirer_nsu } : {}),
    ...(transaction.acquirer_auth_code ? { networkAuthorizationCode: transaction.acquirer_auth_code } : {}),
    ...(code !== undefined && code !== null && String(code) !== '' ? { networkResponseCode: String(code) } : {}),
  };
}

/** The decline of a refused charge: its acquirer code, Pagar.me's antifraud, or the gateway's errors. */
function declineOf(charge: PagarmeCharge): { entry: ReturnType<typeof pagarmeDeclineOf>; message: string } {
  const transaction = charge.last_transaction ?? {};
  const reproved = transaction.antifraud_response?.status === 'reproved';
  const code = transaction.acquirer_return_code;
  const entry = pagarmeDeclineOf(reproved && (code === undefined || code === null || code === '') ? 'antifraud_reproved' : code);
  const gateway = (transaction.gateway_response?.errors ?? []).map((error) => error.message).filter((m): m is string => typeof m === 'string');
  const said = transaction.acquirer_message ?? gateway.join('; ');
  const message = `Pagar.me ${charge.status ?? 'unknown'}${transaction.status ? ` (${transaction.status})` : ''}: ${entry.code ?? '(no code)'} ${redact(said) || entry.meaning}`;
  return { entry, message: message.trim() };
}

/** "Criar pedido" > the order's charge -> our result. */
export function fromOrder(order: PagarmeOrder, now: () => Date, pixExpiresIn: number): AuthorizeResult {
  const charge = order.charges?.[0];
  const transactionId = charge?.id;
  if (!charge || !transactionId) return { status: 'declined', declinedCode: 'generic', message: 'Pagar.me answered an order without a charge' };
  const transaction = charge.last_transaction ?? {};
  switch (charge.status) {
    case 'paid':
    case 'overpaid':
    case 'underpaid':
      return { status: 'authorized', transactionId, captured: true, cvvChecked: false, ...networkCodes(transaction) };
    case 'pending': {
      if (charge.payment_method === 'pix') {
        const expires = transaction.expires_at ? new Date(transaction.expires_at) : undefined;
        return {
          status: 'pending',
          transactionId,
          pix: {
            qrCodeData: transaction.qr_code ?? '',
            qrCodeImageUrl: transaction.qr_code_url ?? '',
            expiresAt: expires && !Number.isNaN(expires.getTime()) ? expires : new Date(now().getTime() + pixExpiresIn * 1000),
          },
        };
      }
      if (charge.payment_method === 'boleto') {
        const line = (transaction.line ?? '').replace(/\D/g, '');
        return {
          status: 'pending',
          transactionId,
          boleto: {
            barcodeData: barcodeOfLine(line) ?? '',
            digitableLine: line,
            barcodeImageUrl: transaction.barcode ?? transaction.pdf ?? transaction.url ?? '',
            expiresDate: (transaction.due_at ?? '').slice(0, 10),
          },
        };
      }
      if (transaction.status === 'authorized_pending_capture') {
        return { status: 'authorized', transactionId, captured: false, cvvChecked: false, ...networkCodes(transaction) };
      }
      return { status: 'pending', transactionId };
    }
    case 'processing':
      // "Processing": the acquirer decides later; the status sync and the webhook tell how it ended.
      return { status: 'pending', transactionId };
    case 'canceled':
      return { status: 'canceled', transactionId, message: 'Pagar.me canceled the charge' };
    default: {
      const { entry, message } = declineOf(charge);
      return { status: 'declined', declinedCode: entry.declinedCode, decision: entry.decision, transactionId, message, ...networkCodes(transaction) };
    }
  }
}

/** What a capture, cancellation or refund answered, and whether a refusal is technical. */
export interface OperationOutcome {
  result: OperationResult;
  technical: boolean;
}

/** "Capturar cobrança" (POST /charges/{charge_id}/capture) > the charge. */
export function fromCapture(charge: PagarmeCharge, transactionId: string): OperationOutcome {
  const transaction = charge.last_transaction ?? {};
  if (charge.status === 'paid') return { result: { status: 'success', transactionId, ...networkCodes(transaction) }, technical: false };
  if (charge.status === 'processing' || transaction.status === 'waiting_capture') {
    return { result: { status: 'pending', transactionId, message: `Pagar.me capture ${transaction.status ?? charge.status}` }, technical: false };
  }
  const { entry, message } = declineOf(charge);
  return { result: { status: 'failed', declinedCode: entry.declinedCode, message: `did not capture: ${message}` }, technical: isTechnicalDecline(entry) };
}

/**
 * "Cancelar cobrança" (DELETE /charges/{charge_id}) > the charge: canceled whole (a pre-authorization, an unpaid
 * Pix or boleto, or everything paid), or still paid with `canceled_amount` (a partial refund); a cancellation
 * the acquirer confirms later is `waiting_cancellation`.
 */
export function fromCancel(charge: PagarmeCharge, transactionId: string): OperationOutcome {
  const transaction = charge.last_transaction ?? {};
  if (transaction.status === 'waiting_cancellation') return { result: { status: 'pending', transactionId, message: 'Pagar.me waiting_cancellation' }, technical: false };
  const refundedSome = typeof charge.canceled_amount === 'number' && charge.canceled_amount > 0;
  if (charge.status === 'canceled' || (refundedSome && (charge.status === 'paid' || charge.status === 'overpaid' || charge.status === 'underpaid'))) {
    return { result: { status: 'success', transactionId }, technical: false };
  }
  const { entry, message } = declineOf(charge);
  return { result: { status: 'failed', declinedCode: entry.declinedCode, message: `did not cancel: ${message}` }, technical: isTechnicalDecline(entry) };
}

/** "Obter cobrança" > where the charge stands. */
export function toQueryResult(charge: PagarmeCharge): QueryResult {
  const transaction = charge.last_transaction ?? {};
  const final = charge.status === 'failed' || charge.status === 'canceled' || charge.status === 'chargedback';
  const mapped = (!final ? statusOf(PAGARME_TRANSACTION_STATUS, transaction.status) : undefined) ?? statusOf(PAGARME_CHARGE_STATUS, charge.status);
  const paid = typeof charge.paid_amount === 'number' && charge.paid_amount > 0 ? charge.paid_amount : undefined;
  const canceled = typeof charge.canceled_amount === 'number' && charge.canceled_amount > 0 ? charge.canceled_amount : undefined;
  return {
    found: true,
    ...(mapped ? { status: mapped } : {}),
    providerStatus: `${charge.status ?? 'unknown'}${transaction.status ? ` (${transaction.status})` : ''}`,
    ...(paid !== undefined ? { capturedAmount: paid } : {}),
    // canceled_amount is a refund once something was paid; before, it is the void of what was held.
    ...(paid !== undefined && canceled !== undefined ? { refundedAmount: canceled } : {}),
    ...(charge.status === 'failed' ? { declinedCode: declineOf(charge).entry.declinedCode } : {}),
  };
}
