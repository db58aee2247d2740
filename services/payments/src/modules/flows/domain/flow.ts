import { CHARGE_LIMITS, PAYMENT_TYPES, type PaymentType } from '@platform/api-model';
import { errors, parseInput, type FieldViolation } from '@platform/kit';
import { z } from 'zod';
import type { CardBrand } from '../../vault/domain/card';
import { ROUTE_MODES, type RouteMode } from '../../charges/domain/successRate';

/** A range of card BINs (first six digits), both ends included. */
export interface FlowBinRange {
  from: string;
  to: string;
}

/**
 * The conditions of a rule; all that are set must hold. `all` (and) and `any` (or) group conditions and nest.
 * `metadata` reads the charge's `paymentFlow.metadata` by key or dotted path (`segment`, `seller.tier`); each key's
 * value must be one of the listed values.
 */
export interface FlowCondition {
  amountGte?: number;
  amountLte?: number;
  cardBrand?: string;
  installmentsGte?: number;
  installmentsLte?: number;
  currency?: string;
  paymentType?: string;
  binRanges?: FlowBinRange[];
  issuerCountry?: string[];
  metadata?: Record<string, string[]>;
  all?: FlowCondition[];
  any?: FlowCondition[];
}

/** A share of a split rule's charges, chosen by a hash of the charge id, and the antifraud entry that analyses them. */
export interface FlowSplitBranch {
  percentage: number;
  route: string[];
  antifraudProviderId?: string;
  /** How the branch's providers are ordered; the rule's mode when absent. */
  mode?: RouteMode;
}

/**
 * A rule of a routing flow: when its conditions hold, the charge is tried on its route, in order, or on the route
 * of the branch of its split the charge falls in. Its antifraud entry, if it names one, analyses the charge
 * instead of the merchant's first.
 */
export interface FlowRule {
  when: FlowCondition;
  route: string[];
  split?: FlowSplitBranch[];
  antifraudProviderId?: string;
  /**
   * How the route (and the split branches that name none) is ordered: `priority` (the default) tries the providers
   * in the order given; `success_rate` by their approval rates over their latest attempts, with a small
   * exploration share, providers failing technically taken out for a cool-down and probed back.
   */
  mode?: RouteMode;
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

const routeSchema = (what: string, least = 1) =>
  z
    .array(z.string().trim().toLowerCase())
    .min(least, `must name at least one provider${what}`)
    .max(MAX_ROUTE, `must name at most ${MAX_ROUTE} providers`)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((id, i) => {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: 'names a provider twice' });
        seen.add(id);
      });
    });

/** A key of a metadata condition: a key of the charge's paymentFlow.metadata, or a dotted path of at most four. */
const METADATA_KEY = /^[A-Za-z0-9_-]{1,100}(\.[A-Za-z0-9_-]{1,100}){0,3}$/;
const METADATA_KEY_MESSAGE = 'must be a key of paymentFlow.metadata (letters, digits, _ or -), or a dotted path of at most 4 keys';
const MAX_GROUP = 20;
const MAX_LIST = 50;
/** How deep `all` and `any` groups may nest. */
export const MAX_CONDITION_DEPTH = 4;
const MAX_SPLIT = 10;

const installments = z.number().int('must be an integer').min(1, 'must be at least 1').max(CHARGE_LIMITS.maxInstallments, `must be at most ${CHARGE_LIMITS.maxInstallments}`);
const bin = z.string().trim().regex(/^\d{6}$/, 'must be six digits');
const metadataValue = z.string().max(200, 'must be at most 200 characters');

