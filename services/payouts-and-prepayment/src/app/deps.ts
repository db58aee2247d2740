import type { Clock, Logger, Pool } from '@platform/kit';
import type { BusinessCalendar } from '../domain/calendar';
import type { PaymentBatch } from '../domain/batch';
import type { BatchStore } from '../store/batchStore';
import type { LedgerStore } from '../store/ledgerStore';
import type { PlanStore } from '../store/planStore';
import type { PrepaymentStore } from '../store/prepaymentStore';
import type { SellerStore } from '../store/sellerStore';

/** What payouts needs from settings: whether a client may prepay (`prepaymentEnabled`, set by the admin route). */
export interface SettingsPort {
  prepaymentEnabled(clientId: string): Promise<boolean>;
}

/**
 * Pays a batch to its receiver. The SANDBOX adapter pays at once, but fails the first attempt of a batch whose amount
 * ends in 991 (so a failed transfer and its retry can be seen).
 */
export interface PayoutAdapter {
  readonly method: string;
  transfer(batch: PaymentBatch): Promise<'paid' | 'failed'>;
}

export interface PayoutsDeps {
  pool: Pool;
  log: Logger;
  clock: Clock;
  calendar: BusinessCalendar;
  settings: SettingsPort;
  payouts: PayoutAdapter;
  planStore: PlanStore;
  sellerStore: SellerStore;
  ledgerStore: LedgerStore;
  batchStore: BatchStore;
  prepaymentStore: PrepaymentStore;
  /** Told after a change commits, so its event is relayed now rather than at the next poll. */
  outbox?: { kick(): void };
}

/** Durable jobs of this service. */
export const JOBS = {
  /** Daily: settles every client's receivables due by the day (cron, once across replicas, missed days caught up). */
  settleDaily: 'payouts.settle_daily',
  /** Pays one waiting batch: a retry of a failed transfer, or a batch of a seller who is active again. */
  payBatch: 'payouts.pay_batch',
} as const;

/** The own acquiring provider; in sandbox accounts SANDBOX stands in for it. Only its charges have receivables here. */
export const OWN_PROVIDERS: ReadonlySet<string> = new Set(['SUBACQUIRER', 'SANDBOX']);
