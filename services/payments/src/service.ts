import path from 'node:path';
import { customers, payments, sellers, settings } from '@platform/contracts';
import { createPromiseClient, implement, JobRunner, systemClock, type Clock, type ServiceDefinitionOptions } from '@platform/kit';
import { chargeCron, chargeJobs } from './modules/charges/app/chargeJobs';
import type { ChargeDeps } from './modules/charges/app/deps';
import { createCustomersPort, type CustomersPort } from './shared/customersPort';
import { createSellersPort, type SellersPort } from './shared/sellersPort';
import { subscriptionJobs } from './modules/subscriptions/app/subscriptionJobs';
import type { SubscriptionDeps } from './modules/subscriptions/app/deps';
import { createSubscriptionSettingsPort, type SubscriptionSettingsPort } from './modules/subscriptions/app/settingsPort';
import { createClientsPort } from './modules/receipts/app/clientsPort';
import type { ClientsPort, ReceiptDeps } from './modules/receipts/app/deps';
import { BUILD_REPORT_JOB, buildReport, type ReportDeps } from './modules/reports/app/reports';
import type { MerchantContext } from './modules/merchants/app/context';
import { createMerchantsPort } from './modules/merchants/app/merchantsPort';
import { MerchantCache } from './modules/merchants/app/merchantCache';
import { createCardSource, createVaultLookup } from './modules/vault/app/cardSource';
import type { VaultContext } from './modules/vault/app/context';
import { vaultCron, vaultJobs } from './modules/vault/app/vaultJobs';
import { paymentsConfig } from './config';
import { OutcomeRecorder, type FlushTimer } from './modules/charges/app/outcomeRecorder';
import { successRateSettingsOf } from './modules/charges/domain/successRateSettings';
import type { PaymentsDeps } from './shared/deps';
import { createChargeHandlers } from './modules/charges/grpc/chargeHandlers';
import { createMerchantHandlers } from './modules/merchants/grpc/merchantHandlers';
import { createReceiptHandlers } from './modules/receipts/grpc/receiptHandlers';
import { createReceiptStore } from './modules/receipts/store/receiptStore';
import { createReportHandlers } from './modules/reports/grpc/reportHandlers';
import { createReportStore } from './modules/reports/store/reportStore';
import { createSubscriptionHandlers } from './modules/subscriptions/grpc/subscriptionHandlers';
import { createSubscriptionStore } from './modules/subscriptions/store/subscriptionStore';
import { createVaultHandlers } from './modules/vault/grpc/vaultHandlers';
import { createProviderRegistry, type ProviderRegistry } from './modules/connectors/app/registry';
import { createProviderEntries } from './modules/connectors/app/providerEntries';
import { createCardStore } from './modules/vault/store/cardStore';
import { createChargeStore } from './modules/charges/store/chargeStore';
import { createFlowStore } from './modules/flows/store/flowStore';
import { createMerchantStore } from './modules/merchants/store/merchantStore';
import { createTokenStore } from './modules/vault/store/tokenStore';
import { checkVaultKeys } from './modules/vault/app/keyRotation';
import { createVaultKeyStore } from './modules/vault/store/vaultKeyStore';
import { vaultFromConfig } from './modules/vault/crypto/keyRing';

