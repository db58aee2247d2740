import type { Page, Queryable } from '@platform/kit';
import type { CycleAttempt, CycleRecord, SubscriptionItem, SubscriptionRecord, SubscriptionSplitRule } from '../domain/subscription';

interface SubscriptionRow {
  id: string;
  client_id: string;
  merchant_id: string;
  customer_id: string;
  card_id: string;
  name: string;
  items: SubscriptionItem[];
  amount: string;
  currency: string;
  interval: string;
  cycles: number | null;
  anchor: Date;
  start_at: Date;
  trial_end_at: Date | null;
  installments: number;
  split_rules: SubscriptionSplitRule[];
  status: string;
  paused_from: string | null;
  next_cycle: number;
  cycles_billed: number;
  created_at: Date;
  updated_at: Date;
  canceled_at: Date | null;
  paused_at: Date | null;
}

interface CycleRow {
  id: string;
  client_id: string;
  subscription_id: string;
  number: number;
  status: string;
  amount: string;
  due_at: Date;
  next_attempt_at: Date | null;
  retry_days: number[] | null;
  cancel_after_all_retries: boolean | null;
  created_at: Date;
  updated_at: Date;
  attempts: Array<{ attempt: number; charge_id: string | null; status: CycleAttempt['status']; declined_code: string | null; attempted_at: string }> | null;
}

const SUBSCRIPTION_COLUMNS =
  'id, client_id, merchant_id, customer_id, card_id, name, items, amount, currency, interval, cycles, anchor, start_at, trial_end_at, installments, split_rules, status, paused_from, next_cycle, cycles_billed, created_at, updated_at, canceled_at, paused_at';

const CYCLE_SELECT = `SELECT c.id, c.client_id, c.subscription_id, c.number, c.status, c.amount, c.due_at, c.next_attempt_at, c.retry_days, c.cancel_after_all_retries,
       c.created_at, c.updated_at,
       (SELECT json_agg(json_build_object('attempt', a.attempt, 'charge_id', a.charge_id, 'status', a.status, 'declined_code', a.declined_code,
                                          'attempted_at', a.attempted_at) ORDER BY a.attempt)
        FROM subscription_cycle_attempts a WHERE a.cycle_id = c.id) AS attempts
  FROM subscription_cycles c`;

function toSubscription(row: SubscriptionRow): SubscriptionRecord {
  return {
    id: row.id,
    clientId: row.client_id,
    merchantId: row.merchant_id,
    customerId: row.customer_id,
    cardId: row.card_id,
    name: row.name,
    items: row.items,
    amount: Number(row.amount),
    currency: row.currency,
    interval: row.interval,
    cycles: row.cycles,
    anchor: row.anchor,
    startAt: row.start_at,
    trialEndAt: row.trial_end_at,
    installments: row.installments,
    splitRules: row.split_rules,
    status: row.status,
    pausedFrom: row.paused_from,
    nextCycle: row.next_cycle,
    cyclesBilled: row.cycles_billed,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    canceledAt: row.canceled_at,
    pausedAt: row.paused_at,
  };
}

