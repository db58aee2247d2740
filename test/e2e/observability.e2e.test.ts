import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { SERVICES, type ServiceName } from '@platform/catalog';
import { eventually, metricValue, parseMetrics, type MetricSample } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type TestPlatform } from './platform';

/** A span as OTLP/HTTP JSON carries it, with the name of the service that sent it. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links?: Array<{ traceId: string; spanId: string }>;
}

/**
 * Stands in for an OpenTelemetry collector: every process exports its spans here over OTLP/HTTP (JSON), and the test
 * reads them from memory. Webhook deliveries arrive on the same server, under /hooks.
 */
class Collector {
  readonly spans: ExportedSpan[] = [];
  readonly hooks: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/v1/traces') this.take(body);
      else if (req.url?.startsWith('/hooks/')) this.hooks.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  private take(body: string): void {
    type Attribute = { key: string; value: Record<string, unknown> };
    const valueOf = (a: Attribute) => Object.values(a.value)[0];
    const payload = JSON.parse(body) as {
      resourceSpans: Array<{
        resource: { attributes: Attribute[] };
        scopeSpans: Array<{ spans: Array<Omit<ExportedSpan, 'service' | 'attributes'> & { attributes?: Attribute[] }> }>;
      }>;
    };
    for (const resource of payload.resourceSpans) {
      const service = String(valueOf(resource.resource.attributes.find((a) => a.key === 'service.name')!));
      for (const scope of resource.scopeSpans) {
        for (const span of scope.spans) {
          const attributes = Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a)]));
          this.spans.push({ ...span, service, attributes });
        }
      }
    }
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const CARD_NUMBER = '4111111111111111';
const PROCESSES: Array<ServiceName | 'gateway'> = ['gateway', ...SERVICES.map((s) => s.name)];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('observability: every process counted on its metrics port, one trace from the API call to the webhook delivery', () => {
  const collector = new Collector();
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    await collector.start();
    platform = await startTestPlatform('e2eobs', {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url(),
      // Spans leave each process within a tenth of a second instead of every five seconds.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    }, 'info');
    api = apiClient(platform.gatewayUrl);
  });
  afterAll(async () => {
    await platform?.stop();
    await collector.stop();
  });

  /** A new client with a webhook on `authorized` to the collector, a SANDBOX merchant, and a card charge authorized and delivered. */
  async function deliveredCharge(clientName: string, holder: string, cvv: string, amount: number) {
    const client = await createClient(platform.adminUrl, platform.adminToken, clientName);
    const endpoint = `${collector.url()}/hooks/${randomUUID()}`;
    const webhook = await api<{ id: string }>('POST', '/v1/webhooks', { auth: client, body: { event: 'authorized', endpoint, version: 1.1, status: true } });
    expect(webhook.status).toBe(201);
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: clientName, providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    const charge = await api<{ id: string; status: string }>('POST', '/v1/charges', {
      auth: client,
      body: {
        merchantId: merchant.body.id,
        amount,
        capture: true,
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card: { cardHolderName: holder, cardNumber: CARD_NUMBER, cardCvv: cvv, cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` } },
      },
    });
    expect(charge.status).toBe(201);
    expect(charge.body.status).toBe('authorized');
    const delivered = await eventually(() => collector.hooks.find((h) => h.body.includes(charge.body.id)), 'the delivery', { timeoutMs: 30_000 });
    return { client, webhookId: webhook.body.id, merchantId: merchant.body.id, charge: charge.body, delivered };
  }

  it('counts a charge and its delivery, and no label holds an id, a key or card data', async () => {
    const { client, webhookId, merchantId, charge } = await deliveredCharge('Observed Store', 'Ana Souza', '870', 4_200);

    const scrapes = new Map<string, MetricSample[]>();
    const texts = new Map<string, string>();
    // The delivery is recorded just after the receiver answers: the webhooks service may take a moment to count it.
    await eventually(async () => {
      for (const name of PROCESSES) {
        const text = await platform.metrics(name);
        texts.set(name, text);
        scrapes.set(name, parseMetrics(text));
      }
      return metricValue(scrapes.get('webhooks')!, 'webhook_deliveries_total', { outcome: 'delivered' }) >= 1 ? true : undefined;
    }, 'the delivery counted');

    const gateway = scrapes.get('gateway')!;
    expect(metricValue(gateway, 'http_server_requests_total', { method: 'POST', route: '/v1/charges', status_code: '201', service: 'gateway' })).toBe(1);
    expect(metricValue(gateway, 'http_server_request_duration_seconds_count', { method: 'POST', route: '/v1/charges' })).toBe(1);
    expect(metricValue(gateway, 'grpc_client_handled_total', { grpc_service: 'payments.v1.PaymentsService', grpc_method: 'CreateCharge', grpc_code: 'OK' })).toBe(1);

    const payments = scrapes.get('payments')!;
    expect(metricValue(payments, 'charges_total', { status: 'authorized', method: 'credit', provider: 'SANDBOX' })).toBe(1);
    expect(metricValue(payments, 'provider_request_duration_seconds_count', { provider: 'SANDBOX', operation: 'authorization', outcome: 'answered' })).toBe(1);
    expect(metricValue(payments, 'grpc_server_handled_total', { grpc_method: 'CreateCharge', grpc_code: 'OK' })).toBe(1);
    expect(metricValue(payments, 'outbox_published_total')).toBeGreaterThanOrEqual(2);

    const webhooks = scrapes.get('webhooks')!;
    expect(metricValue(webhooks, 'webhook_delivery_duration_seconds_count', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(metricValue(webhooks, 'webhook_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(metricValue(webhooks, 'events_consumed_total', { outcome: 'applied' })).toBeGreaterThanOrEqual(2);
    expect(webhooks.some((s) => s.name === 'nats_consumer_pending_messages' && s.labels.durable)).toBe(true);

    for (const name of PROCESSES) {
      const samples = scrapes.get(name)!;
      expect(samples.every((s) => s.labels.service === name)).toBe(true);
      expect(metricValue(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
      if (name === 'gateway') continue;
      for (const metric of ['db_pool_clients', 'db_pool_max_clients', 'db_query_duration_seconds_count', 'outbox_backlog_events', 'outbox_oldest_unpublished_age_seconds', 'jobs_oldest_due_age_seconds']) {
        expect([name, samples.some((s) => s.name === metric)]).toEqual([name, true]);
      }
    }

    // No label anywhere holds an id, a key or card data: not the client's, the merchant's, the charge's or the
    // webhook's id, the API key, the card number or its last digits as a label value, nor anything shaped like an id.
    const secrets = [client.clientId, client.apiKey, merchantId, charge.id, webhookId, CARD_NUMBER, CARD_NUMBER.slice(-4) + '"'];
    for (const [name, samples] of scrapes) {
      for (const sample of samples) {
        for (const value of Object.values(sample.labels)) {
          expect([name, sample.name, value, UUID.test(value) || /\d{6,}/.test(value) || value.length > 80]).toEqual([name, sample.name, value, false]);
        }
      }
      for (const secret of secrets) expect([name, texts.get(name)!.includes(secret)]).toEqual([name, false]);
    }
  });

  it('follows one trace from the gateway through gRPC, the outbox, NATS and the consumer to the webhook delivery', async () => {
    const client = await createClient(platform.adminUrl, platform.adminToken, 'Traced Store');
    const endpoint = `${collector.url()}/hooks/${randomUUID()}`;
    expect((await api('POST', '/v1/webhooks', { auth: client, body: { event: 'customer.created', endpoint, version: 1.1, status: true } })).status).toBe(201);
    const created = await api<{ id: string }>('POST', '/v1/customers', {
      auth: client,
      body: {
        name: 'Bia Traced',
        email: 'bia@example.com',
        phoneNumber: '+55 11 99999-0000',
        document: { type: 'cpf', number: '10000000019', country: 'BR' },
        address: { country: 'BR', state: 'SP', city: 'São Paulo', street: 'Av. Paulista', streetNumber: '1000', zipCode: '01310100' },
      },
    });
    expect(created.status).toBe(201);
    const delivered = await eventually(() => collector.hooks.find((h) => h.body.includes(created.body.id)), 'the delivery', { timeoutMs: 30_000 });

    // The gateway's span of the request, and the one trace everything after it joins.
    const serverSpan = await eventually(
      () => collector.spans.find((s) => s.service === 'gateway' && s.kind === 2 && s.attributes['http.route'] === '/v1/customers' && s.attributes['http.request.method'] !== 'GET' && s.attributes['http.method'] !== 'GET'),
      "the gateway's span",
    );
    const traceId = serverSpan.traceId;
    const inTrace = () => collector.spans.filter((s) => s.traceId === traceId);
    const deliverySpan = await eventually(() => inTrace().find((s) => s.service === 'webhooks' && s.name === 'webhooks.deliver first attempt'), 'the first attempt after the fan-out in the trace');
    // The POST to the receiver is a child of the delivery's span, and the receiver was told the trace.
    const post = await eventually(() => inTrace().find((s) => s.service === 'webhooks' && s.kind === 3 && s.parentSpanId === deliverySpan.spanId && /^POST/.test(s.name)), 'the POST in the trace');
    expect(String(delivered.headers.traceparent).split('-')[1]).toBe(traceId);
    expect(post.name).toMatch(/POST/);

    // Every hop in between is in the same trace, each a child of the one before: the gateway's gRPC call, its
    // handling in customers, the outbox event's publish to NATS, the first attempt its consumer made, the POST.
    // Each process exports on its own schedule: the chain is read once every span up to the gateway's has arrived.
    const chainOf = () => {
      const byId = new Map(inTrace().map((s) => [s.spanId, s]));
      const hops: ExportedSpan[] = [];
      for (let span: ExportedSpan | undefined = post; span; span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined) hops.unshift(span);
      return hops[0]?.spanId === serverSpan.spanId ? hops : undefined;
    };
    const chain = await eventually(chainOf, 'every span from the POST back to the gateway', { timeoutMs: 15_000 });
    const spans = inTrace();
    expect(chain.map((s) => `${s.service}: ${s.name}`).filter((hop) => hop !== 'gateway: request handler')).toEqual([
      `gateway: ${serverSpan.name}`,
      'gateway: grpc.customers.v1.CustomersService/CreateCustomer',
      'customers: grpc.customers.v1.CustomersService/CreateCustomer',
      'customers: customers.customer.created publish',
      'webhooks: webhooks.deliver first attempt',
      `webhooks: ${post.name}`,
    ]);
    // The webhooks consumer's work is part of it too: as a child of the publish, or (when the event came with others
    // and they were applied together) as a span linked to it.
    const publish = chain.find((s) => s.name === 'customers.customer.created publish')!;
    const isConsumerSpan = (s: ExportedSpan) => s.service === 'webhooks' && / process( batch)?$/.test(s.name);
    const consumed = () =>
      collector.spans.find((s) => isConsumerSpan(s) && (s.parentSpanId === publish.spanId || (s.links ?? []).some((l) => l.spanId === publish.spanId)));
    await eventually(consumed, "the webhooks consumer's span");
    // pg statements inside a traced call are spans of it too, with their text but never their values.
    const statements = spans.filter((s) => s.service === 'customers' && s.attributes['db.system.name'] === 'postgresql' && s.attributes['db.query.text']);
    expect(statements.length).toBeGreaterThan(0);
    expect(JSON.stringify(statements)).not.toContain('Bia Traced');
  });

  it("follows a charge's trace from the API call through payments' outbox to the webhook delivery", async () => {
    const { delivered } = await deliveredCharge('Traced Charges', 'Caio Traced', '321', 5_100);

    // The receiver was told the trace; the gateway's span of the charge's POST is in that same trace.
    const traceId = String(delivered.headers.traceparent).split('-')[1];
    const inTrace = () => collector.spans.filter((s) => s.traceId === traceId);
    const serverSpan = await eventually(
      () => inTrace().find((s) => s.service === 'gateway' && s.kind === 2 && s.attributes['http.route'] === '/v1/charges'),
      "the gateway's span of the charge in the delivery's trace",
      { timeoutMs: 15_000 },
    );
    const deliverySpan = await eventually(() => inTrace().find((s) => s.service === 'webhooks' && s.name === 'webhooks.deliver first attempt'), 'the first attempt after the fan-out in the trace');
    const post = await eventually(() => inTrace().find((s) => s.service === 'webhooks' && s.kind === 3 && s.parentSpanId === deliverySpan.spanId && /^POST/.test(s.name)), 'the POST in the trace');
    const chainOf = () => {
      const byId = new Map(inTrace().map((s) => [s.spanId, s]));
      const hops: ExportedSpan[] = [];
      for (let span: ExportedSpan | undefined = post; span; span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined) hops.unshift(span);
      return hops[0]?.spanId === serverSpan.spanId ? hops : undefined;
    };
    const chain = await eventually(chainOf, 'every span from the POST back to the gateway', { timeoutMs: 15_000 });
    expect(chain.map((s) => `${s.service}: ${s.name}`).filter((hop) => hop !== 'gateway: request handler')).toEqual([
      `gateway: ${serverSpan.name}`,
      'gateway: grpc.payments.v1.PaymentsService/CreateCharge',
      'payments: grpc.payments.v1.PaymentsService/CreateCharge',
      'payments: payments.charge.authorized publish',
      'webhooks: webhooks.deliver first attempt',
      `webhooks: ${post.name}`,
    ]);
  });

  it('writes the trace id on the log lines of a traced call', async () => {
    const client = await createClient(platform.adminUrl, platform.adminToken, 'Logged Store');
    const missing = await api('GET', `/v1/customers/${randomUUID()}`, { auth: client });
    expect(missing.status).toBe(404);
    const traceIds = new Set(collector.spans.map((s) => s.traceId));
    const logged = () => platform.output().split('\n').map((line) => /"trace_id":"([0-9a-f]{32})"/.exec(line)?.[1]).filter((id) => id !== undefined);
    // The request's own lines (its 404 among them) carry the trace of the request that the gateway exported.
    await eventually(() => (logged().some((id) => traceIds.has(id) || collector.spans.some((s) => s.traceId === id)) ? true : undefined), 'a logged trace id among the exported traces');
  });
});
