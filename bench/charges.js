/**
 * `npm run bench`: starts the platform and measures, in the same run and on the same PostgreSQL server,
 *   (a) the floor: a bare Node HTTP server doing one INSERT per request,
 *   (b) POST /v1/charges through the gateway with a SANDBOX card (authorized and captured), closed loop,
 *   (c) the same at a constant arrival rate (open loop, latency counted from when each request was due), with a webhook receiver: the charges' latency and the time
 *       from each charge's answer to its webhook's delivery,
 *   (d) a mixed scenario (60% one-shot card, 30% saved card, 10% Pix, each with an idempotency key, some sent twice),
 *       then a reconciliation of charges, events and deliveries that finds none missing or doubled,
 * then prints the figures and the ratio b/a, and writes bench/results/latest.json.
 *
 * BENCH_DURATION (seconds, default 15) and BENCH_CONNECTIONS (default 50) tune (a) and (b); BENCH_RATE (default 500)
 * and BENCH_OPEN_SECONDS (default 60) tune (c); BENCH_MIXED (default 3000) is the number of charges of (d).
 * REPLICAS (and REPLICAS_<NAME>) run several processes of each service, as with `npm start`.
 */
const { spawn } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { startNats, startPostgres, freePort, waitForPort } = require('@platform/testkit');
const { launchPlatform, replicaCounts } = require('@platform/devstack');
const { percentile, startReceiver, cpuPer, settle, constantRate, summary } = require('./measure');

