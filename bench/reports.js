/**
 * `npm run bench:reports`: a report of BENCH_REPORT_ROWS charges (default 200,000) is built by its job and downloaded
 * page by page through the gateway, while the payments process's resident memory (VmRSS) is sampled every 50 ms.
 * Prints the build and download times, the rows and bytes read, and the peak memory; exits with 1 when the peak is
 * over BENCH_REPORT_MAX_MB (default 200).
 *
 * The charges are copies of one real SANDBOX charge made through the API, written straight into the payments
 * database (with distinct ids, times and descriptions holding commas, quotes and new lines), so that the benchmark
 * measures the report and not the making of 200,000 charges.
 */
const { readFileSync } = require('node:fs');
const { setInterval, clearInterval, setTimeout } = require('node:timers');
const path = require('node:path');
const { Client } = require('pg');
const { startNats, startPostgres } = require('@platform/testkit');
const { launchPlatform } = require('@platform/devstack');

const repoRoot = path.resolve(__dirname, '..');
const rows = Number(process.env.BENCH_REPORT_ROWS ?? 200_000);
const maxMb = Number(process.env.BENCH_REPORT_MAX_MB ?? 200);

/** The resident memory of a process, in MB (Linux). */
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function main() {
  const [postgres, nats] = await Promise.all([startPostgres(), startNats()]);
  const databases = new Map();
  let platform;
  let sampler;
  try {
    platform = await launchPlatform({
      repoRoot,
      ensureDatabase: async (name) => {
        const url = await postgres.ensureDatabase(name);
        databases.set(name, url);
        return url;
      },
      natsUrl: nats.url,
      logLevel: 'warn',
      env: { RATE_LIMIT_ENABLED: 'false' },
      onLine: () => undefined,
    });
    const base = platform.gatewayUrl;
    const call = async (method, route, body, headers) => {
      // The admin API has a listener of its own.
      const r = await fetch(`${route.startsWith('/admin/') ? platform.adminUrl : base}${route}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (r.status >= 300) throw new Error(`${route}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    const client = await call('POST', '/admin/v1/clients', { name: 'Bench', environment: 'sandbox' }, { 'x-admin-token': platform.adminToken });
    const auth = { 'x-client-id': client.clientId, 'x-api-key': client.apiKey };
    const merchant = await call('POST', '/v1/merchants', { mcc: '5999', name: 'Bench store', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] }, auth);
    const template = await call(
      'POST',
      '/v1/charges',
      {
        merchantId: merchant.id,
        amount: 1990,
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card: { cardHolderName: 'Bench Buyer', cardNumber: '4111111111111111', cardCvv: '120', cardExpirationDate: '12/2035' } },
      },
      auth,
    );

    const paymentsUrl = [...databases.entries()].find(([name]) => name.endsWith('payments'))[1];
    const db = new Client({ connectionString: paymentsUrl });
    await db.connect();
    const copies = rows - 1;
    process.stdout.write(`writing ${copies} copies of a charge...\n`);
    await db.query(
      `INSERT INTO charges (id, client_id, merchant_id, customer_id, amount, original_amount, captured_amount, refunded_amount, currency, order_id,
                            description, capture, status, payment_type, installments, payment_method, payment_source, provider_id, provider_type,
                            created_at, updated_at)
       SELECT gen_random_uuid(), c.client_id, c.merchant_id, c.customer_id, c.amount + (n % 1000), c.original_amount, c.captured_amount, 0, c.currency,
              'order-' || n, 'Bench item ' || n || ', "quoted"' || E'\\n' || 'second line', c.capture, c.status, c.payment_type, c.installments,
              c.payment_method, c.payment_source, c.provider_id, c.provider_type, c.created_at + n * interval '1 ms', c.created_at + n * interval '1 ms'
       FROM charges c, generate_series(1, $2::int) AS n WHERE c.id = $1`,
      [template.id, copies],
    );
    await db.end();

    const pid = platform.processes.payments.pid();
    let peak = rssMb(pid);
    const start = peak;
    sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 50);

    const began = Date.now();
    const report = await call('POST', '/v1/reports', { type: 'transactions', fields: ['id', 'createdAt', 'status', 'amount', 'orderId', 'description', 'authorizationCode'] }, auth);
    let current = report;
    while (current.status === 'created' || current.status === 'processing') {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = await call('GET', `/v1/reports/${report.id}`, undefined, auth);
    }
    const built = Date.now();
    const buildPeak = peak;
    if (current.status !== 'ready') throw new Error(`the report ended ${current.status}`);

    let bytes = 0;
    let lines = 0;
    for (let page = 1; page <= current.pagesCount; page += 1) {
      const response = await fetch(`${base}/v1/reports/${report.id}/files/${page}`, { headers: auth });
      if (response.status !== 200) throw new Error(`page ${page}: ${response.status}`);
      for await (const chunk of response.body) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 0x0a) lines += 1;
      }
    }
    const downloaded = Date.now();
    clearInterval(sampler);
    sampler = undefined;

    const result = {
      rows: current.rowCount,
      pages: current.pagesCount,
      buildSeconds: (built - began) / 1000,
      downloadSeconds: (downloaded - built) / 1000,
      megabytes: Math.round((bytes / 1024 / 1024) * 10) / 10,
      lineFeeds: lines,
      paymentsRssStartMb: Math.round(start),
      paymentsRssPeakBuildMb: Math.round(buildPeak),
      paymentsRssPeakMb: Math.round(peak),
      limitMb: maxMb,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (current.rowCount !== rows) throw new Error(`expected ${rows} rows, the report has ${current.rowCount}`);
    if (peak > maxMb) {
      process.stdout.write(`payments peaked at ${Math.round(peak)} MB, over ${maxMb} MB\n`);
      process.exitCode = 1;
    }
  } finally {
    if (sampler) clearInterval(sampler);
    await platform?.stop();
    await nats.stop();
    await postgres.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
