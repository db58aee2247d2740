import { randomUUID } from 'node:crypto';
import { failureOf, startPayouts, type RunningPayouts } from '../support';

let running: RunningPayouts;

beforeAll(async () => {
  running = await startPayouts();
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

/** Debit, Pix, boleto and voucher at one installment: with a credit table of 1 to 24, a whole plan. */
const singles = [fee('debit', 1, 1, 199), fee('pix', 1, 1, 50, 10), fee('boleto', 1, 1, 0, 349), fee('voucher', 1, 1, 499)];

async function defaults(clientId: string): Promise<number> {
  const { rows } = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM plans WHERE client_id = $1 AND is_default', [clientId]);
  return rows[0]!.n;
}

describe('plans', () => {
  it('gives a client its default plan with its first use, and keeps exactly one default', async () => {
    const clientId = randomUUID();
    const listed = await running.client.listPlans({ clientId });
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({ name: 'Default', isDefault: true, prepaymentMonthlyRate: 199, settlementDays: { credit: 30, debit: 1, pix: 1, boleto: 1, voucher: 30 } });
    const premium = await running.client.createPlan({
      clientId,
      name: 'Premium',
      isDefault: true,
      fees: [fee('credit', 1, 24, 250), ...singles],
      settlementDays: { credit: 15 },
      prepaymentMonthlyRate: 150,
    });
    expect(premium).toMatchObject({ isDefault: true, settlementDays: { credit: 15, debit: 1 }, prepaymentMonthlyRate: 150 });
    const plans = (await running.client.listPlans({ clientId })).items;
    expect(plans.filter((p) => p.isDefault).map((p) => p.id)).toEqual([premium.id]);
    const back = await running.client.updatePlan({ clientId, id: listed.items[0]!.id, isDefault: true, replaceFees: false, fees: [] });
    expect(back.isDefault).toBe(true);
    expect((await running.client.getPlan({ clientId, id: premium.id })).isDefault).toBe(false);
  });

  it('keeps one default when ten plans ask to be it at once', async () => {
    const clientId = randomUUID();
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => running.client.createPlan({ clientId, name: `Plan ${i}`, isDefault: true, fees: [] })));
    expect(created).toHaveLength(10);
    expect(await defaults(clientId)).toBe(1);
  });

  it('changes fees, days and rate in part, and refuses overlapping fees, bad days and a plan of another client', async () => {
    const clientId = randomUUID();
    const plan = await running.client.createPlan({ clientId, name: 'Growth', fees: [fee('credit', 1, 24, 300), ...singles] });
    const changed = await running.client.updatePlan({ clientId, id: plan.id, replaceFees: true, fees: [fee('credit', 1, 1, 280), fee('credit', 2, 24, 330), ...singles], settlementDays: { debit: 2 } });
    expect(changed.fees.filter((f) => f.paymentType === 'credit').map((f) => [f.installmentsFrom, f.installmentsTo, f.percentage])).toEqual([
      [1, 1, 280],
      [2, 24, 330],
    ]);
    expect(changed.settlementDays).toMatchObject({ credit: 30, debit: 2 });
    const overlapping = await failureOf(running.client.updatePlan({ clientId, id: plan.id, replaceFees: true, fees: [fee('credit', 1, 6, 300), fee('credit', 6, 24, 300), ...singles] }));
    expect(overlapping).toMatchObject({ kind: 'validation' });
    const badDays = await failureOf(running.client.createPlan({ clientId, name: 'Bad', fees: [], settlementDays: { credit: 400 } }));
    expect(badDays.details?.map((d) => d.field)).toEqual(['settlementDays.credit']);
    expect(await failureOf(running.client.getPlan({ clientId: randomUUID(), id: plan.id }))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(running.client.updatePlan({ clientId, id: plan.id, isDefault: false, replaceFees: false, fees: [] }))).toMatchObject({ kind: 'validation' });
  });
});
