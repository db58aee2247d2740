import { createHash } from 'node:crypto';
import type { AuthorizeRequest, AuthorizeResult, OperationResult, QueryResult } from '../domain/types';
import { declineOf, statusOf } from '../kit/tables';
import { REDE_SUCCESS_CODES, redeDeclines } from './declineTable';
import type { RedeReturn } from './errors';
import { redeStatuses } from './statusTable';

/**
 * e.Rede's wire format (API v2, manual sections named beside each function). Amounts: Rede's `amount` is an
 * integer in centavos, like ours, so no conversion happens anywhere in this connector.
 */

/** Rede's limits (manual: "Autorização", parameter table): reference up to 16, cardholderName 30, softDescriptor 18. */
const REFERENCE_LENGTH = 16;
const HOLDER_NAME_LENGTH = 30;
const SOFT_DESCRIPTOR_LENGTH = 18;

/**
 * The `reference` (the merchant's order number, unique per PV) of an authorization attempt: derived from the
 * attempt's idempotency key, so a retried attempt sends the same reference and Rede answers it was used (42)
 * instead of charging twice. 16 hexadecimal digits of its SHA-256.
 */
export function referenceOf(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('hex').slice(0, REFERENCE_LENGTH);
}

/** Manual: "Autorização" (POST /v2/transactions): the request body. Debit is always captured (Rede refuses capture false). */
export function toTransactionRequest(request: AuthorizeRequest, reference: string): Record<string, unknown> {
  const card = request.card!;
  const kind = request.paymentType === 'debit' ? 'debit' : 'credit';
  const descriptor = request.statementDescriptor?.replace(/[^A-Za-z0-9 ]/g, '').trim().slice(0, SOFT_DESCRIPTOR_LENGTH);
  return {
    capture: kind === 'debit' ? true : request.capture,
    kind,
    reference,
    amount: request.amount,
    ...(kind === 'credit' && request.installments > 1 ? { installments: request.installments } : {}),
    cardholderName: card.holderName.slice(0, HOLDER_NAME_LENGTH),
    cardNumber: card.number,
    expirationMonth: card.expirationMonth,
    expirationYear: card.expirationYear,
    ...(card.cvv ? { securityCode: card.cvv } : {}),
    ...(descriptor ? { softDescriptor: descriptor } : {}),
  };
}

/** Manual: "Autorização", the answer: `{tid, nsu, authorizationCode, returnCode, returnMessage, brand: {returnCode}}`. */
export interface RedeTransactionAnswer extends RedeReturn {
  reference?: string;
  tid?: string;
  nsu?: string;
  authorizationCode?: string;
  amount?: number;
  brand?: { name?: string; returnCode?: string; returnMessage?: string; authorizationCode?: string };
}

function networkCodes(answer: { nsu?: string; authorizationCode?: string; brand?: { returnCode?: string } }, returnCode?: string) {
  return {
    ...(answer.nsu ? { nsu: answer.nsu } : {}),
    ...(answer.authorizationCode ? { networkAuthorizationCode: answer.authorizationCode } : {}),
    ...((answer.brand?.returnCode ?? returnCode) ? { networkResponseCode: answer.brand?.returnCode ?? returnCode } : {}),
  };
}

/** A decline from a Rede return code: our code, and Rede's meaning as the message. */
export function declinedFrom(returnCode: string | undefined, tid?: string, extra: ReturnType<typeof networkCodes> = {}): AuthorizeResult {
  const decline = declineOf(redeDeclines, returnCode);
  return { status: 'declined', declinedCode: decline.declinedCode, decision: decline.decision, message: `e.Rede ${returnCode ?? '(none)'}: ${decline.meaning}`, ...(tid ? { transactionId: tid } : {}), ...extra };
}

/** Manual: "Autorização", the answer (201 approved, 402 declined, 400 integration return). */
export function fromTransactionAnswer(answer: RedeTransactionAnswer, request: AuthorizeRequest, securityCodeSent: boolean): AuthorizeResult {
  const returnCode = answer.returnCode;
  if (returnCode === '00' && answer.tid) {
    return {
      status: 'authorized',
      transactionId: answer.tid,
      captured: request.paymentType === 'debit' || request.capture,
      cvvChecked: securityCodeSent,
      ...networkCodes(answer, returnCode),
    };
  }
  return declinedFrom(returnCode, answer.tid, networkCodes(answer, returnCode));
}

