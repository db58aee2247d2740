/**
 * `npm run bench`: starts the platform and measures, in the same run and on the same PostgreSQL server,
 *   (a) the floor: a bare Node HTTP server doing one INSERT per request,
 *   (b) POST /v1/charges through the gateway with a SANDBOX card (authorized and captured), closed loop,
 *   (c) the same at a constant arrival rate (open loop, latency counted from when each request was due), with a webhook receiver: the charges' latency and the time
 *       from each charge's answer to its webhook's delivery,
 *   (d) a mixed scenario (60% one-shot card, 30% saved card, 10% Pix, each with an idempotency key, some sent twice),
 *       then a reconciliation of charges, events and deliveries that finds none missing or doubled,
 * then prints the figures and the ratio b/a, and writes bench/results/latest.json. Alongside:
 *   - the CPU per request of the floor (its process, its database's backends and PostgreSQL's own processes, during
 *     (a)) and per charge of every process (during (b)), and the one as a multiple of the other;
 *   - PostgreSQL's work per charge in each service database during (b): transactions, rows and blocks
 *     (pg_stat_database) and statements (pg_stat_statements), beside what the idle platform does there meanwhile;
 *   - resident memory of every process once started, before any load, and of the whole platform during (c);
 *   - the queues during (c), sampled every second: each outbox (unpublished events, oldest age), each JetStream
 *     consumer of the events stream (pending and unacknowledged), each job queue (due jobs waiting, oldest wait),
 *     and whether each is flat at the end of the run (not growing);
 *   - the issue's targets and whether this run meets them.
 *
 * BENCH_DURATION (seconds, default 15) and BENCH_CONNECTIONS (default 50) tune (a) and (b); BENCH_RATE (default 250)
 * and BENCH_OPEN_SECONDS (default 60) tune (c); BENCH_MIXED (default 3000) is the number of charges of (d).
 * BENCH_STATEMENTS=0 runs PostgreSQL without pg_stat_statements (its own cost is a few percent of PostgreSQL's CPU).
 * REPLICAS (and REPLICAS_<NAME>) run several processes of each service, as with `npm start`.
 */
const { spawn } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { connect } = require('nats');
const { startNats, startPostgres, freePort, waitForPort } = require('@platform/testkit');
const { launchPlatform, replicaCounts } = require('@platform/devstack');
const { EVENTS_STREAM } = require('@platform/kit');
const measure = require('./measure');

const { percentile, startReceiver, cpuPer, settle, constantRate, summary, processTable, memoryOf, pgCounters, pgDelta, pgPerCharge, sampleEvery, trends } = measure;

