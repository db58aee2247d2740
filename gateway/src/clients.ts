import { SERVICES, type ClientName, type ServiceByClient } from '@platform/catalog';
import { grpcServices, type GrpcServices } from '@platform/contracts';
import { createGrpcHealthProbe, createPromiseClient, type PromiseClient } from '@platform/kit';

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

/** The fully qualified gRPC service name, read from a generated method path such as `/settings.v1.SettingsService/Authenticate`. */
export function grpcServiceName(definition: Record<string, { path: string }>): string {
  const first = Object.values(definition)[0];
  const name = first?.path.split('/')[1];
  if (!name) throw new Error('service definition without methods');
  return name;
}

/** The real gRPC clients and health probes, one per catalog service, for the upstream addresses (host:port). */
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
  return {
    ...(clients as { [K in Upstream]: ClientOf<K> }),
    health: health as Record<Upstream, HealthProbe>,
    close: () => {
      for (const c of closables) c.close();
    },
  };
}
