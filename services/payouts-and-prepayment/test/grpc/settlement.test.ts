import { randomUUID } from 'node:crypto';
import { listJobs, withTransaction } from '@platform/kit';
import { JOBS } from '../../src/app/deps';
import { applyChargeEvent, type ChargeEventData } from '../../src/app/applyChargeEvent';
import { applySellerEvent } from '../../src/app/applySellerEvent';
import { payBatch } from '../../src/app/payBatch';
import { startPayouts, type RunningPayouts } from '../support';

let running: RunningPayouts;

beforeAll(async () => {
  // Friday 27 November 2026, 10:00 in Brasília.
  running = await startPayouts({ now: new Date('2026-11-27T13:00:00.000Z') });
});

afterAll(async () => {
  await running.stop();
});

const pix = (id: string, amount: number, splitRules: ChargeEventData['splitRules'] = []): ChargeEventData => ({
  id,
  status: 'authorized',
  amount,
  capturedAmount: amount,
  refundedAmount: 0,
  providerType: 'SANDBOX',
  paymentMethod: { paymentType: 'pix' },
  splitRules,
});

/**
 * The pay-batch job scheduled for a batch (the runner holds it until its time; this clock runs ahead of the
 * database's, so the test hands it to the job's handler, as the runner would).
 */
async function payJobOf(batchId: string) {
  const jobs = (await listJobs(running.pool, JOBS.payBatch)).filter((j) => j.payload.batchId === batchId);
  expect(jobs).toHaveLength(1);
  return jobs[0]!;
}

const deliver = (clientId: string, data: ChargeEventData) => withTransaction(running.pool, (tx) => applyChargeEvent(running.deps, tx, clientId, data, running.clock.now()));
const seller = (clientId: string, id: string, status: string) =>
  withTransaction(running.pool, (tx) => applySellerEvent(running.deps, tx, clientId, { id, status, planId: null }, running.clock.now()));

describe('settlement', () => {
  it("keeps a blocked seller's batch pending, and pays it once the seller is active again", async () => {
    const clientId = randomUUID();
    const sellerId = randomUUID();
    await seller(clientId, sellerId, 'active');
    // Pix on the default plan: 0.99 %; settles D+1 on a business day (Friday → Monday 30 November).
    await deliver(clientId, pix(randomUUID(), 10_000, [{ sellerId, percentage: 10_000 }]));
    await seller(clientId, sellerId, 'blocked');
    const { batches } = await running.client.advanceSettlement({ clientId, date: '2026-11-30' });
    expect(batches.map((b) => [b.sellerId, b.amount, b.status])).toEqual([[sellerId, 9_901, 'pending']]);
    expect(await running.client.getBalance({ clientId, sellerId })).toEqual({ available: 9_901, receivable: 0 });
    expect(await listJobs(running.pool, JOBS.payBatch)).toEqual([]);
    await seller(clientId, sellerId, 'active');
    const job = await payJobOf(batches[0]!.id);
    expect(job).toMatchObject({ runAt: running.clock.now(), payload: { clientId, batchId: batches[0]!.id } });
    await payBatch(running.deps, clientId, batches[0]!.id);
    expect(await running.client.getPaymentBatch({ clientId, id: batches[0]!.id })).toMatchObject({ amount: 9_901, status: 'paid', finalBalance: 0 });
    expect(await running.client.getBalance({ clientId, sellerId })).toEqual({ available: 0, receivable: 0 });
  });

  it('retries a failed transfer the next business day, and pays it then', async () => {
    const clientId = randomUUID();
    // 2,010 by Pix to the main account: fee ⌊2010 × 0.99 %⌋ = 19, net 1,991, an amount whose first SANDBOX transfer fails.
    await deliver(clientId, pix(randomUUID(), 2_010));
    const { batches } = await running.client.advanceSettlement({ clientId, date: '2026-11-30' });
    expect(batches.map((b) => [b.sellerId, b.amount, b.status, b.paymentDate])).toEqual([['', 1_991, 'failed', '2026-12-01']]);
    // The retry is a durable job at 06:00 Brasília of the next business day.
    const job = await payJobOf(batches[0]!.id);
    expect(job).toMatchObject({ runAt: new Date('2026-12-01T09:00:00.000Z'), payload: { clientId, batchId: batches[0]!.id } });
    await payBatch(running.deps, clientId, batches[0]!.id);
    expect(await running.client.getPaymentBatch({ clientId, id: batches[0]!.id })).toMatchObject({ amount: 1_991, status: 'paid', paymentDate: '2026-12-01' });
    const { rows } = await running.pool.query<{ attempts: number }>('SELECT attempts FROM payment_batches WHERE id = $1', [batches[0]!.id]);
    expect(rows[0]!.attempts).toBe(2);
  });

  it('pays a failed transfer when the sandbox advances to its retry date, once', async () => {
    const clientId = randomUUID();
    // Days years ahead of the wall clock: the retry's durable job (due on the retry date, by the database's clock)
    // must not run before the sandbox advances to that date.
    await deliver(clientId, pix(randomUUID(), 2_010));
    const { batches } = await running.client.advanceSettlement({ clientId, date: '2037-11-30' });
    expect(batches.map((b) => [b.amount, b.status, b.paymentDate])).toEqual([[1_991, 'failed', '2037-12-01']]);
    // Not due again yet on the same day.
    expect((await running.client.advanceSettlement({ clientId, date: '2037-11-30' })).batches).toEqual([]);
    const retried = await running.client.advanceSettlement({ clientId, date: '2037-12-01' });
    expect(retried.batches.map((b) => [b.id, b.status])).toEqual([[batches[0]!.id, 'paid']]);
    expect((await running.client.advanceSettlement({ clientId, date: '2037-12-05' })).batches).toEqual([]);
    // Its durable job, when it runs on the day, finds it paid and transfers nothing again.
    await payBatch(running.deps, clientId, batches[0]!.id);
    const { rows } = await running.pool.query<{ attempts: number; status: string }>('SELECT attempts, status FROM payment_batches WHERE id = $1', [batches[0]!.id]);
    expect(rows[0]).toEqual({ attempts: 2, status: 'paid' });
  });

  it('moves a debit to the next batch when a refund finds nothing left to offset', async () => {
    const clientId = randomUUID();
    const chargeId = randomUUID();
    await deliver(clientId, pix(chargeId, 10_000));
    await running.client.advanceSettlement({ clientId, date: '2026-11-30' });
    await deliver(clientId, { ...pix(chargeId, 10_000), refundedAmount: 4_000, status: 'authorized' });
    // Nothing in the future: the receiver owes 4,000, an order of its next batch, which is fully offset.
    const { batches } = await running.client.advanceSettlement({ clientId, date: '2026-12-01' });
    expect(batches.map((b) => [b.amount, b.refundAmount, b.status])).toEqual([[-4_000, 4_000, 'offset']]);
    const orders = await running.client.listOrders({ clientId, paymentBatchId: batches[0]!.id });
    expect(orders.items.map((o) => [o.type, o.amount])).toEqual([['void', -4_000]]);
    expect(await running.client.getBalance({ clientId })).toEqual({ available: -4_000, receivable: 0 });
  });
});

