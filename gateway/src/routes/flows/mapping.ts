import type { payments } from '@platform/contracts';
import { toPageRequest } from '../../http/pagination';
import type { CreateFlowInput, FlowConditionBody, ListFlowsInput, ReplaceFlowInput } from './schemas';

export { toFlowJson } from '@platform/api-model';

function toFlowCondition(when: FlowConditionBody | undefined): payments.FlowCondition | undefined {
  if (!when) return undefined;
  return {
    amountGte: when.amountGte,
    amountLte: when.amountLte,
    cardBrand: when.cardBrand,
    installmentsGte: when.installmentsGte,
    installmentsLte: when.installmentsLte,
    currency: when.currency,
    paymentType: when.paymentType,
    binRanges: when.binRanges ? { ranges: when.binRanges } : undefined,
    issuerCountry: when.issuerCountry ? { values: when.issuerCountry } : undefined,
    // One value is a list of one: the key must equal it.
    metadata: when.metadata
      ? { entries: Object.fromEntries(Object.entries(when.metadata).map(([key, value]) => [key, { values: typeof value === 'string' ? [value] : value }])) }
      : undefined,
    all: when.all ? { conditions: when.all.map((inner) => toFlowCondition(inner) ?? {}) } : undefined,
    any: when.any ? { conditions: when.any.map((inner) => toFlowCondition(inner) ?? {}) } : undefined,
  };
}

function toFlowRules(rules: ReplaceFlowInput['rules']): payments.FlowRule[] {
  return rules.map((rule) => ({
    when: toFlowCondition(rule.when),
    route: rule.route ?? [],
    split: rule.split
      ? { branches: rule.split.map((branch) => ({ percentage: branch.percentage, route: branch.route, antifraudProviderId: branch.antifraudProviderId, mode: branch.mode })) }
      : undefined,
    antifraudProviderId: rule.antifraudProviderId,
    mode: rule.mode,
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
