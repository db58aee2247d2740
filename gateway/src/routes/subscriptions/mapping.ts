import type { payments, settings } from '@platform/contracts';
import { toPageRequest, type PaginationQuery } from '../../http/pagination';
import { toSplitRules } from '../charges/mapping';
import type { CreateSubscriptionInput, ListSubscriptionsInput, ReplaceSubscriptionInput, UpdateSubscriptionSettingsInput } from './schemas';

export { toSubscriptionCycleJson, toSubscriptionJson } from '@platform/api-model';

export function toUpdateSubscriptionSettingsRequest(
  clientId: string,
  input: UpdateSubscriptionSettingsInput,
): settings.UpdateSubscriptionSettingsRequest {
  return {
    clientId,
    // Wrapped, so that "not given" and "an empty policy" stay different on the wire.
    retryPolicy: input.retryPolicy ? { steps: input.retryPolicy.map((s) => ({ daysAfterLastAttempt: s.daysAfterLastAttempt })) } : undefined,
    cancelAfterAllRetries: input.cancelAfterAllRetries,
    statementDescriptor: input.statementDescriptor,
  };
}

function toItems(items: CreateSubscriptionInput['items']): payments.SubscriptionItem[] {
  return items.map((item) => ({ name: item.name, amount: item.amount, quantity: item.quantity }));
}

function toPaymentMethod(method: CreateSubscriptionInput['paymentMethod']): payments.SubscriptionPaymentMethod {
  return { type: method.type, cardId: method.card.cardId, installments: method.installments };
}

/** Every field of the message is set: absent optional ones stay unset (no end, start now, no trial). */
export function toCreateSubscriptionRequest(clientId: string, input: CreateSubscriptionInput): payments.CreateSubscriptionRequest {
  return {
    clientId,
    merchantId: input.merchantId,
    customerId: input.customerId,
    name: input.name,
    items: toItems(input.items),
    recurrence: { interval: input.recurrence.interval, cycles: input.recurrence.cycles, startAt: input.recurrence.startAt },
    paymentMethod: toPaymentMethod(input.paymentMethod),
    trialEndAt: input.trial?.endAt,
    splitRules: toSplitRules(input.splitRules),
    currency: input.currency,
  };
}

export function toListSubscriptionsRequest(clientId: string, query: ListSubscriptionsInput): payments.ListSubscriptionsRequest {
  return { clientId, page: toPageRequest(query), status: query.status ?? [], customerId: query.customerId };
}

/** The items and the card are replaced whole; the name only when given. */
export function toReplaceSubscriptionRequest(clientId: string, id: string, input: ReplaceSubscriptionInput): payments.ReplaceSubscriptionRequest {
  return { clientId, id, name: input.name, items: toItems(input.items), paymentMethod: toPaymentMethod(input.paymentMethod) };
}

export function toListSubscriptionCyclesRequest(clientId: string, subscriptionId: string, query: PaginationQuery): payments.ListSubscriptionCyclesRequest {
  return { clientId, subscriptionId, page: toPageRequest(query) };
}
