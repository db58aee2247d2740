import { SUBSCRIPTION_EVENT_TYPES, toSubscriptionCycleJson, toSubscriptionJson } from '@platform/api-model';
import { enqueueEvent, type Queryable } from '@platform/kit';
import type { CycleRecord, SubscriptionRecord } from '../domain/subscription';
import { toCycleMessage, toSubscriptionMessage } from '../wire/subscriptionMessages';

export const SUBSCRIPTION_EVENTS = SUBSCRIPTION_EVENT_TYPES;
export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENTS)[keyof typeof SUBSCRIPTION_EVENTS];

/** A subscription event; `data` is the subscription as the REST API shows it after the change. */
export async function recordSubscriptionEvent(tx: Queryable, type: SubscriptionEventType, subscription: SubscriptionRecord, at: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: subscription.clientId, data: toSubscriptionJson(toSubscriptionMessage(subscription)), occurredAt: at });
}

/** A cycle event (paid, failed); `data` is the cycle as `GET /v1/subscriptions/{id}/cycles/{cycleId}` shows it. */
export async function recordCycleEvent(tx: Queryable, type: SubscriptionEventType, cycle: CycleRecord, at: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: cycle.clientId, data: toSubscriptionCycleJson(toCycleMessage(cycle)), occurredAt: at });
}
