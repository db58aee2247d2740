import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { withTransaction } from '@platform/kit';
import { applyChargeEvent, type ChargeEventData, type RefundRequestData } from '../../src/app/applyChargeEvent';
import { applySellerEvent } from '../../src/app/applySellerEvent';
import { DEFAULT_FEES, type PlanFee } from '../../src/domain/plan';
import { failureOf, startPayouts, type RunningPayouts } from '../support';

let running: RunningPayouts;

beforeAll(async () => {
  // Monday 2 March 2026, 10:00 in Brasília.
  running = await startPayouts({ now: new Date('2026-03-02T13:00:00.000Z') });
});

afterAll(async () => {
  await running.stop();
});

const fee = (paymentType: string, installmentsFrom: number, installmentsTo: number, percentage: number, fixedAmount = 0) => ({
  paymentType,
  installmentsFrom,
  installmentsTo,
  percentage,
  fixedAmount,
});
const others = [fee('debit', 1, 1, 199), fee('pix', 1, 1, 99), fee('boleto', 1, 1, 0, 349), fee('voucher', 1, 1, 499)];

const chargeEvent = (id: string, overrides: Partial<ChargeEventData> = {}): ChargeEventData => ({
  id,
  status: 'authorized',
  amount: 10_000,
  capturedAmount: 10_000,
  refundedAmount: 0,
  providerType: 'SANDBOX',
  paymentMethod: { paymentType: 'credit', installments: 3 },
  splitRules: [],
  transactionRequests: [],
  ...overrides,
});

const refundRequest = (amount: number, split: Array<[string, number]> = [], updatedAt = '2026-03-02T14:00:00.000Z'): RefundRequestData => ({
  id: randomUUID(),
  requestType: 'refund',
  requestStatus: 'success',
  amount,
  splitRules: split.map(([sellerId, value]) => ({ sellerId, amount: value })),
  updatedAt,
});

async function deliver(clientId: string, data: ChargeEventData): Promise<void> {
  await withTransaction(running.pool, (tx) => applyChargeEvent(running.deps, tx, clientId, data, running.clock.now()));
}

async function newSeller(clientId: string): Promise<string> {
  const id = randomUUID();
  await withTransaction(running.pool, (tx) => applySellerEvent(running.deps, tx, clientId, { id, status: 'active', planId: null }, running.clock.now()));
  return id;
}

async function feesOf(clientId: string, chargeId: string): Promise<{ gross: number; fee: number; count: number }> {
  const { rows } = await running.pool.query<{ gross: string; fee: string; count: number }>(
    'SELECT SUM(gross) AS gross, SUM(fee) AS fee, count(*)::int AS count FROM receivables WHERE client_id = $1 AND charge_id = $2',
    [clientId, chargeId],
  );
  return { gross: Number(rows[0]!.gross), fee: Number(rows[0]!.fee), count: rows[0]!.count };
}

/** The gross refunds took from a receiver: the gross part (net + fee) of the refund entries tagged with its receivables. */
async function refundedFrom(clientId: string, chargeId: string, receiver: string): Promise<number> {
  const { rows } = await running.pool.query<{ taken: string }>(
    `SELECT COALESCE(SUM(e.amount), 0) AS taken FROM ledger_entries e
     JOIN postings p ON p.id = e.posting_id
     JOIN receivables r ON r.id = e.receivable_id
     WHERE e.client_id = $1 AND r.charge_id = $2 AND r.receiver_id = $3 AND p.kind = 'refund'`,
    [clientId, chargeId, receiver],
  );
  const { rows: debits } = await running.pool.query<{ amount: string }>(
    'SELECT COALESCE(SUM(amount), 0) AS amount FROM receiver_debits WHERE client_id = $1 AND charge_id = $2 AND receiver_id = $3',
    [clientId, chargeId, receiver],
  );
  return Number(rows[0]!.taken) + Number(debits[0]!.amount);
}

