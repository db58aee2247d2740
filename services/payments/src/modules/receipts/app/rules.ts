import type { ReceiptType } from '@platform/api-model';
import type { Charge, TransactionRequestRecord } from '../../charges/domain/charge';

/** The platform's own acquiring providers: only their charges get documents the platform signs for. */
export const OWN_PROVIDER_TYPES: readonly string[] = ['SANDBOX', 'SUBACQUIRER'];

/** Why the charge cannot have this document, or undefined when it can. */
export function receiptRefusal(charge: Charge, type: ReceiptType): string | undefined {
  if (charge.providerType === null || !OWN_PROVIDER_TYPES.includes(charge.providerType)) {
    const by = charge.providerType ? `a provider of type ${charge.providerType}` : 'no provider';
    return `Charge ${charge.id} was processed by ${by}; receipts are issued only for charges of the platform's own providers (${OWN_PROVIDER_TYPES.join(', ')})`;
  }
  const voided = charge.status === 'voided';
  const refunded = charge.refundedAmount > 0;
  if (!voided && !refunded) return `Charge ${charge.id} was neither voided nor refunded (status ${charge.status})`;
  if (type === 'refund_receipt' && !refunded) return `Charge ${charge.id} has no refund: its authorization was voided before capture; ask for a cancellation_letter`;
  const fullyRefunded = refunded && charge.refundedAmount >= charge.capturedAmount;
  if (type === 'cancellation_letter' && !voided && !fullyRefunded) {
    return `Charge ${charge.id} was refunded in part (${charge.refundedAmount} of ${charge.capturedAmount}); a cancellation_letter needs it voided or fully refunded`;
  }
  return undefined;
}

/** What a receipt shows, read from the charge and the names its owners give. */
export interface ReceiptDocument {
  type: ReceiptType;
  clientName: string;
  merchantName: string;
  chargeId: string;
  paymentType: string;
  currency: string;
  /** Minor units. */
  originalAmount: number;
  refundedAmount: number;
  /** What stays charged: captured minus refunded. */
  remainingAmount: number;
  /** Nothing was ever captured: a voided authorization. */
  neverCaptured: boolean;
  cardBrand: string | null;
  cardLast4: string | null;
  authorizationCode: string | null;
  chargedAt: Date;
  /** When the last void or refund succeeded. */
  canceledAt: Date;
}

const successful = (types: readonly string[]) => (r: TransactionRequestRecord) => r.requestStatus === 'success' && types.includes(r.requestType);

/** The network's authorization code of the successful authorization, else the acquirer's NSU. */
export function authorizationCodeOf(charge: Charge): string | null {
  const authorization = charge.transactionRequests.find(successful(['authorization']));
  return authorization?.networkAuthorizationCode || authorization?.authorizationNsu || null;
}

/** The last successful void or refund; a charge voided by a provider's notification has none, so its last change counts. */
export function canceledAtOf(charge: Charge): Date {
  const times = charge.transactionRequests.filter(successful(['void', 'refund'])).map((r) => r.createdAt.getTime());
  return times.length > 0 ? new Date(Math.max(...times)) : charge.updatedAt;
}

export function receiptDocument(charge: Charge, type: ReceiptType, names: { clientName: string; merchantName: string }): ReceiptDocument {
  return {
    type,
    ...names,
    chargeId: charge.id,
    paymentType: charge.paymentMethod.paymentType,
    currency: charge.currency,
    originalAmount: charge.originalAmount,
    refundedAmount: charge.refundedAmount,
    remainingAmount: charge.capturedAmount - charge.refundedAmount,
    neverCaptured: charge.capturedAmount === 0,
    cardBrand: charge.paymentSource.brand ?? null,
    cardLast4: charge.paymentSource.last4digits ?? null,
    authorizationCode: authorizationCodeOf(charge),
    chargedAt: charge.createdAt,
    canceledAt: canceledAtOf(charge),
  };
}
