import type { payments } from '@platform/contracts';
import { numberOrNull, requiredTimestamp, textOrNull } from '../../http/json';
import { toPageRequest } from '../../http/pagination';
import type { CreateFlowInput, FlowJson, ListFlowsInput, ReplaceFlowInput } from './schemas';

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
      route: rule.route,
    })),
    defaultRoute: flow.defaultRoute,
    createdAt: requiredTimestamp(flow.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(flow.updatedAt, 'updatedAt'),
  };
}

function toFlowRules(rules: ReplaceFlowInput['rules']): payments.FlowRule[] {
  return rules.map((rule) => ({
    when: rule.when
      ? {
          amountGte: rule.when.amountGte,
          amountLte: rule.when.amountLte,
          cardBrand: rule.when.cardBrand,
          installmentsGte: rule.when.installmentsGte,
          currency: rule.when.currency,
        }
      : undefined,
    route: rule.route,
  }));
}

export function toCreateFlowRequest(clientId: string, input: CreateFlowInput): payments.CreateFlowRequest {
  return {
    clientId,
    merchantId: input.merchantId,
    name: input.name ?? '',
    paymentMethod: input.paymentMethod,
    rules: toFlowRules(input.rules),
    defaultRoute: input.defaultRoute,
  };
}

export function toReplaceFlowRequest(clientId: string, id: string, input: ReplaceFlowInput): payments.ReplaceFlowRequest {
  return {
    clientId,
    id,
    name: input.name ?? '',
    paymentMethod: input.paymentMethod,
    rules: toFlowRules(input.rules),
    defaultRoute: input.defaultRoute,
  };
}

export function toListFlowsRequest(clientId: string, query: ListFlowsInput): payments.ListFlowsRequest {
  return { clientId, page: toPageRequest(query), merchantId: query.merchantId };
}
