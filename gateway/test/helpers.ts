import type { CallMeta } from '@platform/kit';
import { AppError, REDACT_PATHS, type Logger } from '@platform/kit';
import { ManualClock } from '@platform/testkit';
import type { customers, settings } from '@platform/contracts';
import pino from 'pino';
import { createAdminApp, createApp, type AppConfig } from '../src/app';
import { adminTokenOf, type AdminToken } from '../src/http/auth';
import { UPSTREAMS, type GatewayClients, type HealthProbe, type Upstream } from '../src/clients';

export interface RecordedCall {
  method: string;
  request: Record<string, unknown>;
  meta: CallMeta | undefined;
}

type Impl = Record<string, (request: never, meta?: CallMeta) => Promise<unknown> | AsyncIterable<unknown>>;

/** A client whose methods are the given functions; every call is recorded, and an unfaked method fails loudly. */
export function fakeClient<T>(impl: Impl): { client: T; calls: RecordedCall[]; impl: Impl } {
  const calls: RecordedCall[] = [];
  const client = new Proxy(
    {},
    {
      get: (_target, name) => {
        if (name === 'close') return () => undefined;
        if (name === 'then' || typeof name !== 'string') return undefined;
        // What the fake answers is passed on as it is: a promise for a unary method, an async iterable for a stream.
        return (request: Record<string, unknown>, meta?: CallMeta) => {
          calls.push({ method: name, request, meta });
          const fn = impl[name];
          if (!fn) return Promise.reject(new Error(`${name} is not faked`));
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

export { ManualClock };

/** Where the gateway's clock stands when a test starts: it moves only when the test moves it. */
export const TEST_START = Date.parse('2026-05-01T00:00:00.000Z');

/** Per upstream `<name>Calls` (what the fake recorded) and `<name>Impl` (its methods, replaceable in a test). */
type PerUpstream = { [K in Upstream as `${K}Calls`]: RecordedCall[] } & { [K in Upstream as `${K}Impl`]: Impl };

export type TestGateway = PerUpstream & {
  app: ReturnType<typeof createApp>;
  /** The admin API, served by the gateway on its own listener (ADMIN_PORT), accepting ADMIN_TOKEN unless told otherwise. */
  admin: ReturnType<typeof createAdminApp>;
  lines: Array<Record<string, unknown>>;
  clock: ManualClock;
};

/**
 * The gateway over a fake client per catalog service (packages/catalog): `options.<name>` gives the methods a
 * test needs; settings answers Authenticate with the KEYS above unless told otherwise; every probe says SERVING.
 */
export function buildGateway(
  options: Partial<Record<Upstream, Impl>> & {
    health?: Partial<Record<Upstream, HealthProbe>>;
    config?: Partial<AppConfig>;
    adminTokens?: AdminToken[];
    logger?: CapturedLogger;
  } = {},
): TestGateway {
  const serving: HealthProbe = async () => 'SERVING';
  const clients: Record<string, unknown> = {};
  const health: Record<string, HealthProbe> = {};
  const recorded: Record<string, unknown> = {};
  for (const name of UPSTREAMS) {
    const impl: Impl = name === 'settings' ? ({ authenticate: fakeAuthenticate, ...options[name] } as Impl) : { ...options[name] };
    const fake = fakeClient<unknown>(impl);
    clients[name] = fake.client;
    health[name] = options.health?.[name] ?? serving;
    recorded[`${name}Calls`] = fake.calls;
    recorded[`${name}Impl`] = fake.impl;
  }
  const { log, lines } = options.logger ?? captureLogger();
  const clock = new ManualClock(TEST_START);
  const config: AppConfig = { PUBLIC_URL, AUTH_CACHE_TTL_MS: 2000, BODY_LIMIT: '1mb', ...options.config };
  const gatewayClients = { ...clients, health } as GatewayClients;
  const admin = createAdminApp({ clients: gatewayClients, config: { ...config, ADMIN_TOKENS: options.adminTokens ?? [adminTokenOf(ADMIN_TOKEN)] }, log });
  return { ...(recorded as PerUpstream), app: createApp({ clients: gatewayClients, config, log, clock }), admin, lines, clock };
}

/** Calls other than Authenticate, which every authenticated request may make. */
export const upstreamCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method !== 'authenticate');
