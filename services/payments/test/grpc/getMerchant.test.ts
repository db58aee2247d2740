import { randomUUID } from 'node:crypto';
import { failureOf, merchantRequest, startPayments, type RunningPayments } from '../support/payments';

let running: RunningPayments;

beforeAll(async () => {
  running = await startPayments();
});

afterAll(async () => {
  await running.stop();
});

describe('GetMerchant', () => {
  it('returns the merchant of the client', async () => {
    const clientId = randomUUID();
    const created = await running.client.createMerchant(merchantRequest(clientId));
    expect(await running.client.getMerchant({ clientId, id: created.id })).toEqual(created);
    expect(await running.client.getMerchant({ clientId, id: created.id.toUpperCase() })).toEqual(created);
  });

  it.each(['not-a-uuid', '', "' OR '1'='1", `${randomUUID()}x`])('answers not_found for the malformed id %j', async (id) => {
    expect((await failureOf(running.client.getMerchant({ clientId: randomUUID(), id }))).kind).toBe('not_found');
  });

  it('answers not_found for an unknown id, a foreign merchant and a deleted one', async () => {
    const clientId = randomUUID();
    const foreign = await running.client.createMerchant(merchantRequest(randomUUID()));
    const deleted = await running.client.createMerchant(merchantRequest(clientId));
    await running.client.deleteMerchant({ clientId, id: deleted.id });
    for (const id of [randomUUID(), foreign.id, deleted.id]) {
      expect((await failureOf(running.client.getMerchant({ clientId, id }))).kind).toBe('not_found');
    }
  });
});
