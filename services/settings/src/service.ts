import { payments, settings as pb } from '@platform/contracts';
import { createPromiseClient, implement, migrationsDirOf, systemClock, type Clock, type ServiceDefinitionOptions } from '@platform/kit';
import { createPaymentsMerchantsPort, type MerchantsPort } from './app/merchantsPort';
import { settingsConfig } from './config';
import { createSettingsHandlers } from './grpc/settingsHandlers';
import { createStores } from './store';

export const SETTINGS_GRPC_SERVICE = 'settings.v1.SettingsService';

/** The service definition; tests pass their own clock to move time without waiting, and their own merchants port. */
export function defineSettingsService(options: { clock?: Clock; merchants?: MerchantsPort } = {}): ServiceDefinitionOptions<typeof settingsConfig> {
  return {
    name: 'settings',
    configSchema: settingsConfig,
    migrationsDir: migrationsDirOf(__dirname),
    wire: async ({ pool, log, config }) => {
      const paymentsClient = options.merchants
        ? undefined
        : createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, config.PAYMENTS_GRPC_URL);
      const merchants = options.merchants ?? createPaymentsMerchantsPort(paymentsClient!);
      const handlers = createSettingsHandlers({ pool, stores: createStores(), clock: options.clock ?? systemClock, publicUrl: config.PUBLIC_URL, merchants });
      return {
        services: [
          { name: SETTINGS_GRPC_SERVICE, definition: pb.SettingsServiceService, implementation: implement(pb.SettingsServiceService, handlers, log) },
        ],
        workers: paymentsClient ? [{ stop: async () => paymentsClient.close() }] : [],
      };
    },
  };
}

export const settingsService = defineSettingsService();
