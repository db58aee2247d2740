import { isUuid, type Queryable } from '@platform/kit';
import { capturePosting } from '../domain/ledger';
import type { Plan } from '../domain/plan';
import { sellerPlanKey } from '../store/planStore';
import type { BookedCapture } from '../store/ledgerStore';
import { applyChargeEvent, bookingOf, captureReceivables, isPlain, splitRulesOf, type ChargeEventData } from './applyChargeEvent';
import type { PayoutsDeps } from './deps';
import { defaultPlanOf } from './planOfReceiver';

/** A charge event as the batch takes it: whose it is, the public charge, and when it happened. */
export interface ChargeEventInput {
  clientId: string;
  data: ChargeEventData;
  occurredAt: Date;
}

/** What a batch did: the events booked together (captures) and those applied one by one, for the consumer's figures. */
export interface ChargeBatchOutcome {
  booked: number;
  oneByOne: number;
}

const keyOf = (clientId: string, chargeId: string) => `${clientId.toLowerCase()}/${chargeId.toLowerCase()}`;

/**
 * The charge events that arrived together, applied in one transaction with the same ledger as applying them one by one
 * in their order (`applyChargeEvent`), in a fixed number of statements for the common case whatever their number:
 * - An event that changes nothing of a charge the ledger knows (`isPlain`: no refund, no chargeback) only ever takes a
 *   captured charge in. The first such capture of each charge is booked with all the others: one read of the plans,
 *   then one statement for the charges, their receivables and their postings (the charge insert still the check that a
 *   charge is booked once). A later one of the same charge, or one that captured nothing, changes nothing.
 * - Any other event (a refund, a chargeback, a cancellation that gives money back) is applied on its own, in order,
 *   after the captures; so is every later event of its charge in the batch, so a charge's events keep their order
 *   (a capture, then its refund).
 * An error throws: the consumer rolls the batch back and applies its events one by one.
 */
export async function applyChargeEvents(deps: PayoutsDeps, tx: Queryable, events: readonly ChargeEventInput[]): Promise<ChargeBatchOutcome> {
  const captures = new Map<string, { index: number; event: ChargeEventInput }>();
  /** Charges with an event that takes the path of one event: every later event of theirs takes it too. */
  const alone = new Set<string>();
  const oneByOne: Array<{ index: number; event: ChargeEventInput }> = [];
  events.forEach((event, index) => {
    const { data } = event;
    if (!bookingOf(data)) return;
    const key = keyOf(event.clientId, data.id);
    if (alone.has(key) || !isPlain(data) || !isUuid(event.clientId) || !isUuid(data.id)) {
      alone.add(key);
      oneByOne.push({ index, event });
    } else if (data.capturedAmount > 0 && !captures.has(key)) {
      captures.set(key, { index, event });
    }
  });

  const booked = await bookCaptures(deps, tx, [...captures.values()], oneByOne);
  oneByOne.sort((a, b) => a.index - b.index);
  for (const { event } of oneByOne) await applyChargeEvent(deps, tx, event.clientId, event.data, event.occurredAt);
  return { booked, oneByOne: oneByOne.length };
}

/**
 * Books the first captures of charges in two statements: the plans of their receivers, then the charges with their
 * receivables and postings. A capture whose receivables cannot be built here (a split to a seller id that is not a
 * UUID, amounts the domain refuses) is left to `oneByOne`, which applies it as before (and fails it the same way).
 */
async function bookCaptures(deps: PayoutsDeps, tx: Queryable, captures: ReadonlyArray<{ index: number; event: ChargeEventInput }>, oneByOne: Array<{ index: number; event: ChargeEventInput }>): Promise<number> {
  if (captures.length === 0) return 0;
  const clientIds = [...new Set(captures.map((c) => c.event.clientId.toLowerCase()))];
  const sellers = new Map<string, { clientId: string; sellerId: string }>();
  for (const { event } of captures) {
    for (const rule of splitRulesOf(event.data)) {
      if (isUuid(rule.sellerId)) sellers.set(sellerPlanKey(event.clientId.toLowerCase(), rule.sellerId), { clientId: event.clientId.toLowerCase(), sellerId: rule.sellerId });
    }
  }
  const { defaults, own } = await deps.planStore.plansOfReceivers(tx, clientIds, [...sellers.values()]);
  // A client's first charge: its default plan is made now (as `planOfReceiver` does), once per client.
  for (const clientId of clientIds) {
    if (!defaults.has(clientId)) defaults.set(clientId, await defaultPlanOf(deps, tx, clientId, deps.clock.now()));
  }

  const booked: BookedCapture[] = [];
  for (const entry of captures) {
    const { clientId, data, occurredAt } = entry.event;
    const client = clientId.toLowerCase();
    const booking = bookingOf(data)!;
    const splitRules = splitRulesOf(data);
    if (splitRules.some((r) => !isUuid(r.sellerId))) {
      oneByOne.push(entry);
      continue;
    }
    const planOf = (receiver: string | null): Plan => (receiver === null ? undefined : own.get(sellerPlanKey(client, receiver))) ?? defaults.get(client)!;
    try {
      const receivables = captureReceivables(deps, clientId, data, booking, splitRules, planOf, occurredAt);
      const posting = capturePosting(data.id, receivables);
      booked.push({ clientId, chargeId: data.id, paymentType: booking.paymentType, installments: booking.installments, capturedAmount: data.capturedAmount, receivables, posting, at: occurredAt });
    } catch {
      oneByOne.push(entry);
    }
  }
  await deps.ledgerStore.bookCaptures(tx, booked);
  return booked.length;
}
