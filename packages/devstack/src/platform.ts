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

/** How many processes of each service run. */
export type ReplicaCounts = Record<ServiceName, number>;

/** What a launcher is asked for: one count for every service, or some services' own counts (the rest run one). */
export type ReplicasOption = number | Partial<Record<ServiceName, number>>;

/** `REPLICAS_<NAME>` of a service: `REPLICAS_PAYMENTS`, `REPLICAS_SELLERS_AND_REVIEWS`. */
export function replicasEnvOf(name: ServiceName): string {
  return `REPLICAS_${name.toUpperCase().replace(/-/g, '_')}`;
}

const MAX_REPLICAS = 16;

function replicaCount(value: string | number | undefined, what: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > MAX_REPLICAS) throw new Error(`${what} must be a whole number from 1 to ${MAX_REPLICAS}, got ${value}`);
  return count;
}

/**
 * The count of each service: `REPLICAS` for every service, `REPLICAS_<NAME>` for one (it wins), 1 when neither is
 * set; `given` (a launcher's option) wins over the environment.
 */
export function replicaCounts(env: NodeJS.ProcessEnv = {}, given?: ReplicasOption): ReplicaCounts {
  const all = typeof given === 'number' ? replicaCount(given, 'replicas') : replicaCount(env.REPLICAS, 'REPLICAS');
  return Object.fromEntries(
    SERVICES.map((s) => {
      const own = typeof given === 'object' ? replicaCount(given[s.name], `replicas.${s.name}`) : undefined;
      const fromEnv = typeof given === 'number' ? undefined : replicaCount(env[replicasEnvOf(s.name)], replicasEnvOf(s.name));
      return [s.name, own ?? fromEnv ?? all ?? 1];
    }),
  ) as ReplicaCounts;
}

/** The name of one process of a service: the service's own when it runs alone, `payments#2` among several. */
export function replicaName(service: ServiceName, index: number, count: number): string {
  return count === 1 ? service : `${service}#${index + 1}`;
}

/** One process of a service. */
export interface Replica {
  /** `payments` when it runs alone, `payments#1`, `payments#2`... among several (the name in the log lines). */
  name: string;
  service: ServiceName;
  /** 0 for the first. */
  index: number;
  process: ManagedProcess;
  /** Where it serves gRPC: `127.0.0.1:<port>`. */
  address: string;
  metricsUrl: string;
}

