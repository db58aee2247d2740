import { connect, DeliverPolicy, type NatsConnection } from 'nats';
import { eventually, testNatsUrl } from '@platform/testkit';
import { EVENTS_STREAM, type DomainEvent } from '@platform/kit';
import { apiClient, createClient, startTestPlatform, type TestPlatform } from './platform';

describe('a service killed with SIGKILL loses nothing it acknowledged', () => {
  let platform: TestPlatform;
  let nc: NatsConnection;

  beforeAll(async () => {
    platform = await startTestPlatform('e2ecrash');
    nc = await connect({ servers: testNatsUrl() });
  });
  afterAll(async () => {
    await nc?.drain();
    await platform?.stop();
  });

  it('keeps every acknowledged customer and publishes every event exactly once after a restart', async () => {
    const api = apiClient(platform.gatewayUrl);
    const client = await createClient(platform.adminUrl, platform.adminToken);
    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const n = String(70000000000 + i);
      const r = await api('POST', '/v1/customers', {
        auth: client,
        body: { name: `C ${i}`, email: `c${i}@crash.example.com`, phoneNumber: '11999990000', document: { type: 'cpf', number: n, country: 'BR' } },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id as string);
    }
    // Kill right after the last acknowledgement: some events are likely still in the outbox.
    await platform.processes.customers.kill('SIGKILL');
    expect((await api('GET', '/v1/customers', { auth: client })).status).toBe(503);
    await platform.restart('customers');

    const list = await eventually(async () => {
      const r = await api<{ items: Array<{ id: string }> }>('GET', '/v1/customers?limit=100', { auth: client });
      return r.status === 200 ? r : undefined;
    }, 'the restarted service to answer');
    expect(list.body.items.map((c) => c.id).sort()).toEqual([...ids].sort());

    const js = nc.jetstream();
    const seen = new Map<string, string[]>();
    await eventually(
      async () => {
        seen.clear();
        const consumer = await js.consumers.get(EVENTS_STREAM, {
          filterSubjects: 'customers.customer.created',
          deliver_policy: DeliverPolicy.StartTime,
          opt_start_time: new Date(started - 1000).toISOString(),
        });
        const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
        for await (const m of batch) {
          const event = JSON.parse(Buffer.from(m.data).toString()) as DomainEvent<{ id: string }>;
          if (event.clientId !== client.clientId) continue;
          seen.set(event.data.id, [...(seen.get(event.data.id) ?? []), event.id]);
        }
        return seen.size === ids.length ? true : undefined;
      },
      'every customer.created event',
    );
    expect([...seen.keys()].sort()).toEqual([...ids].sort());
    for (const eventIds of seen.values()) expect(eventIds).toHaveLength(1);
  });

  it('keeps clients and keys across a SIGKILL of the settings service', async () => {
    const api = apiClient(platform.gatewayUrl);
    const client = await createClient(platform.adminUrl, platform.adminToken, 'Survivor');
    await platform.processes.settings.kill('SIGKILL');
    await platform.restart('settings');
    // The gateway may have cached the key; a new public key needs the restarted service itself.
    const token = await eventually(async () => {
      const r = await api('POST', '/v1/auth', { auth: client, body: { scope: ['customers'], expires: 60 } });
      return r.status === 503 ? undefined : r;
    }, 'the restarted settings service');
    expect(token.status).toBe(201);
    const pub = { clientId: client.clientId, apiKey: token.body.publicKey as string };
    expect((await api('GET', '/v1/customers', { auth: pub })).status).toBe(200);
  });
});
