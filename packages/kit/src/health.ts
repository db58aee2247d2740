import { credentials, makeGenericClientConstructor, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { CLIENT_CHANNEL_OPTIONS, grpcTarget } from './grpc';

/**
 * What a grpc.health.v1 Check answers, by name (`SERVING`, `NOT_SERVING`, `SERVICE_UNKNOWN`, `UNKNOWN`), or
 * `UNREACHABLE` when no answer came within the deadline.
 */
export type GrpcHealthStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN' | 'UNREACHABLE';

const STATUS_NAMES: readonly GrpcHealthStatus[] = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

interface HealthClient {
  check(
    request: { service: string },
    options: { deadline: number },
    callback: (error: ServiceError | null, response?: { status?: string | number }) => void,
  ): void;
  close(): void;
}

const HealthClientConstructor = makeGenericClientConstructor(healthService, 'grpc.health.v1.Health');

function statusName(status: string | number | undefined): GrpcHealthStatus {
  if (typeof status === 'number') return STATUS_NAMES[status] ?? 'UNKNOWN';
  return STATUS_NAMES.find((name) => name === status) ?? 'UNKNOWN';
}

export interface GrpcHealthProbe {
  /** One Check of the service; never rejects. */
  check(): Promise<GrpcHealthStatus>;
  close(): void;
}

/**
 * A probe that keeps its channel open between checks (for a caller that asks again and again, like the gateway's
 * /health). `serviceName` is the fully qualified gRPC service (`settings.v1.SettingsService`); '' asks about the
 * server as a whole. A server that does not know the name answers `SERVICE_UNKNOWN`. For a list of replicas (see
 * grpcTarget) each check asks the next one that is connected: SERVING while any replica serves.
 */
export function createGrpcHealthProbe(address: string, serviceName = '', timeoutMs = 1000): GrpcHealthProbe {
  const client = new HealthClientConstructor(grpcTarget(address), credentials.createInsecure(), CLIENT_CHANNEL_OPTIONS) as unknown as HealthClient;
  return {
    check: () =>
      new Promise<GrpcHealthStatus>((resolve) => {
        client.check({ service: serviceName }, { deadline: Date.now() + timeoutMs }, (error, response) => {
          if (error) resolve(error.code === GrpcStatus.NOT_FOUND ? 'SERVICE_UNKNOWN' : 'UNREACHABLE');
          else resolve(statusName(response?.status));
        });
      }),
    close: () => client.close(),
  };
}

/** One grpc.health.v1 Check on a channel of its own, closed afterwards. */
export async function checkGrpcHealth(address: string, serviceName = '', timeoutMs = 1000): Promise<GrpcHealthStatus> {
  const probe = createGrpcHealthProbe(address, serviceName, timeoutMs);
  try {
    return await probe.check();
  } finally {
    probe.close();
  }
}

/** Waits until the server at `address` reports SERVING (for `serviceName`, '' by default), or fails after waitMs. */
export async function waitForGrpcHealth(
  address: string,
  options: { waitMs: number; serviceName?: string; intervalMs?: number; timeoutMs?: number },
): Promise<void> {
  const deadline = Date.now() + options.waitMs;
  const probe = createGrpcHealthProbe(address, options.serviceName ?? '', options.timeoutMs ?? 1000);
  try {
    for (;;) {
      const status = await probe.check();
      if (status === 'SERVING') return;
      if (Date.now() > deadline) {
        throw new Error(`gRPC server at ${address} did not become healthy within ${options.waitMs} ms (last status ${status})`);
      }
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
    }
  } finally {
    probe.close();
  }
}
