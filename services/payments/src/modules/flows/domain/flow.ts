import { CHARGE_LIMITS, PAYMENT_TYPES, type PaymentType } from '@platform/api-model';
import { errors, parseInput, type FieldViolation } from '@platform/kit';
import { z } from 'zod';
import type { CardBrand } from '../../vault/domain/card';

/** A rule of a routing flow: when its conditions all hold, the charge is tried on its route, in order. */
export interface FlowRule {
  when: { amountGte?: number; amountLte?: number; cardBrand?: string; installmentsGte?: number; currency?: string };
  route: string[];
}

/** A flow routes one payment type. */
export const FLOW_PAYMENT_METHODS = PAYMENT_TYPES;
export type FlowPaymentMethod = PaymentType;

const CARD_BRANDS: readonly CardBrand[] = ['visa', 'mastercard', 'amex', 'elo', 'hipercard', 'diners'];
const MAX_RULES = 50;
const MAX_ROUTE = 20;

export interface Flow {
  id: string;
  clientId: string;
  merchantId: string;
  name: string;
  paymentMethod: FlowPaymentMethod;
  rules: FlowRule[];
  defaultRoute: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** A flow as asked, its shape checked; whether its routes name providers of the merchant is checked against the store. */
export interface FlowDefinition {
  name: string;
  paymentMethod: FlowPaymentMethod;
  rules: FlowRule[];
  defaultRoute: string[];
}

const amount = z.number().int('must be an integer').min(0, 'must be at least 0');

const routeSchema = (what: string) =>
  z
    .array(z.string().trim().toLowerCase())
    .min(1, `must name at least one provider${what}`)
    .max(MAX_ROUTE, `must name at most ${MAX_ROUTE} providers`)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((id, i) => {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: 'names a provider twice' });
        seen.add(id);
      });
    });

const conditionSchema = z
  .object({
    amountGte: amount.optional(),
    amountLte: amount.optional(),
    cardBrand: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(CARD_BRANDS as [CardBrand, ...CardBrand[]], { error: `must be one of ${CARD_BRANDS.join(', ')}` }))
      .optional(),
    installmentsGte: z.number().int('must be an integer').min(1, 'must be at least 1').max(CHARGE_LIMITS.maxInstallments, `must be at most ${CHARGE_LIMITS.maxInstallments}`).optional(),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code')
      .optional(),
  })
  .superRefine((when, ctx) => {
    if (when.amountGte !== undefined && when.amountLte !== undefined && when.amountGte > when.amountLte) {
      ctx.addIssue({ code: 'custom', path: ['amountLte'], message: 'must not be below amountGte' });
    }
  });

const flowSchema = z.object({
  name: z.string().trim().max(200, 'must be at most 200 characters'),
  paymentMethod: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(FLOW_PAYMENT_METHODS, { error: `must be one of ${FLOW_PAYMENT_METHODS.join(', ')}` })),
  rules: z
    .array(z.object({ when: conditionSchema.optional(), route: routeSchema('') }))
    .max(MAX_RULES, `must list at most ${MAX_RULES} rules`),
  defaultRoute: routeSchema(': the route when no rule matches'),
});

export interface FlowInput {
  name: string;
  paymentMethod: string;
  rules: Array<{ when?: FlowRule['when']; route: string[] }>;
  defaultRoute: string[];
}

export function parseFlowDefinition(input: FlowInput): FlowDefinition {
  const parsed = parseInput(flowSchema, input, 'Invalid flow');
  return {
    name: parsed.name,
    paymentMethod: parsed.paymentMethod,
    rules: parsed.rules.map((rule) => ({ when: compactCondition(rule.when ?? {}), route: rule.route })),
    defaultRoute: parsed.defaultRoute,
  };
}

function compactCondition(when: FlowRule['when']): FlowRule['when'] {
  return Object.fromEntries(Object.entries(when).filter(([, v]) => v !== undefined)) as FlowRule['when'];
}

/** A merchant has at most one flow per payment method. */
export function flowExists(paymentMethod: string) {
  return errors.conflict(`This merchant already has a ${paymentMethod} flow`, 'flow_exists');
}

/**
 * Every route may only name active payment providers of the flow's merchant; each offending entry is reported
 * by its path (`rules.0.route.1`, `defaultRoute.0`).
 */
export function assertRoutesUseProviders(flow: FlowDefinition, paymentProviderIds: ReadonlySet<string>): void {
  const details: FieldViolation[] = [];
  const check = (route: string[], path: string) =>
    route.forEach((id, i) => {
      if (!paymentProviderIds.has(id)) details.push({ field: `${path}.${i}`, message: 'is not an active payment provider of this merchant' });
    });
  flow.rules.forEach((rule, i) => check(rule.route, `rules.${i}.route`));
  check(flow.defaultRoute, 'defaultRoute');
  if (details.length > 0) throw errors.validation('Invalid flow', details);
}
