import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { launchNats, launchPlatform, replicaCounts, type HealOptions, type NatsProcess, type Platform, type ReplicasOption, type ServiceName } from '@platform/devstack';
import { eventually, HARNESS_ENV, testNatsUrl } from '@platform/testkit';

const SERVER_FAILURE = /"msg":"(internal error|unexpected error|upstream unavailable)"/;

/** The platform of launchPlatform (its `metricsUrls` included: each process on a free metrics port), and more. */
export interface TestPlatform extends Platform {
  /** What the processes printed (the last 50,000 lines). */
  output(): string;
  databaseUrl(service: string): string;
  /** With `heal`: the platform's own nats-server, started again after a crash like the services. */
  nats?: NatsProcess;
  /** With `heal`: one line per crash and per automatic restart, as the launcher prints them. */
  healing(): string[];
  /** What a process's /metrics answers now (Prometheus text): a service's first process, or a replica by name (`payments#2`); a failed scrape throws. */
  metrics(name: ServiceName | 'gateway' | string): Promise<string>;
}

/**
 * The whole platform as child processes, on the run's PostgreSQL (databases of its own) and NATS. With
 * `heal`, it runs under the supervision `npm start` uses (a crashed process is started again after a short
 * delay) and on a nats-server of its own, supervised the same way, so a test may kill it. With `replicas` (or
 * REPLICAS / REPLICAS_<NAME> in the environment) each service runs as that many processes on the same databases.
 */
