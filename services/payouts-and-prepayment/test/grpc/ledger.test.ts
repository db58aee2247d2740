import { randomUUID } from 'node:crypto';
import { withTransaction } from '@platform/kit';
import { applyChargeEvent, type ChargeEventData } from '../../src/app/applyChargeEvent';
import { applySellerEvent } from '../../src/app/applySellerEvent';
import { failureOf, startPayouts, type RunningPayouts } from '../support';

let running: RunningPayouts;

beforeAll(async () => {
  // Monday 2 March 2026, 10:00 in Brasília.
  running = await startPayouts({ now: new Date('2026-03-02T13:00:00.000Z') });
});

afterAll(async () => {
  await running.stop();
});

const chargeEvent = (id: string, overrides: Partial<ChargeEventData> = {}): ChargeEventData => ({
  id,
  status: 'authorized',
  amount: 10_000,
  capturedAmount: 10_000,
  refundedAmount: 0,
  providerType: 'SANDBOX',
  paymentMethod: { paymentType: 'credit', installments: 3 },
  splitRules: [],
  ...overrides,
});

async function deliver(clientId: string, data: ChargeEventData): Promise<void> {
  await withTransaction(running.pool, (tx) => applyChargeEvent(running.deps, tx, clientId, data, running.clock.now()));
}

async function newSeller(clientId: string, status = 'active'): Promise<string> {
  const id = randomUUID();
  await withTransaction(running.pool, (tx) => applySellerEvent(running.deps, tx, clientId, { id, status, planId: null }, running.clock.now()));
  return id;
}

async function receivablesOf(clientId: string, chargeId: string) {
  const { rows } = await running.pool.query<{ receiver_id: string | null; installment: number; gross: string; fee: string; net: string; settlement_date: string; status: string }>(
    `SELECT receiver_id, installment, gross, fee, net, to_char(settlement_date, 'YYYY-MM-DD') AS settlement_date, status FROM receivables
     WHERE client_id = $1 AND charge_id = $2 ORDER BY receiver_id, installment`,
    [clientId, chargeId],
  );
  return rows.map((r) => ({ receiver: r.receiver_id, installment: r.installment, gross: Number(r.gross), fee: Number(r.fee), net: Number(r.net), date: r.settlement_date, status: r.status }));
}

/** Every posting of the client adds up to zero, and every account's balance is the sum of its entries. */
async function expectLedgerBalanced(clientId: string): Promise<void> {
  const { rows } = await running.pool.query<{ posting_id: string; total: string }>(
    'SELECT posting_id, SUM(amount) AS total FROM ledger_entries WHERE client_id = $1 GROUP BY posting_id HAVING SUM(amount) <> 0',
    [clientId],
  );
  expect(rows).toEqual([]);
}

