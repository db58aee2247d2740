import { toChargeJson, type ChargeJson } from '@platform/api-model';
import { enqueueEvent, outboxRow, type Queryable } from '@platform/kit';
import type { Charge } from '../domain/charge';
import { toChargeMessage } from '../wire/chargeMessages';

/** `payments.charge.<status>`: the subject names the status the charge has after the change. */
export function chargeEventType(charge: Pick<Charge, 'status'>): string {
  return `payments.charge.${charge.status}`;
}

/** The charge as the REST API shows it: the same mapper makes the answer and the event's data. */
export function chargeEventData(charge: Charge): ChargeJson {
  return toChargeJson(toChargeMessage(charge));
}

/** Writes the event in the transaction of the change, with the whole charge as it is after the change. */
export async function recordChargeEvent(tx: Queryable, charge: Charge, occurredAt: Date): Promise<void> {
  await enqueueEvent(tx, { type: chargeEventType(charge), clientId: charge.clientId, data: chargeEventData(charge), occurredAt });
}

/** The event of recordChargeEvent as an outbox row, for a statement that writes it with the charge (ChargeStore.insertAnswered). */
export function chargeEventRow(charge: Charge, occurredAt: Date): ReturnType<typeof outboxRow> {
  return outboxRow({ type: chargeEventType(charge), clientId: charge.clientId, data: chargeEventData(charge), occurredAt });
}