/** The only place the service's real dependencies are built; use cases and handlers receive them. */
export function definePaymentsService(
  options: {
    clock?: Clock;
    providers?: ProviderRegistry;
    customers?: CustomersPort;
    sellers?: SellersPort;
    subscriptionSettings?: SubscriptionSettingsPort;
    clients?: ClientsPort;
    /** Rows per report page (the product's 100,000 unless a test asks for fewer). */
    reportPageRows?: number;
    /** Awaited by each report build once its report is `processing` (tests hold builds there). */
    beforeReportBuild?: (report: { clientId: string; id: string }) => Promise<void>;
    /** Rows per transaction of the vault's re-wrap job (500 unless a test asks for fewer). */
    rewrapBatch?: number;
    /** What starts the provider outcomes' periodic flush (an interval of OUTCOMES_FLUSH_MS unless a test drives it). */
    outcomesTimer?: FlushTimer;
    /** Given the process's outcome recorder once it is built (tests flush it). */
    onOutcomeRecorder?: (recorder: OutcomeRecorder) => void;
  } = {},
): ServiceDefinitionOptions<typeof paymentsConfig> {
  return {
    name: 'payments',
    configSchema: paymentsConfig,
    migrationsDir: path.join(__dirname, '..', 'migrations'),
    wire: async ({ config, log, pool, outbox }) => {
      const clock = options.clock ?? systemClock;
      const vault = vaultFromConfig(config);
      const deps: PaymentsDeps = { pool, log, config, outbox, clock, vault };
      // Before anything is served: refuses a ring that lacks a key stored values need, adds the re-wrap job if due.
      await checkVaultKeys({ pool, log, clock, vault, keyStore: createVaultKeyStore() });
      const stores = {
        merchants: createMerchantStore(),
        flows: createFlowStore(),
        cards: createCardStore(),
        tokens: createTokenStore(),
        charges: createChargeStore(),
        reports: createReportStore(),
        subscriptions: createSubscriptionStore(),
        receipts: createReceiptStore(),
      };
      // One set of adapters for requests and jobs: the sandbox remembers its answers by key in memory.
      const providers = options.providers ?? createProviderRegistry({ publicUrl: config.PUBLIC_URL });
      const customersClient = options.customers
        ? undefined
        : createPromiseClient(customers.CustomersServiceService, customers.CustomersServiceClient, config.CUSTOMERS_GRPC_URL);
      const customersPort = options.customers ?? createCustomersPort(customersClient!);
      const sellersClient = options.sellers
        ? undefined
        : createPromiseClient(sellers.SellersServiceService, sellers.SellersServiceClient, config.SELLERS_AND_REVIEWS_GRPC_URL);
      const sellersPort = options.sellers ?? createSellersPort(sellersClient!, { timeoutMs: config.SPLIT_CHECK_TIMEOUT_MS });
      const settingsClient =
        options.subscriptionSettings && options.clients
          ? undefined
          : createPromiseClient(settings.SettingsServiceService, settings.SettingsServiceClient, config.SETTINGS_GRPC_URL);
      // Merchants as charges need them, in memory; the merchant use cases invalidate it after their changes commit.
      const merchantCache = new MerchantCache({ ttlMs: config.MERCHANT_CACHE_TTL_MS });
      const merchantContext: MerchantContext = { ...deps, merchants: stores.merchants, flows: stores.flows, providers, merchantCache };
      const vaultContext: VaultContext = { ...deps, cards: stores.cards, tokens: stores.tokens, merchants: stores.merchants };
      // The charges' provider outcomes, written apart from them in one statement per flush; the last at stop.
      const outcomes = new OutcomeRecorder({
        db: pool,
        log,
        settings: successRateSettingsOf(config),
        flushMs: config.OUTCOMES_FLUSH_MS,
        ...(options.outcomesTimer ? { timer: options.outcomesTimer } : {}),
      });
      outcomes.start();
      options.onOutcomeRecorder?.(outcomes);
      const chargeDeps: ChargeDeps = {
        pool,
        log,
        clock,
        config,
        outbox,
        store: stores.charges,
        outcomes,
        providers,
        providerEntries: createProviderEntries({ vault }),
        cards: createCardSource({ vault, clock, cards: stores.cards, tokens: stores.tokens }),
        merchants: createMerchantsPort({ vault, merchants: stores.merchants, cache: merchantCache }),
        customers: customersPort,
        sellers: sellersPort,
        vault: createVaultLookup(stores),
      };
      const subscriptionDeps: SubscriptionDeps = {
        pool,
        log,
        clock,
        outbox,
        subscriptions: stores.subscriptions,
        merchants: stores.merchants,
        cards: stores.cards,
        customers: customersPort,
        sellers: sellersPort,
        settings: options.subscriptionSettings ?? createSubscriptionSettingsPort(settingsClient!),
        charges: chargeDeps,
      };
      const reportDeps: ReportDeps = {
        pool,
        log,
        clock,
        merchants: stores.merchants,
        reports: stores.reports,
        buildsPerClient: config.REPORT_BUILDS_PER_CLIENT,
        ...(options.reportPageRows ? { pageRows: options.reportPageRows } : {}),
        ...(options.beforeReportBuild ? { beforeBuild: options.beforeReportBuild } : {}),
      };
      const receiptDeps: ReceiptDeps = {
        pool,
        log,
        clock,
        charges: stores.charges,
        merchants: stores.merchants,
        receipts: stores.receipts,
        clients: options.clients ?? createClientsPort(settingsClient!),
      };
      const definition = payments.PaymentsServiceService;
      const implementation = implement(
        definition,
        {
          ...createMerchantHandlers(merchantContext),
          ...createVaultHandlers(vaultContext),
          ...createChargeHandlers(chargeDeps),
          ...createSubscriptionHandlers(subscriptionDeps),
          ...createReportHandlers(reportDeps),
          ...createReceiptHandlers(receiptDeps),
        },
        log,
      );
      const jobs = new JobRunner({
        pool,
        log,
        handlers: {
          ...vaultJobs(deps, options.rewrapBatch ? { rewrapBatch: options.rewrapBatch } : {}),
          ...chargeJobs(chargeDeps),
          ...subscriptionJobs(subscriptionDeps),
          [BUILD_REPORT_JOB]: async (job) => buildReport(reportDeps, job.payload as { clientId: string; reportId: string }),
        },
        cron: [...vaultCron, ...chargeCron],
      });
      await jobs.start();
      const clients = [customersClient, sellersClient, settingsClient].filter((c) => c !== undefined);
      // The jobs stop before the outcomes' last flush: a job's charge change may add outcomes.
      const workers = [{ stop: async () => jobs.stop().finally(() => outcomes.stop()) }, ...clients.map((c) => ({ stop: async () => c.close() }))];
      return { services: [{ name: 'payments.v1.PaymentsService', definition, implementation }], workers };
    },
  };
}

export const paymentsService = definePaymentsService();
