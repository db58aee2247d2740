import type { payments } from '@platform/contracts';
import type { FlowCondition, FlowConditionInput, FlowRule, FlowRuleInput } from '../domain/flow';

/**
 * Flow rules on the wire. Each list of a condition (and a rule's split) is a message of its own: absent when the
 * caller did not give it, so an empty list given is still refused by the flow's validation.
 */

export function conditionInput(message: payments.FlowCondition | undefined): FlowConditionInput {
  if (!message) return {};
  return {
    ...(message.amountGte !== undefined ? { amountGte: message.amountGte } : {}),
    ...(message.amountLte !== undefined ? { amountLte: message.amountLte } : {}),
    ...(message.cardBrand !== undefined ? { cardBrand: message.cardBrand } : {}),
    ...(message.installmentsGte !== undefined ? { installmentsGte: message.installmentsGte } : {}),
    ...(message.installmentsLte !== undefined ? { installmentsLte: message.installmentsLte } : {}),
    ...(message.currency !== undefined ? { currency: message.currency } : {}),
    ...(message.paymentType !== undefined ? { paymentType: message.paymentType } : {}),
    ...(message.binRanges ? { binRanges: message.binRanges.ranges.map((r) => ({ from: r.from, to: r.to })) } : {}),
    ...(message.issuerCountry ? { issuerCountry: [...message.issuerCountry.values] } : {}),
    ...(message.metadata
      ? { metadata: Object.fromEntries(Object.entries(message.metadata.entries).map(([key, value]) => [key, [...value.values]])) }
      : {}),
    ...(message.all ? { all: message.all.conditions.map(conditionInput) } : {}),
    ...(message.any ? { any: message.any.conditions.map(conditionInput) } : {}),
  };
}

export function flowRuleInput(message: payments.FlowRule): FlowRuleInput {
  return {
    when: conditionInput(message.when),
    route: [...message.route],
    ...(message.split
      ? {
          split: message.split.branches.map((b) => ({
            percentage: b.percentage,
            route: [...b.route],
            ...(b.antifraudProviderId !== undefined ? { antifraudProviderId: b.antifraudProviderId } : {}),
            ...(b.mode !== undefined ? { mode: b.mode } : {}),
          })),
        }
      : {}),
    ...(message.antifraudProviderId !== undefined ? { antifraudProviderId: message.antifraudProviderId } : {}),
    ...(message.mode !== undefined ? { mode: message.mode } : {}),
  };
}

export function toFlowConditionMessage(when: FlowCondition): payments.FlowCondition {
  return {
    amountGte: when.amountGte,
    amountLte: when.amountLte,
    cardBrand: when.cardBrand,
    installmentsGte: when.installmentsGte,
    installmentsLte: when.installmentsLte,
    currency: when.currency,
    paymentType: when.paymentType,
    binRanges: when.binRanges ? { ranges: when.binRanges.map((r) => ({ from: r.from, to: r.to })) } : undefined,
    issuerCountry: when.issuerCountry ? { values: [...when.issuerCountry] } : undefined,
    metadata: when.metadata ? { entries: Object.fromEntries(Object.entries(when.metadata).map(([key, values]) => [key, { values: [...values] }])) } : undefined,
    all: when.all ? { conditions: when.all.map(toFlowConditionMessage) } : undefined,
    any: when.any ? { conditions: when.any.map(toFlowConditionMessage) } : undefined,
  };
}

export function toFlowRuleMessage(rule: FlowRule): payments.FlowRule {
  return {
    when: toFlowConditionMessage(rule.when ?? {}),
    route: [...(rule.route ?? [])],
    split: rule.split
      ? { branches: rule.split.map((b) => ({ percentage: b.percentage, route: [...b.route], antifraudProviderId: b.antifraudProviderId, mode: b.mode })) }
      : undefined,
    antifraudProviderId: rule.antifraudProviderId,
    mode: rule.mode,
  };
}
