import { AppError, errors, isUuid, type Queryable } from '@platform/kit';
import { brasiliaDate } from '../domain/calendar';
import type { EligibleReceivable, Prepayment } from '../domain/prepayment';
import type { PayoutsDeps } from './deps';

/** The answer of a client that may not prepay: `I-403`, as the public API has it. */
export const PREPAYMENT_DENIED = 'I-403';

export async function requireEnabled(deps: PayoutsDeps, clientId: string): Promise<void> {
  if (!(await deps.settings.prepaymentEnabled(clientId))) {
    throw new AppError('forbidden', 'Prepayment is not enabled for this account: ask the platform to enable it', { businessCode: PREPAYMENT_DENIED });
  }
}

/** The receiver asked for: a seller of the client (known from its events) that is not blocked, or the main account. */
export async function receiverOf(deps: PayoutsDeps, db: Queryable, clientId: string, sellerId: string | undefined): Promise<string | null> {
  if (!sellerId) return null;
  const seller = isUuid(sellerId) ? await deps.sellerStore.find(db, clientId, sellerId.toLowerCase()) : null;
  if (!seller || seller.status === 'inactive') throw errors.notFound('Seller', sellerId);
  if (seller.status === 'blocked') throw errors.businessRule('seller_blocked', `Seller ${sellerId} is blocked and cannot prepay`);
  return seller.id;
}

/** Future receivables of the receiver that no prepayment took, with what each still pays. */
export async function eligible(deps: PayoutsDeps, db: Queryable, clientId: string, receiver: string | null): Promise<EligibleReceivable[]> {
  const today = brasiliaDate(deps.clock.now());
  const receivables = await deps.ledgerStore.prepayableReceivables(db, clientId, receiver, today);
  const open = await deps.ledgerStore.openAmounts(db, clientId, receivables.map((r) => r.id));
  return receivables
    .map((r) => ({ id: r.id, settlementDate: r.settlementDate, amount: open.get(r.id)?.net ?? 0, paymentArrangement: r.paymentType }))
    .filter((r) => r.amount > 0);
}

export async function loadPrepayment(deps: PayoutsDeps, db: Queryable, clientId: string, id: string, forUpdate = false): Promise<Prepayment> {
  const found = isUuid(id) ? await deps.prepaymentStore.find(db, clientId, id.toLowerCase(), { forUpdate }) : null;
  if (!found) throw errors.notFound('Prepayment', id);
  return found;
}