async function expectLedgerBalanced(clientId: string): Promise<void> {
  const { rows } = await running.pool.query('SELECT posting_id FROM ledger_entries WHERE client_id = $1 GROUP BY posting_id HAVING SUM(amount) <> 0', [clientId]);
  expect(rows).toEqual([]);
}

describe('defect 1: credit charges of 13 to 24 installments pay the platform fee', () => {
  it('refuses a plan whose fees leave installment counts without a fee, naming the gap, when created or changed', async () => {
    const clientId = randomUUID();
    const short = await failureOf(running.client.createPlan({ clientId, name: 'Short', fees: [fee('credit', 1, 12, 399), ...others] }));
    expect(short).toMatchObject({ kind: 'validation' });
    expect(short.details).toEqual([{ field: 'fees', message: 'no fee covers credit in 13 to 24 installments' }]);
    expect((await running.client.listPlans({ clientId })).items.map((p) => p.name)).toEqual(['Default']);

    const plan = await running.client.createPlan({ clientId, name: 'Whole', fees: [fee('credit', 1, 24, 300), ...others] });
    const changed = await failureOf(running.client.updatePlan({ clientId, id: plan.id, replaceFees: true, fees: [fee('credit', 1, 6, 300), fee('credit', 10, 24, 300), ...others.slice(1)] }));
    expect(changed.details).toEqual([
      { field: 'fees', message: 'no fee covers credit in 7 to 9 installments' },
      { field: 'fees', message: 'no fee covers debit in 1 installment' },
    ]);
    expect((await running.client.getPlan({ clientId, id: plan.id })).fees.map((f) => [f.paymentType, f.installmentsFrom, f.installmentsTo])).toEqual([
      ['credit', 1, 24],
      ['debit', 1, 1],
      ['pix', 1, 1],
      ['boleto', 1, 1],
      ['voucher', 1, 1],
    ]);
  });

  it('takes the default plan fee from a 10,000 credit charge in 13 and in 24 installments (it was 0)', async () => {
    const clientId = randomUUID();
    const at12 = randomUUID();
    const at13 = randomUUID();
    const at24 = randomUUID();
    await deliver(clientId, chargeEvent(at12, { paymentMethod: { paymentType: 'credit', installments: 12 } }));
    await deliver(clientId, chargeEvent(at13, { paymentMethod: { paymentType: 'credit', installments: 13 } }));
    await deliver(clientId, chargeEvent(at24, { paymentMethod: { paymentType: 'credit', installments: 24 } }));
    expect(await feesOf(clientId, at12)).toEqual({ gross: 10_000, fee: 399, count: 12 });
    expect(await feesOf(clientId, at13)).toEqual({ gross: 10_000, fee: 449, count: 13 });
    expect(await feesOf(clientId, at24)).toEqual({ gross: 10_000, fee: 499, count: 24 });
    await expectLedgerBalanced(clientId);
  });

  it('gives a stored plan the default fee of each installment count it leaves uncovered (migration 002), and leaves whole plans alone', async () => {
    const clientId = randomUUID();
    const now = running.clock.now();
    const insert = async (name: string, fees: PlanFee[] | Array<Record<string, unknown>>, isDefault = false): Promise<string> => {
      const id = randomUUID();
      await running.pool.query(
        `INSERT INTO plans (id, client_id, name, is_default, fees, settlement_days, prepayment_monthly_rate, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, '{"credit":30,"debit":1,"pix":1,"boleto":1,"voucher":30}', 199, $6, $6)`,
        [id, clientId, name, isDefault, JSON.stringify(fees), now],
      );
      return id;
    };
    const oldDefault = await insert('Default', [
      fee('credit', 1, 1, 299),
      fee('credit', 2, 6, 349),
      fee('credit', 7, 12, 399),
      ...others,
    ], true);
    const custom = await insert('Custom', [fee('credit', 1, 6, 100), fee('credit', 16, 20, 150), fee('debit', 1, 1, 50)]);
    const whole = await insert('Whole', [fee('credit', 1, 24, 200), ...others]);
    const migration = readFileSync(path.join(__dirname, '..', '..', 'migrations', '002_plan_fee_coverage.sql'), 'utf8');
    await running.pool.query(migration);
    await running.pool.query(migration); // once is enough: a second run changes nothing

    const feesOfPlan = async (id: string) => (await running.client.getPlan({ clientId, id })).fees.map((f) => [f.paymentType, f.installmentsFrom, f.installmentsTo, f.percentage, f.fixedAmount]);
    expect(await feesOfPlan(oldDefault)).toEqual(DEFAULT_FEES.filter((f) => f.paymentType !== 'credit' || f.installmentsTo <= 12)
      .map((f) => [f.paymentType, f.installmentsFrom, f.installmentsTo, f.percentage, f.fixedAmount])
      .concat([
        ['credit', 13, 18, 449, 0],
        ['credit', 19, 24, 499, 0],
      ]));
    expect(await feesOfPlan(custom)).toEqual([
      ['credit', 1, 6, 100, 0],
      ['credit', 16, 20, 150, 0],
      ['debit', 1, 1, 50, 0],
      ['credit', 7, 12, 399, 0],
      ['credit', 13, 15, 449, 0],
      ['credit', 21, 24, 499, 0],
      ['pix', 1, 1, 99, 0],
      ['boleto', 1, 1, 0, 349],
      ['voucher', 1, 1, 499, 0],
    ]);
    expect(await feesOfPlan(whole)).toEqual([['credit', 1, 24, 200, 0], ...others.map((f) => [f.paymentType, f.installmentsFrom, f.installmentsTo, f.percentage, f.fixedAmount])]);
  });
});