const repoRoot = path.resolve(__dirname, '..');
const duration = Number(process.env.BENCH_DURATION ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rate = Number(process.env.BENCH_RATE ?? 500);
const openSeconds = Number(process.env.BENCH_OPEN_SECONDS ?? 60);
const mixedCount = Number(process.env.BENCH_MIXED ?? 3000);

const FLOOR_SERVER = `
const http = require('node:http');
const { Pool } = require('pg');
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    pool.query('INSERT INTO floor (payload) VALUES ($1) RETURNING id', [body]).then(
      (r) => { res.writeHead(201, { 'content-type': 'application/json' }); res.end(JSON.stringify({ id: r.rows[0].id })); },
      () => { res.writeHead(500); res.end(); },
    );
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ duration, connections, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Registers the receiver for Pix charges' `pending` event too; answers the endpoint. */
async function receiverFor(receiver, suffix, post, auth) {
  const endpoint = `${receiver.url}${suffix}`;
  await post('/v1/webhooks', { event: 'pending', endpoint }, auth);
  return endpoint;
}

/**
 * 60% one-shot card, 30% saved card, 10% Pix, each with an idempotency key, 50 at a time; one in twenty is sent again
 * with the same key (a client retrying). Answers each key's charge id as answered (both answers must agree).
 */
async function mixedScenario({ base, auth, post, merchantId, count }) {
  const headers = { ...auth, 'content-type': 'application/json' };
  const oneShot = { cardHolderName: 'Mixed Buyer', cardNumber: '4111111111111111', cardCvv: '120', cardExpirationDate: '12/2035' };
  const customers = [];
  for (let i = 0; i < 20; i += 1) {
    const customer = await post(
      '/v1/customers',
      { name: `Buyer ${i}`, email: `buyer.${i}.${Date.now()}@example.com`, phoneNumber: '11988887777', document: { type: 'cpf', number: String(10_000_000_000 + i * 7919 + (Date.now() % 1000)).slice(0, 11), country: 'BR' } },
      auth,
    );
    const { tokenId } = await post('/v1/tokens', { cardHolderName: 'Mixed Buyer', cardNumber: '5555555555554444', cardCvv: '120', cardExpirationDate: '12/2035' }, auth);
    const saved = await post('/v1/cards', { tokenId }, auth);
    const linked = await fetch(`${base}/v1/customers/${customer.id}/cards`, { method: 'POST', headers, body: JSON.stringify({ cardId: saved.id }) });
    if (linked.status >= 300) throw new Error(`link card: ${linked.status}`);
    customers.push({ customerId: customer.id, cardId: saved.id });
  }
  const bodyOf = (i) => {
    const kind = i % 10;
    if (kind < 6) {
      return { kind: 'one-shot card', body: { merchantId, amount: 1990, paymentMethod: { paymentType: 'credit', installments: 1 }, paymentSource: { sourceType: 'card', card: oneShot } } };
    }
    const buyer = customers[i % customers.length];
    if (kind < 9) return { kind: 'saved card', body: { merchantId, amount: 2990, paymentMethod: { paymentType: 'credit', installments: 1 }, paymentSource: { sourceType: 'customer', customerId: buyer.customerId, cardId: buyer.cardId } } };
    return { kind: 'pix', body: { merchantId, amount: 990, paymentMethod: { paymentType: 'pix', expiresIn: 3600 }, paymentSource: { sourceType: 'customer', customerId: buyer.customerId } } };
  };
  const answered = new Map();
  let retried = 0;
  let next = 0;
  const started = Date.now();
  const send = async (i, key, body) => {
    const r = await fetch(`${base}/v1/charges`, { method: 'POST', headers: { ...headers, 'x-idempotency-key': key }, body: JSON.stringify(body) });
    const text = await r.text();
    if (r.status !== 201) throw new Error(`mixed charge ${i}: ${r.status} ${text}`);
    return JSON.parse(text).id;
  };
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const { kind, body } = bodyOf(i);
      const key = `mixed-${started}-${i}`;
      const id = await send(i, key, body);
      const entry = { id, kind, again: null };
      if (i % 20 === 7) {
        entry.again = await send(i, key, body);
        retried += 1;
      }
      answered.set(key, entry);
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  return { answered, retried, requestsPerSecond: Math.round((count + retried) / ((Date.now() - started) / 1000)) };
}

/** Every answered charge once in the database, with its one event, delivered once to the receiver. */
async function reconcile({ query, clientId, answered, receiver }) {
  const ids = [...answered.values()].map((a) => a.id);
  const replayDiffers = [...answered.values()].filter((a) => a.again !== null && a.again !== a.id).length;
  const stored = await query('payments', 'SELECT id::text, count(*)::int AS n FROM charges WHERE client_id = $1 AND id = ANY($2::uuid[]) GROUP BY id', [clientId, ids]);
  const storedIds = new Set(stored.map((r) => r.id));
  const events = await query(
    'payments',
    `SELECT payload->'data'->>'id' AS id, count(*)::int AS n FROM outbox
     WHERE payload->>'clientId' = $1 AND payload->>'type' IN ('payments.charge.authorized', 'payments.charge.pending') AND payload->'data'->>'id' = ANY($2::text[])
     GROUP BY 1`,
    [clientId, ids],
  );
  const eventCount = new Map(events.map((e) => [e.id, e.n]));
  const deliveredByCharge = new Map();
  for (const d of receiver.deliveries.values()) {
    if (d.chargeId) deliveredByCharge.set(d.chargeId, (deliveredByCharge.get(d.chargeId) ?? 0) + d.count);
  }
  const kinds = {};
  for (const a of answered.values()) kinds[a.kind] = (kinds[a.kind] ?? 0) + 1;
  return {
    charges: ids.length,
    byKind: Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(', '),
    missingCharges: ids.filter((id) => !storedIds.has(id)).length,
    doubledCharges: stored.filter((r) => r.n > 1).length + replayDiffers + (new Set(ids).size !== ids.length ? 1 : 0),
    missingEvents: ids.filter((id) => !eventCount.has(id)).length,
    doubledEvents: events.filter((e) => e.n > 1).length,
    missingDeliveries: ids.filter((id) => !deliveredByCharge.has(id)).length,
    doubledDeliveries: [...deliveredByCharge.values()].filter((n) => n > 1).length,
  };
}

/**
 * Where a webhook's time goes, from the rows each step leaves: the charge's commit (its outbox row), the relay's
 * publish, the fan-out (the delivery row), the first attempt, and the receiver. Answers p50/p99 of each step, ms.
 */
async function webhookStages({ query, clientId, receiver }) {
  const events = await query(
    'payments',
    `SELECT id::text, (extract(epoch FROM created_at) * 1000)::float8 AS committed, (extract(epoch FROM published_at) * 1000)::float8 AS published
     FROM outbox WHERE payload->>'clientId' = $1 AND payload->>'type' = 'payments.charge.authorized'`,
    [clientId],
  );
  const deliveries = await query(
    'webhooks',
    `SELECT d.event_id::text, (extract(epoch FROM d.created_at) * 1000)::float8 AS fanned, (extract(epoch FROM min(a.attempted_at)) * 1000)::float8 AS attempted
     FROM deliveries d LEFT JOIN delivery_attempts a ON a.delivery_id = d.id WHERE d.client_id = $1 GROUP BY d.id`,
    [clientId],
  );
  const byEvent = new Map(deliveries.map((d) => [d.event_id, d]));
  const steps = { relay: [], fanOut: [], queue: [], send: [] };
  for (const e of events) {
    const d = byEvent.get(e.id);
    const received = receiver.deliveries.get(e.id)?.at;
    if (!d || !d.attempted || !e.published || received === undefined) continue;
    steps.relay.push(e.published - e.committed);
    steps.fanOut.push(d.fanned - e.published);
    steps.queue.push(d.attempted - d.fanned);
    steps.send.push(received - d.attempted);
  }
  return Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, { p50Ms: Math.round(percentile(v, 50)), p99Ms: Math.round(percentile(v, 99)) }]));
}

async function main() {
  const quiet = () => undefined;
  // Durable like production (fsync, synchronous commit): both runs pay the same price for each commit.
  const [postgres, nats] = await Promise.all([startPostgres({ durable: true }), startNats()]);
  const children = [];
  let platform;
  try {
    // (a) the floor, on a database of its own on the same server
    const floorUrl = await postgres.ensureDatabase('bench_floor');
    const admin = new Client({ connectionString: floorUrl });
    await admin.connect();
    await admin.query('CREATE TABLE IF NOT EXISTS floor (id BIGSERIAL PRIMARY KEY, payload TEXT NOT NULL, created_at TIMESTAMPTZ DEFAULT now())');
    await admin.end();
    const floorPort = await freePort();
    const floor = spawn(process.execPath, ['-e', FLOOR_SERVER], {
      env: { ...process.env, DATABASE_URL: floorUrl, PORT: String(floorPort), NODE_PATH: path.join(repoRoot, 'node_modules') },
      stdio: 'inherit',
    });
    children.push(floor);
    await waitForPort(floorPort);

    // (b) the platform
    const databases = new Map();
    platform = await launchPlatform({
      repoRoot,
      ensureDatabase: async (name) => {
        const url = await postgres.ensureDatabase(name);
        databases.set(name.replace(/^.*?(payments|webhooks)$/, '$1'), url);
        return url;
      },
      natsUrl: nats.url,
      logLevel: 'warn',
      // REPLICAS=3 (or REPLICAS_PAYMENTS=...) measures several processes of each service, as `npm start` runs them.
      replicas: replicaCounts(process.env),
      // One client sends everything here: the gateway's per-client limits would measure themselves, not the path.
      env: { RATE_LIMIT_ENABLED: 'false', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' },
      onLine: quiet,
      // BENCH_PROFILE=<dir> writes a V8 CPU profile of every service and the gateway there, at stop.
      nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
    });
    const base = platform.gatewayUrl;
    const post = async (route, body, headers) => {
      // The admin API has a listener of its own.
      const r = await fetch(`${route.startsWith('/admin/') ? platform.adminUrl : base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      if (r.status >= 300) throw new Error(`${route}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    const client = await post('/admin/v1/clients', { name: 'Bench', environment: 'sandbox' }, { 'x-admin-token': platform.adminToken });
    const auth = { 'x-client-id': client.clientId, 'x-api-key': client.apiKey };
    const merchant = await post(
      '/v1/merchants',
      { mcc: '5999', name: 'Bench store', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
      auth,
    );
    const charge = {
      merchantId: merchant.id,
      amount: 1990,
      currency: 'BRL',
      capture: true,
      paymentMethod: { paymentType: 'credit', installments: 1 },
      paymentSource: {
        sourceType: 'card',
        card: { cardHolderName: 'Bench Buyer', cardNumber: '4111111111111111', cardCvv: '120', cardExpirationDate: '12/2035' },
      },
    };
    await post('/v1/charges', charge, auth);

    process.stdout.write(`floor: ${duration}s, ${connections} connections...\n`);
    const a = summary('floor: bare Node HTTP + one INSERT', await load({ url: `http://127.0.0.1:${floorPort}/`, method: 'POST', body: '{"amount":1990}' }));
    process.stdout.write(`charges: ${duration}s, ${connections} connections...\n`);
    const closed = await cpuPer(platform, async () => {
      const result = await load({ url: `${base}/v1/charges`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(charge) });
      return { result, units: result.requests.total };
    });
    const b = summary('POST /v1/charges (gateway, SANDBOX card)', closed.result);
    b.cpuMsPerCharge = closed.cpuMsPerUnit;
    const ratio = Math.round((b.requestsPerSecond / a.requestsPerSecond) * 100) / 100;

    // The webhooks service catches up with the closed loop's events before the open loop starts.
    const query = async (database, sql, values = []) => {
      const db = new Client({ connectionString: databases.get(database) });
      await db.connect();
      try {
        return (await db.query(sql, values)).rows;
      } finally {
        await db.end();
      }
    };
    const eventCounts = async () => [
      (await query('payments', 'SELECT count(*)::int AS n FROM outbox WHERE published_at IS NOT NULL'))[0].n,
      (await query('webhooks', 'SELECT count(*)::int AS n FROM processed_events'))[0].n,
    ];
    await settle(eventCounts);

    // (c) the open loop: a constant arrival rate, and a receiver of every authorized charge's webhook
    const receiver = await startReceiver();
    await post('/v1/webhooks', { event: 'authorized', endpoint: `${receiver.url}/authorized` }, auth);
    const answeredAt = new Map();
    process.stdout.write(`open loop: ${rate} charges/s for ${openSeconds}s...\n`);
    const open = await constantRate({
      url: `${base}/v1/charges`,
      rate,
      seconds: openSeconds,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(charge),
      onAnswer: (text) => answeredAt.set(JSON.parse(text).id, Date.now()),
    });
    // Deliveries still under way are waited for (at most 30 s) before the latency is read.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      const deliveredCharges = new Set([...receiver.deliveries.values()].map((d) => d.chargeId));
      const delivered = [...answeredAt.keys()].filter((id) => deliveredCharges.has(id)).length;
      if (delivered >= answeredAt.size) break;
      await sleep(500);
    }
    const deliveredAt = new Map([...receiver.deliveries.values()].map((d) => [d.chargeId, d.at]));
    const webhookLatencies = [...answeredAt].filter(([id]) => deliveredAt.has(id)).map(([id, at]) => Math.max(0, deliveredAt.get(id) - at));
    const stages = await webhookStages({ query, clientId: client.clientId, receiver });
    const c = {
      name: `POST /v1/charges at ${rate}/s (constant arrival rate, ${openSeconds}s)`,
      requestsPerSecond: Math.round(open.sent / open.seconds),
      p50Ms: Math.round(percentile(open.latencies, 50)),
      p99Ms: Math.round(percentile(open.latencies, 99)),
      requests: open.sent,
      failed: open.failed,
      sentPerSecond: Math.round(open.sent / openSeconds),
      webhooks: { expected: answeredAt.size, delivered: webhookLatencies.length, p50Ms: percentile(webhookLatencies, 50), p99Ms: percentile(webhookLatencies, 99), stages },
    };
    await settle(eventCounts);

    // (d) the mixed scenario, then the reconciliation
    const pending = await receiverFor(receiver, '/pending', post, auth);
    const mixed = await mixedScenario({ base, auth, post, merchantId: merchant.id, count: mixedCount });
    await settle(eventCounts);
    const d = await reconcile({ query, clientId: client.clientId, answered: mixed.answered, receiver, pendingEndpoint: pending });
    d.requestsPerSecond = mixed.requestsPerSecond;
    d.retriedWithSameKey = mixed.retried;
    receiver.server.close();

    const result = { date: new Date().toISOString(), durationSeconds: duration, connections, floor: a, charges: b, ratio, openLoop: c, mixed: d };
    mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    writeFileSync(path.join(__dirname, 'results', 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);

    const row = (s) => `| ${s.name} | ${s.requestsPerSecond} | ${s.p50Ms} | ${s.p99Ms} | ${s.requests} | ${s.failed} |`;
    process.stdout.write(
      [
        '',
        '| run | requests/s | p50 ms | p99 ms | requests | non-2xx or errors |',
        '|---|---|---|---|---|---|',
        row(a),
        row(b),
        row(c),
        '',
        `ratio b/a: ${ratio}`,
        `CPU per charge in the closed loop (ms): total ${Math.round(Object.values(b.cpuMsPerCharge).reduce((x, y) => x + y, 0) * 100) / 100}; ${Object.entries(b.cpuMsPerCharge).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        `open loop: ${c.sentPerSecond} charges/s sent; webhooks delivered ${c.webhooks.delivered} of ${c.webhooks.expected}, p50 ${c.webhooks.p50Ms} ms, p99 ${c.webhooks.p99Ms} ms after the charge's answer`,
        `  webhook steps p50/p99 ms: ${Object.entries(c.webhooks.stages).map(([k, v]) => `${k} ${v.p50Ms}/${v.p99Ms}`).join(', ')} (relay: commit to publish; fanOut: publish to delivery row; queue: to first attempt; send: to the receiver)`,
        `mixed: ${d.charges} charges (${d.byKind}), ${d.retriedWithSameKey} sent twice with the same key, ${d.requestsPerSecond}/s; ` +
          `missing charges ${d.missingCharges}, doubled charges ${d.doubledCharges}, charges without their event ${d.missingEvents}, doubled events ${d.doubledEvents}, ` +
          `events not delivered ${d.missingDeliveries}, deliveries doubled ${d.doubledDeliveries}`,
        '',
      ].join('\n'),
    );
  } finally {
    await platform?.stop();
    for (const c of children) c.kill('SIGTERM');
    await nats.stop();
    await postgres.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