const repoRoot = path.resolve(__dirname, '..');
const duration = Number(process.env.BENCH_DURATION ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
// The issue's latency promise is at 250 charges/s.
const rate = Number(process.env.BENCH_RATE ?? 250);
const openSeconds = Number(process.env.BENCH_OPEN_SECONDS ?? 60);
const mixedCount = Number(process.env.BENCH_MIXED ?? 3000);
const withStatements = process.env.BENCH_STATEMENTS !== '0';

/** The targets of the issue (performance, round 2): step and goal. */
const TARGETS = { ratio: { step: 0.09, goal: 0.15 }, cpuMultiple: { step: 10, goal: 7 }, rate: 250, chargeP99Ms: 100, webhookP99Ms: 1000 };

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

/**
 * The queues of the platform, once a second: each outbox (events not yet published, the oldest one's age), each
 * consumer of the events stream (messages not yet delivered plus delivered and not yet acknowledged), each job queue
 * (jobs due and not taken by a worker, how long the oldest has waited), in every service database that has them;
 * and the whole platform's resident memory with them.
 */
async function queueSampler({ databases, jsm, table, outside }) {
  const clients = [];
  const probes = [];
  for (const [name, url] of databases) {
    const db = new Client({ connectionString: url });
    await db.connect();
    clients.push(db);
    const { rows } = await db.query(`SELECT to_regclass('outbox') IS NOT NULL AS outbox, to_regclass('graphile_worker.jobs') IS NOT NULL AS jobs`);
    if (rows[0].outbox) {
      probes.push(async (values) => {
        const r = (await db.query(`SELECT count(*)::int AS n, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age FROM outbox WHERE published_at IS NULL`)).rows[0];
        values[`outbox ${name}: unpublished`] = r.n;
        values[`outbox ${name}: oldest s`] = r.age;
      });
    }
    if (rows[0].jobs) {
      probes.push(async (values) => {
        const r = (
          await db.query(
            `SELECT count(*)::int AS n, coalesce(extract(epoch FROM now() - min(run_at)), 0)::float8 AS age
               FROM graphile_worker.jobs WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts`,
          )
        ).rows[0];
        values[`jobs ${name}: waiting`] = r.n;
        values[`jobs ${name}: oldest wait s`] = r.age;
      });
    }
  }
  probes.push(async (values) => {
    for await (const consumer of jsm.consumers.list(EVENTS_STREAM)) {
      values[`consumer ${consumer.name}: pending`] = consumer.num_pending + consumer.num_ack_pending;
    }
  });
  const memory = [];
  const sampler = sampleEvery(1000, async () => {
    const values = {};
    await Promise.all(probes.map((probe) => probe(values)));
    const m = memoryOf(table, outside);
    memory.push({ pssMb: m.platform.pssMb, rssSumMb: m.platform.rssSumMb });
    return values;
  });
  return {
    stop: async () => {
      const samples = await sampler.stop();
      await Promise.all(clients.map((c) => c.end()));
      return { samples, memory };
    },
  };
}

/** The lines that print PostgreSQL's work per charge, memory, queues and the targets' verdicts. */
function report({ pgWork, idleMemory, loadMemory, queueTrends, growing, samplingErrors, targets }) {
  const cell = (text) => String(text).replace(/\|/g, '\\|');
  const lines = [
    `PostgreSQL per charge in the closed loop (b): ${pgWork.charges} charges, counters read over ${pgWork.windowSeconds} s (the load, the consumers catching up, ` +
      `the backends flushing); "idle": what the platform does there without load over as long, from ${pgWork.idleSeconds} s during (a); "net" leaves it out` +
      (pgWork.note ? `; ${pgWork.note}` : ''),
    '| database | transactions | idle | net | statements | idle | net | rows inserted/updated/deleted | blocks hit/read |',
    '|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(pgWork.perDatabase).map(
      ([db, w]) =>
        `| ${db} | ${w.transactions} | ${w.transactionsIdle} | ${w.transactionsNet} | ${w.statements ?? '-'} | ${w.statementsIdle ?? '-'} | ${w.statementsNet ?? '-'} | ` +
        `${w.tupInserted}/${w.tupUpdated}/${w.tupDeleted} | ${w.blksHit}/${w.blksRead} |`,
    ),
  ];
  if (pgWork.statements) {
    lines.push(
      '',
      'Top statements by calls per charge (b), net of the idle platform\'s (BEGIN and COMMIT count as statements; "trigger": run by a trigger at commit, no round trip):',
      '| database | calls/charge | idle | exec ms/charge | rows/call | statement |',
      '|---|---|---|---|---|---|',
      ...pgWork.statements.map((t) => `| ${t.database} | ${t.callsPerCharge} | ${t.idleCallsPerCharge} | ${t.msPerCharge} | ${t.rowsPerCall} | ${t.inTrigger ? '(trigger) ' : ''}${cell(t.query.length > 110 ? `${t.query.slice(0, 107)}...` : t.query)} |`),
    );
  }
  const postgresGroup = (name) => name.startsWith('postgres');
  lines.push(
    '',
    'Resident memory once started, before any load (MB; RSS of each process summed, PSS shares the pages processes share, PostgreSQL\'s buffers among them):',
    '| process | RSS | PSS | processes |',
    '|---|---|---|---|',
    ...Object.entries(idleMemory.groups)
      .filter(([name]) => !postgresGroup(name) && name !== 'floor')
      .map(([name, m]) => `| ${name} | ${m.rssMb} | ${m.pssMb} | ${m.processes} |`),
    `| PostgreSQL (every process) | ${idleMemory.postgres.rssSumMb} | ${idleMemory.postgres.pssMb} | ${idleMemory.postgres.processes} |`,
    `| whole platform | ${idleMemory.platform.rssSumMb} | ${idleMemory.platform.pssMb} | ${idleMemory.platform.processes} |`,
    `whole platform's resident memory during the open loop (c) (${loadMemory.samples} samples, one a second): PSS peak ${loadMemory.peakPssMb} MB, at the end ${loadMemory.endPssMb} MB ` +
      `(RSS summed: peak ${loadMemory.peakRssSumMb} MB, at the end ${loadMemory.endRssSumMb} MB)`,
    '',
    'Queues during the open loop (c), sampled every second (flat: the last 10 s peak at most twice the first 10 s peak, or under half a second of arrivals or 1 s):',
    '| queue | first 10 s max | last 10 s max | max | end | flat |',
    '|---|---|---|---|---|---|',
    ...Object.entries(queueTrends)
      .filter(([, t]) => t.max > 0)
      .map(([name, t]) => `| ${name} | ${t.first10sMax} | ${t.last10sMax} | ${t.max} | ${t.end} | ${t.flat ? 'yes' : 'NO'} |`),
    `(at 0 throughout: ${[
      ...new Set(
        Object.entries(queueTrends)
          .filter(([, t]) => !(t.max > 0))
          .map(([name]) => name.split(':')[0]),
      ),
    ].join(', ')})`,
    `queues flat: ${growing.length === 0 ? 'yes' : `no (${growing.join(', ')})`}`,
    ...(samplingErrors.length > 0 ? [`  sampling errors: ${samplingErrors.join('; ')}`] : []),
  );
  const { ratio, cpuMultiple, chargeP99Ms, webhookP99Ms, queuesFlat } = targets;
  const offTarget = chargeP99Ms.atRate !== TARGETS.rate || chargeP99Ms.seconds < 60 ? ` (the target is at ${TARGETS.rate}/s for 60 s; this run: ${chargeP99Ms.atRate}/s for ${chargeP99Ms.seconds} s)` : '';
  lines.push(
    '',
    'Targets (issue: performance, round 2):',
    `  ratio b/a ${ratio.value}: step ${ratio.step} ${ratio.stepVerdict}, goal ${ratio.goal} ${ratio.goalVerdict}`,
    `  CPU per charge ${cpuMultiple.value} times the floor's per request: step ${cpuMultiple.step} ${cpuMultiple.stepVerdict}, goal ${cpuMultiple.goal} ${cpuMultiple.goalVerdict}`,
    `  charge p99 at ${chargeP99Ms.atRate}/s: ${chargeP99Ms.value} ms, target ${chargeP99Ms.target} ms: ${chargeP99Ms.verdict}${offTarget}`,
    `  webhook p99 after the answer: ${webhookP99Ms.value} ms, target ${webhookP99Ms.target} ms: ${webhookP99Ms.verdict}`,
    `  queues flat at the end of (c): ${queuesFlat.value ? 'yes' : `no (${queuesFlat.growing.join(', ')})`}: ${queuesFlat.verdict}`,
  );
  return lines;
}