describe('the daily settlement schedule', () => {
  it('is not kept when PAYOUTS_SETTLEMENT_CRON is off, as in these tests: the wall clock never settles a day behind them', async () => {
    // Every started JobRunner has created graphile-worker's tables; a schedule it keeps is listed here once known.
    const { rows } = await running.pool.query<{ identifier: string }>('SELECT identifier FROM graphile_worker._private_known_crontabs');
    expect(rows.map((r) => r.identifier)).not.toContain(JOBS.settleDaily);
  });
});

describe('the prepayment cutoff on the service clock', () => {
  it('pays on the next business day before 15:00 Brasília, and the one after from 15:00, on a Friday', async () => {
    const clientId = randomUUID();
    running.settings.enabled.add(clientId);
    await withTransaction(running.pool, (tx) =>
      applyChargeEvent(running.deps, tx, clientId, { ...pix(randomUUID(), 50_000), paymentMethod: { paymentType: 'credit', installments: 3 } }, running.clock.now()),
    );
    running.clock.set(new Date('2026-11-27T17:59:00.000Z')); // Friday 14:59
    const before = await running.client.simulatePrepayment({ clientId, endDate: '2027-12-31', dates: [] });
    expect(before).toMatchObject({ paymentDate: '2026-11-30', expiresAt: new Date('2026-11-27T18:00:00.000Z') });
    running.clock.set(new Date('2026-11-27T18:00:00.000Z')); // Friday 15:00
    const after = await running.client.simulatePrepayment({ clientId, endDate: '2027-12-31', dates: [] });
    expect(after).toMatchObject({ paymentDate: '2026-12-01', expiresAt: new Date('2026-11-27T18:30:00.000Z') });
    // The first simulation expired at 15:00; the second holds for its 30 minutes.
    expect((await running.client.getPrepayment({ clientId, id: before.id })).status).toBe('expired');
    expect((await running.client.commitPrepayment({ clientId, id: after.id })).status).toBe('committed');
  });
});
