import { CHARGE_LIMITS, FEE_PAYMENT_METHODS, MERCHANT_LIMITS, PROVIDER_CREDENTIAL_TYPES } from '@platform/api-model';
import { errors, parseInput } from '@platform/kit';
import { z } from 'zod';
import { connectorFor, connectorTypes } from '../../connectors/catalog';

/** A merchant's fee rule: what the platform takes of a split charge paid with a method (and number of installments). */
export interface PlatformFeeRule {
  percentage?: number;
  fixedAmount?: number;
  paymentMethod: string;
  installment?: number;
}

/**
 * The public API's types (@platform/api-model) that something here serves: the platform's own and those of the
 * connectors built in (connectors/catalog.ts).
 */
const OWN_CREDENTIAL_TYPES: readonly string[] = ['SANDBOX', 'SANDBOX_ANTIFRAUD', 'SUBACQUIRER'];
export const CREDENTIAL_TYPES: readonly string[] = PROVIDER_CREDENTIAL_TYPES.filter((t) => OWN_CREDENTIAL_TYPES.includes(t) || connectorTypes().includes(t));
export type CredentialType = string;

/** Antifraud providers analyse a charge; they are never tried to authorize one. */
export function isPaymentProvider(type: string): boolean {
  return type !== 'SANDBOX_ANTIFRAUD';
}

/** Two payment providers of a merchant never share a priority. */
export function priorityTaken(priority: number) {
  return errors.conflict(`Another payment provider of this merchant already has priority ${priority}`, 'provider_priority_exists');
}

const MAX_INSTALLMENTS = CHARGE_LIMITS.maxInstallments;

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
const prioritySchema = z.number().int('must be an integer').min(1, 'must be at least 1').max(MERCHANT_LIMITS.providerPriorityMax, `must be at most ${MERCHANT_LIMITS.providerPriorityMax}`);

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
    const connector = typeof value.type === 'string' ? connectorFor(value.type) : undefined;
    if (connector) {
      const checked = connector.credentials.safeParse(value);
      // Only where and what is wrong: never the value, which may be a secret.
      if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
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
    percentage: z.number().int('must be an integer').min(0, 'must be at least 0').max(MERCHANT_LIMITS.feePercentageMax, `must be at most ${MERCHANT_LIMITS.feePercentageMax} (basis points)`).optional(),
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
