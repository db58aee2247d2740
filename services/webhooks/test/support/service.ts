import { createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhooks } from '@platform/contracts';
import type { DomainEvent, Pool, PromiseClient, RunningService } from '@platform/kit';
import { createTestDatabase, startServiceWithClient, testNatsUrl } from '@platform/testkit';
import { connect, type NatsConnection } from 'nats';
import type { ClientsPort } from '../../src/app/clientsPort';
import type { Resolver } from '../../src/delivery/httpSender';
import { defineWebhooksService } from '../../src/service';

export type WebhooksClient = PromiseClient<typeof webhooks.WebhooksServiceService>;

/**
 * Settings as webhooks see it: every client is a sandbox client unless the test says it is live (or unknown). It
 * counts the questions, so a test can tell when settings was asked.
 */
export class TestClients implements ClientsPort {
  private readonly environments = new Map<string, string | null>();
  asked = 0;

  live(clientId: string): string {
    this.environments.set(clientId, 'live');
    return clientId;
  }

  unknown(clientId: string): string {
    this.environments.set(clientId, null);
    return clientId;
  }

  async environmentOf(clientId: string): Promise<string | null> {
    this.asked += 1;
    const environment = this.environments.get(clientId);
    return environment === undefined ? 'sandbox' : environment;
  }
}

export interface WebhooksSetup {
  databaseUrl: string;
  /** Stays the same across restarts, as it would in production: the sealed keys must keep opening. */
  signingKey: string;
  /** Each instance has its own durable consumer: every suite shares the stream. */
  durable: string;
  env: Record<string, string>;
  resolve?: Resolver;
  clients: TestClients;
}

export async function webhooksSetup(options: { env?: Record<string, string>; resolve?: Resolver; clients?: TestClients } = {}): Promise<WebhooksSetup> {
  return {
    databaseUrl: await createTestDatabase('webhooks'),
    signingKey: randomBytes(32).toString('hex'),
    durable: `webhooks-test-${randomUUID().slice(0, 8)}`,
    env: options.env ?? {},
    resolve: options.resolve,
    clients: options.clients ?? new TestClients(),
  };
}

export interface RunningWebhooks {
  service: RunningService;
  client: WebhooksClient;
  pool: Pool;
  stop(): Promise<void>;
}

/** The real service in-process on a free port, called through the generated client. */
export async function startWebhooks(setup: WebhooksSetup): Promise<RunningWebhooks> {
  return startServiceWithClient(
    defineWebhooksService({ resolve: setup.resolve, clients: setup.clients }),
    { definition: webhooks.WebhooksServiceService, Client: webhooks.WebhooksServiceClient },
    {
      databaseUrl: setup.databaseUrl,
      env: { SHUTDOWN_GRACE_MS: '1000', WEBHOOKS_SIGNING_KEY: setup.signingKey, WEBHOOKS_FANOUT_DURABLE: setup.durable, SETTINGS_GRPC_URL: '127.0.0.1:1', ...setup.env },
    },
  );
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1: records every request and answers what `answer` says (200 unless changed). */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  answer: (request: ReceivedRequest) => number = () => 200;
  private server?: http.Server;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.requests.push(received);
        res.statusCode = this.answer(received);
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** A fresh endpoint on this receiver: endpoints are unique across webhooks. */
  endpoint(host = '127.0.0.1'): string {
    return `http://${host}:${this.port}/hooks/${randomUUID()}`;
  }

  to(endpoint: string): ReceivedRequest[] {
    const path = new URL(endpoint).pathname;
    return this.requests.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

export interface DeliveryRig {
  running: RunningWebhooks;
  receiver: Receiver;
  /** A connection of the test's own, to publish domain events. */
  nc: NatsConnection;
  stop(): Promise<void>;
}

/** The service, a receiver and a NATS connection: what every suite about deliveries starts with. */
export async function startDeliveryRig(options: { env?: Record<string, string>; resolve?: Resolver; clients?: TestClients } = {}): Promise<DeliveryRig & { setup: WebhooksSetup }> {
  const setup = await webhooksSetup(options);
  const rig = {
    setup,
    running: await startWebhooks(setup),
    receiver: await new Receiver().start(),
    nc: await connect({ servers: testNatsUrl() }),
    stop: async () => {
      await rig.nc.drain();
      await rig.running.stop();
      await rig.receiver.stop();
    },
  };
  return rig;
}

/** Publishes a domain event envelope to JetStream as a service's outbox relay would. */
export async function publishEvent<T>(nc: NatsConnection, event: { type: string; clientId: string; data: T; id?: string }): Promise<DomainEvent<T>> {
  const envelope: DomainEvent<T> = {
    id: event.id ?? randomUUID(),
    type: event.type,
    occurredAt: new Date().toISOString(),
    clientId: event.clientId,
    data: event.data,
  };
  await nc.jetstream().publish(envelope.type, Buffer.from(JSON.stringify(envelope)), { msgID: envelope.id });
  return envelope;
}

/**
 * Checks a delivery the way a receiver would: both Ed25519 signatures against the webhook's public key (the `v1a`
 * entry of webhook-signature's space-separated list).
 */
export function verifySignatures(request: ReceivedRequest, publicKeyPem: string): { plug: boolean; standard: boolean } {
  const key = createPublicKey(publicKeyPem);
  const date = String(request.headers['x-plug-date']);
  const plug = verify(null, Buffer.from(`${date}\n${request.body}`), key, Buffer.from(String(request.headers['x-plug-signature']), 'hex'));
  const asymmetric = String(request.headers['webhook-signature'])
    .split(' ')
    .map((entry) => entry.split(','))
    .find(([scheme]) => scheme === 'v1a');
  const content = `${String(request.headers['webhook-id'])}.${String(request.headers['webhook-timestamp'])}.${request.body}`;
  const standard = asymmetric !== undefined && verify(null, Buffer.from(content), key, Buffer.from(asymmetric[1] ?? '', 'base64'));
  return { plug, standard };
}

export { eventually, failureOf } from '@platform/testkit';

export function webhookRequest(clientId: string, endpoint: string, overrides: Partial<webhooks.CreateWebhookRequest> = {}): webhooks.CreateWebhookRequest {
  return { clientId, event: '*', endpoint, version: 1.1, status: true, ...overrides };
}

export async function outboxOf(pool: Pool, clientId: string): Promise<Array<{ subject: string; published: boolean; payload: DomainEvent<Record<string, unknown>> }>> {
  const { rows } = await pool.query(
    `SELECT subject, published_at IS NOT NULL AS published, payload FROM outbox WHERE payload->>'clientId' = $1 ORDER BY seq`,
    [clientId],
  );
  return rows;
}
