import { settings as pb } from '@platform/contracts';
import { createPromiseClient, startService, type Pool, type PromiseClient, type RunningService } from '@platform/kit';
import { createTestDatabase, testNatsUrl } from '@platform/testkit';
import { defineSettingsService } from '../../src/service';
import { ManualClock } from './fixtures';

export interface SettingsUnderTest {
  client: PromiseClient<typeof pb.SettingsServiceService>;
  /** The service's own pool, to look at rows and the outbox directly. */
  pool: Pool;
  clock: ManualClock;
  stop(): Promise<void>;
}

/** The real service in-process on a free port, on a fresh database, called through the generated client. */
export async function startSettings(prefix: string): Promise<SettingsUnderTest> {
  const clock = new ManualClock();
  const service: RunningService = await startService(defineSettingsService({ clock }), {
    DATABASE_URL: await createTestDatabase(prefix),
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    SHUTDOWN_GRACE_MS: '1000',
  });
  const client = createPromiseClient(pb.SettingsServiceService, pb.SettingsServiceClient, `127.0.0.1:${service.port}`);
  return {
    client,
    pool: service.runtime.pool,
    clock,
    stop: async () => {
      client.close();
      await service.stop();
    },
  };
}

export async function newClient(
  api: SettingsUnderTest['client'],
  overrides: Partial<pb.CreateClientRequest> = {},
): Promise<{ clientId: string; apiKey: string; keyId: string }> {
  const created = await api.createClient({ name: 'Acme', environment: 'sandbox', prepaymentEnabled: false, ...overrides });
  return { clientId: created.client!.id, apiKey: created.apiKey, keyId: created.keyId };
}