/** Manual: "Consulta" (GET /v2/transactions/{tid} and ?reference=): the answer. */
export interface RedeQueryAnswer {
  authorization?: {
    status?: string;
    returnCode?: string;
    returnMessage?: string;
    reference?: string;
    tid?: string;
    nsu?: string;
    authorizationCode?: string;
    amount?: number;
    kind?: string;
    brand?: { returnCode?: string };
  };
  capture?: { amount?: number; nsu?: string; dateTime?: string };
  refunds?: Array<{ refundId?: string; amount?: number; status?: string }>;
}

/** The key of the status table: Rede's authorization status with what qualifies an approved one. */
export function stateOf(queried: RedeQueryAnswer): string | undefined {
  const status = queried.authorization?.status;
  if (status !== 'Approved') return status;
  if (queried.refunds?.some((r) => r.status === 'Processing')) return 'Approved/refund Processing';
  return queried.capture ? 'Approved/captured' : 'Approved';
}

/** Manual: "Consulta": where the transaction stands. Only cancellations that are Done count as refunded. */
export function toQueryResult(queried: RedeQueryAnswer): QueryResult {
  const state = stateOf(queried);
  const refunded = (queried.refunds ?? []).filter((r) => r.status === 'Done').reduce((sum, r) => sum + (r.amount ?? 0), 0);
  const status = statusOf(redeStatuses, state);
  return {
    found: true,
    ...(status ? { status } : {}),
    ...(state ? { providerStatus: state } : {}),
    ...(queried.capture?.amount !== undefined ? { capturedAmount: queried.capture.amount } : {}),
    ...(refunded > 0 ? { refundedAmount: refunded } : {}),
    ...(state === 'Denied' ? { declinedCode: declineOf(redeDeclines, queried.authorization?.returnCode).declinedCode } : {}),
  };
}

/**
 * Manual: "Consulta por referência": the result of an authorization attempt Rede already has (a retry whose
 * reference was used). The amount must be the attempt's: a different one means the reference is not ours.
 */
export function fromQueriedAuthorization(queried: RedeQueryAnswer, request: AuthorizeRequest, securityCodeSent: boolean): AuthorizeResult {
  const authorization = queried.authorization ?? {};
  const tid = authorization.tid;
  if (!tid || authorization.amount !== request.amount) {
    return { status: 'declined', declinedCode: 'invalid_data', message: 'e.Rede 42: the reference belongs to another transaction' };
  }
  const codes = networkCodes(authorization, authorization.returnCode);
  switch (authorization.status) {
    case 'Approved':
      return { status: 'authorized', transactionId: tid, captured: queried.capture !== undefined, cvvChecked: securityCodeSent, ...codes };
    case 'Canceled':
      return { status: 'canceled', transactionId: tid, message: 'e.Rede: the authorization was canceled' };
    case 'Pending':
      return { status: 'pending', transactionId: tid };
    default:
      return declinedFrom(authorization.returnCode, tid, codes);
  }
}

/** Manual: "Captura" and "Cancelamento": the answer of a capture (00) or cancellation (359 done, 360 being processed). */
export function fromOperationAnswer(answer: RedeTransactionAnswer & { refundId?: string }, tid: string): OperationResult {
  const returnCode = answer.returnCode;
  if (returnCode === '360') {
    return { status: 'pending', transactionId: tid, message: 'e.Rede 360: Refund request has been successful (being processed)' };
  }
  if (returnCode !== undefined && REDE_SUCCESS_CODES.has(returnCode)) {
    return { status: 'success', transactionId: tid, ...networkCodes(answer, returnCode) };
  }
  const decline = declineOf(redeDeclines, returnCode);
  return { status: 'failed', declinedCode: decline.declinedCode, message: `e.Rede ${returnCode ?? '(none)'}: ${decline.meaning}` };
}