function toCycle(row: CycleRow): CycleRecord {
  return {
    id: row.id,
    clientId: row.client_id,
    subscriptionId: row.subscription_id,
    number: row.number,
    status: row.status,
    amount: Number(row.amount),
    dueAt: row.due_at,
    nextAttemptAt: row.next_attempt_at,
    retryDays: row.retry_days,
    cancelAfterAllRetries: row.cancel_after_all_retries,
    attempts: (row.attempts ?? []).map((a) => ({
      attempt: a.attempt,
      chargeId: a.charge_id,
      status: a.status,
      declinedCode: a.declined_code,
      attemptedAt: new Date(a.attempted_at),
    })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** SQL for subscriptions, their cycles and attempts; every query is scoped by client. */
export function createSubscriptionStore() {
  return {
    async insert(db: Queryable, s: SubscriptionRecord): Promise<void> {
      await db.query(
        `INSERT INTO subscriptions (${SUBSCRIPTION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`,
        [
          s.id,
          s.clientId,
          s.merchantId,
          s.customerId,
          s.cardId,
          s.name,
          JSON.stringify(s.items),
          s.amount,
          s.currency,
          s.interval,
          s.cycles,
          s.anchor,
          s.startAt,
          s.trialEndAt,
          s.installments,
          JSON.stringify(s.splitRules),
          s.status,
          s.pausedFrom,
          s.nextCycle,
          s.cyclesBilled,
          s.createdAt,
          s.updatedAt,
          s.canceledAt,
          s.pausedAt,
        ],
      );
    },

    async update(db: Queryable, s: SubscriptionRecord): Promise<void> {
      await db.query(
        `UPDATE subscriptions SET card_id = $3, name = $4, items = $5, amount = $6, installments = $7, status = $8, paused_from = $9, next_cycle = $10,
                cycles_billed = $11, updated_at = $12, canceled_at = $13, paused_at = $14
         WHERE client_id = $1 AND id = $2`,
        [s.clientId, s.id, s.cardId, s.name, JSON.stringify(s.items), s.amount, s.installments, s.status, s.pausedFrom, s.nextCycle, s.cyclesBilled, s.updatedAt, s.canceledAt, s.pausedAt],
      );
    },

    async find(db: Queryable, clientId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<SubscriptionRecord | null> {
      const { rows } = await db.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`, [
        clientId,
        id,
      ]);
      return rows[0] ? toSubscription(rows[0]) : null;
    },

    async list(db: Queryable, clientId: string, filters: { statuses?: readonly string[]; customerId?: string }, page: Page): Promise<{ items: SubscriptionRecord[]; total: number }> {
      const args: unknown[] = [clientId];
      const where = ['client_id = $1'];
      if (filters.statuses && filters.statuses.length > 0) {
        args.push(filters.statuses);
        where.push(`status = ANY($${args.length}::text[])`);
      }
      if (filters.customerId) {
        args.push(filters.customerId);
        where.push(`customer_id = $${args.length}::uuid`);
      }
      args.push(page.limit, page.offset);
      const { rows } = await db.query<SubscriptionRow & { total: string }>(
        `SELECT ${SUBSCRIPTION_COLUMNS}, count(*) OVER () AS total FROM subscriptions WHERE ${where.join(' AND ')}
         ORDER BY created_at ${page.direction}, id LIMIT $${args.length - 1} OFFSET $${args.length}`,
        args,
      );
      return { items: rows.map(toSubscription), total: rows[0] ? Number(rows[0].total) : 0 };
    },

    /** Creates a cycle; false when that cycle of the subscription exists (it is created once). */
    async insertCycle(db: Queryable, c: Omit<CycleRecord, 'attempts'>): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO subscription_cycles (id, client_id, subscription_id, number, status, amount, due_at, next_attempt_at, retry_days, cancel_after_all_retries, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (subscription_id, number) DO NOTHING`,
        [c.id, c.clientId, c.subscriptionId, c.number, c.status, c.amount, c.dueAt, c.nextAttemptAt, c.retryDays === null ? null : JSON.stringify(c.retryDays), c.cancelAfterAllRetries, c.createdAt, c.updatedAt],
      );
      return rowCount === 1;
    },

    async updateCycle(db: Queryable, c: CycleRecord): Promise<void> {
      await db.query(
        `UPDATE subscription_cycles SET status = $3, next_attempt_at = $4, retry_days = $5, cancel_after_all_retries = $6, updated_at = $7 WHERE client_id = $1 AND id = $2`,
        [c.clientId, c.id, c.status, c.nextAttemptAt, c.retryDays === null ? null : JSON.stringify(c.retryDays), c.cancelAfterAllRetries, c.updatedAt],
      );
    },

    async insertAttempt(db: Queryable, clientId: string, cycleId: string, a: CycleAttempt): Promise<void> {
      await db.query(
        'INSERT INTO subscription_cycle_attempts (cycle_id, client_id, attempt, charge_id, status, declined_code, attempted_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [cycleId, clientId, a.attempt, a.chargeId, a.status, a.declinedCode, a.attemptedAt],
      );
    },

    async findCycle(db: Queryable, clientId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<CycleRecord | null> {
      const { rows } = await db.query<CycleRow>(`${CYCLE_SELECT} WHERE c.client_id = $1 AND c.id = $2${options.forUpdate ? ' FOR UPDATE OF c' : ''}`, [clientId, id]);
      return rows[0] ? toCycle(rows[0]) : null;
    },

    async cyclesOf(db: Queryable, clientId: string, subscriptionId: string, page: Page): Promise<{ items: CycleRecord[]; total: number }> {
      const { rows } = await db.query<CycleRow & { total: string }>(
        `${CYCLE_SELECT.replace('FROM subscription_cycles c', ', count(*) OVER () AS total FROM subscription_cycles c')}
         WHERE c.client_id = $1 AND c.subscription_id = $2 ORDER BY c.number ${page.direction === 'ASC' ? 'ASC' : 'DESC'} LIMIT $3 OFFSET $4`,
        [clientId, subscriptionId, page.limit, page.offset],
      );
      return { items: rows.map(toCycle), total: rows[0] ? Number(rows[0].total) : 0 };
    },

    /** The cycles of a subscription with an attempt due by `at`, soonest first. */
    /**
     * Claims the subscription for one sandbox advance: true when no other advance holds it. A claim whose process died
     * (`owner`, the key of its instance lock, is free to take) is taken over at once, and any claim older than
     * `staleAfterMs` too. `token` is what `releaseAdvance` needs.
     */
    async claimAdvance(db: Queryable, clientId: string, subscriptionId: string, token: string, staleAfterMs: number, owner: string | undefined): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO subscription_advances (subscription_id, client_id, token, started_at, owner_instance) VALUES ($1, $2, $3, now(), $5::bigint)
         ON CONFLICT (subscription_id) DO UPDATE SET token = EXCLUDED.token, started_at = EXCLUDED.started_at, owner_instance = EXCLUDED.owner_instance
         WHERE subscription_advances.client_id = EXCLUDED.client_id
           AND (subscription_advances.started_at < now() - make_interval(secs => $4::float8 / 1000)
                OR pg_try_advisory_xact_lock(subscription_advances.owner_instance))`,
        [subscriptionId, clientId, token, staleAfterMs, owner ?? null],
      );
      return rowCount === 1;
    },

    async releaseAdvance(db: Queryable, clientId: string, subscriptionId: string, token: string): Promise<void> {
      await db.query('DELETE FROM subscription_advances WHERE client_id = $1 AND subscription_id = $2 AND token = $3', [clientId, subscriptionId, token]);
    },

    async dueCycles(db: Queryable, clientId: string, subscriptionId: string, at: Date): Promise<CycleRecord[]> {
      const { rows } = await db.query<CycleRow>(
        `${CYCLE_SELECT} WHERE c.client_id = $1 AND c.subscription_id = $2 AND c.next_attempt_at IS NOT NULL AND c.next_attempt_at <= $3 ORDER BY c.next_attempt_at, c.number`,
        [clientId, subscriptionId, at],
      );
      return rows.map(toCycle);
    },

    /** When the subscription's next attempt is due: the soonest of its cycles waiting for one. */
    async nextAttemptAt(db: Queryable, clientId: string, subscriptionId: string): Promise<Date | null> {
      const { rows } = await db.query<{ at: Date | null }>(
        'SELECT min(next_attempt_at) AS at FROM subscription_cycles WHERE client_id = $1 AND subscription_id = $2 AND next_attempt_at IS NOT NULL',
        [clientId, subscriptionId],
      );
      return rows[0]?.at ?? null;
    },

    async setCycleAmount(db: Queryable, clientId: string, cycleId: string, amount: number, at: Date): Promise<void> {
      await db.query('UPDATE subscription_cycles SET amount = $3, updated_at = $4 WHERE client_id = $1 AND id = $2', [clientId, cycleId, amount, at]);
    },

    /** Cycles of a subscription still waiting for an attempt (to be canceled with it, or skipped by a pause). */
    async openCycles(db: Queryable, clientId: string, subscriptionId: string): Promise<CycleRecord[]> {
      const { rows } = await db.query<CycleRow>(
        `${CYCLE_SELECT} WHERE c.client_id = $1 AND c.subscription_id = $2 AND c.status IN ('scheduled', 'retrying') ORDER BY c.number FOR UPDATE OF c`,
        [clientId, subscriptionId],
      );
      return rows.map(toCycle);
    },
  };
}

export type SubscriptionStore = ReturnType<typeof createSubscriptionStore>;
