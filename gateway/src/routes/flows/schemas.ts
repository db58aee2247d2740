import { CHARGE_LIMITS, FlowSchema, PAYMENT_TYPES } from '@platform/api-model';
import { amount as minorUnits, int32 } from '../../http/fields';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

const arrayOf = <T extends z.ZodType>(item: T) => z.array(item, { error: requiredOr('must be an array') });
const id = z.string({ error: requiredOr('must be a string') }).min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const route = arrayOf(id).max(20, 'must name at most 20 providers').openapi({ description: 'Provider ids, tried in this order' });
const amount = minorUnits('must be a whole number').min(0, 'must be at least 0');

export const FlowConditionInput = z
  .object({
    amountGte: amount.optional().openapi({ description: 'Minor units' }),
    amountLte: amount.optional().openapi({ description: 'Minor units' }),
    cardBrand: z.string({ error: requiredOr('must be a string') }).max(32, 'must be at most 32 characters').optional().openapi({ example: 'visa' }),
    installmentsGte: int32()
      .min(1, 'must be at least 1')
      .max(CHARGE_LIMITS.maxInstallments, `must be at most ${CHARGE_LIMITS.maxInstallments}`)
      .optional(),
    currency: z.string({ error: requiredOr('must be a string') }).max(3, 'must be an ISO 4217 code').optional().openapi({ example: 'BRL' }),
  })
  .openapi('FlowCondition', { description: 'Every condition given must hold; none given matches every charge' });

export const FlowRuleInput = z.object({ when: FlowConditionInput.optional(), route }).openapi('FlowRule');

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
