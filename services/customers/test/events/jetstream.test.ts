import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { EVENTS_STREAM, type DomainEvent } from '@platform/kit';
import { testNatsUrl } from '@platform/testkit';
import { customerRequest, outboxOf, startCustomers, type RunningCustomers } from '../support/service';

let running: RunningCustomers;
let nc: NatsConnection;

beforeAll(async () => {
  running = await startCustomers();
  nc = await connect({ servers: testNatsUrl() });
});

afterAll(async () => {
  await nc.drain();
  await running.stop();
});

describe('customer events on JetStream', () => {
  it('relays customers.customer.created with the outbox id as event id', async () => {
    const clientId = randomUUID();
    const created = await running.client.createCustomer(customerRequest(clientId));
    const [row] = await outboxOf(running.pool, clientId);
    expect(row?.subject).toBe('customers.customer.created');

    // Every suite shares the stream, so events of other clients are skipped.
    const consumer = await nc.jetstream().consumers.get(EVENTS_STREAM, { filterSubjects: 'customers.customer.created' });
    const messages = await consumer.consume();
    let event: DomainEvent<{ id: string }> | undefined;
    for await (const message of messages) {
      const candidate = JSON.parse(Buffer.from(message.data).toString('utf8')) as DomainEvent<{ id: string }>;
      if (candidate.clientId === clientId) {
        event = candidate;
        expect(message.subject).toBe('customers.customer.created');
        break;
      }
    }
    await messages.close();

    expect(event?.id).toBe(row!.id);
    expect(event?.type).toBe('customers.customer.created');
    expect(event?.data.id).toBe(created.id);
  });
});
