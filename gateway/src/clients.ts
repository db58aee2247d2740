import { credentials, makeGenericClientConstructor, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { customers, payments, settings, webhooks } from '@platform/contracts';
import { createPromiseClient, type PromiseClient } from '@platform/kit';
import { service as healthService } from 'grpc-health-check';

export type SettingsClient = PromiseClient<typeof settings.SettingsServiceService>;
export type CustomersClient = PromiseClient<typeof customers.CustomersServiceService>;
export type PaymentsClient = PromiseClient<typeof payments.PaymentsServiceService>;
export type WebhooksClient = PromiseClient<typeof webhooks.WebhooksServiceService>;

export const UPSTREAMS = ['settings', 'customers', 'payments', 'webhooks'] as const;
export type Upstream = (typeof UPSTREAMS)[number];

/** Resolves to the grpc.health.v1 status name the upstream reports (SERVING, NOT_SERVING, SERVICE_UNKNOWN...), or UNREACHABLE. */
export type HealthProbe = () => Promise<string>;

/** Everything the gateway calls. Tests pass plain objects with the methods they use. */
export interface GatewayClients {
  settings: SettingsClient;
  customers: CustomersClient;
  payments: PaymentsClient;
  webhooks: WebhooksClient;
  health: Record<Upstream, HealthProbe>;
}

export interface ClosableClients extends GatewayClients {
  close(): void;
}

interface HealthClient {
  check(
    request: { service: string },
    options: { deadline: number },
    callback: (error: ServiceError | null, response?: { status?: string | number }) => void,
  ): void;
  close(): void;
}

const HealthClientConstructor = makeGenericClientConstructor(healthService, 'grpc.health.v1.Health');
const STATUS_NAMES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

/** The fully qualified gRPC service name, read from a generated method path such as `/settings.v1.SettingsService/Authenticate`. */
export function grpcServiceName(definition: Record<string, { path: string }>): string {
  const first = Object.values(definition)[0];
  const name = first?.path.split('/')[1];
  if (!name) throw new Error('service definition without methods');
  return name;
}

function healthProbe(address: string, serviceName: string, timeoutMs: number): { probe: HealthProbe; close(): void } {
  const client = new HealthClientConstructor(address, credentials.createInsecure()) as unknown as HealthClient;
  const probe = () =>
    new Promise<string>((resolve) => {
      client.check({ service: serviceName }, { deadline: Date.now() + timeoutMs }, (error, response) => {
        if (error) {
          resolve(error.code === GrpcStatus.NOT_FOUND ? 'SERVICE_UNKNOWN' : 'UNREACHABLE');
          return;
        }
        const status = response?.status;
        resolve(typeof status === 'number' ? (STATUS_NAMES[status] ?? 'UNKNOWN') : (status ?? 'UNKNOWN'));
      });
    });
  return { probe, close: () => client.close() };
}

/** The real gRPC clients for the upstream addresses (host:port). */
export function createGrpcClients(options: {
  settingsUrl: string;
  customersUrl: string;
  paymentsUrl: string;
  webhooksUrl: string;
  healthTimeoutMs?: number;
}): ClosableClients {
  const timeoutMs = options.healthTimeoutMs ?? 1000;
  const settingsClient = createPromiseClient(settings.SettingsServiceService, settings.SettingsServiceClient, options.settingsUrl);
  const customersClient = createPromiseClient(customers.CustomersServiceService, customers.CustomersServiceClient, options.customersUrl);
  const paymentsClient = createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, options.paymentsUrl);
  const webhooksClient = createPromiseClient(webhooks.WebhooksServiceService, webhooks.WebhooksServiceClient, options.webhooksUrl);
  const settingsHealth = healthProbe(options.settingsUrl, grpcServiceName(settings.SettingsServiceService), timeoutMs);
  const customersHealth = healthProbe(options.customersUrl, grpcServiceName(customers.CustomersServiceService), timeoutMs);
  const paymentsHealth = healthProbe(options.paymentsUrl, grpcServiceName(payments.PaymentsServiceService), timeoutMs);
  const webhooksHealth = healthProbe(options.webhooksUrl, grpcServiceName(webhooks.WebhooksServiceService), timeoutMs);
  return {
    settings: settingsClient,
    customers: customersClient,
    payments: paymentsClient,
    webhooks: webhooksClient,
    health: { settings: settingsHealth.probe, customers: customersHealth.probe, payments: paymentsHealth.probe, webhooks: webhooksHealth.probe },
    close: () => {
      for (const c of [settingsClient, customersClient, paymentsClient, webhooksClient, settingsHealth, customersHealth, paymentsHealth, webhooksHealth]) c.close();
    },
  };
}
