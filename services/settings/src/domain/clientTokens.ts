import { ALL_SCOPES, CLIENT_TOKEN_LIMITS, SCOPE_RESOURCES } from '@platform/api-model';
import { parseInput } from '@platform/kit';
import { z } from 'zod';

/** The resources a client token may be limited to; `*` reaches all of them. */
export { SCOPE_RESOURCES };

export const MAX_TOKEN_LIFETIME_SECONDS = CLIENT_TOKEN_LIMITS.maxLifetimeSeconds;

const tokenRequestSchema = z.object({
  scope: z
    .array(z.enum([ALL_SCOPES, ...SCOPE_RESOURCES], { error: `must be "${ALL_SCOPES}" or one of ${SCOPE_RESOURCES.join(', ')}` }))
    .min(1, 'must name at least one scope')
    .max(CLIENT_TOKEN_LIMITS.maxScopes, `must name at most ${CLIENT_TOKEN_LIMITS.maxScopes} scopes`),
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
