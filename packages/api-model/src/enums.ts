/**
 * Enumerations of the public API, defined once: the gateway validates and documents them, the services enforce
 * them, and the webhooks service names events after them.
 */

/** Charge statuses (product description, "Charge status"). */
export const CHARGE_STATUSES = [
  'pending',
  'pre_authorized',
  'authorized',
  'failed',
  'canceled',
  'voided',
  'charged_back',
  'refund_pending',
  'capture_pending',
] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

export function isChargeStatus(value: string): value is ChargeStatus {
  return (CHARGE_STATUSES as readonly string[]).includes(value);
}

/** Payment types (product description, "Payment types"): of a charge, a session's methods, a flow, a plan's fees, a report's filter. */
export const PAYMENT_TYPES = ['credit', 'debit', 'pix', 'boleto', 'voucher'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export function isPaymentType(value: unknown): value is PaymentType {
  return typeof value === 'string' && (PAYMENT_TYPES as readonly string[]).includes(value);
}

/** The payment types paid with a card (a card or token source, the card form of the checkout page). */
export const CARD_PAYMENT_TYPES = ['credit', 'debit', 'voucher'] as const satisfies readonly PaymentType[];
export type CardPaymentType = (typeof CARD_PAYMENT_TYPES)[number];

/** What a merchant's fee rule applies to: a payment type, or `default` for every type without a rule of its own. */
export const FEE_PAYMENT_METHODS = [...PAYMENT_TYPES, 'default'] as const;
export type FeePaymentMethod = (typeof FEE_PAYMENT_METHODS)[number];

/** Seller statuses (product description, "Seller status"). */
export const SELLER_STATUSES = ['pending', 'active', 'partial', 'inactive', 'blocked'] as const;
export type SellerStatus = (typeof SELLER_STATUSES)[number];

/** Persisted statuses of a session (payment link); its history also shows `disabled`. */
export const SESSION_STATUSES = ['created', 'paid', 'canceled', 'voided'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Client environments: a sandbox client reaches the sandbox provider and the sandbox-only routes. */
export const CLIENT_ENVIRONMENTS = ['sandbox', 'live'] as const;
export type ClientEnvironment = (typeof CLIENT_ENVIRONMENTS)[number];

/** Kinds of API key: a secret key reaches everything, a public key only its scopes. */
export const API_KEY_KINDS = ['secret', 'public'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/**
 * The resources a public key (POST /v1/auth) may be limited to; `*` reaches all of them. This is the public
 * vocabulary (the public Node SDK's list included, `auth` too although creating keys needs the secret key), so it
 * names resources of services still to come; every catalog service's scopes must be in it.
 */
export const SCOPE_RESOURCES = [
  'tokens',
  'cards',
  'charges',
  'customers',
  'sessions',
  'webhooks',
  'merchants',
  'providers',
  'sellers',
  'payouts',
  'subscriptions',
  'settings',
  'flows',
  'reports',
  'receipts',
  'plans',
  'prepayment',
  'auth',
] as const;
export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export const ALL_SCOPES = '*';

/** Customer document types. */
export const DOCUMENT_TYPES = ['cpf', 'cnpj', 'passport', 'other'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The fields of a customer address, in the order the API shows them. */
export const ADDRESS_FIELDS = ['country', 'state', 'city', 'district', 'zipCode', 'street', 'streetNumber', 'complement'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

/** The colour fields of the payment-link settings, and with the company URL every text field of them. */
export const LINK_SETTINGS_COLOR_FIELDS = ['mainColor', 'secondaryColor', 'attentionColor', 'errorColor', 'successColor', 'backgroundColor'] as const;
export const LINK_SETTINGS_FIELDS = [...LINK_SETTINGS_COLOR_FIELDS, 'companyUrl'] as const;
export type LinkSettingsField = (typeof LINK_SETTINGS_FIELDS)[number];

/** Logo images the payment-link settings accept. */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];

/** States of a webhook delivery. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What a webhook registers for to receive every public event. */
export const ALL_EVENTS = '*';

/** Domain event types (the JetStream subject, `<context>.<entity>.<event>`) of the customers context. */
export const CUSTOMER_EVENT_TYPES = {
  created: 'customers.customer.created',
  updated: 'customers.customer.updated',
  deleted: 'customers.customer.deleted',
  cardAdded: 'customers.customer.card_added',
} as const;

/** Domain event types of the settings context. */
export const SETTINGS_EVENT_TYPES = {
  clientCreated: 'settings.client.created',
  clientUpdated: 'settings.client.updated',
  apiKeyRevoked: 'settings.api_key.revoked',
  linkSettingsCreated: 'settings.link_settings.created',
  linkSettingsUpdated: 'settings.link_settings.updated',
  subscriptionSettingsUpdated: 'settings.subscription_settings.updated',
} as const;

/** Domain event types of the webhooks context (internal: never delivered to webhooks). */
export const WEBHOOK_EVENT_TYPES = {
  created: 'webhooks.webhook.created',
  updated: 'webhooks.webhook.updated',
  deleted: 'webhooks.webhook.deleted',
} as const;

/**
 * `credentials.type` of a merchant's provider entry: the platform's own (SANDBOX simulates every method,
 * SANDBOX_ANTIFRAUD an antifraud analysis, SUBACQUIRER is the platform's own acquiring) and the real providers'
 * connectors (payments src/modules/connectors), one type per Pix bank profile.
 */
export const PROVIDER_CREDENTIAL_TYPES = [
  'SANDBOX',
  'SANDBOX_ANTIFRAUD',
  'SUBACQUIRER',
  'CIELO',
  'REDE',
  'PIX_EFI',
  'PIX_ITAU',
  'PIX_SANTANDER',
  'PIX_BB',
  'PAGARME',
  'MERCADOPAGO',
  'STRIPE',
  'ADYEN',
  // `npm run new-connector` adds a connector's type above this line.
] as const;
export type ProviderCredentialType = (typeof PROVIDER_CREDENTIAL_TYPES)[number];
