/**
 * `npm run bench:telemetry`: what metrics and tracing cost. The same closed loop of POST /v1/charges (SANDBOX card,
 * captured) runs against a fresh platform in each mode, each on a fresh PostgreSQL server and NATS:
 *   off        METRICS_ENABLED=false, no OTLP endpoint (nothing served, nothing traced)
 *   metrics    the default: every process serves /metrics, scraped every BENCH_SCRAPE_MS (default 5000) by this script
 *   traced 10% metrics, and tracing exported over OTLP to a local sink, one trace in ten kept (parentbased ratio 0.1)
 *   traced     metrics, and every trace exported
 * and prints charges/s, latency and CPU per charge (ms, per process and for PostgreSQL) for each, against `off`.
 *
 * Each mode runs BENCH_ROUNDS times (default 2: the modes in order, then in reverse), and its figures are the mean.
 * BENCH_DURATION (seconds, default 20) and BENCH_CONNECTIONS (default 50) tune each run; BENCH_MODES (comma-separated
 * keys, in the order to run them; default all, as above) picks the modes.
 */
const http = require('node:http');
const { setInterval, clearInterval } = require('node:timers');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const autocannon = require('autocannon');
const { startNats, startPostgres } = require('@platform/testkit');
const { launchPlatform } = require('@platform/devstack');
const { cpuPer, summary } = require('./measure');

const repoRoot = path.resolve(__dirname, '..');
const duration = Number(process.env.BENCH_DURATION ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const scrapeMs = Number(process.env.BENCH_SCRAPE_MS ?? 5000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);

/** Stands in for an OpenTelemetry collector: takes every export and counts what arrived. */
function startSink() {
  const received = { requests: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    req.on('data', (c) => (received.bytes += c.length));
    req.on('end', () => {
      received.requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, received, url: `http://127.0.0.1:${server.address().port}` })));
}

/** Scrapes every process's /metrics every `everyMs`, as Prometheus would; answers how many scrapes and bytes. */
function startScraper(urls, everyMs) {
  const scraped = { scrapes: 0, bytes: 0 };
  const timer = setInterval(() => {
    for (const url of urls) {
      fetch(url).then(
        async (r) => {
          scraped.bytes += (await r.text()).length;
          scraped.scrapes += 1;
        },
        () => undefined,
      );
    }
  }, everyMs);
  return { scraped, stop: () => clearInterval(timer) };
}

const load = (options) =>
  new Promise((resolve, reject) => autocannon({ duration, connections, ...options }, (error, result) => (error ? reject(error) : resolve(result))));

/**
 * One mode on a PostgreSQL server and a NATS of its own: a run on a server that already holds an earlier run's data
 * and write-ahead log is slower for that alone (the second of two identical runs lost 20 to 30% here).
 */
async function run(mode, { sink }) {
  const [postgres, nats] = await Promise.all([startPostgres({ durable: true }), startNats()]);
  try {
    return await runOn(mode, { postgres, nats, sink });
  } finally {
    await nats.stop();
    await postgres.stop();
  }
}

