import { randomUUID } from 'node:crypto';
import { withTransaction } from '@platform/kit';
import { applyChargeEvent, type ChargeEventData } from '../../src/app/applyChargeEvent';
import { applySellerEvent } from '../../src/app/applySellerEvent';
import { payBatch } from '../../src/app/payBatch';
import { startPayouts, type RunningPayouts } from '../support';

let running: RunningPayouts;

beforeAll(async () => {
  // Monday 2 March 2026, 10:00 in Brasília: a commit now is paid on Tuesday 3 March.
  running = await startPayouts({ now: new Date('2026-03-02T13:00:00.000Z') });
});

afterAll(async () => {
  await running.stop();
});

async function sellerWithCharge(clientId: string, chargeId = randomUUID()): Promise<string> {
  const seller = randomUUID();
  await withTransaction(running.pool, (tx) => applySellerEvent(running.deps, tx, clientId, { id: seller, status: 'active', planId: null }, running.clock.now()));
  const charge: ChargeEventData = {
    id: chargeId,
    status: 'authorized',
    amount: 10_000,
    capturedAmount: 10_000,
    refundedAmount: 0,
    providerType: 'SANDBOX',
    paymentMethod: { paymentType: 'credit', installments: 3 },
    splitRules: [{ sellerId: seller, percentage: 10_000 }],
  };
  await withTransaction(running.pool, (tx) => applyChargeEvent(running.deps, tx, clientId, charge, running.clock.now()));
  return seller;
}

async function batchEvents(clientId: string): Promise<Array<{ subject: string; batchId: string; status: string }>> {
  const { rows } = await running.pool.query<{ subject: string; payload: { clientId: string; data: { id: string; status: string } } }>(
    "SELECT subject, payload FROM outbox WHERE subject LIKE 'payouts.payment_batch.%' ORDER BY seq",
  );
  return rows.filter((r) => r.payload.clientId === clientId).map((r) => ({ subject: r.subject, batchId: r.payload.data.id, status: r.payload.data.status }));
}

async function unbalancedPostings(clientId: string): Promise<unknown[]> {
  const { rows } = await running.pool.query('SELECT posting_id FROM ledger_entries WHERE client_id = $1 GROUP BY posting_id HAVING SUM(amount) <> 0', [clientId]);
  return rows;
}

async function accountBalance(clientId: string, account: string): Promise<number> {
  const { rows } = await running.pool.query<{ total: string | null }>('SELECT -SUM(amount) AS total FROM ledger_entries WHERE client_id = $1 AND account = $2', [clientId, account]);
  return Number(rows[0]?.total ?? 0);
}

