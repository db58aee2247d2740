import { randomInt, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { connect, DeliverPolicy, type NatsConnection } from 'nats';
import { Client } from 'pg';
import { SERVICES, type ServiceName } from '@platform/catalog';
import { checkGrpcHealth, EVENTS_STREAM, type DomainEvent } from '@platform/kit';
import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type ApiResponse, type TestPlatform } from './platform';
import { WebhookReceiver, type Delivered } from './receiver';

/**
 * Several processes of every service on the same databases and NATS, under a steady load of charges, payment links,
 * subscriptions advancing, payouts settling and webhooks delivering, while one process of each service is killed
 * with SIGKILL at random moments and started again. Then the books are reconciled from the databases and JetStream.
 *
 * REPLICA_SUITE_SECONDS (default 30) is how long the load runs, REPLICA_SUITE_REPLICAS (default 2) how many processes
 * of each service, REPLICA_SUITE_KILL_EVERY_SECONDS (default 10) the mean time between two kills of one service.
 * The long run: REPLICA_SUITE_SECONDS=600 REPLICA_SUITE_REPLICAS=3 npx jest test/e2e/replicas.e2e.test.ts
 */
const SECONDS = Number(process.env.REPLICA_SUITE_SECONDS ?? 30);
const REPLICAS = Number(process.env.REPLICA_SUITE_REPLICAS ?? 2);
const KILL_EVERY_MS = Number(process.env.REPLICA_SUITE_KILL_EVERY_SECONDS ?? 10) * 1000;
const DAY = 86_400_000;
/** 409s that say "not now": the same work under way elsewhere. */
const RETRY_LATER = ['idempotency_request_in_progress', 'cycle_in_progress', 'subscription_advance_in_progress'];
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts');

