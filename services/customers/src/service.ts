import { customers } from '@platform/contracts';
import { implement, migrationsDirOf, systemClock, type ServiceDefinitionOptions } from '@platform/kit';
import type { z } from 'zod';
import { createCustomerHandlers } from './grpc/customerHandlers';
import { createCustomerStore } from './store/customerStore';

export const customersService: ServiceDefinitionOptions<z.ZodObject> = {
  name: 'customers',
  migrationsDir: migrationsDirOf(__dirname),
  wire: async ({ pool, log, outbox }) => {
    const handlers = createCustomerHandlers({ pool, log, outbox, store: createCustomerStore(), clock: systemClock });
    return {
      services: [
        {
          name: 'customers.v1.CustomersService',
          definition: customers.CustomersServiceService,
          implementation: implement(customers.CustomersServiceService, handlers, log),
        },
      ],
    };
  },
};
