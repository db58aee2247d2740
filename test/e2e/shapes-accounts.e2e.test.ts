import { connect, type NatsConnection } from 'nats';
import { EVENTS_STREAM, type DomainEvent } from '@platform/kit';
import { testNatsUrl } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

/**
 * One public shape per resource: what GET answers for a customer, a webhook, the link and subscription settings and
 * the client account is, field for field, the `data` of the domain event the change published on JetStream.
 */

/** The first event of the stream for `subjects` of this client and type; the stream is shared by every suite. */
async function eventOf(nc: NatsConnection, clientId: string, type: string, timeoutMs = 20_000): Promise<DomainEvent> {
  const consumer = await nc.jetstream().consumers.get(EVENTS_STREAM, { filterSubjects: type });
  const messages = await consumer.consume();
  const timer = setTimeout(() => void messages.close(), timeoutMs);
  try {
    for await (const message of messages) {
      const event = JSON.parse(Buffer.from(message.data).toString('utf8')) as DomainEvent;
      if (event.clientId === clientId && event.type === type) return event;
    }
  } finally {
    clearTimeout(timer);
    await messages.close();
  }
  throw new Error(`no ${type} event of client ${clientId} within ${timeoutMs} ms`);
}

describe('REST answers and event data are one shape (customers, webhooks, settings)', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let nc: NatsConnection;

  beforeAll(async () => {
    platform = await startTestPlatform('e2eshapes');
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Shapes Store');
    nc = await connect({ servers: testNatsUrl() });
  });
  afterAll(async () => {
    await nc?.drain();
    await platform?.stop();
  });

  it('customer: created and updated events carry what GET /v1/customers/{id} answers', async () => {
    const created = await api('POST', '/v1/customers', {
      auth: client,
      body: {
        name: 'Ana Souza',
        email: 'ana.shapes@example.com',
        phoneNumber: '11988887777',
        document: { type: 'cpf', number: '529.982.247-25' },
        address: { city: 'Recife', zipCode: '50030-000' },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const createdEvent = await eventOf(nc, client.clientId, 'customers.customer.created');
    expect(createdEvent.data).toEqual(created.body);

    const updated = await api('PATCH', `/v1/customers/${id}`, { auth: client, body: { name: 'Ana Maria Souza', address: { city: null, street: 'Rua da Aurora' } } });
    expect(updated.status).toBe(200);
    const read = await api('GET', `/v1/customers/${id}`, { auth: client });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(updated.body);
    expect(read.body).toMatchObject({ name: 'Ana Maria Souza', address: { city: null, street: 'Rua da Aurora', zipCode: '50030-000' } });
    const updatedEvent = await eventOf(nc, client.clientId, 'customers.customer.updated');
    expect(updatedEvent.data).toEqual(read.body);
  });

  it('webhook: created and updated events carry what GET /v1/webhooks/{id} answers, public key included', async () => {
    const created = await api('POST', '/v1/webhooks', { auth: client, body: { event: 'authorized', endpoint: 'http://127.0.0.1:9/hooks/shapes', version: 1.1 } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const createdEvent = await eventOf(nc, client.clientId, 'webhooks.webhook.created');
    expect(createdEvent.data).toEqual((await api('GET', `/v1/webhooks/${id}`, { auth: client })).body);

    const updated = await api('PATCH', `/v1/webhooks/${id}`, { auth: client, body: { event: 'voided', status: false } });
    expect(updated.status).toBe(200);
    const read = await api('GET', `/v1/webhooks/${id}`, { auth: client });
    expect(read.body).toMatchObject({ event: 'voided', status: false, publicKey: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----/) });
    const updatedEvent = await eventOf(nc, client.clientId, 'webhooks.webhook.updated');
    expect(updatedEvent.data).toEqual(read.body);
    expect(JSON.stringify(updatedEvent)).not.toContain('PRIVATE KEY');
  });

  it('link settings: created and updated events carry what GET /v1/settings answers', async () => {
    const created = await api('POST', '/v1/settings', { auth: client, body: { mainColor: '#112233', companyUrl: 'https://shop.example.com' } });
    expect(created.status).toBe(201);
    const createdEvent = await eventOf(nc, client.clientId, 'settings.link_settings.created');
    expect(createdEvent.data).toEqual(created.body);

    const patched = await api('PATCH', '/v1/settings', { auth: client, body: { secondaryColor: '#445566' } });
    expect(patched.status).toBe(200);
    const read = await api('GET', '/v1/settings', { auth: client });
    expect(read.body).toMatchObject({ merchantId: null, mainColor: '#112233', secondaryColor: '#445566', errorColor: null, logo: null });
    const updatedEvent = await eventOf(nc, client.clientId, 'settings.link_settings.updated');
    expect(updatedEvent.data).toEqual(read.body);
  });

  it('subscription settings and the client account: the event carries what GET answers', async () => {
    const patched = await api('PATCH', '/v1/subscriptions/settings', { auth: client, body: { retryPolicy: [{ daysAfterLastAttempt: 2 }], statementDescriptor: 'SHAPES' } });
    expect(patched.status).toBe(200);
    const read = await api('GET', '/v1/subscriptions/settings', { auth: client });
    expect(read.body).toEqual(patched.body);
    const subscriptionEvent = await eventOf(nc, client.clientId, 'settings.subscription_settings.updated');
    expect(subscriptionEvent.data).toEqual(read.body);

    const account = await apiClient(platform.adminUrl)('GET', `/admin/v1/clients/${client.clientId}`, { headers: { 'x-admin-token': platform.adminToken } });
    expect(account.status).toBe(200);
    const clientEvent = await eventOf(nc, client.clientId, 'settings.client.created');
    expect(clientEvent.data).toEqual(account.body);
    expect(JSON.stringify(clientEvent)).not.toContain(client.apiKey);
  });
});
