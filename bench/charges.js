/**
 * `npm run bench`: starts the platform and measures, in the same run and on the same PostgreSQL server,
 *   (a) the floor: a bare Node HTTP server doing one INSERT per request, and
 *   (b) POST /v1/charges through the gateway with a SANDBOX card (authorized and captured),
 * then prints requests per second, p50/p99 latency and the ratio b/a, and writes bench/results/latest.json.
 *
 * BENCH_DURATION (seconds, default 15) and BENCH_CONNECTIONS (default 50) tune the load.
 */
const { spawn } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { startNats, startPostgres, freePort, waitForPort } = require('@platform/testkit');
const { launchPlatform } = require('@platform/devstack');

const repoRoot = path.resolve(__dirname, '..');
const duration = Number(process.env.BENCH_DURATION ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

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

function summary(name, result) {
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failed: non2xx,
  };
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
    platform = await launchPlatform({
      repoRoot,
      ensureDatabase: (name) => postgres.ensureDatabase(name),
      natsUrl: nats.url,
      logLevel: 'warn',
      // One client sends everything here: the gateway's per-client limits would measure themselves, not the path.
      env: { RATE_LIMIT_ENABLED: 'false' },
      onLine: quiet,
      // BENCH_PROFILE=<dir> writes a V8 CPU profile of every service and the gateway there, at stop.
      nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
    });
    const base = platform.gatewayUrl;
    const post = async (route, body, headers) => {
      const r = await fetch(`${base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
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
    const b = summary(
      'POST /v1/charges (gateway, SANDBOX card)',
      await load({ url: `${base}/v1/charges`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(charge) }),
    );
    const ratio = Math.round((b.requestsPerSecond / a.requestsPerSecond) * 100) / 100;
    const result = { date: new Date().toISOString(), durationSeconds: duration, connections, floor: a, charges: b, ratio };
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
        '',
        `ratio b/a: ${ratio}`,
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
