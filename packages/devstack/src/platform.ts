import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { SECRETS, SERVICES, type SecretName, type ServiceEntry, type ServiceName } from '@platform/catalog';
import { waitForGrpcHealth } from '@platform/kit';
import { freePort, waitForPort } from '@platform/testkit';
import { managedProcess, type HealOptions, type ManagedProcess } from './processes';

export { SERVICES };
export type { ServiceName };

/**
 * Keys that must stay the same across restarts, one per secret in the catalog (packages/catalog): the card
 * vault's (or stored cards can no longer be read), the one that seals webhook signing keys... Each is independent.
 */
export type PlatformKeys = Record<SecretName, string>;

const newKey = () => randomBytes(32).toString('hex');

/** Fills in whatever key is missing (a key file from an older run may lack the newer ones). */
export function completeKeys(keys: Partial<PlatformKeys> = {}): PlatformKeys {
  return Object.fromEntries(SECRETS.map((secret) => [secret.env, keys[secret.env] ?? newKey()])) as PlatformKeys;
}

/**
 * A service's own variables under the launcher: its secrets from `keys` and its extra variables from the
 * catalog, the launcher's environment winning for either when it sets them.
 */
export function serviceEnv(
  service: ServiceEntry,
  context: { keys: Partial<Record<string, string>>; publicUrl: string; databasePrefix: string; env: NodeJS.ProcessEnv },
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const secret of service.secrets) env[secret.env] = context.env[secret.env] ?? context.keys[secret.env];
  for (const extra of service.env) {
    if (extra.devstack === undefined) continue;
    const value = extra.devstack
      .replace('{publicUrl}', context.publicUrl)
      .replace('{databasePrefix}', context.databasePrefix);
    // A consumer name or similar built from a database prefix keeps to the characters NATS and PostgreSQL accept.
    env[extra.env] = context.env[extra.env] ?? (extra.devstack.includes('{databasePrefix}') ? value.replace(/[^A-Za-z0-9_-]/g, '_') : value);
  }
  return env;
}

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
  /** Starts a service or the gateway again when it crashes (see HealOptions); crashes are final without it. */
  heal?: Omit<HealOptions, 'ready'>;
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
      env: {
        ...baseEnv,
        ...addresses,
        ...serviceEnv(service, { keys, publicUrl, databasePrefix: options.databasePrefix ?? '', env: baseEnv }),
        GRPC_HOST: '127.0.0.1',
        GRPC_PORT: String(port),
        DATABASE_URL: databaseUrl,
      },
      heal: options.heal && { ...options.heal, ready: () => waitForGrpcHealth(`127.0.0.1:${port}`, { waitMs: 60_000 }) },
      onLine: options.onLine,
      onExit: options.onExit,
    });
    ready[service.name] = () => waitForGrpcHealth(`127.0.0.1:${port}`, { waitMs: 60_000 });
  }

  processes.gateway = managedProcess({
    name: 'gateway',
    entry: path.join(options.repoRoot, 'gateway', 'dist', 'main.js'),
    cwd: options.repoRoot,
    nodeArgs: options.nodeArgs,
    env: { ...gatewayEnv, PORT: String(gatewayPort), HOST: '127.0.0.1', ADMIN_TOKEN: adminToken, PUBLIC_URL: publicUrl },
    heal: options.heal && { ...options.heal, ready: () => waitForPort(gatewayPort, 60_000) },
    onLine: options.onLine,
    onExit: options.onExit,
  });
  ready.gateway = () => waitForPort(gatewayPort, 60_000);

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
