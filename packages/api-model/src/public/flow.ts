import type { payments } from '@platform/contracts';
import { numberOrNull, requiredTimestamp, textOrNull } from './json';

export interface FlowRuleJson {
  when: { amountGte: number | null; amountLte: number | null; cardBrand: string | null; installmentsGte: number | null; currency: string | null };
  route: string[];
}

export interface FlowJson {
  id: string;
  clientId: string;
  merchantId: string;
  name: string | null;
  paymentMethod: string;
  rules: FlowRuleJson[];
  defaultRoute: string[];
  createdAt: string;
  updatedAt: string;
}

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
