import { settings as pb } from '@platform/contracts';
import type { Pool, PromiseClient } from '@platform/kit';
import { ManualClock, startServiceWithClient } from '@platform/testkit';
import { defineSettingsService } from '../../src/service';
import { FakeMerchants } from './merchants';

export interface SettingsUnderTest {
  client: PromiseClient<typeof pb.SettingsServiceService>;
  /** The service's own pool, to look at rows and the outbox directly. */
  pool: Pool;
  clock: ManualClock;
  /** The merchants payments would know of: tests add the ones they name. */
  merchants: FakeMerchants;
  stop(): Promise<void>;
}

/** The real service in-process on a free port, on a fresh database, called through the generated client. */
export async function startSettings(): Promise<SettingsUnderTest> {
  // Stopped at the start: time moves only when a test moves it.
  const clock = new ManualClock(new Date());
  const merchants = new FakeMerchants();
  const started = await startServiceWithClient(
    defineSettingsService({ clock, merchants }),
    { definition: pb.SettingsServiceService, Client: pb.SettingsServiceClient },
    { env: { SHUTDOWN_GRACE_MS: '1000', PAYMENTS_GRPC_URL: '127.0.0.1:1' } },
  );
  return { client: started.client, pool: started.pool, clock, merchants, stop: started.stop };
}

export async function newClient(
  api: SettingsUnderTest['client'],
  overrides: Partial<pb.CreateClientRequest> = {},
): Promise<{ clientId: string; apiKey: string; keyId: string }> {
  const created = await api.createClient({ name: 'Acme', environment: 'sandbox', prepaymentEnabled: false, ...overrides });
  return { clientId: created.client!.id, apiKey: created.apiKey, keyId: created.keyId };
}