type Json = Record<string, unknown>;
const expiration = `12/${new Date().getUTCFullYear() + 5}`;
const card = (ending: string) => ({ cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(ending), cardCvv: '870', cardExpirationDate: expiration });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Answers every delivery 200 and keeps its webhook-id (the event's id). */
class Receiver extends WebhookReceiver<Delivered & { eventId: string }> {
  protected receive(request: Delivered, res: ServerResponse) {
    res.end();
    return { ...request, eventId: String(request.headers['webhook-id']) };
  }
}

/** What the suite saw and must find in the books afterwards. */
interface Ledger {
  /** Charges: idempotency key (also the order id) -> the charge id answered, with its installments. */
  charges: Map<string, { id: string; installments: number }>;
  /** Sessions created (answered 201) and those whose payment was answered. */
  sessions: Set<string>;
  paidSessions: Set<string>;
  /** Subscription id -> cycles billed, as the last answered advance said. */
  subscriptions: Map<string, number>;
  /** The last date payouts were settled to. */
  settledTo?: string;
  requests: number;
  retried: number;
}

describe('every service runs as several replicas, killed at random, and the books still balance', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let nc: NatsConnection;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    platform = await startTestPlatform(
      'e2ereplicas',
      { RATE_LIMIT_ENABLED: 'false', WEBHOOKS_RETRY_SCHEDULE: Array(30).fill('500ms').join(','), PROVIDER_TIMEOUT_MS: '4000' },
      'warn',
      { heal: true, replicas: REPLICAS },
    );
    api = apiClient(platform.gatewayUrl);
    nc = await connect({ servers: platform.nats!.url });
  }, 300_000);

  afterAll(async () => {
    await nc?.drain();
    // What every process logged (warnings and worse), to read after a failure: test/artifacts/replicas.log.
    if (platform) {
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(path.join(ARTIFACTS, 'replicas.log'), `${platform.healing().join('\n')}\n${platform.output()}\n`);
    }
    await platform?.stop();
    await receiver.stop();
  }, 120_000);

  /**
   * A client's call, retried as a client would while the platform cannot answer (5xx, a connection reset, 409 while
   * an earlier attempt with the same idempotency key, or a job billing the same cycle, is still at work): the answer
   * is the first other one.
   */
  const call = async <T = Json>(ledger: Ledger, method: string, route: string, options: Parameters<typeof api>[2]): Promise<ApiResponse<T>> => {
    for (let attempt = 0; ; attempt++) {
      ledger.requests += 1;
      const response = await api<T>(method, route, options).catch(() => undefined);
      const retry = !response || response.status >= 500 || (response.status === 409 && RETRY_LATER.includes(String((response.body as { error?: { businessCode?: string } }).error?.businessCode)));
      if (!retry) return response;
      if (attempt > 400) throw new Error(`${method} ${route}: no answer after ${attempt} attempts (last ${response?.status})`);
      ledger.retried += 1;
      await sleep(250);
    }
  };

  it('loses nothing, doubles nothing, and delivers every event', async () => {
    const ledger: Ledger = { charges: new Map(), sessions: new Set(), paidSessions: new Set(), subscriptions: new Map(), requests: 0, retried: 0 };
    // One client per domain, so each one's rows can be counted on their own.
    const shop = await createClient(platform.adminUrl, platform.adminToken, 'Replica Charges');
    const links = await createClient(platform.adminUrl, platform.adminToken, 'Replica Links');
    const club = await createClient(platform.adminUrl, platform.adminToken, 'Replica Club');
    const clients = [shop, links, club];
    // Every process started on the first try, the migrations of each service run by whichever came first.
    const crashedAtStart = platform.healing();
    const merchants = new Map<string, string>();
    for (const who of clients) {
      const merchant = await call<{ id: string }>(ledger, 'POST', '/v1/merchants', {
        auth: who,
        body: { mcc: '5999', name: 'Loja Replica', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
      });
      expect(merchant.status).toBe(201);
      merchants.set(who.clientId, merchant.body.id);
      const webhook = await call(ledger, 'POST', '/v1/webhooks', { auth: who, body: { event: '*', endpoint: receiver.endpoint(), version: 1.1, status: true } });
      expect(webhook.status).toBe(201);
    }
    // The events from here on go to the webhooks registered above (the setup's own have been relayed by now).
    await sleep(2000);
    const eventsFrom = Date.now();

    // Subscriptions of the club, each on a saved card that authorizes, their first cycle billed before the load.
    for (let i = 0; i < 3; i++) {
      const n = String(randomInt(10_000_000_000, 99_999_999_999));
      const customer = await call<{ id: string }>(ledger, 'POST', '/v1/customers', {
        auth: club,
        body: { name: 'Ana Souza', email: `ana.${n}@example.com`, phoneNumber: '11988887777', document: { type: 'cpf', number: n, country: 'BR' } },
      });
      const token = await call<{ tokenId: string }>(ledger, 'POST', '/v1/tokens', { auth: club, body: card('1') });
      const saved = await call<{ id: string }>(ledger, 'POST', '/v1/cards', { auth: club, body: { tokenId: token.body.tokenId } });
      expect((await call(ledger, 'POST', `/v1/customers/${customer.body.id}/cards`, { auth: club, body: { cardId: saved.body.id } })).status).toBe(204);
      const subscription = await call<{ id: string }>(ledger, 'POST', '/v1/subscriptions', {
        auth: club,
        body: {
          name: 'Coffee club',
          merchantId: merchants.get(club.clientId),
          customerId: customer.body.id,
          items: [{ name: 'Beans 1 kg', amount: 4_500, quantity: 1 }],
          recurrence: { interval: 'monthly' },
          paymentMethod: { type: 'credit', card: { cardId: saved.body.id }, installments: 1 },
        },
      });
      expect(subscription.status).toBe(201);
      const billed = await eventually(
        async () => {
          const current = await api<{ cyclesBilled: number }>('GET', `/v1/subscriptions/${subscription.body.id}`, { auth: club });
          return current.body.cyclesBilled === 1 ? current.body : undefined;
        },
        'the first cycle billed',
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      ledger.subscriptions.set(subscription.body.id, billed.cyclesBilled);
    }

    // The load, for SECONDS, with one process of each service killed at random moments meanwhile.
    const until = Date.now() + SECONDS * 1000;
    const running = () => Date.now() < until;
    const loops: Array<Promise<void>> = [];
    // Charges: card charges captured at once, in 1 to 3 installments, each with its idempotency key as order id.
    for (let worker = 0; worker < 2; worker++) {
      loops.push(
        (async () => {
          while (running()) {
            const key = `replica-${randomUUID()}`;
            const installments = randomInt(1, 4);
            const charge = await call<{ id: string; status: string }>(ledger, 'POST', '/v1/charges', {
              auth: shop,
              headers: { 'x-idempotency-key': key },
              body: {
                merchantId: merchants.get(shop.clientId),
                amount: 1_000 + randomInt(9_000),
                orderId: key,
                capture: true,
                paymentMethod: { paymentType: 'credit', installments },
                paymentSource: { sourceType: 'card', card: card('0') },
              },
            });
            expect([charge.status, charge.body.status]).toEqual([201, 'authorized']);
            ledger.charges.set(key, { id: charge.body.id, installments });
          }
        })(),
      );
    }
    // Payment links: created, then paid once by a buyer with the link's key.
    loops.push(
      (async () => {
        while (running()) {
          const created = await api<{ id: string; publicKey: string }>('POST', '/v1/sessions', {
            auth: links,
            body: { merchantId: merchants.get(links.clientId), name: 'Blue mugs', paymentMethods: [{ paymentType: 'credit' }], items: [{ name: 'Blue mug', unitPrice: 2500, quantity: 2 }] },
          }).catch(() => undefined);
          ledger.requests += 1;
          // A create without an answer is not the client's to count (sessions take no idempotency key): it tries again.
          if (created?.status !== 201) {
            ledger.retried += 1;
            await sleep(250);
            continue;
          }
          ledger.sessions.add(created.body.id);
          // One idempotency key per payment attempt, as the checkout page keeps it: a retry after a crash finds the
          // attempt and its charge, so the answer is the payment, never the paid link's 422.
          const paid = await call<{ status?: string; error?: { businessCode?: string } }>(ledger, 'POST', `/v1/sessions/${created.body.id}/charge`, {
            auth: { clientId: links.clientId, apiKey: created.body.publicKey },
            headers: { 'x-idempotency-key': `pay-${created.body.id}` },
            body: { paymentMethod: { paymentType: 'credit', installments: 1 }, paymentSource: { sourceType: 'card', card: card('0') } },
          });
          expect([paid.status, paid.body.error?.businessCode]).toEqual([201, undefined]);
          ledger.paidSessions.add(created.body.id);
        }
      })(),
    );
    // Subscriptions: each advanced one month at a time, in turn.
    loops.push(
      (async () => {
        while (running()) {
          for (const id of ledger.subscriptions.keys()) {
            const current = await call<{ nextBillingAt: string }>(ledger, 'GET', `/v1/subscriptions/${id}`, { auth: club });
            const to = new Date(Date.parse(current.body.nextBillingAt) + 1_000).toISOString();
            const advanced = await call<{ cyclesBilled: number }>(ledger, 'POST', `/v1/subscriptions/${id}/sandbox/advance`, { auth: club, body: { to } });
            expect(advanced.status).toBe(200);
            ledger.subscriptions.set(id, advanced.body.cyclesBilled);
          }
          await sleep(1000);
        }
      })(),
    );
    // Payouts: the shop's receivables settled a week further each time.
    loops.push(
      (async () => {
        let date = Date.now() + 31 * DAY;
        while (running()) {
          const settled = await call(ledger, 'POST', '/v1/payouts/sandbox/advance', { auth: shop, body: { date: isoDate(date) } });
          expect(settled.status).toBe(200);
          ledger.settledTo = isoDate(date);
          date += 7 * DAY;
          await sleep(2000);
        }
      })(),
    );
    // The killer: for each service, SIGKILL one of its processes at a random moment; it is started again by the
    // launcher's supervision, and once it serves, another one goes at another random moment.
    const kills: Record<string, number> = {};
    for (const service of SERVICES) {
      kills[service.name] = 0;
      loops.push(
        (async () => {
          for (;;) {
            await sleep(randomInt(Math.max(1, KILL_EVERY_MS / 2), KILL_EVERY_MS * 1.5));
            if (!running()) return;
            const replicas = platform.replicas[service.name];
            const victim = replicas[randomInt(replicas.length)]!;
            const restarts = victim.process.restarts();
            await victim.process.kill('SIGKILL');
            kills[service.name] = (kills[service.name] ?? 0) + 1;
            // The next kill of this service waits until this process serves again: one replica down at a time.
            await eventually(
              async () => (victim.process.restarts() > restarts && (await checkGrpcHealth(victim.address)) === 'SERVING' ? true : undefined),
              `${victim.name} serving again`,
              { timeoutMs: 120_000, intervalMs: 250 },
            );
          }
        })(),
      );
    }
    await Promise.all(loops);

    // Every killed process is back.
    await eventually(
      async () => {
        // The gateway is ready (200) with a service down too; `ok` is every upstream serving.
        const res = await fetch(`${platform.gatewayUrl}/health`).catch(() => undefined);
        const body = res?.status === 200 ? ((await res.json()) as { status: string }) : undefined;
        return body?.status === 'ok' ? true : undefined;
      },
      'every service serving',
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    for (const service of SERVICES) for (const replica of platform.replicas[service.name]) expect([replica.name, replica.process.running()]).toEqual([replica.name, true]);

    // Payouts settle once more far ahead, once every charge's receivables are in the ledger.
    const expectedReceivables = [...ledger.charges.values()].reduce((sum, c) => sum + c.installments, 0);
    const payouts = await db('payouts-and-prepayment');
    const payments = await db('payments');
    const sessions = await db('sessions');
    const webhooks = await db('webhooks');
    try {
      await eventually(
        async () => {
          const { rows } = await payouts.query<{ n: number }>('SELECT count(*)::int AS n FROM receivables WHERE client_id = $1', [shop.clientId]);
          return rows[0]!.n >= expectedReceivables ? true : undefined;
        },
        'every receivable in the ledger',
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      const final = isoDate(Date.now() + 400 * DAY);
      expect((await call(ledger, 'POST', '/v1/payouts/sandbox/advance', { auth: shop, body: { date: final } })).status).toBe(200);

      // Charges: every acknowledged one once, under its key, and no other.
      const charges = await payments.query<{ order_id: string; id: string; n: number }>(
        'SELECT order_id, min(id::text) AS id, count(*)::int AS n FROM charges WHERE client_id = $1 GROUP BY order_id',
        [shop.clientId],
      );
      expect(charges.rows.filter((r) => r.n !== 1)).toEqual([]);
      expect(new Map(charges.rows.map((r) => [r.order_id, r.id]))).toEqual(new Map([...ledger.charges].map(([key, c]) => [key, c.id])));

      // Payment links: each created one there once, each paid one paid by one charge, and no link paid twice.
      const links_ = await sessions.query<{ id: string; status: string; paid: number }>(
        `SELECT s.id, s.status, count(c.*) FILTER (WHERE c.state = 'paid')::int AS paid
           FROM sessions s LEFT JOIN session_charges c ON c.session_id = s.id WHERE s.client_id = $1 GROUP BY s.id, s.status`,
        [links.clientId],
      );
      const byId = new Map(links_.rows.map((r) => [r.id, r]));
      for (const id of ledger.sessions) expect(byId.has(id)).toBe(true);
      expect(links_.rows.filter((r) => r.paid > 1)).toEqual([]);
      expect([...ledger.paidSessions].filter((id) => byId.get(id)?.paid !== 1 || byId.get(id)?.status !== 'paid')).toEqual([]);
      // ...and payments made one charge per link: a retried attempt was answered with its first charge.
      const linkCharges = await payments.query<{ session_id: string; n: number }>(
        'SELECT session_id, count(*)::int AS n FROM charges WHERE client_id = $1 GROUP BY session_id HAVING count(*) > 1',
        [links.clientId],
      );
      expect(linkCharges.rows).toEqual([]);

      // Subscriptions: every cycle billed once, by one charge, and no charge of the club's outside a cycle.
      const cycles = await payments.query<{ subscription_id: string; billed: number; doubled: number }>(
        `SELECT c.subscription_id, count(*) FILTER (WHERE a.paid > 0)::int AS billed, count(*) FILTER (WHERE a.paid > 1)::int AS doubled
           FROM subscription_cycles c
           LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE status = 'authorized') AS paid FROM subscription_cycle_attempts WHERE cycle_id = c.id) a ON true
          WHERE c.client_id = $1 GROUP BY c.subscription_id`,
        [club.clientId],
      );
      expect(new Map(cycles.rows.map((r) => [r.subscription_id, [r.billed, r.doubled]]))).toEqual(new Map([...ledger.subscriptions].map(([id, billed]) => [id, [billed, 0]])));
      const clubCharges = await payments.query<{ charges: number; attempts: number }>(
        `SELECT (SELECT count(*)::int FROM charges WHERE client_id = $1) AS charges,
                (SELECT count(DISTINCT charge_id)::int FROM subscription_cycle_attempts WHERE client_id = $1 AND charge_id IS NOT NULL) AS attempts`,
        [club.clientId],
      );
      const billedCycles = [...ledger.subscriptions.values()].reduce((a, b) => a + b, 0);
      expect(clubCharges.rows[0]).toEqual({ charges: billedCycles, attempts: billedCycles });

      // Payouts: every receivable settled, in one order of one paid batch, and each batch the sum of its orders.
      const receivables = await payouts.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM receivables WHERE client_id = $1 GROUP BY status', [shop.clientId]);
      expect(receivables.rows).toEqual([{ status: 'settled', n: expectedReceivables }]);
      const orders = await payouts.query<{ receivable_id: string; n: number }>(
        `SELECT receivable_id, count(*)::int AS n FROM payment_orders WHERE client_id = $1 AND type = 'authorization' GROUP BY receivable_id`,
        [shop.clientId],
      );
      expect(orders.rows.length).toBe(expectedReceivables);
      expect(orders.rows.filter((r) => r.n !== 1)).toEqual([]);
      const batches = await payouts.query<{ id: string; status: string; amount: string; orders: string }>(
        `SELECT b.id, b.status, b.amount::text, coalesce(sum(o.amount), 0)::text AS orders
           FROM payment_batches b LEFT JOIN payment_orders o ON o.batch_id = b.id WHERE b.client_id = $1 GROUP BY b.id`,
        [shop.clientId],
      );
      expect(batches.rows.length).toBeGreaterThan(0);
      expect(batches.rows.filter((b) => b.status !== 'paid' || b.amount !== b.orders)).toEqual([]);

      // Events: the clients' events in JetStream, each delivered at least once to its webhook, and none of the
      // changes that happen once (a charge authorized, a link paid, a cycle paid, a batch paid) under two ids.
      const ours = new Set(clients.map((c) => c.clientId));
      const events = await eventsOf(nc, ours, eventsFrom);
      expect(events.length).toBeGreaterThan(ledger.charges.size);
      const once = ['payments.charge.authorized', 'sessions.session.paid', 'subscriptions.subscription.cycle_paid', 'payouts.payment_batch.paid', 'sessions.session.created'];
      const ids = new Map<string, Set<string>>();
      for (const event of events) {
        if (!once.includes(event.type)) continue;
        const key = `${event.type} ${(event.data as { id: string }).id}`;
        ids.set(key, (ids.get(key) ?? new Set()).add(event.id));
      }
      expect([...ids].filter(([, set]) => set.size > 1).map(([key]) => key)).toEqual([]);
      expect([...ids.keys()].filter((k) => k.startsWith('payments.charge.authorized')).length).toBeGreaterThanOrEqual(ledger.charges.size);
      expect([...ids.keys()].filter((k) => k.startsWith('subscriptions.subscription.cycle_paid')).length).toBe(billedCycles);
      const published = new Set(events.map((e) => e.id));
      await eventually(
        async () => {
          const delivered = new Set(receiver.requests.map((r) => r.eventId));
          return [...published].every((id) => delivered.has(id)) ? true : undefined;
        },
        'every event delivered',
        { timeoutMs: 120_000, intervalMs: 1000 },
      );
      const deliveries = await webhooks.query<{ n: number; events: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS events FROM deliveries WHERE event_id = ANY($1::uuid[])',
        [[...published]],
      );
      expect(deliveries.rows[0]).toEqual({ n: published.size, events: published.size });

      // Jobs: none gave up, and none is left locked by a process that died. Outboxes: every event went out.
      for (const service of SERVICES) {
        const jobs = await db(service.name);
        try {
          await eventually(
            async () => {
              const { rows } = await jobs.query<{ failed: number; locked: number; unpublished: number }>(
                `SELECT count(*) FILTER (WHERE attempts >= max_attempts)::int AS failed, count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS locked,
                        (SELECT count(*)::int FROM outbox WHERE published_at IS NULL) AS unpublished
                   FROM graphile_worker._private_jobs`,
              );
              return rows[0]!.failed === 0 && rows[0]!.locked === 0 && rows[0]!.unpublished === 0 ? true : undefined;
            },
            `${service.name}: no failed or stuck job, no event left in the outbox`,
            { timeoutMs: 60_000, intervalMs: 1000 },
          );
        } finally {
          await jobs.end();
        }
      }

      // Migrations: every file recorded once; the processes started together on empty databases, and none crashed
      // at start (a migration run twice fails: its tables exist), so each file ran once, under the lock.
      expect(crashedAtStart).toEqual([]);
      for (const service of SERVICES) {
        const files = migrationFiles(service.name);
        const conn = await db(service.name);
        try {
          const { rows } = await conn.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
          expect([service.name, rows.map((r) => r.name)]).toEqual([service.name, files]);
        } finally {
          await conn.end();
        }
      }

      const killed = Object.values(kills).reduce((a, b) => a + b, 0);
      process.stdout.write(
        `replica suite: ${REPLICAS} replicas of each service, ${SECONDS} s of load, ${killed} SIGKILLs (${Object.entries(kills)
          .map(([name, n]) => `${name} ${n}`)
          .join(', ')}); ${ledger.requests} requests (${ledger.retried} retried); ${ledger.charges.size} charges, ${ledger.sessions.size} links (${ledger.paidSessions.size} paid), ` +
          `${billedCycles} cycles billed, ${expectedReceivables} receivables settled in ${batches.rows.length} batches, ${published.size} events delivered ` +
          `(${receiver.requests.length} deliveries); every check passed\n`,
      );
      expect(killed).toBeGreaterThanOrEqual(SERVICES.length);
    } finally {
      await Promise.all([payouts.end(), payments.end(), sessions.end(), webhooks.end()]);
    }
  }, (SECONDS + 600) * 1000);

  async function db(service: ServiceName): Promise<Client> {
    const database = SERVICES.find((s) => s.name === service)!.database;
    const conn = new Client({ connectionString: platform.databaseUrl(database) });
    await conn.connect();
    return conn;
  }

  /** The kit's migrations and the service's, as schema_migrations names them. */
  function migrationFiles(service: ServiceName): string[] {
    const root = path.resolve(__dirname, '..', '..');
    const of = (dir: string, scope: string) => readdirSync(dir).filter((f) => f.endsWith('.sql')).map((f) => `${scope}/${f}`);
    return [...of(path.join(root, 'packages', 'kit', 'migrations'), 'kit'), ...of(path.join(root, 'services', service, 'migrations'), service)].sort();
  }

  /** Every event of these clients that reached the stream since `from`. */
  async function eventsOf(conn: NatsConnection, clientIds: Set<string>, from: number): Promise<DomainEvent[]> {
    const consumer = await conn.jetstream().consumers.get(EVENTS_STREAM, { deliver_policy: DeliverPolicy.StartTime, opt_start_time: new Date(from).toISOString() });
    const events: DomainEvent[] = [];
    for (;;) {
      const batch = await consumer.fetch({ max_messages: 1000, expires: 2000 });
      let count = 0;
      for await (const m of batch) {
        count += 1;
        const event = JSON.parse(Buffer.from(m.data).toString()) as DomainEvent;
        if (clientIds.has(event.clientId)) events.push(event);
      }
      if (count === 0) return events;
    }
  }
});
