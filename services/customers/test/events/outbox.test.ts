import { randomUUID } from 'node:crypto';
import { toCustomerJson } from '@platform/api-model';
import { customerRequest, failureOf, outboxOf, startCustomers, type RunningCustomers } from '../support/service';

let running: RunningCustomers;

beforeAll(async () => {
  running = await startCustomers();
});

afterAll(async () => {
  await running.stop();
});

describe('customer events in the outbox', () => {
  it('writes one event per change, with the customer as data', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId, { address: { city: 'Recife' } }));
    const updated = await running.client.updateCustomer({ clientId, id: created.id, name: 'Renamed' });
    await running.client.deleteCustomer({ clientId, id: created.id });

    const events = await outboxOf(running.pool, clientId);
    expect(events.map((e) => e.subject)).toEqual(['customers.customer.created', 'customers.customer.updated', 'customers.customer.deleted']);
    for (const event of events) {
      expect(event.payload.id).toBe(event.id);
      expect(event.payload.type).toBe(event.subject);
      expect(event.payload.clientId).toBe(clientId);
      expect(new Date(event.payload.occurredAt).toISOString()).toBe(event.payload.occurredAt);
    }
    const [createdEvent, updatedEvent, deletedEvent] = events;
    // The data is the public JSON of the REST API: the gateway's mapper applied to the gRPC answer.
    expect(createdEvent!.payload.data).toEqual(toCustomerJson(created));
    expect(createdEvent!.payload.data).toMatchObject({ address: { city: 'Recife', street: null }, phoneNumber: created.phoneNumber });
    expect(updatedEvent!.payload.data).toEqual(toCustomerJson(updated));
    expect(deletedEvent!.payload.data).toMatchObject({ id: created.id, name: 'Renamed' });
    expect(deletedEvent!.payload.data).not.toHaveProperty('deletedAt');
  });

  it('writes no event for a refused change', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    await failureOf(running.client.createCustomer(customerRequest(clientId, { name: '' })));
    await failureOf(running.client.createCustomer(customerRequest(clientId, { email: created.email })));
    await failureOf(running.client.updateCustomer({ clientId, id: created.id }));
    await failureOf(running.client.updateCustomer({ clientId, id: randomUUID(), name: 'Nobody' }));
    await failureOf(running.client.deleteCustomer({ clientId, id: randomUUID() }));
    expect((await outboxOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['customers.customer.created']);
  });
});
