import type { Clock, Logger, OutboxRelay, Pool } from '@platform/kit';
import type { PaymentsConfig } from '../config';
import type { Vault } from '../modules/vault/crypto/crypto';

/** What every use case of the service may be given; only service.ts builds the real ones. */
export interface PaymentsDeps {
  pool: Pool;
  log: Logger;
  vault: Vault;
  config: PaymentsConfig;
  clock: Clock;
  outbox: Pick<OutboxRelay, 'kick'>;
}
