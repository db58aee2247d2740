import { randomUUID } from 'node:crypto';
import { failureOf, merchantRequest, outboxOf, startPayments, type RunningPayments } from '../support/payments';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

describe('UpdateMerchant', () => {
  it('changes the fields given and keeps the rest', async () => {
    const clientId = randomUUID();
    const created = await running.client.createMerchant(merchantRequest(clientId));
    const updated = await running.client.updateMerchant({ clientId, id: created.id, mcc: '5812', merchantUrl: 'http://nova.example.com' });
    expect(updated).toEqual({ ...created, mcc: '5812', merchantUrl: 'http://nova.example.com', updatedAt: expect.any(Date) });
    expect(await running.client.getMerchant({ clientId, id: created.id })).toEqual(updated);
    const cleared = await running.client.updateMerchant({ clientId, id: created.id, name: '', merchantName: 'NOVA' });
    expect(cleared).toMatchObject({ name: '', merchantName: 'NOVA', mcc: '5812' });
  });

  it('writes payments.merchant.updated in the outbox', async () => {
    const clientId = randomUUID();
    const created = await running.client.createMerchant(merchantRequest(clientId));
    await running.client.updateMerchant({ clientId, id: created.id, name: 'Renomeada' });
    const events = await outboxOf(running.pool, clientId);
    expect(events.map((e) => e.subject)).toEqual(['payments.merchant.created', 'payments.merchant.updated']);
    expect(events[1]!.payload.data).toMatchObject({ id: created.id, name: 'Renomeada' });
  });

  it('refuses an update without any field and changes nothing', async () => {
    const clientId = randomUUID();
    const created = await running.client.createMerchant(merchantRequest(clientId));
    expect((await failureOf(running.client.updateMerchant({ clientId, id: created.id }))).kind).toBe('validation');
    expect(await running.client.getMerchant({ clientId, id: created.id })).toEqual(created);
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.merchant.created']);
  });

  it('names each invalid field', async () => {
    const clientId = randomUUID();
    const created = await running.client.createMerchant(merchantRequest(clientId));
    const error = await failureOf(running.client.updateMerchant({ clientId, id: created.id, mcc: 'abcd', merchantUrl: 'not a url' }));
    expect(error.kind).toBe('validation');
    expect(error.details?.map((d) => d.field).sort()).toEqual(['mcc', 'merchantUrl']);
  });

  it('answers not_found for unknown, malformed, deleted and foreign merchants', async () => {
    const clientId = randomUUID();
    const deleted = await running.client.createMerchant(merchantRequest(clientId));
    await running.client.deleteMerchant({ clientId, id: deleted.id });
    const foreign = await running.client.createMerchant(merchantRequest(randomUUID()));
    for (const id of [randomUUID(), 'bad-id', deleted.id, foreign.id]) {
      expect((await failureOf(running.client.updateMerchant({ clientId, id, name: 'X' }))).kind).toBe('not_found');
    }
    expect((await running.client.getMerchant({ clientId: foreign.clientId, id: foreign.id })).name).toBe(foreign.name);
  });
});
