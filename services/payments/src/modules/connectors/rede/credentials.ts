import { z } from 'zod';

/**
 * A provider entry of type REDE: the merchant's own e.Rede account. `pv` is the affiliation number (filiação,
 * Ponto de Venda) and `token` the integration key (chave de integração) from the Use Rede portal; since the OAuth
 * 2.0 migration they are the clientId and clientSecret of the token request (manual: "Autenticação OAuth 2.0").
 * Secrets are write-only: sealed in the vault, never returned, logged or traced.
 */
export const redeCredentials = z.object({
  type: z.literal('REDE'),
  pv: z
    .string({ error: 'is required' })
    .trim()
    .regex(/^\d{1,20}$/, 'must be the affiliation number (digits only)'),
  token: z.string({ error: 'is required' }).trim().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
  environment: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).optional(),
});

export type RedeCredentials = z.infer<typeof redeCredentials>;