const leafConditions = {
  amountGte: amount.optional(),
  amountLte: amount.optional(),
  cardBrand: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(CARD_BRANDS as [CardBrand, ...CardBrand[]], { error: `must be one of ${CARD_BRANDS.join(', ')}` }))
    .optional(),
  installmentsGte: installments.optional(),
  installmentsLte: installments.optional(),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code')
    .optional(),
  paymentType: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(PAYMENT_TYPES, { error: `must be one of ${PAYMENT_TYPES.join(', ')}` }))
    .optional(),
  binRanges: z
    .array(
      z.object({ from: bin, to: bin }).superRefine((range, ctx) => {
        if (range.from > range.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be below from' });
      }),
    )
    .min(1, 'must list at least one range')
    .max(MAX_LIST, `must list at most ${MAX_LIST} ranges`)
    .optional(),
  issuerCountry: z
    .array(z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'))
    .min(1, 'must list at least one country')
    .max(MAX_LIST, `must list at most ${MAX_LIST} countries`)
    .optional(),
  metadata: z
    .record(
      z.string(),
      z.union([metadataValue, z.array(metadataValue).min(1, 'must list at least one value').max(MAX_LIST, `must list at most ${MAX_LIST} values`)], {
        error: 'must be a string or a list of strings',
      }),
    )
    .superRefine((record, ctx) => {
      for (const key of Object.keys(record)) {
        if (!METADATA_KEY.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: METADATA_KEY_MESSAGE });
      }
      if (Object.keys(record).length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one key' });
      if (Object.keys(record).length > MAX_LIST) ctx.addIssue({ code: 'custom', message: `must name at most ${MAX_LIST} keys` });
    })
    .transform((record) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key, typeof value === 'string' ? [value] : value])))
    .optional(),
};

/** Lower bounds above their upper bounds, checked whenever both are numbers, whatever else is broken. */
function checkRanges(when: { amountGte?: unknown; amountLte?: unknown; installmentsGte?: unknown; installmentsLte?: unknown }, ctx: z.RefinementCtx): void {
  if (typeof when !== 'object' || when === null) return;
  const above = (low: unknown, high: unknown) => typeof low === 'number' && typeof high === 'number' && low > high;
  if (above(when.amountGte, when.amountLte)) ctx.addIssue({ code: 'custom', path: ['amountLte'], message: 'must not be below amountGte' });
  if (above(when.installmentsGte, when.installmentsLte)) {
    ctx.addIssue({ code: 'custom', path: ['installmentsLte'], message: 'must not be below installmentsGte' });
  }
}

/** A condition whose `all` and `any` groups may hold conditions `depth` levels further down. */
function conditionSchemaAt(depth: number): z.ZodType<FlowCondition> {
  const group =
    depth > 0
      ? z.array(conditionSchemaAt(depth - 1)).min(1, 'must list at least one condition').max(MAX_GROUP, `must list at most ${MAX_GROUP} conditions`).optional()
      : z.array(z.unknown()).max(0, `must not nest more than ${MAX_CONDITION_DEPTH} groups deep`).optional();
  return z
    .object({ ...leafConditions, all: group, any: group })
    .superRefine(checkRanges, { when: () => true })
    .transform((when) => compactCondition(when as FlowCondition)) as z.ZodType<FlowCondition>;
}

const conditionSchema = conditionSchemaAt(MAX_CONDITION_DEPTH);

const antifraudProviderId = z.string().trim().toLowerCase().min(1, 'must name an antifraud provider').optional();

const mode = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(ROUTE_MODES as [RouteMode, ...RouteMode[]], { error: `must be one of ${ROUTE_MODES.join(', ')}` }))
  .optional();

const splitSchema = z
  .array(
    z.object({
      percentage: z.number().int('must be an integer').min(1, 'must be at least 1').max(99, 'must be at most 99'),
      route: routeSchema(''),
      antifraudProviderId,
      mode,
    }),
  )
  .min(2, 'must list at least two branches')
  .max(MAX_SPLIT, `must list at most ${MAX_SPLIT} branches`)
  .superRefine((branches, ctx) => {
    const total = branches.reduce((sum, b) => sum + b.percentage, 0);
    if (total !== 100) ctx.addIssue({ code: 'custom', message: `percentages must add up to 100, not ${total}` });
  });

const ruleSchema = z
  .object({
    when: conditionSchema.optional(),
    // A split rule has no route of its own: over gRPC an absent list and an empty one are the same.
    route: routeSchema('', 0).optional(),
    split: splitSchema.optional(),
    antifraudProviderId,
    mode,
  })
  .superRefine(
    (rule, ctx) => {
      if (typeof rule !== 'object' || rule === null) return;
      const hasRoute = Array.isArray(rule.route) && rule.route.length > 0;
      const splits = rule.split !== undefined && rule.split !== null;
      if (splits && hasRoute) ctx.addIssue({ code: 'custom', path: ['route'], message: 'must be empty when the rule splits its volume' });
      if (!splits && !hasRoute) ctx.addIssue({ code: 'custom', path: ['route'], message: 'must name at least one provider, or the rule must split' });
    },
    // Checked even when other fields of the rule are broken, so that every broken field is named at once.
    { when: () => true },
  );