describe('the split ledger: the worked example of a 10,000 credit charge in 3 installments split 7,000/3,000', () => {
  const clientId = randomUUID();
  const chargeId = randomUUID();
  let alice: string;
  let bob: string;

  it('makes one receivable per seller per installment with the plan fee, adding up to the charge', async () => {
    alice = await newSeller(clientId);
    bob = await newSeller(clientId);
    const event = chargeEvent(chargeId, {
      splitRules: [
        { sellerId: alice, amount: 7_000 },
        { sellerId: bob, amount: 3_000 },
      ],
    });
    await deliver(clientId, event);
    await deliver(clientId, event); // a repeated event changes nothing
    const byReceiver = (receiver: string) => receivablesOf(clientId, chargeId).then((all) => all.filter((r) => r.receiver === receiver));
    // Default plan: credit 2–6 installments 3.49 %. Alice: 7,000 → fee 244; Bob: 3,000 → fee 104. Leftovers on installment 1.
    expect(await byReceiver(alice)).toEqual([
      { receiver: alice, installment: 1, gross: 2334, fee: 82, net: 2252, date: '2026-04-01', status: 'pending' },
      { receiver: alice, installment: 2, gross: 2333, fee: 81, net: 2252, date: '2026-05-04', status: 'pending' },
      { receiver: alice, installment: 3, gross: 2333, fee: 81, net: 2252, date: '2026-06-01', status: 'pending' },
    ]);
    expect(await byReceiver(bob)).toEqual([
      { receiver: bob, installment: 1, gross: 1000, fee: 36, net: 964, date: '2026-04-01', status: 'pending' },
      { receiver: bob, installment: 2, gross: 1000, fee: 34, net: 966, date: '2026-05-04', status: 'pending' },
      { receiver: bob, installment: 3, gross: 1000, fee: 34, net: 966, date: '2026-06-01', status: 'pending' },
    ]);
    const all = await receivablesOf(clientId, chargeId);
    expect(all.reduce((s, r) => s + r.gross, 0)).toBe(10_000);
    expect(await running.client.getBalance({ clientId, sellerId: alice })).toEqual({ available: 0, receivable: 6756 });
    expect(await running.client.getBalance({ clientId, sellerId: bob })).toEqual({ available: 0, receivable: 2896 });
    await expectLedgerBalanced(clientId);
  });

  it('settles on the first settlement date: each seller gets a paid batch whose orders add up to it', async () => {
    const before = await running.client.advanceSettlement({ clientId, date: '2026-03-31' });
    expect(before.batches).toEqual([]);
    const { batches } = await running.client.advanceSettlement({ clientId, date: '2026-04-01' });
    expect(batches.map((b) => [b.sellerId, b.amount, b.feeAmount, b.status]).sort()).toEqual(
      [
        [alice, 2252, 82, 'paid'],
        [bob, 964, 36, 'paid'],
      ].sort(),
    );
    for (const batch of batches) {
      const orders = await running.client.listOrders({ clientId, paymentBatchId: batch.id });
      expect(orders.items.reduce((s, o) => s + o.amount, 0)).toBe(batch.amount);
      expect(orders.items.map((o) => [o.installment, o.type, o.paymentScheduledAt])).toEqual([[1, 'authorization', '2026-04-01']]);
    }
    // Paid out: nothing available, the other installments to receive.
    expect(await running.client.getBalance({ clientId, sellerId: alice })).toEqual({ available: 0, receivable: 4504 });
    // Run again for the same day: nothing more.
    expect((await running.client.advanceSettlement({ clientId, date: '2026-04-01' })).batches).toEqual([]);
    await expectLedgerBalanced(clientId);
  });

  it('takes a partial refund from the future receivables, the last installment first, shared 7:3', async () => {
    await deliver(clientId, chargeEvent(chargeId, { refundedAmount: 1_000 }));
    await deliver(clientId, chargeEvent(chargeId, { refundedAmount: 1_000 })); // once
    const balanceAlice = await running.client.getBalance({ clientId, sellerId: alice });
    const balanceBob = await running.client.getBalance({ clientId, sellerId: bob });
    // Alice gives back 700 of gross from installment 3 (gross 2333, fee 81): fee ⌊81 × 700 / 2333⌋ = 24, net 676.
    // Bob gives back 300 from his installment 3 (gross 1000, fee 34): fee ⌊34 × 300 / 1000⌋ = 10, net 290.
    expect(balanceAlice).toEqual({ available: 0, receivable: 4504 - 676 });
    expect(balanceBob).toEqual({ available: 0, receivable: 1932 - 290 });
    const third = (await receivablesOf(clientId, chargeId)).filter((r) => r.installment === 3);
    expect(third.map((r) => r.status)).toEqual(['pending', 'pending']);
    const { rows } = await running.pool.query<{ reference: string }>("SELECT reference FROM postings WHERE client_id = $1 AND kind = 'refund'", [clientId]);
    expect(rows.map((r) => r.reference)).toEqual([`refund:${chargeId}:1000`]);
    await expectLedgerBalanced(clientId);
  });

  it('refuses to change or remove a ledger entry', async () => {
    expect(String(await running.pool.query('UPDATE ledger_entries SET amount = amount + 1 WHERE client_id = $1', [clientId]).catch((e: Error) => e.message))).toContain('append-only');
    expect(String(await running.pool.query('DELETE FROM ledger_entries WHERE client_id = $1', [clientId]).catch((e: Error) => e.message))).toContain('append-only');
  });

  it('refuses a posting that does not balance, when its transaction commits', async () => {
    const failure = await withTransaction(running.pool, async (tx) => {
      const postingId = randomUUID();
      await tx.query("INSERT INTO postings (id, client_id, kind, reference, created_at) VALUES ($1, $2, 'capture', $3, now())", [postingId, clientId, `bad:${postingId}`]);
      await tx.query("INSERT INTO ledger_entries (posting_id, client_id, account, amount, created_at) VALUES ($1, $2, 'acquirer:clearing', 5, now())", [postingId, clientId]);
    }).catch((e: Error) => e.message);
    expect(String(failure)).toContain('does not balance');
  });
});

