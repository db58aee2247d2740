import { customers, payments } from '@platform/contracts';
import { createPromiseClient, implement, migrationsDirOf, systemClock, type ServiceDefinitionOptions } from '@platform/kit';
import { createPaymentsCardsPort, type CardsPort } from './app/cardsPort';
import { customersConfig } from './config';
import { createCustomerHandlers } from './grpc/customerHandlers';
import { createCustomerCardStore } from './store/customerCardStore';
import { createCustomerStore } from './store/customerStore';

export function defineCustomersService(options: { cards?: CardsPort } = {}): ServiceDefinitionOptions<typeof customersConfig> {
  return {
    name: 'customers',
    configSchema: customersConfig,
    migrationsDir: migrationsDirOf(__dirname),
    wire: async ({ pool, log, outbox, config }) => {
      const paymentsClient = options.cards
        ? undefined
        : createPromiseClient(payments.PaymentsServiceService, payments.PaymentsServiceClient, config.PAYMENTS_GRPC_URL);
      const cards = options.cards ?? createPaymentsCardsPort(paymentsClient!);
      const handlers = createCustomerHandlers({
        pool,
        log,
        outbox,
        store: createCustomerStore(),
        cardLinks: createCustomerCardStore(),
        cards,
        clock: systemClock,
      });
      return {
        services: [
          {
            name: 'customers.v1.CustomersService',
            definition: customers.CustomersServiceService,
            implementation: implement(customers.CustomersServiceService, handlers, log),
          },
        ],
        workers: paymentsClient ? [{ stop: async () => paymentsClient.close() }] : [],
      };
    },
  };
}

export const customersService = defineCustomersService();
