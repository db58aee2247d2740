import { errors, isUuid, type FieldViolation } from '@platform/kit';
import { z } from 'zod';
import type { PlatformFeeRule } from '../app/ports';

export type { PlatformFeeRule };

export { isUuid };

/** The caller's client id is checked too: a service never trusts its caller. */
export function requireClientId(clientId: string): string {
  if (!isUuid(clientId)) throw errors.validation('Invalid clientId', [{ field: 'clientId', message: 'must be a UUID' }]);
  return clientId.toLowerCase();
}

export const CREDENTIAL_TYPES = ['SANDBOX', 'SANDBOX_ANTIFRAUD', 'SUBACQUIRER'] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

/** Antifraud providers analyse a charge; they are never tried to authorize one. */
export function isPaymentProvider(type: string): boolean {
  return type !== 'SANDBOX_ANTIFRAUD';
}

export const FEE_PAYMENT_METHODS = ['credit', 'debit', 'pix', 'boleto', 'voucher', 'default'] as const;
export const MAX_INSTALLMENTS = 24;

export interface Provider {
  id: string;
  clientId: string;
  merchantId: string;
  name: string;
  priority: number;
  credentialsType: string;
  options: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface Merchant {
  id: string;
  clientId: string;
  mcc: string;
  name: string;
  merchantName: string;
  merchantUrl: string;
  status: string;
  platformFeeEnabled: boolean;
  platformFeeRules: PlatformFeeRule[];
  /** Active providers, by priority. */
  providers: Provider[];
  createdAt: Date;
  updatedAt: Date;
}

export interface Credentials extends Record<string, unknown> {
  type: CredentialType;
}

export interface NewProvider {
  name: string;
  priority: number;
  credentials: Credentials;
  options: Record<string, unknown>;
}

export interface NewMerchant {
  mcc: string;
  name: string;
  merchantName: string;
  merchantUrl: string;
  providers: NewProvider[];
}

export interface MerchantChanges {
  mcc?: string;
  name?: string;
  merchantName?: string;
  merchantUrl?: string;
}

export interface ProviderChanges {
  name?: string;
  priority?: number;
  credentials?: Credentials;
  options?: Record<string, unknown>;
}

const MAX_JSON_BYTES = 8 * 1024;

const mccSchema = z.string().trim().regex(/^\d{4}$/, 'must be 4 digits');
const optionalText = z.string().trim().max(200, 'must be at most 200 characters');
const urlSchema = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => value === '' || isHttpUrl(value), 'must be an http or https URL');
const providerNameSchema = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');
const prioritySchema = z.number().int('must be an integer').min(1, 'must be at least 1').max(1000, 'must be at most 1000');

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const jsonObject = z
  .record(z.string(), z.unknown())
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_JSON_BYTES, `must be at most ${MAX_JSON_BYTES} bytes of JSON`);

