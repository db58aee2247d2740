import { randomUUID } from 'node:crypto';
import { customerRequest, customerRowsOf, failureOf, startCustomers, type RunningCustomers } from '../support/service';

let running: RunningCustomers;

beforeAll(async () => {
  running = await startCustomers();
});

afterAll(async () => {
  await running.stop();
});

describe('DeleteCustomer', () => {
  it('returns the customer as it was and keeps the row, marked deleted', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    expect(await running.client.deleteCustomer({ clientId, id: created.id })).toEqual(created);
    const rows = await customerRowsOf(running.pool, clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.deleted_at).toBeInstanceOf(Date);
    const list = await running.client.listCustomers({ clientId });
    expect(list.items).toEqual([]);
  });

  it('answers not_found to a second delete', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    await running.client.deleteCustomer({ clientId, id: created.id });
    const error = await failureOf(running.client.deleteCustomer({ clientId, id: created.id }));
    expect(error.kind).toBe('not_found');
  });

  it('deletes once when two deletes race', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    const results = await Promise.allSettled([
      running.client.deleteCustomer({ clientId, id: created.id }),
      running.client.deleteCustomer({ clientId, id: created.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it("answers not_found for another client's customer and leaves it alone", async () => {
    const owner = randomUUID();
    const created = await running.client.createCustomer(customerRequest(owner));
    const error = await failureOf(running.client.deleteCustomer({ clientId: randomUUID(), id: created.id }));
    expect(error.kind).toBe('not_found');
    expect(await running.client.getCustomer({ clientId: owner, id: created.id })).toEqual(created);
  });

  it('answers not_found for a malformed or unknown id', async () => {
    expect((await failureOf(running.client.deleteCustomer({ clientId: randomUUID(), id: 'nope' }))).kind).toBe('not_found');
    expect((await failureOf(running.client.deleteCustomer({ clientId: randomUUID(), id: randomUUID() }))).kind).toBe('not_found');
  });
});
