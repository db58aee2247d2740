import type { payments } from '@platform/contracts';
import { z } from '../zod';
import { numberOrNull, requiredTimestamp, textOrNull } from './json';

/** How a flow rule's route (or split branch) orders its providers. */
export const ROUTE_MODES = ['priority', 'success_rate'] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];
export const ROUTE_MODE_DESCRIPTION =
  'priority (the default): the providers in the order given. success_rate: by their approval rates over their latest attempts (per merchant, payment type and card brand), ' +
  'a small share of charges (drawn from the charge id) trying another order to keep learning; a provider whose recent attempts mostly failed technically is tried last for a cool-down, ' +
  'then tried first by one charge in a few until it recovers. The order and why are in each authorization\'s routingReason';

/** The conditions of a flow rule as answered; a condition not set is null. `all` and `any` nest. */
export interface FlowConditionJson {
  amountGte: number | null;
  amountLte: number | null;
  cardBrand: string | null;
  installmentsGte: number | null;
  installmentsLte: number | null;
  currency: string | null;
  paymentType: string | null;
  binRanges: Array<{ from: string; to: string }> | null;
  issuerCountry: string[] | null;
  metadata: Record<string, string[]> | null;
  all: FlowConditionJson[] | null;
  any: FlowConditionJson[] | null;
}

export const FlowConditionSchema: z.ZodType<FlowConditionJson> = z
  .lazy(() =>
    z.object({
      amountGte: z.int().nullable().openapi({ description: 'Minor units' }),
      amountLte: z.int().nullable().openapi({ description: 'Minor units' }),
      cardBrand: z.string().nullable(),
      installmentsGte: z.int().nullable(),
      installmentsLte: z.int().nullable(),
      currency: z.string().nullable(),
      paymentType: z.string().nullable(),
      binRanges: z
        .array(z.object({ from: z.string().openapi({ example: '400000' }), to: z.string().openapi({ example: '499999' }) }))
        .nullable()
        .openapi({ description: "The card's first six digits fall in one of these ranges (both ends included)" }),
      issuerCountry: z
        .array(z.string())
        .nullable()
        .openapi({ description: "ISO 3166-1 alpha-2 codes; the card's issuer country, derived from its BIN, is one of them", example: ['BR'] }),
      metadata: z
        .record(z.string(), z.array(z.string()))
        .nullable()
        .openapi({
          description:
            "Each key's value in the charge's paymentFlow.metadata is one of the listed values; a key may be a dotted path into it (seller.tier)",
          example: { segment: ['vip'], 'seller.tier': ['gold', 'platinum'] },
        }),
      all: z.array(FlowConditionSchema).nullable().openapi({ description: 'Holds when each of these conditions does' }),
      any: z.array(FlowConditionSchema).nullable().openapi({ description: 'Holds when at least one of these conditions does' }),
    }),
  )
  .openapi('FlowConditionAnswer');

/** A routing flow of a merchant: for one payment type, the rules that pick the providers a charge is tried on. */
export const FlowSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    merchantId: z.string(),
    name: z.string().nullable(),
    paymentMethod: z.string(),
    rules: z.array(
      z.object({
        when: FlowConditionSchema,
        route: z.array(z.string()).openapi({ description: 'Provider ids, tried in this order; empty when the rule splits its volume' }),
        split: z
          .array(
            z.object({
              percentage: z.int().openapi({ example: 70 }),
              route: z.array(z.string()),
              antifraudProviderId: z.string().nullable(),
              mode: z.enum(ROUTE_MODES).nullable().openapi({ description: "How the branch's providers are ordered; null: the rule's mode" }),
            }),
          )
          .nullable()
          .openapi({ description: 'Shares of the volume, each charge placed by a hash of its id; percentages add up to 100' }),
        antifraudProviderId: z.string().nullable().openapi({ description: "The antifraud entry of the rule's charges (a split branch's own wins)" }),
        mode: z.enum(ROUTE_MODES).openapi({ description: ROUTE_MODE_DESCRIPTION }),
      }),
    ),
    defaultRoute: z.array(z.string()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Flow');

export type FlowJson = z.infer<typeof FlowSchema>;

function routeModeOrNull(mode: string | undefined): RouteMode | null {
  return ROUTE_MODES.find((m) => m === mode) ?? null;
}
export type FlowRuleJson = FlowJson['rules'][number];

export function toFlowJson(flow: payments.Flow): FlowJson {
  return {
    id: flow.id,
    clientId: flow.clientId,
    merchantId: flow.merchantId,
    name: textOrNull(flow.name),
    paymentMethod: flow.paymentMethod,
    rules: flow.rules.map((rule) => ({
      when: toFlowConditionJson(rule.when),
      route: [...rule.route],
      split: rule.split
        ? rule.split.branches.map((b) => ({ percentage: b.percentage, route: [...b.route], antifraudProviderId: textOrNull(b.antifraudProviderId), mode: routeModeOrNull(b.mode) }))
        : null,
      antifraudProviderId: textOrNull(rule.antifraudProviderId),
      mode: routeModeOrNull(rule.mode) ?? 'priority',
    })),
    defaultRoute: [...flow.defaultRoute],
    createdAt: requiredTimestamp(flow.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(flow.updatedAt, 'updatedAt'),
  };
}

export function toFlowConditionJson(when: payments.FlowCondition | undefined): FlowConditionJson {
  return {
    amountGte: numberOrNull(when?.amountGte),
    amountLte: numberOrNull(when?.amountLte),
    cardBrand: textOrNull(when?.cardBrand),
    installmentsGte: numberOrNull(when?.installmentsGte),
    installmentsLte: numberOrNull(when?.installmentsLte),
    currency: textOrNull(when?.currency),
    paymentType: textOrNull(when?.paymentType),
    binRanges: when?.binRanges ? when.binRanges.ranges.map((r) => ({ from: r.from, to: r.to })) : null,
    issuerCountry: when?.issuerCountry ? [...when.issuerCountry.values] : null,
    metadata: when?.metadata ? Object.fromEntries(Object.entries(when.metadata.entries).map(([key, value]) => [key, [...value.values]])) : null,
    all: when?.all ? when.all.conditions.map(toFlowConditionJson) : null,
    any: when?.any ? when.any.conditions.map(toFlowConditionJson) : null,
  };
}
