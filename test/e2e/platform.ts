import path from 'node:path';
import { Client } from 'pg';
import { launchPlatform, type Platform } from '@platform/devstack';
import { HARNESS_ENV, testNatsUrl } from '@platform/testkit';

export interface TestPlatform extends Platform {
  /** What the processes printed (the last 50,000 lines). */
  output(): string;
  databaseUrl(service: string): string;
}

/** The whole platform as child processes, on the run's PostgreSQL (databases of its own) and NATS. */
export async function startTestPlatform(prefix: string, env: NodeJS.ProcessEnv = {}, logLevel = 'warn'): Promise<TestPlatform> {
  const adminUrl = process.env[HARNESS_ENV.postgresAdminUrl];
  if (!adminUrl) throw new Error('run through npm test');
  const lines: string[] = [];
  const urls = new Map<string, string>();
  const databasePrefix = `${prefix}_${Math.random().toString(36).slice(2, 8)}_`;
  const platform = await launchPlatform({
    repoRoot: path.resolve(__dirname, '..', '..'),
    natsUrl: testNatsUrl(),
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
  return {
    ...platform,
    output: () => lines.join('\n'),
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

export async function createClient(baseUrl: string, adminToken: string, name = 'E2E'): Promise<Credentials> {
  const response = await apiClient(baseUrl)<Credentials>('POST', '/admin/v1/clients', {
    body: { name, environment: 'sandbox' },
    headers: { 'x-admin-token': adminToken },
  });
  if (response.status !== 201) throw new Error(`client creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { clientId: response.body.clientId, apiKey: response.body.apiKey };
}

/** Polls `check` until it returns a value, for effects that happen asynchronously (event relay, cache expiry). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