const credentialsSchema = z
  .record(z.string(), z.unknown(), { error: 'is required' })
  .superRefine((value, ctx) => {
    if (!(CREDENTIAL_TYPES as readonly unknown[]).includes(value.type)) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: `must be one of ${CREDENTIAL_TYPES.join(', ')}` });
    }
    if (Buffer.byteLength(JSON.stringify(value)) > MAX_JSON_BYTES) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_JSON_BYTES} bytes of JSON` });
    }
  })
  .transform((value) => value as Credentials);

const providerSchema = z.object({
  name: providerNameSchema,
  priority: prioritySchema,
  credentials: credentialsSchema,
  options: jsonObject.optional(),
});

const newMerchantSchema = z.object({
  mcc: mccSchema,
  name: optionalText,
  merchantName: optionalText,
  merchantUrl: urlSchema,
  providers: z
    .array(providerSchema)
    .min(1, 'must list at least one provider')
    .max(20, 'must list at most 20 providers')
    .superRefine((providers, ctx) => {
      const seen = new Map<number, number>();
      providers.forEach((p, i) => {
        if (!isPaymentProvider(p.credentials.type)) return;
        if (seen.has(p.priority)) {
          ctx.addIssue({ code: 'custom', path: [i, 'priority'], message: `is already used by provider ${seen.get(p.priority)}` });
        } else {
          seen.set(p.priority, i);
        }
      });
    }),
});

const merchantChangesSchema = z.object({
  mcc: mccSchema.optional(),
  name: optionalText.optional(),
  merchantName: optionalText.optional(),
  merchantUrl: urlSchema.optional(),
});

const providerChangesSchema = z.object({
  name: providerNameSchema.optional(),
  priority: prioritySchema.optional(),
  credentials: credentialsSchema.optional(),
  options: jsonObject.optional(),
});

const feeRuleSchema = z
  .object({
    percentage: z.number().int('must be an integer').min(0, 'must be at least 0').max(10_000, 'must be at most 10000 (basis points)').optional(),
    fixedAmount: z.number().int('must be an integer').min(0, 'must be at least 0').optional(),
    paymentMethod: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(FEE_PAYMENT_METHODS, { error: `must be one of ${FEE_PAYMENT_METHODS.join(', ')}` })),
    installment: z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_INSTALLMENTS, `must be at most ${MAX_INSTALLMENTS}`).optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.percentage === undefined && rule.fixedAmount === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must give percentage, fixedAmount or both' });
    }
  });

const feeRulesSchema = z
  .array(feeRuleSchema)
  .max(100, 'must list at most 100 rules')
  .superRefine((rules, ctx) => {
    const seen = new Map<string, number>();
    rules.forEach((rule, i) => {
      const key = `${rule.paymentMethod}:${rule.installment ?? '*'}`;
      if (seen.has(key)) {
        ctx.addIssue({ code: 'custom', path: [i], message: `repeats the paymentMethod and installment of rule ${seen.get(key)}` });
      } else {
        seen.set(key, i);
      }
    });
  });

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, message: string, prefix: (string | number)[] = []): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details: FieldViolation[] = result.error.issues.map((i) => ({ field: [...prefix, ...i.path].join('.'), message: i.message }));
  throw errors.validation(message, details);
}

export interface CreateMerchantInput {
  mcc: string;
  name: string;
  merchantName: string;
  merchantUrl: string;
  providers: Array<{ name: string; priority: number; credentials?: Record<string, unknown>; options?: Record<string, unknown> }>;
}

export function parseNewMerchant(input: CreateMerchantInput): NewMerchant {
  const parsed = parseInput(newMerchantSchema, input, 'Invalid merchant');
  return {
    mcc: parsed.mcc,
    name: parsed.name,
    merchantName: parsed.merchantName,
    merchantUrl: parsed.merchantUrl,
    providers: parsed.providers.map((p) => ({ name: p.name, priority: p.priority, credentials: p.credentials, options: p.options ?? {} })),
  };
}

export function parseMerchantChanges(input: MerchantChanges): MerchantChanges {
  const parsed = parseInput(merchantChangesSchema, input, 'Invalid merchant');
  const changes = Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as MerchantChanges;
  if (Object.keys(changes).length === 0) {
    throw errors.validation('Nothing to update: give at least one of mcc, name, merchantName or merchantUrl');
  }
  return changes;
}

export function parseProviderChanges(input: { name?: string; priority?: number; credentials?: Record<string, unknown>; options?: Record<string, unknown> }): ProviderChanges {
  const parsed = parseInput(providerChangesSchema, input, 'Invalid provider');
  const changes = Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as ProviderChanges;
  if (Object.keys(changes).length === 0) {
    throw errors.validation('Nothing to update: give at least one of name, priority, credentials or options');
  }
  return changes;
}

export function parsePlatformFeeRules(rules: PlatformFeeRule[]): PlatformFeeRule[] {
  const parsed = parseInput(feeRulesSchema, rules, 'Invalid platform fee rules', ['rules']);
  return parsed.map((rule) => ({
    paymentMethod: rule.paymentMethod,
    ...(rule.percentage !== undefined ? { percentage: rule.percentage } : {}),
    ...(rule.fixedAmount !== undefined ? { fixedAmount: rule.fixedAmount } : {}),
    ...(rule.installment !== undefined ? { installment: rule.installment } : {}),
  }));
}

export function applyMerchantChanges(merchant: Merchant, changes: MerchantChanges, at: Date): Merchant {
  return { ...merchant, ...changes, updatedAt: at };
}

/** The provider as events and logs may show it: never its credentials. */
export interface ProviderSummary {
  id: string;
  merchantId: string;
  name: string;
  priority: number;
  credentialsType: string;
  createdAt: string;
  updatedAt: string;
}

export interface MerchantSummary {
  id: string;
  clientId: string;
  mcc: string;
  name: string;
  merchantName: string;
  merchantUrl: string;
  status: string;
  platformFeeEnabled: boolean;
  platformFeeRules: PlatformFeeRule[];
  providers: ProviderSummary[];
  createdAt: string;
  updatedAt: string;
}

export function providerSummary(provider: Provider): ProviderSummary {
  return {
    id: provider.id,
    merchantId: provider.merchantId,
    name: provider.name,
    priority: provider.priority,
    credentialsType: provider.credentialsType,
    createdAt: provider.createdAt.toISOString(),
    updatedAt: provider.updatedAt.toISOString(),
  };
}

export function merchantSummary(merchant: Merchant): MerchantSummary {
  return {
    id: merchant.id,
    clientId: merchant.clientId,
    mcc: merchant.mcc,
    name: merchant.name,
    merchantName: merchant.merchantName,
    merchantUrl: merchant.merchantUrl,
    status: merchant.status,
    platformFeeEnabled: merchant.platformFeeEnabled,
    platformFeeRules: merchant.platformFeeRules,
    providers: merchant.providers.map(providerSummary),
    createdAt: merchant.createdAt.toISOString(),
    updatedAt: merchant.updatedAt.toISOString(),
  };
}
