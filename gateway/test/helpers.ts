import type { CallMeta } from '@platform/kit';
import { AppError, REDACT_PATHS, type Clock, type Logger } from '@platform/kit';
import type { customers, settings } from '@platform/contracts';
import pino from 'pino';
import { createApp, type AppConfig } from '../src/app';
import type { CustomersClient, GatewayClients, HealthProbe, PaymentsClient, SettingsClient, Upstream, WebhooksClient } from '../src/clients';

export interface RecordedCall {
  method: string;
  request: Record<string, unknown>;
  meta: CallMeta | undefined;
}

type Impl = Record<string, (request: never, meta?: CallMeta) => Promise<unknown>>;

/** A client whose methods are the given functions; every call is recorded, and an unfaked method fails loudly. */
export function fakeClient<T>(impl: Impl): { client: T; calls: RecordedCall[]; impl: Impl } {
  const calls: RecordedCall[] = [];
  const client = new Proxy(
    {},
    {
      get: (_target, name) => {
        if (name === 'close') return () => undefined;
        if (name === 'then' || typeof name !== 'string') return undefined;
        return async (request: Record<string, unknown>, meta?: CallMeta) => {
          calls.push({ method: name, request, meta });
          const fn = impl[name];
          if (!fn) throw new Error(`${name} is not faked`);
          return fn(request as never, meta);
        };
      },
    },
  );
  return { client: client as T, calls, impl };
}

export const CLIENT_ID = '4b0f6a8e-2c1d-4e5f-9a7b-1c2d3e4f5a6b';
export const OTHER_CLIENT_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
export const SECRET_KEY = 'sk_sandbox_secret';
/** The secret key of a client whose environment is live. */
export const LIVE_KEY = 'sk_live_secret';
export const ADMIN_TOKEN = 'admin-token-0123456789';
export const PUBLIC_URL = 'https://api.example.test';

/** Credentials the fake Authenticate accepts: secret keys, public keys with some scopes, anything else is refused. */
export const KEYS: Record<string, { keyKind: string; scopes: string[]; environment?: string }> = {
  [SECRET_KEY]: { keyKind: 'secret', scopes: [] },
  [LIVE_KEY]: { keyKind: 'secret', scopes: [], environment: 'live' },
  pk_customers: { keyKind: 'public', scopes: ['customers'] },
  pk_charges: { keyKind: 'public', scopes: ['charges'] },
  pk_tokens: { keyKind: 'public', scopes: ['tokens'] },
  pk_live_tokens: { keyKind: 'public', scopes: ['tokens'], environment: 'live' },
  pk_all: { keyKind: 'public', scopes: ['*'] },
  pk_webhooks: { keyKind: 'public', scopes: ['webhooks'] },
};

export const auth = (apiKey = SECRET_KEY, clientId = CLIENT_ID) => ({ 'X-Client-Id': clientId, 'X-Api-Key': apiKey });

export async function fakeAuthenticate(request: settings.AuthenticateRequest): Promise<settings.AuthenticateResponse> {
  const key = KEYS[request.apiKey];
  if (!key || request.clientId !== CLIENT_ID) throw new AppError('unauthenticated', 'Invalid client id or API key');
  return {
    client: {
      id: CLIENT_ID,
      name: 'Store',
      environment: key.environment ?? 'sandbox',
      prepaymentEnabled: false,
      createdAt: new Date('2026-01-02T03:04:05.678Z'),
    },
    keyKind: key.keyKind,
    scopes: key.scopes,
    keyId: `key-${request.apiKey}`,
  };
}

export const CREATED_AT = new Date('2026-03-04T05:06:07.089Z');
export const UPDATED_AT = new Date('2026-03-05T05:06:07.001Z');

export function sampleCustomer(overrides: Partial<customers.Customer> = {}): customers.Customer {
  return {
    id: '0d6c9a53-0b3e-4d36-9a39-0f2a8c5b3e11',
    clientId: CLIENT_ID,
    name: 'Ana Souza',
    email: 'ana@example.com',
    phoneNumber: '+55 11 99999-0000',
    document: { type: 'cpf', number: '12345678909', country: 'BR' },
    address: { country: 'BR', city: 'São Paulo', zipCode: '01310100' },
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  };
}

export interface CapturedLogger {
  log: Logger;
  lines: Array<Record<string, unknown>>;
}

/** A logger with the kit's redaction that keeps its lines, so tests can read what would be logged. */
export function captureLogger(): CapturedLogger {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino(
    { level: 'info', redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { log, lines };
}

export class ManualClock implements Clock {
  constructor(private ms = Date.parse('2026-05-01T00:00:00.000Z')) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestGateway {
  app: ReturnType<typeof createApp>;
  settingsCalls: RecordedCall[];
  customersCalls: RecordedCall[];
  paymentsCalls: RecordedCall[];
  webhooksCalls: RecordedCall[];
  settingsImpl: Impl;
  customersImpl: Impl;
  paymentsImpl: Impl;
  webhooksImpl: Impl;
  lines: Array<Record<string, unknown>>;
  clock: ManualClock;
}

export function buildGateway(
  options: { settings?: Impl; customers?: Impl; payments?: Impl; webhooks?: Impl; health?: Partial<Record<Upstream, HealthProbe>>; config?: Partial<AppConfig> } = {},
): TestGateway {
  const settingsFake = fakeClient<SettingsClient>({ authenticate: fakeAuthenticate, ...options.settings } as Impl);
  const customersFake = fakeClient<CustomersClient>({ ...options.customers });
  const paymentsFake = fakeClient<PaymentsClient>({ ...options.payments });
  const webhooksFake = fakeClient<WebhooksClient>({ ...options.webhooks });
  const serving: HealthProbe = async () => 'SERVING';
  const clients: GatewayClients = {
    settings: settingsFake.client,
    customers: customersFake.client,
    payments: paymentsFake.client,
    webhooks: webhooksFake.client,
    health: {
      settings: options.health?.settings ?? serving,
      customers: options.health?.customers ?? serving,
      payments: options.health?.payments ?? serving,
      webhooks: options.health?.webhooks ?? serving,
    },
  };
  const { log, lines } = captureLogger();
  const clock = new ManualClock();
  const config: AppConfig = { ADMIN_TOKEN, PUBLIC_URL, AUTH_CACHE_TTL_MS: 2000, BODY_LIMIT: '1mb', ...options.config };
  return {
    app: createApp({ clients, config, log, clock }),
    settingsCalls: settingsFake.calls,
    customersCalls: customersFake.calls,
    paymentsCalls: paymentsFake.calls,
    webhooksCalls: webhooksFake.calls,
    settingsImpl: settingsFake.impl,
    customersImpl: customersFake.impl,
    paymentsImpl: paymentsFake.impl,
    webhooksImpl: webhooksFake.impl,
    lines,
    clock,
  };
}

/** Calls other than Authenticate, which every authenticated request may make. */
export const upstreamCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method !== 'authenticate');
