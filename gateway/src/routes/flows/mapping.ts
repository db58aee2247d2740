import type { payments } from '@platform/contracts';
import { toPageRequest } from '../../http/pagination';
import type { CreateFlowInput, ListFlowsInput, ReplaceFlowInput } from './schemas';

export { toFlowJson } from '@platform/api-model';

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