/** "met" / "not met" of a figure against a target, at most or at least. */
function verdict(value, target, atMost) {
  if (value === null || value === undefined || Number.isNaN(value)) return 'no figure';
  return (atMost ? value <= target : value >= target) ? 'met' : 'not met';
}

async function main() {
  const quiet = () => undefined;
  // Durable like production (fsync, synchronous commit): both runs pay the same price for each commit.
  // pg_stat_statements counts each statement per database (one view for the whole server, from any database).
  const [postgres, nats] = await Promise.all([
    startPostgres({ durable: true, settings: withStatements ? { shared_preload_libraries: 'pg_stat_statements' } : {} }),
    startNats(),
  ]);
  const children = [];
  let platform;
  let stats;
  let nc;
  try {
    stats = new Client({ connectionString: postgres.url('postgres') });
    await stats.connect();
    let statementsNote = withStatements ? null : 'BENCH_STATEMENTS=0: pg_stat_database only';
    if (withStatements) {
      try {
        await stats.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      } catch (error) {
        statementsNote = `pg_stat_statements unavailable (${error.message}): pg_stat_database only`;
      }
    }
    const counters = () => pgCounters(stats, { statements: statementsNote === null });

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
        databases.set(name.replace(/^.*?(settings|customers|payments|webhooks|sessions|sellers|payouts)$/, '$1'), url);
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
    // The processes measured: the platform's, nats-server and PostgreSQL (of this run's servers only), and for (a) the
    // floor's process and its database's backends apart.
    const ports = { postgresPort: postgres.port, natsPort: nats.port };
    const platformTable = processTable(platform, ports);
    const floorGroups = ['floor', 'postgres bench_floor'];
    const floorTable = processTable(platform, { ...ports, databases: ['bench_floor'], extra: [{ name: 'floor', pids: () => [floor.pid] }] });
    // Idle memory: every process started, before any request.
    const idleMemory = memoryOf(floorTable, floorGroups);

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

    const query = async (database, sql, values = []) => {
      const db = new Client({ connectionString: databases.get(database) });
      await db.connect();
      try {
        return (await db.query(sql, values)).rows;
      } finally {
        await db.end();
      }
    };
    // Every consumer of the events stream (the webhooks' fan-out, the payouts' ledger, sessions) has taken in what was
    // published when nothing is pending on any and the counts stop moving.
    nc = await connect({ servers: nats.url, name: 'bench' });
    const jsm = await nc.jetstreamManager();
    const consumersPending = async () => {
      let pending = 0;
      for await (const consumer of jsm.consumers.list(EVENTS_STREAM)) pending += consumer.num_pending + consumer.num_ack_pending;
      return pending;
    };
    const eventCounts = async () => [
      (await query('payments', 'SELECT count(*)::int AS n FROM outbox WHERE published_at IS NOT NULL'))[0].n,
      (await query('webhooks', 'SELECT count(*)::int AS n FROM processed_events'))[0].n,
      await consumersPending(),
    ];
    await settle(eventCounts);

    process.stdout.write(`floor: ${duration}s, ${connections} connections...\n`);
    // While the floor runs the platform is idle: what PostgreSQL does in its databases meanwhile is its background.
    const idleFrom = await counters();
    const floorRun = await cpuPer(
      platform,
      async () => {
        const result = await load({ url: `http://127.0.0.1:${floorPort}/`, method: 'POST', body: '{"amount":1990}' });
        return { result, units: result.requests.total };
      },
      floorTable,
    );
    const idleTo = await counters();
    const a = summary('floor: bare Node HTTP + one INSERT', floorRun.result);
    // The floor's CPU: its process, its database's backends, and PostgreSQL's own processes (WAL writer, checkpointer),
    // which its commits keep busy; the platform's processes idle meanwhile are counted apart.
    const floorParts = { floor: floorRun.cpuMsPerUnit.floor, 'postgres bench_floor': floorRun.cpuMsPerUnit['postgres bench_floor'], 'postgres server': floorRun.cpuMsPerUnit['postgres server'] };
    a.cpuMsPerRequest = Math.round((floorParts.floor + floorParts['postgres bench_floor'] + floorParts['postgres server']) * 1000) / 1000;
    a.cpuMsPerRequestByProcess = floorParts;
    const platformIdleCpuMsPerSecond = Math.round(
      Object.entries(floorRun.cpuMs)
        .filter(([name]) => !floorGroups.includes(name) && name !== 'postgres server')
        .reduce((sum, [, ms]) => sum + ms, 0) / floorRun.seconds,
    );

    process.stdout.write(`charges: ${duration}s, ${connections} connections...\n`);
    const windowFrom = await counters();
    let settled;
    // The load, measured alone (the figure of every earlier run), inside the load and the consumers' catch-up after it:
    // the work a charge causes that is still queued when the load stops is the charges' too.
    const withCatchUp = await cpuPer(
      platform,
      async () => {
        const loadOnly = await cpuPer(
          platform,
          async () => {
            const result = await load({ url: `${base}/v1/charges`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(charge) });
            return { result, units: result.requests.total };
          },
          platformTable,
        );
        await settle(eventCounts);
        settled = Date.now();
        return { result: loadOnly, units: loadOnly.units };
      },
      platformTable,
    );
    const closed = withCatchUp.result;
    const b = summary('POST /v1/charges (gateway, SANDBOX card)', closed.result);
    b.cpuMsPerCharge = closed.cpuMsPerUnit;
    b.cpuMsPerChargeTotal = Math.round(Object.values(b.cpuMsPerCharge).reduce((x, y) => x + y, 0) * 100) / 100;
    // The catch-up's CPU less what the idle platform spends in as long (its rate during (a); PostgreSQL's own processes,
    // busy with the floor's commits then, are not taken off).
    const catchUpSeconds = withCatchUp.seconds - closed.seconds;
    const idleRate = (name) => (floorGroups.includes(name) || name === 'postgres server' ? 0 : (floorRun.cpuMs[name] ?? 0) / floorRun.seconds);
    b.cpuMsPerChargeWithCatchUp = Object.fromEntries(
      Object.entries(withCatchUp.cpuMs).map(([name, ms]) => [name, Math.round(((ms - idleRate(name) * catchUpSeconds) / Math.max(1, closed.units)) * 100) / 100]),
    );
    b.cpuMsPerChargeWithCatchUpTotal = Math.round(Object.values(b.cpuMsPerChargeWithCatchUp).reduce((x, y) => x + y, 0) * 100) / 100;
    b.catchUpSeconds = Math.round(catchUpSeconds * 10) / 10;
    const ratio = Math.round((b.requestsPerSecond / a.requestsPerSecond) * 100) / 100;
    const cpuMultiple = a.cpuMsPerRequest > 0 ? Math.round((b.cpuMsPerChargeTotal / a.cpuMsPerRequest) * 10) / 10 : null;

    // Every backend has flushed its counters (an idle backend within 10 s; the catch-up ended 2 s before `settled`)
    // before PostgreSQL's work per charge, from the start of the load to the end of the catch-up, is read.
    await sleep(Math.max(0, settled + 9_000 - Date.now()));
    const windowTo = await counters();
    const pgWork = pgPerCharge({
      window: pgDelta(windowFrom, windowTo),
      idle: pgDelta(idleFrom, idleTo),
      charges: closed.result.requests.total,
      databases: measure.SERVICE_DATABASES,
    });
    pgWork.note = statementsNote;

    // (c) the open loop: a constant arrival rate, and a receiver of every authorized charge's webhook
    const receiver = await startReceiver();
    await post('/v1/webhooks', { event: 'authorized', endpoint: `${receiver.url}/authorized` }, auth);
    const answeredAt = new Map();
    process.stdout.write(`open loop: ${rate} charges/s for ${openSeconds}s...\n`);
    const queues = await queueSampler({ databases, jsm, table: platformTable, outside: [] });
    // The queues and memory are sampled while the load is offered (the last answers may come later).
    const sampling = sleep(openSeconds * 1000).then(() => queues.stop());
    const open = await constantRate({
      url: `${base}/v1/charges`,
      rate,
      seconds: openSeconds,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(charge),
      onAnswer: (text) => answeredAt.set(JSON.parse(text).id, Date.now()),
    });
    const sampled = await sampling;
    // A queue is flat when its last 10 s peak at most twice its first 10 s, or under half a second of arrivals (a
    // count) or 1 s (an age): below that it drains as fast as it fills, whatever it started at.
    const queueTrends = trends(sampled.samples, { seconds: openSeconds, threshold: (name) => (name.endsWith(' s') ? 1 : Math.max(10, rate / 2)) });
    const growing = Object.entries(queueTrends).filter(([, t]) => !t.flat).map(([name]) => name);
    const samplingErrors = [...new Set(sampled.samples.filter((x) => x.error).map((x) => x.error))];
    const loadMemory = {
      peakPssMb: Math.max(...sampled.memory.map((m) => m.pssMb)),
      endPssMb: sampled.memory.at(-1)?.pssMb ?? null,
      peakRssSumMb: Math.max(...sampled.memory.map((m) => m.rssSumMb)),
      endRssSumMb: sampled.memory.at(-1)?.rssSumMb ?? null,
      samples: sampled.memory.length,
    };
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

    const targets = {
      ratio: { value: ratio, ...TARGETS.ratio, stepVerdict: verdict(ratio, TARGETS.ratio.step, false), goalVerdict: verdict(ratio, TARGETS.ratio.goal, false) },
      cpuMultiple: {
        value: cpuMultiple,
        ...TARGETS.cpuMultiple,
        stepVerdict: verdict(cpuMultiple, TARGETS.cpuMultiple.step, true),
        goalVerdict: verdict(cpuMultiple, TARGETS.cpuMultiple.goal, true),
      },
      chargeP99Ms: { value: c.p99Ms, target: TARGETS.chargeP99Ms, verdict: verdict(c.p99Ms, TARGETS.chargeP99Ms, true), atRate: rate, seconds: openSeconds },
      webhookP99Ms: {
        value: c.webhooks.p99Ms,
        target: TARGETS.webhookP99Ms,
        verdict: c.webhooks.delivered < c.webhooks.expected ? 'not met (not all delivered)' : verdict(c.webhooks.p99Ms, TARGETS.webhookP99Ms, true),
      },
      queuesFlat: { value: growing.length === 0, growing, verdict: growing.length === 0 ? 'met' : 'not met' },
    };
    const result = {
      date: new Date().toISOString(),
      durationSeconds: duration,
      connections,
      floor: a,
      charges: b,
      ratio,
      cpuMultipleOfFloor: cpuMultiple,
      platformIdleCpuMsPerSecond,
      postgresPerCharge: pgWork,
      memory: { idle: idleMemory, openLoop: loadMemory },
      openLoop: { ...c, queues: queueTrends, queuesGrowing: growing, samplingErrors },
      mixed: d,
      targets,
    };
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
        `CPU per charge in the closed loop (ms): total ${b.cpuMsPerChargeTotal}; ${Object.entries(b.cpuMsPerCharge).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        `  with the consumers' catch-up after the load (${b.catchUpSeconds} s, less the idle platform's CPU over as long): total ${b.cpuMsPerChargeWithCatchUpTotal}; ` +
          `${Object.entries(b.cpuMsPerChargeWithCatchUp).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        `CPU per request of the floor (ms): total ${a.cpuMsPerRequest}; ${Object.entries(a.cpuMsPerRequestByProcess).map(([k, v]) => `${k} ${v}`).join(', ')} ` +
          `(postgres server: the postmaster and its own processes; the idle platform meanwhile: ${platformIdleCpuMsPerSecond} ms of CPU a second, not counted)`,
        `CPU per charge as a multiple of the floor's CPU per request: ${cpuMultiple}`,
        `open loop: ${c.sentPerSecond} charges/s sent; webhooks delivered ${c.webhooks.delivered} of ${c.webhooks.expected}, p50 ${c.webhooks.p50Ms} ms, p99 ${c.webhooks.p99Ms} ms after the charge's answer`,
        `  webhook steps p50/p99 ms: ${Object.entries(c.webhooks.stages).map(([k, v]) => `${k} ${v.p50Ms}/${v.p99Ms}`).join(', ')} (relay: commit to publish; fanOut: publish to delivery row; queue: to first attempt; send: to the receiver)`,
        `mixed: ${d.charges} charges (${d.byKind}), ${d.retriedWithSameKey} sent twice with the same key, ${d.requestsPerSecond}/s; ` +
          `missing charges ${d.missingCharges}, doubled charges ${d.doubledCharges}, charges without their event ${d.missingEvents}, doubled events ${d.doubledEvents}, ` +
          `events not delivered ${d.missingDeliveries}, deliveries doubled ${d.doubledDeliveries}`,
        '',
        ...report({ pgWork, idleMemory, loadMemory, queueTrends, growing, samplingErrors, targets }),
        '',
      ].join('\n'),
    );
  } finally {
    await stats?.end().catch(() => undefined);
    await nc?.close().catch(() => undefined);
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
