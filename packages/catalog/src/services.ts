import type { ServiceEntry } from './types';

/**
 * Every service of the platform, in start order. The gateway's clients, health probes and config, the
 * launcher (`npm start`, e2e tests), the gateway test helpers, docker-compose.yml, the Helm values and the
 * compose database script all follow from this list (`npm run deploy:generate` rewrites the generated parts
 * of the deploy files; `npm test` fails when they are stale). `npm run new-service <name>` appends an entry.
 */
export const SERVICES = [
  {
    name: 'settings',
    client: 'settings',
    summary: 'Client accounts, API keys and client tokens (answers who a key belongs to), payment-link and subscription settings',
    database: 'settings',
    grpcService: 'settings.v1.SettingsService',
    addressEnv: 'SETTINGS_GRPC_URL',
    scopes: ['settings', 'subscriptions'],
    secrets: [],
    env: [
      {
        env: 'PUBLIC_URL',
        description: "the gateway's external base URL, for the logo URLs in link-settings events",
        devstack: '{publicUrl}',
        compose: '${PUBLIC_URL:-http://localhost:8080}',
      },
    ],
  },
  {
    name: 'customers',
    client: 'customers',
    summary: "Customers of each client and the cards linked to them",
    database: 'customers',
    grpcService: 'customers.v1.CustomersService',
    addressEnv: 'CUSTOMERS_GRPC_URL',
    scopes: ['customers'],
    secrets: [],
    env: [],
  },
  {
    name: 'payments',
    client: 'payments',
    summary: 'Merchants and their providers, routing flows, the card vault and charges',
    database: 'payments',
    grpcService: 'payments.v1.PaymentsService',
    addressEnv: 'PAYMENTS_GRPC_URL',
    scopes: ['merchants', 'providers', 'flows', 'cards', 'charges', 'tokens', 'reports', 'receipts'],
    secrets: [
      {
        // The Secret key keeps its name from the single-key days: an existing Secret is a ring of one key, k0.
        env: 'CARD_ENCRYPTION_KEYS',
        description: 'the card vault key ring (id:key entries, the first seals; a bare key is k0)',
        devstack: 'hex32',
        helm: { secretName: 'platform-payments-keys', key: 'card-encryption-key' },
        lifecycle: 'rotate by putting a new key first, and keep each key until no stored value needs it',
        composePlaceholder: '0000000000000000000000000000000000000000000000000000000000000001',
      },
      {
        env: 'CARD_FINGERPRINT_KEY',
        description: 'keys the card fingerprints (HMAC)',
        devstack: 'hex32',
        helm: { secretName: 'platform-payments-keys', key: 'card-fingerprint-key' },
        composePlaceholder: '0000000000000000000000000000000000000000000000000000000000000002',
      },
    ],
    env: [
      {
        env: 'PUBLIC_URL',
        description: "the gateway's external base URL, for links in answers (hosted pages)",
        devstack: '{publicUrl}',
        compose: '${PUBLIC_URL:-http://localhost:8080}',
      },
    ],
    deploy: {
      resources: { requests: { cpu: '200m', memory: '256Mi' }, limits: { cpu: '2', memory: '1Gi' } },
      note: 'Card vault keys: create the Secret before enabling payments.',
    },
  },
  {
    name: 'webhooks',
    client: 'webhooks',
    summary: "Webhook endpoints of each client and the signed delivery of the platform's events to them",
    database: 'webhooks',
    grpcService: 'webhooks.v1.WebhooksService',
    addressEnv: 'WEBHOOKS_GRPC_URL',
    scopes: ['webhooks'],
    secrets: [
      {
        env: 'WEBHOOKS_SIGNING_KEY',
        description: "seals each webhook's Ed25519 signing key",
        devstack: 'hex32',
        helm: { secretName: 'platform-webhooks-keys', key: 'signing-key' },
        composePlaceholder: '0000000000000000000000000000000000000000000000000000000000000003',
      },
    ],
    env: [
      {
        env: 'WEBHOOKS_ALLOW_PRIVATE_TARGETS',
        description: 'deliveries to private, loopback and link-local addresses of sandbox clients, never of live ones (refused for everyone unless true: SSRF); receivers on a developer machine are local',
        devstack: 'true',
        compose: '${WEBHOOKS_ALLOW_PRIVATE_TARGETS:-false}',
        helm: 'false',
      },
      {
        env: 'WEBHOOKS_FANOUT_DURABLE',
        description: 'the durable JetStream consumer of the fan-out; platforms sharing a NATS server (tests) each need their own',
        devstack: '{databasePrefix}webhooks-fanout',
      },
    ],
    deploy: { note: "Deliveries go to the clients' endpoints: these pods need outbound internet access and DNS." },
  },
  {
    name: 'sessions',
    client: 'sessions',
    summary: 'Payment links (sessions): 1:1 and 1:N with history',
    database: 'sessions',
    grpcService: 'sessions.v1.SessionsService',
    addressEnv: 'SESSIONS_GRPC_URL',
    scopes: ['sessions'],
    secrets: [
      {
        env: 'SESSIONS_KEY_SECRET',
        description: "keys the sessions' public keys (HMAC of the session id)",
        devstack: 'hex32',
        helm: { secretName: 'platform-sessions-keys', key: 'session-key-secret' },
        composePlaceholder: '0000000000000000000000000000000000000000000000000000000000000004',
      },
    ],
    env: [
      {
        env: 'PUBLIC_URL',
        description: "the gateway's external base URL, for the sessions' payment links",
        devstack: '{publicUrl}',
        compose: '${PUBLIC_URL:-http://localhost:8080}',
      },
      {
        env: 'SESSIONS_CHARGES_DURABLE',
        description: 'the durable JetStream consumer of the charge events; platforms sharing a NATS server (tests) each need their own',
        devstack: '{databasePrefix}sessions-charges',
      },
    ],
  },
  {
    name: 'sellers-and-reviews',
    client: 'sellersAndReviews',
    summary: 'Sellers (split receivers), their provider links and registration reviews',
    database: 'sellers',
    grpcService: 'sellers.v1.SellersService',
    addressEnv: 'SELLERS_AND_REVIEWS_GRPC_URL',
    scopes: ['sellers'],
    secrets: [],
    env: [],
  },
  {
    name: 'payouts-and-prepayment',
    client: 'payoutsAndPrepayment',
    summary: 'Plans, the double-entry split ledger, payment batches and prepayment',
    database: 'payouts',
    grpcService: 'payouts.v1.PayoutsService',
    addressEnv: 'PAYOUTS_AND_PREPAYMENT_GRPC_URL',
    scopes: ['payouts', 'plans', 'prepayment'],
    secrets: [],
    env: [
      {
        env: 'PAYOUTS_CHARGES_DURABLE',
        description: 'the durable JetStream consumer of the charge events; platforms sharing a NATS server (tests) each need their own',
        devstack: '{databasePrefix}payouts-charges',
      },
      {
        env: 'PAYOUTS_SELLERS_DURABLE',
        description: 'the durable JetStream consumer of the seller events; platforms sharing a NATS server (tests) each need their own',
        devstack: '{databasePrefix}payouts-sellers',
      },
    ],
  },
  // new services are added above this line
] as const satisfies readonly ServiceEntry[];
