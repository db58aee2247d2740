import { CHARGE_LIMITS, FlowSchema, PAYMENT_TYPES, ROUTE_MODE_DESCRIPTION, ROUTE_MODES } from '@platform/api-model';
import { amount as minorUnits, int32 } from '../../http/fields';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

const arrayOf = <T extends z.ZodType>(item: T) => z.array(item, { error: requiredOr('must be an array') });
const id = z.string({ error: requiredOr('must be a string') }).min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const route = arrayOf(id).max(20, 'must name at most 20 providers').openapi({ description: 'Provider ids, tried in this order' });
const amount = minorUnits('must be a whole number').min(0, 'must be at least 0');

const text = (max: number) => z.string({ error: requiredOr('must be a string') }).max(max, `must be at most ${max} characters`);
const installments = int32()
  .min(1, 'must be at least 1')
  .max(CHARGE_LIMITS.maxInstallments, `must be at most ${CHARGE_LIMITS.maxInstallments}`);
const bin = z.string({ error: requiredOr('must be a string') }).regex(/^\d{6}$/, 'must be six digits');

/** The fields of a condition; `all` and `any` are groups of conditions, nesting at most 4 deep (payments checks). */
export interface FlowConditionBody {
  amountGte?: number | undefined;
  amountLte?: number | undefined;
  cardBrand?: string | undefined;
  installmentsGte?: number | undefined;
  installmentsLte?: number | undefined;
  currency?: string | undefined;
  paymentType?: string | undefined;
  binRanges?: Array<{ from: string; to: string }> | undefined;
  issuerCountry?: string[] | undefined;
  metadata?: Record<string, string | string[]> | undefined;
  all?: FlowConditionBody[] | undefined;
  any?: FlowConditionBody[] | undefined;
}

export const FlowConditionInput: z.ZodType<FlowConditionBody> = z
  .lazy(() =>
    z.object({
      amountGte: amount.optional().openapi({ description: 'Minor units' }),
      amountLte: amount.optional().openapi({ description: 'Minor units' }),
      cardBrand: text(32).optional().openapi({ example: 'visa' }),
      installmentsGte: installments.optional(),
      installmentsLte: installments.optional(),
      currency: z.string({ error: requiredOr('must be a string') }).max(3, 'must be an ISO 4217 code').optional().openapi({ example: 'BRL' }),
      paymentType: z.enum(PAYMENT_TYPES, { error: requiredOr(`must be one of ${PAYMENT_TYPES.join(', ')}`) }).optional(),
      binRanges: arrayOf(z.object({ from: bin.openapi({ example: '400000' }), to: bin.openapi({ example: '499999' }) }))
        .max(50, 'must list at most 50 ranges')
        .optional()
        .openapi({ description: "The card's first six digits fall in one of these ranges (both ends included)" }),
      issuerCountry: arrayOf(text(2))
        .max(50, 'must list at most 50 countries')
        .optional()
        .openapi({ description: "ISO 3166-1 alpha-2 codes: the card's issuer country, derived from its BIN, is one of them", example: ['BR'] }),
      metadata: z
        .record(text(100), z.union([text(200), z.array(text(200)).max(50, 'must list at most 50 values')], { error: 'must be a string or a list of strings' }))
        .optional()
        .openapi({
          description:
            "Each key's value in the charge's paymentFlow.metadata equals the value given, or is one of the values listed; a key may be a dotted path into it (seller.tier), and numbers and booleans compare as their text",
          example: { segment: 'vip', 'seller.tier': ['gold', 'platinum'] },
        }),
      all: arrayOf(FlowConditionInput).max(20, 'must list at most 20 conditions').optional().openapi({ description: 'Holds when each of these conditions does' }),
      any: arrayOf(FlowConditionInput).max(20, 'must list at most 20 conditions').optional().openapi({ description: 'Holds when at least one of these conditions does' }),
    }),
  )
  .openapi('FlowCondition', { description: 'Every condition given must hold; none given matches every charge' });

const antifraudProviderId = id.optional().openapi({ description: "One of the merchant's antifraud entries, analysing these charges instead of its first" });
const mode = z.enum(ROUTE_MODES, { error: requiredOr(`must be one of ${ROUTE_MODES.join(', ')}`) }).optional();

export const FlowSplitBranchInput = z
  .object({
    percentage: int32().min(1, 'must be at least 1').max(99, 'must be at most 99').openapi({ example: 70 }),
    route,
    antifraudProviderId,
    mode: mode.openapi({ description: `How the branch's providers are ordered; the rule's mode when absent. ${ROUTE_MODE_DESCRIPTION}` }),
  })
  .openapi('FlowSplitBranch');

export const FlowRuleInput = z
  .object({
    when: FlowConditionInput.optional(),
    route: route.optional(),
    split: arrayOf(FlowSplitBranchInput)
      .max(10, 'must list at most 10 branches')
      .optional()
      .openapi({ description: 'Instead of route: shares of the volume, each charge placed by a hash of its id (a retry lands on the same branch); percentages add up to 100' }),
    antifraudProviderId,
    mode: mode.openapi({ description: `How the route (and the split branches that name none) is ordered. ${ROUTE_MODE_DESCRIPTION}` }),
  })
  .openapi('FlowRule');

const flowFields = {
  name: z.string({ error: requiredOr('must be a string') }).max(200, 'must be at most 200 characters').optional(),
  paymentMethod: z.enum(PAYMENT_TYPES, { error: requiredOr(`must be one of ${PAYMENT_TYPES.join(', ')}`) }),
  rules: arrayOf(FlowRuleInput).max(50, 'must list at most 50 rules').default([]).openapi({ description: 'Tried in order; the first that matches routes the charge' }),
  defaultRoute: route.openapi({ description: 'Provider ids tried when no rule matches' }),
};

export const CreateFlowBody = z
  .object({ merchantId: id.openapi({ description: 'The merchant whose providers the flow routes to' }), ...flowFields })
  .openapi('CreateFlowRequest');

/** A flow stays with its merchant: a merchantId in the body is ignored like any unknown field. */
export const ReplaceFlowBody = z.object(flowFields).openapi('ReplaceFlowRequest');

export const ListFlowsQuery = paginationQuery.extend({
  merchantId: z.string().min(1, 'must not be empty').max(200).optional(),
});

export const FlowParams = z.object({ id: z.string().min(1).max(200) });

/** The flow answer is the API model's schema. */
export { FlowSchema };

export const FlowListSchema = listSchema(FlowSchema, 'FlowList');

export type { FlowJson } from '@platform/api-model';
export type CreateFlowInput = z.infer<typeof CreateFlowBody>;
export type ReplaceFlowInput = z.infer<typeof ReplaceFlowBody>;
export type ListFlowsInput = z.infer<typeof ListFlowsQuery>;
