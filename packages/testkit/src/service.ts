import {
  createPromiseClient,
  startService,
  type Pool,
  type PromiseClient,
  type RunningService,
  type ServiceDefinition,
  type ServiceDefinitionOptions,
} from '@platform/kit';
import type { z } from 'zod';
import { createTestDatabase, testNatsUrl } from './suite';

export interface ServiceUnderTest {
  service: RunningService;
  /** `127.0.0.1:<port>` of its gRPC server. */
  address: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts a service in-process on a fresh database of the run's PostgreSQL (or on `databaseUrl`, to restart one on
 * the data a previous start left), the run's nats-server and a free port, silent unless LOG_LEVEL says otherwise.
 * `env` adds what the service needs besides (its keys, the addresses of services it calls).
 */
export async function startServiceForTest<S extends z.ZodObject>(
  definition: ServiceDefinitionOptions<S>,
  options: { env?: NodeJS.ProcessEnv; databaseUrl?: string } = {},
): Promise<ServiceUnderTest> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase(definition.name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()));
  const service = await startService(definition, {
    DATABASE_URL: databaseUrl,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  });
  return { service, address: `127.0.0.1:${service.port}`, databaseUrl, stop: () => service.stop() };
}

export interface ServiceWithClient<D extends ServiceDefinition> extends ServiceUnderTest {
  /** The generated client of the service, through the kit's promise client (errors come back as AppError). */
  client: PromiseClient<D>;
  /** The service's own pool, for reading its tables and outbox. */
  pool: Pool;
}

/**
 * startServiceForTest, plus a client of `grpc.definition` connected to it; `stop` closes the client first. What
 * every service's gRPC suites start with.
 */
export async function startServiceWithClient<S extends z.ZodObject, D extends ServiceDefinition>(
  definition: ServiceDefinitionOptions<S>,
  grpc: { definition: D; Client: Parameters<typeof createPromiseClient<D>>[1] },
  options: { env?: NodeJS.ProcessEnv; databaseUrl?: string } = {},
): Promise<ServiceWithClient<D>> {
  const started = await startServiceForTest(definition, options);
  const client = createPromiseClient(grpc.definition, grpc.Client, started.address);
  return {
    ...started,
    client,
    pool: started.service.runtime.pool,
    stop: async () => {
      client.close();
      await started.stop();
    },
  };
}
