import { randomUUID } from 'node:crypto';
import { customerRequest, failureOf, outboxOf, startCustomers, type RunningCustomers } from '../support/service';

let running: RunningCustomers;

beforeAll(async () => {
  running = await startCustomers();
});

afterAll(async () => {
  await running.stop();
});

describe('UpdateCustomer', () => {
  it('changes name and phone number and keeps the rest', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId, { address: { city: 'Recife' } }));
    const updated = await running.client.updateCustomer({ clientId, id: created.id, name: '  Maria Lima ', phoneNumber: '(81) 3333-4444' });
    expect(updated).toEqual({ ...created, name: 'Maria Lima', phoneNumber: '(81) 3333-4444', updatedAt: expect.any(Date) });
    expect(updated.updatedAt!.getTime()).toBeGreaterThanOrEqual(created.updatedAt!.getTime());
    expect(await running.client.getCustomer({ clientId, id: created.id })).toEqual(updated);
  });

  it('merges the address field by field', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(
      customerRequest(clientId, { address: { city: 'Recife', street: 'Rua Velha', streetNumber: '1', complement: 'apto 2' } }),
    );
    const updated = await running.client.updateCustomer({ clientId, id: created.id, address: { street: 'Rua Nova', complement: '' } });
    expect(updated.address).toEqual({ city: 'Recife', street: 'Rua Nova', streetNumber: '1' });
    expect(updated.name).toBe(created.name);
  });

  it('adds an address to a customer without one', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    expect(created.address).toBeUndefined();
    const updated = await running.client.updateCustomer({ clientId, id: created.id, address: { zipCode: '50000-000' } });
    expect(updated.address).toEqual({ zipCode: '50000-000' });
  });

  it('refuses an update without any field', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    expect((await failureOf(running.client.updateCustomer({ clientId, id: created.id }))).kind).toBe('validation');
    expect((await failureOf(running.client.updateCustomer({ clientId, id: created.id, address: {} }))).kind).toBe('validation');
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['customers.customer.created']);
  });

  it('refuses invalid values and changes nothing', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    const error = await failureOf(running.client.updateCustomer({ clientId, id: created.id, name: 'Valid', phoneNumber: 'abc' }));
    expect(error.kind).toBe('validation');
    expect(error.details?.map((d) => d.field)).toEqual(['phoneNumber']);
    expect(await running.client.getCustomer({ clientId, id: created.id })).toEqual(created);
  });

  it('answers not_found for unknown, malformed, deleted and foreign ids', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    const other = await running.client.createCustomer(customerRequest(randomUUID()));
    await running.client.deleteCustomer({ clientId, id: created.id });
    for (const id of [randomUUID(), 'bad-id', created.id, other.id]) {
      expect((await failureOf(running.client.updateCustomer({ clientId, id, name: 'X' }))).kind).toBe('not_found');
    }
  });

  it('keeps both of two concurrent address changes', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    await Promise.all([
      running.client.updateCustomer({ clientId, id: created.id, address: { city: 'Recife' } }),
      running.client.updateCustomer({ clientId, id: created.id, address: { zipCode: '50000-000' } }),
    ]);
    expect((await running.client.getCustomer({ clientId, id: created.id })).address).toEqual({ city: 'Recife', zipCode: '50000-000' });
  });
});