const flowSchema = z.object({
  name: z.string().trim().max(200, 'must be at most 200 characters'),
  paymentMethod: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(FLOW_PAYMENT_METHODS, { error: `must be one of ${FLOW_PAYMENT_METHODS.join(', ')}` })),
  rules: z
    .array(ruleSchema)
    .max(MAX_RULES, `must list at most ${MAX_RULES} rules`),
  defaultRoute: routeSchema(': the route when no rule matches'),
});

/** A condition as asked: a metadata value may be one string or a list of them. */
export type FlowConditionInput = Omit<FlowCondition, 'metadata' | 'all' | 'any'> & {
  metadata?: Record<string, string | string[]>;
  all?: FlowConditionInput[];
  any?: FlowConditionInput[];
};

export interface FlowRuleInput {
  when?: FlowConditionInput;
  route?: string[];
  split?: Array<Omit<FlowSplitBranch, 'mode'> & { mode?: string }>;
  antifraudProviderId?: string;
  mode?: string;
}

export interface FlowInput {
  name: string;
  paymentMethod: string;
  rules: FlowRuleInput[];
  defaultRoute: string[];
}

export function parseFlowDefinition(input: FlowInput): FlowDefinition {
  const parsed = parseInput(flowSchema, input, 'Invalid flow');
  return {
    name: parsed.name,
    paymentMethod: parsed.paymentMethod,
    rules: parsed.rules.map((rule) => ({
      when: rule.when ?? {},
      route: rule.split ? [] : (rule.route ?? []),
      ...(rule.split
        ? {
            split: rule.split.map((b) => ({
              percentage: b.percentage,
              route: b.route,
              ...(b.antifraudProviderId ? { antifraudProviderId: b.antifraudProviderId } : {}),
              ...(b.mode ? { mode: b.mode } : {}),
            })),
          }
        : {}),
      ...(rule.antifraudProviderId ? { antifraudProviderId: rule.antifraudProviderId } : {}),
      ...(rule.mode ? { mode: rule.mode } : {}),
    })),
    defaultRoute: parsed.defaultRoute,
  };
}

/** A condition without the keys that were not given, so a stored flow holds only what was asked. */
function compactCondition(when: FlowCondition): FlowCondition {
  return Object.fromEntries(Object.entries(when).filter(([, v]) => v !== undefined)) as FlowCondition;
}

/** A merchant has at most one flow per payment method. */
export function flowExists(paymentMethod: string) {
  return errors.conflict(`This merchant already has a ${paymentMethod} flow`, 'flow_exists');
}

/**
 * Every route may only name active payment providers of the flow's merchant, and a rule or split branch may only
 * name one of its antifraud entries; each offending entry is reported by its path (`rules.0.route.1`,
 * `rules.1.split.0.antifraudProviderId`, `defaultRoute.0`).
 */
export function assertRoutesUseProviders(flow: FlowDefinition, paymentProviderIds: ReadonlySet<string>, antifraudProviderIds: ReadonlySet<string> = new Set()): void {
  const details: FieldViolation[] = [];
  const check = (route: string[], path: string) =>
    route.forEach((id, i) => {
      if (!paymentProviderIds.has(id)) details.push({ field: `${path}.${i}`, message: 'is not an active payment provider of this merchant' });
    });
  const checkAntifraud = (id: string | undefined, path: string) => {
    if (id !== undefined && !antifraudProviderIds.has(id)) details.push({ field: path, message: 'is not an antifraud provider of this merchant' });
  };
  flow.rules.forEach((rule, i) => {
    check(rule.route, `rules.${i}.route`);
    checkAntifraud(rule.antifraudProviderId, `rules.${i}.antifraudProviderId`);
    rule.split?.forEach((branch, j) => {
      check(branch.route, `rules.${i}.split.${j}.route`);
      checkAntifraud(branch.antifraudProviderId, `rules.${i}.split.${j}.antifraudProviderId`);
    });
  });
  check(flow.defaultRoute, 'defaultRoute');
  if (details.length > 0) throw errors.validation('Invalid flow', details);
}
