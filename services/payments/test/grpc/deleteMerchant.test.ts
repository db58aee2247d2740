import { randomUUID } from 'node:crypto';
import { cardInput, failureOf, merchantRequest, outboxOf, startPayments, type RunningPayments, merchantsPortOf } from '../support/payments';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

describe('DeleteMerchant', () => {
  it('deletes softly: the row stays, marked, and the event is written', async () => {
    const clientId = randomUUID();
    const created = await running.client.createMerchant(merchantRequest(clientId));
    expect(await running.client.deleteMerchant({ clientId, id: created.id })).toEqual({});
    const { rows } = await running.pool.query('SELECT status, deleted_at FROM merchants WHERE id = $1', [created.id]);
    expect(rows).toEqual([{ status: 'deleted', deleted_at: expect.any(Date) }]);
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.merchant.created', 'payments.merchant.deleted']);
  });

  it('makes the merchant not_found everywhere, for charges too', async () => {
    const clientId = randomUUID();
    const created = await running.client.createMerchant(merchantRequest(clientId));
    const providerId = created.providers[0]!.id;
    const flow = await running.client.createFlow({ clientId, merchantId: created.id, name: '', paymentMethod: 'credit', rules: [], defaultRoute: [providerId] });
    await running.client.deleteMerchant({ clientId, id: created.id });

    const calls: Array<Promise<unknown>> = [
      running.client.getMerchant({ clientId, id: created.id }),
      running.client.updateMerchant({ clientId, id: created.id, name: 'X' }),
      running.client.deleteMerchant({ clientId, id: created.id }),
      running.client.updateProvider({ clientId, id: providerId, name: 'X' }),
      running.client.getPlatformFee({ clientId, merchantId: created.id }),
      running.client.replacePlatformFee({ clientId, merchantId: created.id, rules: [] }),
      running.client.setPlatformFeeEnabled({ clientId, merchantId: created.id, enabled: true }),
      running.client.getFlow({ clientId, id: flow.id }),
      running.client.replaceFlow({ clientId, id: flow.id, name: '', paymentMethod: 'credit', rules: [], defaultRoute: [providerId] }),
      running.client.createFlow({ clientId, merchantId: created.id, name: '', paymentMethod: 'pix', rules: [], defaultRoute: [providerId] }),
      merchantsPortOf(running).loadForCharge(running.pool, clientId, created.id, 'credit'),
    ];
    for (const call of calls) expect((await failureOf(call)).kind).toBe('not_found');
    expect((await running.client.listFlows({ clientId, merchantId: created.id })).items).toEqual([]);

    const token = await running.client.createToken({ clientId, card: cardInput() });
    expect((await failureOf(running.client.createCard({ clientId, tokenId: token.tokenId, merchantId: created.id, cvvCheck: true }))).kind).toBe('not_found');
  });

  it('deletes once when two deletes race', async () => {
    const clientId = randomUUID();
    const created = await running.client.createMerchant(merchantRequest(clientId));
    const results = await Promise.allSettled([running.client.deleteMerchant({ clientId, id: created.id }), running.client.deleteMerchant({ clientId, id: created.id })]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await outboxOf(running.pool, clientId)).filter((e) => e.subject === 'payments.merchant.deleted')).toHaveLength(1);
  });

  it("answers not_found for another client's merchant and leaves it alone", async () => {
    const owner = randomUUID();
    const created = await running.client.createMerchant(merchantRequest(owner));
    expect((await failureOf(running.client.deleteMerchant({ clientId: randomUUID(), id: created.id }))).kind).toBe('not_found');
    expect(await running.client.getMerchant({ clientId: owner, id: created.id })).toEqual(created);
  });

  it('answers not_found for malformed or unknown ids', async () => {
    expect((await failureOf(running.client.deleteMerchant({ clientId: randomUUID(), id: 'nope' }))).kind).toBe('not_found');
    expect((await failureOf(running.client.deleteMerchant({ clientId: randomUUID(), id: randomUUID() }))).kind).toBe('not_found');
  });
});