describe('prepayment', () => {
  const clientId = randomUUID();
  let seller: string;

  beforeAll(async () => {
    seller = await newSeller(clientId);
    await deliver(clientId, chargeEvent(randomUUID(), { splitRules: [{ sellerId: seller, percentage: 10_000 }] }));
  });

  it('answers I-403 to a client not enabled', async () => {
    expect(await failureOf(running.client.listPrepaymentReceivables({ clientId, sellerId: seller }))).toMatchObject({ kind: 'forbidden', businessCode: 'I-403' });
  });

  it('simulates and commits before the cutoff; a second commit over the same receivables answers 422', async () => {
    running.settings.enabled.add(clientId);
    const listed = await running.client.listPrepaymentReceivables({ clientId, sellerId: seller });
    expect(listed.receivableCount).toBe(3);
    expect(listed.availableAmount).toBe(listed.receivables.reduce((s, r) => s + r.amount, 0));
    const first = await running.client.simulatePrepayment({ clientId, sellerId: seller, endDate: '2026-12-31', dates: [] });
    const second = await running.client.simulatePrepayment({ clientId, sellerId: seller, endDate: '2026-12-31', dates: [] });
    // Monday 10:00 Brasília: paid the next business day; the simulation holds until 10:30.
    expect(first).toMatchObject({ status: 'pending', paymentDate: '2026-03-03', monthlyRate: 199, expiresAt: new Date('2026-03-02T13:30:00.000Z') });
    expect(first.items).toHaveLength(3);
    expect(first.grossAmount).toBe(first.items.reduce((s, i) => s + i.amount, 0));
    expect(first.feeAmount).toBe(first.items.reduce((s, i) => s + i.feeAmount, 0));
    expect(first.netAmount).toBe(first.grossAmount - first.feeAmount);
    const committed = await running.client.commitPrepayment({ clientId, id: first.id });
    expect(committed.status).toBe('committed');
    expect((await running.client.commitPrepayment({ clientId, id: first.id })).status).toBe('committed');
    expect(await failureOf(running.client.commitPrepayment({ clientId, id: second.id }))).toMatchObject({ businessCode: 'receivables_unavailable' });
    expect((await running.client.listPrepaymentReceivables({ clientId, sellerId: seller })).receivableCount).toBe(0);
    // Paid on the payment date, less the prepayment fee.
    const { batches } = await running.client.advanceSettlement({ clientId, date: '2026-03-03' });
    expect(batches.map((b) => [b.sellerId, b.amount, b.status])).toEqual([[seller, first.netAmount, 'paid']]);
  });

  it('refuses a commit after the simulation expired', async () => {
    const other = await newSeller(clientId);
    await deliver(clientId, chargeEvent(randomUUID(), { splitRules: [{ sellerId: other, percentage: 10_000 }] }));
    const simulation = await running.client.simulatePrepayment({ clientId, sellerId: other, endDate: '2026-12-31', dates: [] });
    running.clock.advance(31 * 60_000);
    expect(await failureOf(running.client.commitPrepayment({ clientId, id: simulation.id }))).toMatchObject({ businessCode: 'prepayment_simulation_expired' });
    expect((await running.client.getPrepayment({ clientId, id: simulation.id })).status).toBe('expired');
  });

  it('answers a simulation asked again with the same X-Idempotency-Key with the same one, stored once', async () => {
    const other = await newSeller(clientId);
    await deliver(clientId, chargeEvent(randomUUID(), { splitRules: [{ sellerId: other, percentage: 10_000 }] }));
    const idempotencyKey = randomUUID();
    const request = { clientId, sellerId: other, endDate: '2026-12-31', dates: [] };
    const first = await running.client.simulatePrepayment(request, { idempotencyKey });
    expect(await running.client.simulatePrepayment(request, { idempotencyKey })).toEqual(first);
    expect(await failureOf(running.client.simulatePrepayment({ ...request, endDate: '2026-11-30' }, { idempotencyKey }))).toMatchObject({
      businessCode: 'idempotency_key_reused',
    });
    const { rows } = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM prepayments WHERE client_id = $1 AND receiver_id = $2', [clientId, other]);
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses a blocked seller', async () => {
    const blocked = await newSeller(clientId, 'blocked');
    expect(await failureOf(running.client.simulatePrepayment({ clientId, sellerId: blocked, endDate: '2026-12-31', dates: [] }))).toMatchObject({ businessCode: 'seller_blocked' });
  });
});