async function runOn(mode, { postgres, nats, sink }) {
  const env = { RATE_LIMIT_ENABLED: 'false', ...mode.env(sink) };
  const platform = await launchPlatform({
    repoRoot,
    ensureDatabase: (name) => postgres.ensureDatabase(name),
    databasePrefix: `tel_${mode.key}_`,
    natsUrl: nats.url,
    logLevel: 'warn',
    env,
    onLine: () => undefined,
  });
  try {
    const base = platform.gatewayUrl;
    const post = async (route, body, headers) => {
      // The admin API has a listener of its own.
      const r = await fetch(`${route.startsWith('/admin/') ? platform.adminUrl : base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      if (r.status >= 300) throw new Error(`${route}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    const client = await post('/admin/v1/clients', { name: `Bench ${mode.key}`, environment: 'sandbox' }, { 'x-admin-token': platform.adminToken });
    const auth = { 'x-client-id': client.clientId, 'x-api-key': client.apiKey, 'content-type': 'application/json' };
    const merchant = await post('/v1/merchants', { mcc: '5999', name: 'Bench store', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] }, auth);
    const body = JSON.stringify({
      merchantId: merchant.id,
      amount: 1990,
      currency: 'BRL',
      capture: true,
      paymentMethod: { paymentType: 'credit', installments: 1 },
      paymentSource: { sourceType: 'card', card: { cardHolderName: 'Bench Buyer', cardNumber: '4111111111111111', cardCvv: '120', cardExpirationDate: '12/2035' } },
    });
    // A short warm-up: the first charges of a process pay for its JIT and its connections.
    await new Promise((resolve, reject) => autocannon({ url: `${base}/v1/charges`, method: 'POST', headers: auth, body, duration: 3, connections }, (e) => (e ? reject(e) : resolve())));
    const scraper = mode.scrape ? startScraper(Object.values(platform.metricsUrls), scrapeMs) : undefined;
    const sinkBefore = { ...sink.received };
    process.stdout.write(`${mode.key}: ${duration}s, ${connections} connections...\n`);
    const measured = await cpuPer(platform, async () => {
      const result = await load({ url: `${base}/v1/charges`, method: 'POST', headers: auth, body });
      return { result, units: result.requests.total };
    });
    scraper?.stop();
    const cpu = measured.cpuMsPerUnit;
    const postgresMs = Object.entries(cpu).filter(([k]) => k.startsWith('postgres')).reduce((sum, [, v]) => sum + v, 0);
    const totalMs = Object.values(cpu).reduce((sum, v) => sum + v, 0);
    return {
      mode: mode.key,
      description: mode.description,
      ...summary(mode.description, measured.result),
      cpuMsPerCharge: { total: round(totalMs), gateway: cpu.gateway, payments: cpu.payments, webhooks: cpu.webhooks, postgres: round(postgresMs), ...cpu },
      scrapes: scraper?.scraped,
      exported: { requests: sink.received.requests - sinkBefore.requests, bytes: sink.received.bytes - sinkBefore.bytes },
    };
  } finally {
    await platform.stop();
  }
}

const round = (v) => Math.round(v * 100) / 100;

/** The mean of a mode's rounds, figure by figure; each round's own figures are kept under `rounds`. */
function meanOf(rounds) {
  const mean = (pick) => round(rounds.reduce((sum, r) => sum + pick(r), 0) / rounds.length);
  const cpuKeys = Object.keys(rounds[0].cpuMsPerCharge);
  return {
    ...rounds[0],
    requestsPerSecond: Math.round(mean((r) => r.requestsPerSecond)),
    p50Ms: Math.round(mean((r) => r.p50Ms)),
    p99Ms: Math.round(mean((r) => r.p99Ms)),
    cpuMsPerCharge: Object.fromEntries(cpuKeys.map((k) => [k, mean((r) => r.cpuMsPerCharge[k] ?? 0)])),
    exported: { requests: mean((r) => r.exported.requests), bytes: mean((r) => r.exported.bytes) },
    rounds: rounds.map((r) => ({ requestsPerSecond: r.requestsPerSecond, p50Ms: r.p50Ms, p99Ms: r.p99Ms, cpuMsPerCharge: r.cpuMsPerCharge.total })),
  };
}

const MODES = [
  { key: 'off', description: 'metrics off, tracing off', scrape: false, env: () => ({ METRICS_ENABLED: 'false' }) },
  { key: 'metrics', description: `metrics (scraped every ${scrapeMs / 1000} s), tracing off: the default`, scrape: true, env: () => ({}) },
  {
    key: 'traced10',
    description: 'metrics, tracing 10% of traces',
    scrape: true,
    env: (sink) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
  },
  { key: 'traced', description: 'metrics, tracing every trace', scrape: true, env: (sink) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }) },
];

async function main() {
  const sink = await startSink();
  const runs = [];
  try {
    const keys = (process.env.BENCH_MODES ?? MODES.map((m) => m.key).join(',')).split(',');
    // Forward, then backward, ...: a drift of the machine over the run weighs on every mode alike.
    for (let round = 0; round < rounds; round++) {
      for (const key of round % 2 === 0 ? keys : [...keys].reverse()) runs.push(await run(MODES.find((m) => m.key === key), { sink }));
    }
  } finally {
    sink.server.close();
  }
  const results = [...new Set(runs.map((r) => r.mode))].map((mode) => meanOf(runs.filter((r) => r.mode === mode)));
  const off = results.find((r) => r.mode === 'off') ?? results[0];
  const pct = (v, base) => `${v >= base ? '+' : ''}${Math.round(((v - base) / base) * 1000) / 10}%`;
  const lines = [
    '',
    '| mode | charges/s | p50 ms | p99 ms | CPU ms per charge (all) | gateway | payments | webhooks | PostgreSQL | vs off (CPU per charge) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.description} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.cpuMsPerCharge.total} | ${r.cpuMsPerCharge.gateway} | ${r.cpuMsPerCharge.payments} | ${r.cpuMsPerCharge.webhooks} | ${r.cpuMsPerCharge.postgres} | ${r === off ? '-' : pct(r.cpuMsPerCharge.total, off.cpuMsPerCharge.total)} |`,
    ),
    '',
    ...results.filter((r) => r.exported.requests > 0).map((r) => `${r.mode}: ${r.exported.requests} OTLP exports, ${Math.round(r.exported.bytes / 1024)} KiB`),
    ...results.filter((r) => r.scrapes).map((r) => `${r.mode}: ${r.scrapes.scrapes} scrapes, ${Math.round(r.scrapes.bytes / Math.max(1, r.scrapes.scrapes) / 1024)} KiB each on average`),
    ...results.map((r) => `${r.mode} rounds (charges/s, CPU ms per charge): ${r.rounds.map((x) => `${x.requestsPerSecond}, ${x.cpuMsPerCharge}`).join(' | ')}`),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  writeFileSync(path.join(__dirname, 'results', 'telemetry.json'), `${JSON.stringify({ date: new Date().toISOString(), duration, connections, scrapeMs, rounds, results }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
