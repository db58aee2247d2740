import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freePort, waitForPort } from '@platform/testkit';
import { checkHealth } from './health';
import { managedProcess, type ManagedProcess } from './processes';

/** Every service of the platform: its database, its entry point and the gateway variable that locates it. */
export const SERVICES = [
  { name: 'settings', database: 'settings', addressEnv: 'SETTINGS_GRPC_URL' },
  { name: 'customers', database: 'customers', addressEnv: 'CUSTOMERS_GRPC_URL' },
  { name: 'payments', database: 'payments', addressEnv: 'PAYMENTS_GRPC_URL' },
  { name: 'webhooks', database: 'webhooks', addressEnv: 'WEBHOOKS_GRPC_URL' },
] as const;

/**
 * Keys that must stay the same across restarts: the card vault's (or stored cards can no longer be read) and the
 * one that seals webhook signing keys (or webhooks can no longer sign). Each is independent of the others.
 */
export interface PlatformKeys {
  CARD_ENCRYPTION_KEY: string;
  CARD_FINGERPRINT_KEY: string;
  WEBHOOKS_SIGNING_KEY: string;
}

const newKey = () => randomBytes(32).toString('hex');

/** Fills in whatever key is missing (a key file from an older run may lack the newer ones). */
export function completeKeys(keys: Partial<PlatformKeys> = {}): PlatformKeys {
  return {
    CARD_ENCRYPTION_KEY: keys.CARD_ENCRYPTION_KEY ?? newKey(),
    CARD_FINGERPRINT_KEY: keys.CARD_FINGERPRINT_KEY ?? newKey(),
    WEBHOOKS_SIGNING_KEY: keys.WEBHOOKS_SIGNING_KEY ?? newKey(),
  };
}

export type ServiceName = (typeof SERVICES)[number]['name'];

export interface PlatformOptions {
  repoRoot: string;
  /** Creates a database if needed and returns its URL. */
  ensureDatabase(name: string): Promise<string>;
  natsUrl: string;
  gatewayPort?: number;
  adminToken?: string;
  publicUrl?: string;
  logLevel?: string;
  /** Prefix for database names, so several platforms can share one PostgreSQL server (tests). */
  databasePrefix?: string;
  /** Extra environment for every process. */
  env?: NodeJS.ProcessEnv;
  /** Flags for node in every process (e.g. --cpu-prof for a profile). */
  nodeArgs?: string[];
  /** Keys that must outlive restarts; fresh ones when omitted (tests). */
  keys?: PlatformKeys;
  onLine?: (name: string, line: string) => void;
  onExit?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface Platform {
  gatewayUrl: string;
  adminToken: string;
  processes: Record<ServiceName | 'gateway', ManagedProcess>;
  /** Starts a stopped or killed service again with the same port and database, and waits until it serves. */
  restart(name: ServiceName | 'gateway'): Promise<void>;
  stop(): Promise<void>;
}

/** Starts every service and then the gateway as child processes, each on a free port, and waits until all serve. */
export async function launchPlatform(options: PlatformOptions): Promise<Platform> {
  const adminToken = options.adminToken ?? randomBytes(24).toString('hex');
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV === 'production' ? 'production' : 'development',
    LOG_LEVEL: options.logLevel ?? 'info',
    NATS_URL: options.natsUrl,
    ...options.env,
  };
  const processes = {} as Record<ServiceName | 'gateway', ManagedProcess>;
  const ready: Record<string, () => Promise<void>> = {};
  const gatewayEnv: NodeJS.ProcessEnv = { ...baseEnv };
  const gatewayPort = options.gatewayPort ?? (await freePort());
  const publicUrl = options.publicUrl ?? `http://localhost:${gatewayPort}`;
  const keys = options.keys ?? completeKeys();
  const ownEnv: Partial<Record<ServiceName, NodeJS.ProcessEnv>> = {
    payments: { CARD_ENCRYPTION_KEY: keys.CARD_ENCRYPTION_KEY, CARD_FINGERPRINT_KEY: keys.CARD_FINGERPRINT_KEY, PUBLIC_URL: publicUrl },
    // Receivers run on this machine, so loopback endpoints are allowed unless the environment says otherwise; the
    // rest (a short WEBHOOKS_RETRY_SCHEDULE, say) comes through baseEnv. Platforms sharing a NATS server (tests) each
    // need their own durable consumer, so it is named after their databases.
    webhooks: {
      WEBHOOKS_SIGNING_KEY: baseEnv.WEBHOOKS_SIGNING_KEY ?? keys.WEBHOOKS_SIGNING_KEY,
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: baseEnv.WEBHOOKS_ALLOW_PRIVATE_TARGETS ?? 'true',
      WEBHOOKS_FANOUT_DURABLE: baseEnv.WEBHOOKS_FANOUT_DURABLE ?? `${options.databasePrefix ?? ''}webhooks-fanout`.replace(/[^A-Za-z0-9_-]/g, '_'),
    },
  };

  // Every process learns where every service listens (`<NAME>_GRPC_URL`): the gateway calls them all, and a
  // service asks another one a question that needs an answer now (customers asks payments about cards).
  const ports = new Map<ServiceName, number>();
  for (const service of SERVICES) {
    const port = await freePort();
    ports.set(service.name, port);
    gatewayEnv[service.addressEnv] = `127.0.0.1:${port}`;
  }
  const addresses = Object.fromEntries(SERVICES.map((s) => [s.addressEnv, `127.0.0.1:${ports.get(s.name)}`]));

  for (const service of SERVICES) {
    const port = ports.get(service.name)!;
    const databaseUrl = await options.ensureDatabase(`${options.databasePrefix ?? ''}${service.database}`);
    processes[service.name] = managedProcess({
      name: service.name,
      entry: path.join(options.repoRoot, 'services', service.name, 'dist', 'main.js'),
      cwd: options.repoRoot,
      nodeArgs: options.nodeArgs,
      env: { ...baseEnv, ...addresses, ...ownEnv[service.name], GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), DATABASE_URL: databaseUrl },
      onLine: options.onLine,
      onExit: options.onExit,
    });
    ready[service.name] = () => checkHealth(`127.0.0.1:${port}`, { waitMs: 30_000 });
  }

  processes.gateway = managedProcess({
    name: 'gateway',
    entry: path.join(options.repoRoot, 'gateway', 'dist', 'main.js'),
    cwd: options.repoRoot,
    nodeArgs: options.nodeArgs,
    env: { ...gatewayEnv, PORT: String(gatewayPort), HOST: '127.0.0.1', ADMIN_TOKEN: adminToken, PUBLIC_URL: publicUrl },
    onLine: options.onLine,
    onExit: options.onExit,
  });
  ready.gateway = () => waitForPort(gatewayPort, 30_000);

  const restart = async (name: ServiceName | 'gateway') => {
    processes[name].start();
    await ready[name]!();
  };

  const stopAll = async () => {
    await processes.gateway.stop();
    await Promise.all(SERVICES.map((s) => processes[s.name].stop()));
  };

  try {
    await Promise.all(SERVICES.map((s) => restart(s.name)));
    await restart('gateway');
  } catch (error) {
    await stopAll();
    throw error;
  }

  return { gatewayUrl: `http://127.0.0.1:${gatewayPort}`, adminToken, processes, restart, stop: stopAll };
}