export async function startTestPlatform(
  prefix: string,
  env: NodeJS.ProcessEnv = {},
  logLevel = 'warn',
  options: { heal?: boolean; replicas?: ReplicasOption } = {},
): Promise<TestPlatform> {
  const adminUrl = process.env[HARNESS_ENV.postgresAdminUrl];
  if (!adminUrl) throw new Error('run through npm test');
  const lines: string[] = [];
  const healing: string[] = [];
  const urls = new Map<string, string>();
  const databasePrefix = `${prefix}_${Math.random().toString(36).slice(2, 8)}_`;
  const heal: Omit<HealOptions, 'ready'> | undefined = options.heal
    ? {
        onCrash: (name, exit, delayMs) => healing.push(`${name} crashed (${exit.signal ?? exit.code}); restart in ${delayMs} ms`),
        onRestart: (name, restarts) => healing.push(`${name} serving again (restart ${restarts})`),
      }
    : undefined;
  const natsStore = heal ? mkdtempSync(path.join(os.tmpdir(), 'platform-heal-nats-')) : undefined;
  const nats = natsStore ? await launchNats({ storeDir: natsStore, heal }) : undefined;
  const stopNats = async () => {
    await nats?.stop();
    if (natsStore) rmSync(natsStore, { recursive: true, force: true });
  };
  let platform: Platform;
  try {
    platform = await launchPlatform({
      repoRoot: path.resolve(__dirname, '..', '..'),
      natsUrl: nats?.url ?? testNatsUrl(),
      heal,
      // REPLICAS / REPLICAS_<NAME> in the environment run every suite on several processes of each service.
      replicas: replicaCounts(process.env, options.replicas),
      databasePrefix,
      logLevel,
      env: { SHUTDOWN_GRACE_MS: '2000', ...env },
      ensureDatabase: async (name) => {
        const admin = new Client({ connectionString: adminUrl });
        await admin.connect();
        try {
          await admin.query(`CREATE DATABASE ${name}`);
        } finally {
          await admin.end();
        }
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        urls.set(name.slice(databasePrefix.length), url.toString());
        return url.toString();
      },
      onLine: (name, line) => {
        lines.push(`[${name}] ${line}`);
        if (lines.length > 50_000) lines.shift();
      },
    });
  } catch (error) {
    await stopNats();
    throw error;
  }
  return {
    ...platform,
    stop: async () => {
      await platform.stop();
      await stopNats();
      // A 5xx seen by a test is easier to explain with the line its process logged: such lines are printed
      // (they are rare; a crash test's own may appear too).
      const failures = lines.filter((line) => SERVER_FAILURE.test(line));
      if (failures.length > 0) process.stderr.write(`[${prefix}] server failures logged:\n${failures.slice(-20).join('\n')}\n`);
    },
    nats,
    healing: () => [...healing],
    output: () => lines.join('\n'),
    metrics: async (name) => {
      const url = platform.processMetricsUrls[name] ?? platform.metricsUrls[name as ServiceName];
      if (!url) throw new Error(`no process named ${name}`);
      const response = await fetch(url);
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${name} metrics: ${response.status} ${text.slice(0, 200)}`);
      return text;
    },
    databaseUrl: (service) => {
      const url = urls.get(service);
      if (!url) throw new Error(`no database for ${service}`);
      return url;
    },
  };
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Credentials {
  clientId: string;
  apiKey: string;
}

/** A small REST client for the gateway. */
export function apiClient(baseUrl: string) {
  const call = async <T = Record<string, unknown>>(
    method: string,
    route: string,
    options: { body?: unknown; auth?: Credentials; headers?: Record<string, string>; raw?: string; form?: FormData } = {},
  ): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth) {
      headers['x-client-id'] = options.auth.clientId;
      headers['x-api-key'] = options.auth.apiKey;
    }
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.raw !== undefined) {
      body = options.raw;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${baseUrl}${route}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
  return call;
}

/** A sandbox client, made through the admin API: `adminUrl` is the gateway's admin listener (`platform.adminUrl`), not its public one. */
export async function createClient(adminUrl: string, adminToken: string, name = 'E2E', options: { prepaymentEnabled?: boolean } = {}): Promise<Credentials> {
  const response = await apiClient(adminUrl)<Credentials>('POST', '/admin/v1/clients', {
    body: { name, environment: 'sandbox', ...options },
    headers: { 'x-admin-token': adminToken },
  });
  if (response.status !== 201) throw new Error(`client creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { clientId: response.body.clientId, apiKey: response.body.apiKey };
}

/** A seller who is a natural person (CPF 529.982.247-25), of a merchant: the body of `POST /v1/sellers`. */
export function naturalPerson(merchantId: string, email = 'ana@example.com'): Record<string, unknown> {
  return {
    merchantId,
    mcc: 5411,
    owner: {
      name: 'Ana Souza',
      email,
      birthdate: '1990-04-12',
      document: { type: 'cpf', number: '529.982.247-25', country: 'BR' },
      address: { street: 'Rua A', streetNumber: '10', zipCode: '01310100', country: 'BR', state: 'SP', city: 'São Paulo', district: 'Centro' },
    },
    bankAccount: {
      holderName: 'Ana Souza',
      holderDocument: '52998224725',
      bank: '341',
      branchNumber: '1234',
      accountNumber: '123456',
      accountCheckDigit: '7',
      type: 'conta_corrente',
    },
  };
}

/**
 * A client enabled for prepayment, with a SANDBOX merchant and two active sellers of it (Alice and Bob), and reads
 * of its payouts: what the payouts suites start from.
 */
export async function payoutsWorld(platform: TestPlatform, name: string) {
  const api = apiClient(platform.gatewayUrl);
  const created = await apiClient(platform.adminUrl)<Credentials>('POST', '/admin/v1/clients', {
    body: { name, environment: 'sandbox', prepaymentEnabled: true },
    headers: { 'x-admin-token': platform.adminToken },
  });
  if (created.status !== 201) throw new Error(`client creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  const client: Credentials = { clientId: created.body.clientId, apiKey: created.body.apiKey };
  const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
    auth: client,
    body: { mcc: '5999', name: `${name} merchant`, providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
  });
  if (merchant.status !== 201) throw new Error(`merchant creation failed: ${merchant.status} ${JSON.stringify(merchant.body)}`);
  const merchantId = merchant.body.id;
  const sellerOf = async (email: string) => {
    const seller = await api<{ id: string; status: string }>('POST', '/v1/sellers', { auth: client, body: naturalPerson(merchantId, email) });
    if (seller.body.status !== 'active') throw new Error(`seller ${email} is ${seller.status} ${JSON.stringify(seller.body)}`);
    return seller.body.id;
  };
  const alice = await sellerOf('alice@example.com');
  const bob = await sellerOf('bob@example.com');
  const get = async <T>(path: string) => {
    const res = await api<T>('GET', path, { auth: client });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** What `read` answers once `ok` holds for it (the ledger follows payments' events). */
  const until = <T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string) =>
    eventually(
      async () => {
        const value = await read();
        return ok(value) ? value : undefined;
      },
      what,
      { timeoutMs: 15_000, intervalMs: 200 },
    );
  return { api, client, merchantId, alice, bob, get, until };
}
