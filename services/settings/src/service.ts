import { settings as pb } from '@platform/contracts';
import { implement, migrationsDirOf, systemClock, type Clock, type ServiceDefinitionOptions } from '@platform/kit';
import type { z } from 'zod';
import { createSettingsHandlers } from './grpc/settingsHandlers';
import { createStores } from './store';

export const SETTINGS_GRPC_SERVICE = 'settings.v1.SettingsService';

/** The service definition; tests pass their own clock to move time without waiting. */
export function defineSettingsService(options: { clock?: Clock } = {}): ServiceDefinitionOptions<z.ZodObject> {
  return {
    name: 'settings',
    migrationsDir: migrationsDirOf(__dirname),
    wire: async ({ pool, log }) => {
      const handlers = createSettingsHandlers({ pool, stores: createStores(), clock: options.clock ?? systemClock });
      return {
        services: [
          { name: SETTINGS_GRPC_SERVICE, definition: pb.SettingsServiceService, implementation: implement(pb.SettingsServiceService, handlers, log) },
        ],
      };
    },
  };
}

export const settingsService = defineSettingsService();
