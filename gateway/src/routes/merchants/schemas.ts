import { CHARGE_LIMITS, FEE_PAYMENT_METHODS, PROVIDER_CREDENTIAL_TYPES, MERCHANT_LIMITS, MerchantSchema, PlatformFeeSchema, ProviderSchema } from '@platform/api-model';
import { int32, amount } from '../../http/fields';
import { JsonObject, jsonObjectProblem } from '../../http/json';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

export const CREDENTIAL_TYPES = PROVIDER_CREDENTIAL_TYPES;

const text = (max: number) => z.string({ error: requiredOr('must be a string') }).max(max, `must be at most ${max} characters`);
const required = (max: number) => text(max).min(1, 'must not be empty');
const wholeNumber = () => int32();
const priority = () => wholeNumber().min(1, 'must be at least 1').max(MERCHANT_LIMITS.providerPriorityMax, `must be at most ${MERCHANT_LIMITS.providerPriorityMax}`);

// Some integrators send the merchant category code as a number; it is a code, so it travels as text.
const mcc = z
  .preprocess((v) => (typeof v === 'number' ? String(v) : v), required(8))
  .openapi({ type: 'string', example: '5411', description: 'Merchant category code' });

/** The type names the provider adapter; every other key is a secret of that provider, stored encrypted and never shown. */
export const CredentialsInput = z
  .looseObject({
    type: z.enum(CREDENTIAL_TYPES, { error: requiredOr(`must be one of ${CREDENTIAL_TYPES.join(', ')}`) }),
  })
  .superRefine((value, ctx) => {
    const problem = jsonObjectProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi('ProviderCredentialsInput', { description: 'type plus the secret fields of that provider (never returned)' });

export const ProviderInput = z
  .object({
    name: required(100).openapi({ example: 'sandbox-primary' }),
    priority: priority().openapi({ description: '1 is tried first', example: 1 }),
    credentials: CredentialsInput,
    options: JsonObject.optional(),
  })
  .openapi('ProviderInput');

export const CreateMerchantBody = z
  .object({
    mcc,
    name: text(200).optional(),
    merchantName: text(200).optional(),
    merchantUrl: text(2000).optional(),
    providers: z.array(ProviderInput, { error: requiredOr('must be an array') }).max(20, 'must list at most 20 providers'),
  })
  .openapi('CreateMerchantRequest');

export const UpdateMerchantBody = z
  .object({
    mcc: mcc.optional(),
    name: text(200).optional(),
    merchantName: text(200).optional(),
    merchantUrl: text(2000).optional(),
  })
  .openapi('UpdateMerchantRequest');

export const UpdateProviderBody = z
  .object({
    name: required(100).optional(),
    priority: priority().optional(),
    credentials: CredentialsInput.optional().openapi({ description: 'Replaces the stored credentials as a whole' }),
    options: JsonObject.optional(),
  })
  .openapi('UpdateProviderRequest');

export const PlatformFeeRuleInput = z
  .object({
    percentage: wholeNumber()
      .min(0, 'must be at least 0')
      .max(MERCHANT_LIMITS.feePercentageMax, `must be at most ${MERCHANT_LIMITS.feePercentageMax} (basis points)`)
      .optional().openapi({ description: 'Basis points of the amount (100 = 1%)' }),
    fixedAmount: amount().min(0, 'must be at least 0').optional().openapi({ description: 'Minor units' }),
    paymentMethod: z.enum(FEE_PAYMENT_METHODS, { error: requiredOr(`must be one of ${FEE_PAYMENT_METHODS.join(', ')}`) }),
    installment: wholeNumber().min(1, 'must be at least 1').max(CHARGE_LIMITS.maxInstallments, `must be at most ${CHARGE_LIMITS.maxInstallments}`).optional(),
  })
  .openapi('PlatformFeeRuleInput');

const rules = z.array(PlatformFeeRuleInput, { error: requiredOr('must be an array') }).max(100, 'must list at most 100 rules');

// The rules may come as the bare array or wrapped in {rules}; both are read as {rules}.
export const ReplacePlatformFeeBody = z
  .preprocess((v) => (Array.isArray(v) ? { rules: v } : v), z.object({ rules }))
  .openapi('ReplacePlatformFeeRequest', { description: 'The rules as {"rules": [...]} or as a bare array; they replace the stored ones' });

export const PlatformFeeEnabledBody = z
  .object({ enabled: z.boolean({ error: requiredOr('must be true or false') }) })
  .openapi('PlatformFeeEnabledRequest');

export const MerchantParams = z.object({ id: z.string().min(1).max(200) });
export const ProviderParams = MerchantParams;
export const ListMerchantsQuery = paginationQuery;

/** The answers here are the API model's schemas. */
export { MerchantSchema, PlatformFeeSchema, ProviderSchema };

export const MerchantListSchema = listSchema(MerchantSchema, 'MerchantList');

export type { MerchantJson, PlatformFeeJson, ProviderJson } from '@platform/api-model';
export type CreateMerchantInput = z.infer<typeof CreateMerchantBody>;
export type UpdateMerchantInput = z.infer<typeof UpdateMerchantBody>;
export type UpdateProviderInput = z.infer<typeof UpdateProviderBody>;
export type PlatformFeeRuleInputJson = z.infer<typeof PlatformFeeRuleInput>;