describe('a prepayment commit', () => {
  it('takes the committed receivables out of the future balance and shows a pending batch at once, which the settlement of its date pays', async () => {
    const clientId = randomUUID();
    running.settings.enabled.add(clientId);
    const seller = await sellerWithCharge(clientId);
    const before = await running.client.getBalance({ clientId, sellerId: seller });
    expect(before.available).toBe(0);
    expect(before.receivable).toBeGreaterThan(0);

    const simulation = await running.client.simulatePrepayment({ clientId, sellerId: seller, endDate: '2026-12-31', dates: [] });
    expect(simulation.grossAmount).toBe(before.receivable);
    await running.client.commitPrepayment({ clientId, id: simulation.id });

    // Neither future receivable nor available yet: the net is in a pending batch, the fee went to the platform.
    expect(await running.client.getBalance({ clientId, sellerId: seller })).toEqual({ available: 0, receivable: before.receivable - simulation.grossAmount });
    const listed = await running.client.listPaymentBatches({ clientId, sellerId: seller, status: [] });
    expect(listed.items.map((b) => ({ sellerId: b.sellerId, status: b.status, amount: b.amount, paymentDate: b.paymentDate }))).toEqual([
      { sellerId: seller, status: 'pending', amount: simulation.netAmount, paymentDate: '2026-03-03' },
    ]);
    const batchId = listed.items[0]!.id;
    const orders = await running.client.listOrders({ clientId, paymentBatchId: batchId });
    expect(orders.items).toHaveLength(simulation.items.length);
    expect(orders.items.reduce((s, o) => s + o.amount, 0)).toBe(simulation.netAmount);
    expect(orders.items.every((o) => o.type === 'authorization' && o.paymentScheduledAt === '2026-03-03')).toBe(true);
    expect(await batchEvents(clientId)).toEqual([{ subject: 'payouts.payment_batch.created', batchId, status: 'pending' }]);
    expect(await unbalancedPostings(clientId)).toEqual([]);

    // Nothing pays it before its date, not even a job of the seller's release.
    expect((await payBatch(running.deps, clientId, batchId)).status).toBe('pending');
    expect((await running.client.advanceSettlement({ clientId, date: '2026-03-02' })).batches).toEqual([]);
    expect((await running.client.getPaymentBatch({ clientId, id: batchId })).status).toBe('pending');

    // The settlement of the payment date pays that same batch: no second one.
    const { batches } = await running.client.advanceSettlement({ clientId, date: '2026-03-03' });
    expect(batches.map((b) => [b.id, b.amount, b.status])).toEqual([[batchId, simulation.netAmount, 'paid']]);
    const after = await running.client.listPaymentBatches({ clientId, sellerId: seller, status: [] });
    expect(after.items.map((b) => [b.id, b.status])).toEqual([[batchId, 'paid']]);
    expect(await running.client.getBalance({ clientId, sellerId: seller })).toEqual({ available: 0, receivable: 0 });
    expect(await batchEvents(clientId)).toEqual([
      { subject: 'payouts.payment_batch.created', batchId, status: 'pending' },
      { subject: 'payouts.payment_batch.paid', batchId, status: 'paid' },
    ]);
    expect(await unbalancedPostings(clientId)).toEqual([]);
    expect(await accountBalance(clientId, 'bank:transfers')).toBe(simulation.netAmount);
    expect(await accountBalance(clientId, 'platform:prepayment_fees')).toBe(simulation.feeAmount);
    // Run again for the same date, nothing more is paid.
    expect((await running.client.advanceSettlement({ clientId, date: '2026-03-03' })).batches).toEqual([]);
  });

  it('takes a refund that found every receivable prepaid from the prepayment batch of its date', async () => {
    const clientId = randomUUID();
    running.settings.enabled.add(clientId);
    const chargeId = randomUUID();
    const seller = await sellerWithCharge(clientId, chargeId);
    const simulation = await running.client.simulatePrepayment({ clientId, sellerId: seller, endDate: '2026-12-31', dates: [] });
    await running.client.commitPrepayment({ clientId, id: simulation.id });
    const refund: ChargeEventData = {
      id: chargeId,
      status: 'authorized',
      amount: 10_000,
      capturedAmount: 10_000,
      refundedAmount: 1_000,
      providerType: 'SANDBOX',
      paymentMethod: { paymentType: 'credit', installments: 3 },
      splitRules: [{ sellerId: seller, percentage: 10_000 }],
    };
    await withTransaction(running.pool, (tx) => applyChargeEvent(running.deps, tx, clientId, refund, running.clock.now()));
    expect(await running.client.getBalance({ clientId, sellerId: seller })).toEqual({ available: -1_000, receivable: 0 });

    const { batches } = await running.client.advanceSettlement({ clientId, date: simulation.paymentDate });
    expect(batches.map((b) => [b.amount, b.refundAmount, b.status])).toEqual([[simulation.netAmount - 1_000, 1_000, 'paid']]);
    const orders = await running.client.listOrders({ clientId, paymentBatchId: batches[0]!.id });
    expect(orders.items.reduce((s, o) => s + o.amount, 0)).toBe(simulation.netAmount - 1_000);
    expect((await running.client.listPaymentBatches({ clientId, sellerId: seller, status: [] })).items).toHaveLength(1);
    expect(await running.client.getBalance({ clientId, sellerId: seller })).toEqual({ available: 0, receivable: 0 });
    expect(await unbalancedPostings(clientId)).toEqual([]);
  });

  it('takes out only the receivables it committed: the others stay future receivables and settle in batches of their own', async () => {
    const clientId = randomUUID();
    running.settings.enabled.add(clientId);
    const seller = await sellerWithCharge(clientId);
    const offered = await running.client.listPrepaymentReceivables({ clientId, sellerId: seller });
    const [first, ...rest] = offered.receivables;
    const before = await running.client.getBalance({ clientId, sellerId: seller });
    const simulation = await running.client.simulatePrepayment({ clientId, sellerId: seller, dates: [first!.settlementDate] });
    expect(simulation.items.map((i) => i.receivableId)).toEqual([first!.id]);
    await running.client.commitPrepayment({ clientId, id: simulation.id });
    expect(await running.client.getBalance({ clientId, sellerId: seller })).toEqual({ available: 0, receivable: before.receivable - first!.amount });
    expect((await running.client.listPaymentBatches({ clientId, sellerId: seller, status: ['pending'] })).items.map((b) => b.amount)).toEqual([simulation.netAmount]);

    await running.client.advanceSettlement({ clientId, date: simulation.paymentDate });
    const last = rest[rest.length - 1]!;
    const { batches } = await running.client.advanceSettlement({ clientId, date: last.settlementDate });
    expect(batches.map((b) => [b.amount, b.status])).toEqual([[rest.reduce((s, r) => s + r.amount, 0), 'paid']]);
    const all = await running.client.listPaymentBatches({ clientId, sellerId: seller, status: [] });
    expect(all.items.map((b) => b.status)).toEqual(['paid', 'paid']);
    expect(await running.client.getBalance({ clientId, sellerId: seller })).toEqual({ available: 0, receivable: 0 });
    expect(await accountBalance(clientId, 'bank:transfers')).toBe(simulation.netAmount + rest.reduce((s, r) => s + r.amount, 0));
    expect(await unbalancedPostings(clientId)).toEqual([]);
  });
});
