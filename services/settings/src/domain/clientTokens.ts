import { z } from 'zod';
import { parseInput } from './validation';

/** The resources a client token may be limited to; `*` reaches all of them. */
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
] as const;

export const MAX_TOKEN_LIFETIME_SECONDS = 365 * 24 * 3600;

const tokenRequestSchema = z.object({
  scope: z
    .array(z.enum(['*', ...SCOPE_RESOURCES], { error: `must be "*" or one of ${SCOPE_RESOURCES.join(', ')}` }))
    .min(1, 'must name at least one scope')
    .max(32, 'must name at most 32 scopes'),
  expires: z
    .number()
    .int('must be a whole number of seconds')
    .min(0, 'must be 0 (never) or a positive number of seconds')
    .max(MAX_TOKEN_LIFETIME_SECONDS, `must be at most ${MAX_TOKEN_LIFETIME_SECONDS} seconds`),
});

export interface ClientTokenRequest {
  scopes: string[];
  /** Seconds; 0 = never expires. */
  expires: number;
}

export function parseClientTokenRequest(input: { scope: string[]; expires: number }): ClientTokenRequest {
  const parsed = parseInput(tokenRequestSchema, { scope: input.scope, expires: input.expires });
  return { scopes: [...new Set(parsed.scope)], expires: parsed.expires };
}

export function tokenExpiry(createdAt: Date, expires: number): Date | null {
  return expires === 0 ? null : new Date(createdAt.getTime() + expires * 1000);
}
