/**
 * Limits of the public API, defined once: the gateway's schemas (and so the OpenAPI document) and the services'
 * own checks read them from here, so what is advertised is what is accepted.
 */

/** Integer ranges a column can hold: counts and pages are int32, amounts int64 within JavaScript's safe range. */
export const INT32_MAX = 2_147_483_647;
export const AMOUNT_MAX = Number.MAX_SAFE_INTEGER;

export const CHARGE_LIMITS = {
  orderIdMaxLength: 100,
  statementDescriptorMaxLength: 22,
  descriptionMaxLength: 500,
  /** Credit and Pix may be paid in installments; debit, voucher and boleto in one. */
  maxInstallments: 24,
} as const;

export const MERCHANT_LIMITS = {
  /** Payment providers are tried by priority, 1 first. */
  providerPriorityMax: 1000,
  /** A platform fee percentage is in basis points: at most the whole amount. */
  feePercentageMax: 10_000,
} as const;

/** Customers (POST/PATCH /v1/customers). */
export const CUSTOMER_LIMITS = {
  nameMaxLength: 200,
  /** RFC 5321's limit of a forward path. */
  emailMaxLength: 254,
  phoneNumberMinLength: 8,
  phoneNumberMaxLength: 20,
  /** The document number as sent, separators included; after removing them, the type's own format applies. */
  documentNumberMaxLength: 40,
  addressFieldMaxLength: 200,
} as const;

/** Webhooks (POST/PATCH /v1/webhooks). */
export const WEBHOOK_LIMITS = {
  /** The endpoint URL in its normal form. */
  endpointMaxLength: 2048,
} as const;

/** Client accounts (admin API). */
export const CLIENT_LIMITS = {
  nameMaxLength: 200,
} as const;

/** Public keys made by POST /v1/auth. */
export const CLIENT_TOKEN_LIMITS = {
  maxScopes: 32,
  /** One year, in seconds; 0 means the key never expires. */
  maxLifetimeSeconds: 365 * 24 * 3600,
} as const;

/** Payment-link settings (POST/PATCH /v1/settings). */
export const LINK_SETTINGS_LIMITS = {
  /** `#RRGGBBAA`. */
  colorMaxLength: 9,
  companyUrlMaxLength: 2048,
  logoMaxBytes: 1024 * 1024,
} as const;

/** Subscription settings (PATCH /v1/subscriptions/settings). */
export const SUBSCRIPTION_SETTINGS_LIMITS = {
  retryPolicyMinSteps: 1,
  retryPolicyMaxSteps: 10,
  retryDaysMin: 1,
  retryDaysMax: 30,
  /** Card networks print a short ASCII descriptor on the statement. */
  statementDescriptorMaxLength: 22,
} as const;
