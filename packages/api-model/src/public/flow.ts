import type { payments } from '@platform/contracts';
import { z } from '../zod';
import { numberOrNull, requiredTimestamp, textOrNull } from './json';

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
        when: z.object({
          amountGte: z.int().nullable(),
          amountLte: z.int().nullable(),
          cardBrand: z.string().nullable(),
          installmentsGte: z.int().nullable(),
          currency: z.string().nullable(),
        }),
        route: z.array(z.string()),
      }),
    ),
    defaultRoute: z.array(z.string()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Flow');

export type FlowJson = z.infer<typeof FlowSchema>;
export type FlowRuleJson = FlowJson['rules'][number];

export function toFlowJson(flow: payments.Flow): FlowJson {
  return {
    id: flow.id,
    clientId: flow.clientId,
    merchantId: flow.merchantId,
    name: textOrNull(flow.name),
    paymentMethod: flow.paymentMethod,
    rules: flow.rules.map((rule) => ({
      when: {
        amountGte: numberOrNull(rule.when?.amountGte),
        amountLte: numberOrNull(rule.when?.amountLte),
        cardBrand: textOrNull(rule.when?.cardBrand),
        installmentsGte: numberOrNull(rule.when?.installmentsGte),
        currency: textOrNull(rule.when?.currency),
      },
      route: [...rule.route],
    })),
    defaultRoute: [...flow.defaultRoute],
    createdAt: requiredTimestamp(flow.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(flow.updatedAt, 'updatedAt'),
  };
}