describe("defect 2: a refund's own split is what the ledger takes from each receiver", () => {
  it('takes all 1,000 from seller 2 on a 7,000/3,000 split when the refund says so (seller 1 keeps its 7,000)', async () => {
    const clientId = randomUUID();
    const chargeId = randomUUID();
    const seller1 = await newSeller(clientId);
    const seller2 = await newSeller(clientId);
    const splitRules = [
      { sellerId: seller1, amount: 7_000 },
      { sellerId: seller2, amount: 3_000 },
    ];
    await deliver(clientId, chargeEvent(chargeId, { splitRules }));
    const before1 = await running.client.getBalance({ clientId, sellerId: seller1 });
    const refund = refundRequest(1_000, [[seller2, 1_000]]);
    const refunded = chargeEvent(chargeId, { splitRules, refundedAmount: 1_000, transactionRequests: [refund] });
    await deliver(clientId, refunded);
    await deliver(clientId, refunded); // once
    expect(await refundedFrom(clientId, chargeId, seller1)).toBe(0);
    expect(await refundedFrom(clientId, chargeId, seller2)).toBe(1_000);
    expect(await running.client.getBalance({ clientId, sellerId: seller1 })).toEqual(before1);
    await expectLedgerBalanced(clientId);

    // A later refund without a split of its own is shared pro rata to what each still has (7,000 : 2,000).
    const second = refundRequest(900, [], '2026-03-02T15:00:00.000Z');
    await deliver(clientId, chargeEvent(chargeId, { splitRules, refundedAmount: 1_900, transactionRequests: [refund, second] }));
    expect(await refundedFrom(clientId, chargeId, seller1)).toBe(700);
    expect(await refundedFrom(clientId, chargeId, seller2)).toBe(1_200);
    await expectLedgerBalanced(clientId);
  });

  it('applies each new refund by its own split when one event brings two, and an older event late changes nothing', async () => {
    const clientId = randomUUID();
    const chargeId = randomUUID();
    const seller1 = await newSeller(clientId);
    const seller2 = await newSeller(clientId);
    const splitRules = [
      { sellerId: seller1, amount: 5_000 },
      { sellerId: seller2, amount: 5_000 },
    ];
    await deliver(clientId, chargeEvent(chargeId, { splitRules }));
    const first = refundRequest(600, [[seller1, 600]], '2026-03-02T14:00:00.000Z');
    const second = refundRequest(400, [[seller2, 100], [seller1, 300]], '2026-03-02T14:01:00.000Z');
    await deliver(clientId, chargeEvent(chargeId, { splitRules, refundedAmount: 1_000, transactionRequests: [first, second] }));
    await deliver(clientId, chargeEvent(chargeId, { splitRules, refundedAmount: 600, transactionRequests: [first] }));
    expect(await refundedFrom(clientId, chargeId, seller1)).toBe(900);
    expect(await refundedFrom(clientId, chargeId, seller2)).toBe(100);
    const { rows } = await running.pool.query<{ reference: string }>("SELECT reference FROM postings WHERE client_id = $1 AND kind = 'refund'", [clientId]);
    expect(rows.map((r) => r.reference)).toEqual([`refund:${chargeId}:1000`]);
    await expectLedgerBalanced(clientId);
  });

  it('takes from the available balance (a debit) what a split asks of a receiver whose receivables were settled', async () => {
    const clientId = randomUUID();
    const chargeId = randomUUID();
    const seller1 = await newSeller(clientId);
    const seller2 = await newSeller(clientId);
    const splitRules = [
      { sellerId: seller1, amount: 7_000 },
      { sellerId: seller2, amount: 3_000 },
    ];
    await deliver(clientId, chargeEvent(chargeId, { splitRules, paymentMethod: { paymentType: 'debit', installments: 1 } }));
    await running.client.advanceSettlement({ clientId, date: '2026-03-03' });
    const refund = refundRequest(2_000, [[seller2, 2_000]]);
    await deliver(clientId, chargeEvent(chargeId, { splitRules, paymentMethod: { paymentType: 'debit', installments: 1 }, refundedAmount: 2_000, transactionRequests: [refund] }));
    const { rows } = await running.pool.query<{ receiver_id: string; amount: string }>('SELECT receiver_id, amount FROM receiver_debits WHERE client_id = $1', [clientId]);
    expect(rows.map((r) => [r.receiver_id, Number(r.amount)])).toEqual([[seller2, 2_000]]);
    await expectLedgerBalanced(clientId);
  });
});

