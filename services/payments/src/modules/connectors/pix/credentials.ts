import { z } from 'zod';

/** The `credentials.type` values of the API Pix connector, one per bank profile (profiles.ts). */
export const PIX_TYPES = ['PIX_EFI', 'PIX_ITAU', 'PIX_SANTANDER', 'PIX_BB'] as const;
export type PixType = (typeof PIX_TYPES)[number];

const PEM = /-----BEGIN [A-Z ]+-----/;
const BASE64 = /^[A-Za-z0-9+/\s]+={0,2}\s*$/;

/**
 * A provider entry of a bank's API Pix: the OAuth2 client of the merchant's application at the bank, the client
 * certificate the bank issued for mutual TLS (PEM holding certificate and private key, or PKCS#12 in base64 with
 * its passphrase), and the receiver's DICT key the charges are made to. Secrets (clientSecret, certificate,
 * certificatePassphrase, developerKey) are write-only: sealed in the vault, never returned, logged or traced.
 */
export const pixCredentials = z
  .object({
    type: z.enum(PIX_TYPES, { error: `must be one of ${PIX_TYPES.join(', ')}` }),
    clientId: z.string({ error: 'is required' }).trim().min(1, 'is required').max(500, 'must be at most 500 characters'),
    clientSecret: z.string({ error: 'is required' }).min(1, 'is required').max(500, 'must be at most 500 characters'),
    /** PEM with the certificate and its private key, or a PKCS#12 (.p12/.pfx) file in base64. */
    certificate: z
      .string({ error: 'is required' })
      .min(1, 'is required')
      .max(40_000, 'must be at most 40000 characters')
      .refine((value) => PEM.test(value) || BASE64.test(value), 'must be a PEM certificate with its key, or PKCS#12 in base64'),
    certificatePassphrase: z.string().max(500, 'must be at most 500 characters').optional(),
    /** The receiver's Pix key (DICT): CPF/CNPJ, e-mail, phone or random key (EVP), as registered at the bank. */
    pixKey: z.string({ error: 'is required' }).trim().min(1, 'is required').max(77, 'must be at most 77 characters'),
    environment: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).optional(),
    /** Banco do Brasil: the application's developer key, sent as the `gw-dev-app-key` query parameter of every call. */
    developerKey: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  })
  .superRefine((value, ctx) => {
    if (value.type === 'PIX_BB' && value.developerKey === undefined) {
      ctx.addIssue({ code: 'custom', path: ['developerKey'], message: 'is required for PIX_BB (gw-dev-app-key)' });
    }
  });

export type PixCredentials = z.infer<typeof pixCredentials>;
