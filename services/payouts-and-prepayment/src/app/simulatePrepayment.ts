import { randomUUID } from 'node:crypto';
import { jsonCodec, requireClientId, withIdempotency } from '@platform/kit';
import { simulatePrepayment, type Prepayment } from '../domain/prepayment';
import { PREPAYMENT_EVENTS, recordPrepaymentEvent } from '../events/payoutEvents';
import type { PayoutsDeps } from './deps';
import { planOfReceiver } from './planOfReceiver';
import { eligible, receiverOf, requireEnabled } from './prepaymentAccess';

export const SIMULATE_OPERATION = 'payouts.prepayments.simulate';

const prepaymentCodec = jsonCodec<Prepayment>();

/** A simulation: the receivables of the dates asked, each with its fee, payable on the payment date if committed in time. */
export async function simulate(
  deps: PayoutsDeps,
  input: { clientId: string; sellerId?: string; endDate?: string; dates?: string[] },
  idempotencyKey?: string,
): Promise<Prepayment> {
  const clientId = requireClientId(input.clientId);
  await requireEnabled(deps, clientId);
  const now = deps.clock.now();
  const idempotency = { clientId, key: idempotencyKey, operation: SIMULATE_OPERATION, request: input, codec: prepaymentCodec };
  const prepayment = await withIdempotency(deps.pool, idempotency, async (tx) => {
    const receiver = await receiverOf(deps, tx, clientId, input.sellerId);
    const plan = await planOfReceiver(deps, tx, clientId, receiver, now);
    const result = simulatePrepayment({
      now,
      calendar: deps.calendar,
      monthlyRate: plan.prepaymentMonthlyRate,
      receivables: await eligible(deps, tx, clientId, receiver),
      ...(input.endDate ? { endDate: input.endDate } : {}),
      ...(input.dates && input.dates.length > 0 ? { dates: input.dates } : {}),
    });
    const created: Prepayment = {
      id: randomUUID(),
      clientId,
      receiver,
      status: 'pending',
      grossAmount: result.grossAmount,
      feeAmount: result.feeAmount,
      netAmount: result.netAmount,
      monthlyRate: plan.prepaymentMonthlyRate,
      paymentDate: result.paymentDate,
      expiresAt: result.expiresAt,
      items: result.items.map((i) => ({ ...i })),
      createdAt: now,
      committedAt: null,
    };
    await deps.prepaymentStore.insert(tx, created);
    await recordPrepaymentEvent(tx, PREPAYMENT_EVENTS.created, created, now);
    return created;
  });
  deps.outbox?.kick();
  return prepayment;
}
