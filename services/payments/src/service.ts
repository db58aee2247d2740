import path from 'node:path';
import { payments } from '@platform/contracts';
import { implement, JobRunner, systemClock, type Clock, type ServiceDefinitionOptions } from '@platform/kit';
import { paymentsConfig } from './config';
import type { PaymentsDeps } from './deps';
import { chargeJobs, scheduleChargeMaintenance } from './app/chargeJobs';
import { chargeDeps } from './app/charges/deps';
import { createChargeHandlers } from './grpc/chargeHandlers';
import { createMerchantHandlers } from './grpc/merchantHandlers';
import { createVaultHandlers } from './grpc/vaultHandlers';
import { scheduleVaultMaintenance, vaultJobs } from './app/vaultJobs';
import { createProviderRegistry } from './providers/registry';
import { Vault } from './vault/crypto';

export function definePaymentsService(options: { clock?: Clock } = {}): ServiceDefinitionOptions<typeof paymentsConfig> {
  return {
    name: 'payments',
    configSchema: paymentsConfig,
    migrationsDir: path.join(__dirname, '..', 'migrations'),
    wire: async ({ config, log, pool, outbox }) => {
      const deps: PaymentsDeps = {
        pool,
        log,
        config,
        outbox,
        clock: options.clock ?? systemClock,
        vault: new Vault(config.CARD_ENCRYPTION_KEY, config.CARD_FINGERPRINT_KEY),
      };
      // One set of adapters for requests and jobs: the sandbox remembers its answers by key in memory.
      const providers = createProviderRegistry({ publicUrl: config.PUBLIC_URL });
      const definition = payments.PaymentsServiceService;
      const implementation = implement(
        definition,
        { ...createMerchantHandlers(deps), ...createVaultHandlers(deps), ...createChargeHandlers(deps, { providers }) },
        log,
      );
      const jobs = new JobRunner({ pool, log, handlers: { ...vaultJobs(deps), ...chargeJobs(chargeDeps(deps, { providers })) } });
      await scheduleVaultMaintenance(pool);
      await scheduleChargeMaintenance(pool);
      jobs.start();
      return { services: [{ name: 'payments.v1.PaymentsService', definition, implementation }], workers: [jobs] };
    },
  };
}

export const paymentsService = definePaymentsService();