describe('defect 12: batches and orders listed without sellerId are the main account only, as documented', () => {
  it("lists the main account's batches and orders without sellerId, a seller's with it", async () => {
    const clientId = randomUUID();
    const chargeId = randomUUID();
    const seller = await newSeller(clientId);
    // Debit 10,000: 6,000 to the seller, the rest (4,000) to the main account; both settle the next business day.
    await deliver(clientId, chargeEvent(chargeId, { splitRules: [{ sellerId: seller, amount: 6_000 }], paymentMethod: { paymentType: 'debit', installments: 1 } }));
    const { batches } = await running.client.advanceSettlement({ clientId, date: '2026-03-03' });
    expect(batches.map((b) => b.sellerId).sort()).toEqual(['', seller].sort());
    const main = batches.find((b) => b.sellerId === '')!;
    const sellers = batches.find((b) => b.sellerId === seller)!;

    expect((await running.client.listPaymentBatches({ clientId, status: [] })).items.map((b) => b.id)).toEqual([main.id]);
    expect((await running.client.listPaymentBatches({ clientId, sellerId: seller, status: [] })).items.map((b) => b.id)).toEqual([sellers.id]);
    const mainOrders = await running.client.listOrders({ clientId });
    expect(mainOrders.items.map((o) => [o.sellerId, o.paymentBatchId])).toEqual([['', main.id]]);
    expect(mainOrders.meta?.totalItems).toBe(1);
    expect((await running.client.listOrders({ clientId, chargeId })).items.map((o) => o.paymentBatchId)).toEqual([main.id]);
    expect((await running.client.listOrders({ clientId, sellerId: seller, chargeId })).items.map((o) => o.paymentBatchId)).toEqual([sellers.id]);
    // A batch's own orders are listed whoever receives them.
    expect((await running.client.listOrders({ clientId, paymentBatchId: sellers.id })).items.map((o) => o.sellerId)).toEqual([seller]);
  });
});