export interface PlatformOptions {
  repoRoot: string;
  /** Creates a database if needed and returns its URL. */
  ensureDatabase(name: string): Promise<string>;
  natsUrl: string;
  gatewayPort?: number;
  /** The gateway's admin API port (ADMIN_PORT, /admin/v1): a free one when omitted. */
  adminPort?: number;
  /**
   * The first of the metrics ports (METRICS_PORT, path /metrics): the gateway's, then one per service process in
   * catalog order (each replica of a service in turn). Each process gets a free port when omitted (or 0).
   */
  metricsPort?: number;
  /**
   * How many processes of each service to run against the same database and NATS, each on its own gRPC and metrics
   * port (1 each when omitted; replicaCounts reads REPLICAS and REPLICAS_<NAME>). Every process gets the addresses of
   * every replica of a service in `<NAME>_GRPC_URL` and spreads its calls over them. The gateway runs once.
   */
  replicas?: ReplicasOption;
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
  /** The gateway's admin API (/admin/v1), on a listener of its own: the public one answers 404 there. */
  adminUrl: string;
  adminToken: string;
  /** The gateway and the first process of each service. */
  processes: Record<ServiceName | 'gateway', ManagedProcess>;
  /** Every process of each service, the first one first. */
  replicas: Record<ServiceName, Replica[]>;
  /** Where the gateway and the first process of each service serve their Prometheus metrics: `http://127.0.0.1:<port>/metrics`. */
  metricsUrls: Record<ServiceName | 'gateway', string>;
  /** Every process's metrics URL by process name (`gateway`, `payments` or `payments#1`, `payments#2`...), in start order. */
  processMetricsUrls: Record<string, string>;
  /**
   * Starts a stopped or killed process again with the same port and database, and waits until it serves: the gateway,
   * every process of a service (by the service's name), or one replica (by its name, `payments#2`).
   */
  restart(name: ServiceName | 'gateway' | string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts every service (as many processes of each as `replicas` asks) and then the gateway as child processes, each
 * on a free port (the gateway on `gatewayPort` and the metrics from `metricsPort` when given), and waits until all serve.
 */
export async function launchPlatform(options: PlatformOptions): Promise<Platform> {
  const adminToken = options.adminToken ?? randomBytes(24).toString('hex');
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV === 'production' ? 'production' : 'development',
    LOG_LEVEL: options.logLevel ?? 'info',
    NATS_URL: options.natsUrl,
    // Like every other port here, the metrics are for this machine only unless asked (a Prometheus in a container).
    METRICS_HOST: process.env.METRICS_HOST ?? '127.0.0.1',
    ...options.env,
  };
  const counts = replicaCounts({}, options.replicas);
  const processes = {} as Record<ServiceName | 'gateway', ManagedProcess>;
  const replicas = {} as Record<ServiceName, Replica[]>;
  const ready: Record<string, () => Promise<void>> = {};
  const gatewayEnv: NodeJS.ProcessEnv = { ...baseEnv };
  const gatewayPort = options.gatewayPort ?? (await freePort());
  const publicUrl = options.publicUrl ?? `http://localhost:${gatewayPort}`;
  const keys = options.keys ?? completeKeys();
  // freePort() releases the port it found, so a later call may find the same one again: those are skipped.
  const taken = new Set([gatewayPort]);
  const untakenPort = async () => {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    return port;
  };
  const adminPort = options.adminPort ?? (await untakenPort());
  taken.add(adminPort);
  // Every process learns where every replica of every service listens (`<NAME>_GRPC_URL`, `ip:port,ip:port`): the
  // gateway calls them all, and a service asks another one a question that needs an answer now (customers asks
  // payments about cards); each spreads its calls over the replicas (round robin).
  const ports = new Map<ServiceName, number[]>();
  for (const service of SERVICES) {
    const list: number[] = [];
    for (let i = 0; i < counts[service.name]; i++) list.push(await untakenPort());
    ports.set(service.name, list);
    gatewayEnv[service.addressEnv] = list.map((port) => `127.0.0.1:${port}`).join(',');
  }
  const addresses = Object.fromEntries(SERVICES.map((s) => [s.addressEnv, gatewayEnv[s.addressEnv]!]));
  // Fixed in each process's environment, so a restarted process serves its metrics where it did before.
  const processNames = ['gateway', ...SERVICES.flatMap((s) => ports.get(s.name)!.map((_port, i) => replicaName(s.name, i, counts[s.name])))];
  const metricsPorts: Record<string, number> = {};
  for (const [index, name] of processNames.entries()) {
    metricsPorts[name] = options.metricsPort ? options.metricsPort + index : await untakenPort();
  }
  const metricsUrlOf = (name: string) => `http://127.0.0.1:${metricsPorts[name]}/metrics`;

  // Every process starts at once; on a small machine, many replicas take their turns at the CPU for longer.
  const readyWaitMs = 60_000 * Math.max(1, Math.ceil((processNames.length - 1) / SERVICES.length));
  for (const service of SERVICES) {
    const databaseUrl = await options.ensureDatabase(`${options.databasePrefix ?? ''}${service.database}`);
    const ownEnv = serviceEnv(service, { keys, publicUrl, databasePrefix: options.databasePrefix ?? '', env: baseEnv });
    replicas[service.name] = ports.get(service.name)!.map((port, index) => {
      const name = replicaName(service.name, index, counts[service.name]);
      const address = `127.0.0.1:${port}`;
      const serving = () => waitForGrpcHealth(address, { waitMs: readyWaitMs });
      const proc = managedProcess({
        name,
        entry: path.join(options.repoRoot, 'services', service.name, 'dist', 'main.js'),
        cwd: options.repoRoot,
        nodeArgs: options.nodeArgs,
        env: {
          ...baseEnv,
          ...addresses,
          ...ownEnv,
          GRPC_HOST: '127.0.0.1',
          GRPC_PORT: String(port),
          DATABASE_URL: databaseUrl,
          METRICS_PORT: String(metricsPorts[name]),
        },
        heal: options.heal && { ...options.heal, ready: serving },
        onLine: options.onLine,
        onExit: options.onExit,
      });
      ready[name] = serving;
      return { name, service: service.name, index, process: proc, address, metricsUrl: metricsUrlOf(name) };
    });
    processes[service.name] = replicas[service.name][0]!.process;
  }

  const gatewayServes = () => Promise.all([waitForPort(gatewayPort, 60_000), waitForPort(adminPort, 60_000)]).then(() => undefined);
  processes.gateway = managedProcess({
    name: 'gateway',
    entry: path.join(options.repoRoot, 'gateway', 'dist', 'main.js'),
    cwd: options.repoRoot,
    nodeArgs: options.nodeArgs,
    env: {
      ...gatewayEnv,
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      ADMIN_PORT: String(adminPort),
      ADMIN_HOST: '127.0.0.1',
      ADMIN_TOKEN: adminToken,
      PUBLIC_URL: publicUrl,
      METRICS_PORT: String(metricsPorts.gateway),
    },
    heal: options.heal && { ...options.heal, ready: () => gatewayServes() },
    onLine: options.onLine,
    onExit: options.onExit,
  });
  ready.gateway = () => gatewayServes();

  const allReplicas = SERVICES.flatMap((s) => replicas[s.name]);
  const startOne = async (name: string) => {
    const proc = name === 'gateway' ? processes.gateway : allReplicas.find((r) => r.name === name)?.process;
    if (!proc) throw new Error(`no process named ${name}`);
    proc.start();
    await ready[name]!();
  };
  const restart = async (name: string) => {
    const service = SERVICES.find((s) => s.name === name);
    if (service) await Promise.all(replicas[service.name].map((r) => startOne(r.name)));
    else await startOne(name);
  };

  const stopAll = async () => {
    await processes.gateway.stop();
    await Promise.all(allReplicas.map((r) => r.process.stop()));
  };

  try {
    await Promise.all(allReplicas.map((r) => startOne(r.name)));
    await startOne('gateway');
  } catch (error) {
    await stopAll();
    throw error;
  }

  const metricsUrls = Object.fromEntries([
    ['gateway', metricsUrlOf('gateway')],
    ...SERVICES.map((s) => [s.name, replicas[s.name][0]!.metricsUrl]),
  ]) as Platform['metricsUrls'];
  const processMetricsUrls = Object.fromEntries(processNames.map((name) => [name, metricsUrlOf(name)]));
  return { gatewayUrl: `http://127.0.0.1:${gatewayPort}`, adminUrl: `http://127.0.0.1:${adminPort}`, adminToken, processes, replicas, metricsUrls, processMetricsUrls, restart, stop: stopAll };
}
