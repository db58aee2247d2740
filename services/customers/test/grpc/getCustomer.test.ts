import { randomUUID } from 'node:crypto';
import { customerRequest, failureOf, startCustomers, type RunningCustomers } from '../support/service';

let running: RunningCustomers;

beforeAll(async () => {
  running = await startCustomers();
});

afterAll(async () => {
  await running.stop();
});

describe('GetCustomer', () => {
  it('returns the customer of the client', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId, { address: { street: 'Rua A', streetNumber: '10' } }));
    expect(await running.client.getCustomer({ clientId, id: created.id })).toEqual(created);
  });

  it('answers not_found for an unknown id', async () => {
    const error = await failureOf(running.client.getCustomer({ clientId: randomUUID(), id: randomUUID() }));
    expect(error.kind).toBe('not_found');
  });

  it.each(['not-a-uuid', '', "' OR '1'='1", '12345', `${randomUUID()}x`])('answers not_found for the malformed id %j', async (id) => {
    const error = await failureOf(running.client.getCustomer({ clientId: randomUUID(), id }));
    expect(error.kind).toBe('not_found');
  });

  it("answers not_found for another client's customer", async () => {
    const created = await running.client.createCustomer(customerRequest(randomUUID()));
    const error = await failureOf(running.client.getCustomer({ clientId: randomUUID(), id: created.id }));
    expect(error.kind).toBe('not_found');
  });

  it('answers not_found for a deleted customer', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    await running.client.deleteCustomer({ clientId, id: created.id });
    const error = await failureOf(running.client.getCustomer({ clientId, id: created.id }));
    expect(error.kind).toBe('not_found');
  });
});
