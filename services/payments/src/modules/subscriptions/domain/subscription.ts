import type { ParsedSplitRule } from '@platform/api-model';

/**
 * A subscription and its cycles as they are stored and shown: a charge per cycle on a saved card of a customer.
 * Their rules are beside: `subscriptionStatus.ts` (the status table), `calendar.ts` (when a cycle falls due),
 * `dunning.ts` (what follows a failed attempt) and `newSubscription.ts` (what a valid create request is).
 */

/** A subscription as it is stored and shown (the wire's `Subscription`). */
export interface SubscriptionItem {
  name: string;
  amount: number;
  quantity: number;
}

export type SubscriptionSplitRule = ParsedSplitRule;

export interface SubscriptionRecord {
  id: string;
  clientId: string;
  merchantId: string;
  customerId: string;
  cardId: string;
  name: string;
  items: SubscriptionItem[];
  amount: number;
  currency: string;
  interval: string;
  cycles: number | null;
  anchor: Date;
  startAt: Date;
  trialEndAt: Date | null;
  installments: number;
  splitRules: SubscriptionSplitRule[];
  status: string;
  pausedFrom: string | null;
  nextCycle: number;
  cyclesBilled: number;
  createdAt: Date;
  updatedAt: Date;
  canceledAt: Date | null;
  pausedAt: Date | null;
}

export interface CycleAttempt {
  attempt: number;
  chargeId: string | null;
  status: 'authorized' | 'failed';
  declinedCode: string | null;
  attemptedAt: Date;
}

export interface CycleRecord {
  id: string;
  clientId: string;
  subscriptionId: string;
  number: number;
  status: string;
  amount: number;
  dueAt: Date;
  nextAttemptAt: Date | null;
  retryDays: number[] | null;
  cancelAfterAllRetries: boolean | null;
  attempts: CycleAttempt[];
  createdAt: Date;
  updatedAt: Date;
}
