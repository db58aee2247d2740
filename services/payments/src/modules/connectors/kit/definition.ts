import type { z } from 'zod';
import type { PaymentProvider } from '../domain/types';

/**
 * What a connector folder exports (see docs/adding-a-connector.md): its credentials types, the schema a
 * merchant's provider entry is checked with, and how its adapters are made from the operator's environment.
 */
export interface ConnectorDefinition {
  /** The `credentials.type` values it serves, as the public API names them (one per bank profile for Pix). */
  types: readonly string[];
  /**
   * Checks a provider entry's credentials (with its `type`) at creation and update. Secrets are write-only: the
   * API never returns them, and they are sealed in the vault.
   */
  credentials: z.ZodType;
  /** The adapters, one per type, over the operator's configuration. */
  create(environment: ConnectorEnvironment): PaymentProvider[];
}

export interface ConnectorEnvironment {
  /** The process environment: `<PROVIDER>_API_URL` and friends override the provider's documented hosts. */
  env: Readonly<Record<string, string | undefined>>;
  /** The platform's public base URL (where providers post notifications: `${publicUrl}/v1/provider-notifications/{providerId}`). */
  publicUrl: string;
}

/** `sandbox` or `production` (the default): which of its documented hosts a provider entry talks to. */
export type ProviderEnvironment = 'sandbox' | 'production';

/**
 * Where a connector sends a request: the operator's variable when set (every merchant then goes there),
 * else the host the provider documents for the entry's environment. Never anything a client sent.
 */
export function endpoint(
  env: ConnectorEnvironment['env'],
  variable: string,
  documented: Readonly<Record<ProviderEnvironment, string>>,
  environment: unknown,
): string {
  const configured = env[variable]?.trim();
  if (configured) return configured;
  return documented[environment === 'sandbox' ? 'sandbox' : 'production'];
}
