import { SERVICES, type ClientName, type ServiceByClient } from '@platform/catalog';
import { grpcServices, type GrpcServices } from '@platform/contracts';
import { addCollector, createGrpcHealthProbe, createPromiseClient, gauge, type PromiseClient } from '@platform/kit';

/** Every upstream service, by its client name, in the catalog's order (packages/catalog). */
export const UPSTREAMS = SERVICES.map((s) => s.client) as readonly ClientName[];
export type Upstream = ClientName;

/** The promise client of one upstream, typed from its contract. */
export type ClientOf<K extends Upstream> = PromiseClient<GrpcServices[ServiceByClient<K>['grpcService']]['definition']>;

export type SettingsClient = ClientOf<'settings'>;
export type CustomersClient = ClientOf<'customers'>;
export type PaymentsClient = ClientOf<'payments'>;
export type WebhooksClient = ClientOf<'webhooks'>;

/** Resolves to the grpc.health.v1 status name the upstream reports (SERVING, NOT_SERVING, SERVICE_UNKNOWN...), or UNREACHABLE. */
export type HealthProbe = () => Promise<string>;

/** Everything the gateway calls: one client per catalog service. Tests pass plain objects with the methods they use. */
export type GatewayClients = { [K in Upstream]: ClientOf<K> } & {
  health: Record<Upstream, HealthProbe>;
};

export type ClosableClients = GatewayClients & { close(): void };

const upstreamUp = () =>
  gauge({ name: 'gateway_upstream_up', help: 'Whether the upstream answers its gRPC health check with SERVING (1) or not (0), as the gateway sees it', labelNames: ['upstream'] });

/** The `upstream` label: the service's own name (`sellers-and-reviews`), as in its `service` label and the chart's components. */
const SERVICE_NAME = Object.fromEntries(SERVICES.map((s) => [s.client, s.name])) as Record<Upstream, string>;

/**
 * Asks every upstream at once: the status name each reports (a probe that fails counts as UNREACHABLE), in the
 * catalog's order. Sets `gateway_upstream_up{upstream}` as it goes, for the alerts: GET /health and every scrape
 * of the metrics ask through here, so the gauge is never older than the last of them.
 */
export async function checkUpstreams(health: Record<Upstream, HealthProbe>): Promise<Record<Upstream, string>> {
  const up = upstreamUp();
  const statuses = await Promise.all(
    UPSTREAMS.map(async (name) => {
      const status = await health[name]().catch(() => 'UNREACHABLE');
      up.labels({ upstream: SERVICE_NAME[name] }).set(status === 'SERVING' ? 1 : 0);
      return [name, status] as const;
    }),
  );
  return Object.fromEntries(statuses) as Record<Upstream, string>;
}

/** The fully qualified gRPC service name, read from a generated method path such as `/settings.v1.SettingsService/Authenticate`. */
export function grpcServiceName(definition: Record<string, { path: string }>): string {
  const first = Object.values(definition)[0];
  const name = first?.path.split('/')[1];
  if (!name) throw new Error('service definition without methods');
  return name;
}

/**
 * The real gRPC clients and health probes, one per catalog service, for the upstream addresses (host:port). Until
 * `close()`, each scrape of the process's metrics asks every upstream (`gateway_upstream_up`).
 */
export function createGrpcClients(options: { addresses: Record<Upstream, string>; healthTimeoutMs?: number }): ClosableClients {
  const timeoutMs = options.healthTimeoutMs ?? 1000;
  const closables: Array<{ close(): void }> = [];
  const clients: Record<string, unknown> = {};
  const health: Record<string, HealthProbe> = {};
  for (const service of SERVICES) {
    const address = options.addresses[service.client];
    const contract = grpcServices[service.grpcService];
    const client = createPromiseClient(contract.definition, contract.client, address);
    const probe = createGrpcHealthProbe(address, grpcServiceName(contract.definition), timeoutMs);
    clients[service.client] = client;
    health[service.client] = () => probe.check();
    closables.push(client, probe);
  }
  const probes = health as Record<Upstream, HealthProbe>;
  const stopCollecting = addCollector(async () => {
    await checkUpstreams(probes);
  });
  return {
    ...(clients as { [K in Upstream]: ClientOf<K> }),
    health: probes,
    close: () => {
      stopCollecting();
      for (const c of closables) c.close();
    },
  };
}
