import { isUuid, type Page, type Queryable } from '@platform/kit';
import type { HistoryStatus, Session, SessionItem, SessionPaymentMethod, SessionSplitRule, SessionStatus } from '../domain/session';

interface SessionRow {
  id: string;
  client_id: string;
  merchant_id: string;
  name: string;
  order_id: string;
  amount: string;
  currency: string;
  capture: boolean | null;
  due_date: Date | null;
  is_active: boolean;
  status: SessionStatus;
  public_key_hash: string;
  payment_methods: SessionPaymentMethod[];
  split_rules: SessionSplitRule[];
  statement_descriptor: string;
  max_payments: number | null;
  payment_count: number;
  pending_count: number;
  created_at: Date;
  updated_at: Date;
}

interface ItemRow {
  session_id: string;
  name: string;
  unit_price: string;
  quantity: number;
  description: string;
}

const COLUMNS = `id, client_id, merchant_id, name, order_id, amount, currency, capture, due_date, is_active, status, public_key_hash,
  payment_methods, split_rules, statement_descriptor, max_payments, payment_count, pending_count, created_at, updated_at`;

function toSession(row: SessionRow, items: SessionItem[]): Session {
  return {
    id: row.id,
    clientId: row.client_id,
    merchantId: row.merchant_id,
    name: row.name,
    orderId: row.order_id,
    amount: Number(row.amount),
    currency: row.currency,
    capture: row.capture,
    dueDate: row.due_date,
    isActive: row.is_active,
    status: row.status,
    paymentMethods: row.payment_methods,
    items,
    splitRules: row.split_rules,
    statementDescriptor: row.statement_descriptor,
    maxPayments: row.max_payments,
    paymentCount: row.payment_count,
    pendingCount: row.pending_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface SessionFilters {
  id?: string;
  status?: string;
  isActive?: boolean;
  merchantId?: string;
  orderId?: string;
  multiplePaymentsStatus?: string;
  createdGt?: Date;
  createdLt?: Date;
}

export interface HistoryRecord {
  id: string;
  sessionId: string;
  clientId: string;
  merchantId: string;
  status: HistoryStatus;
  action: string | null;
  actions: string[];
  diff: Record<string, unknown>;
  dedupeKey?: string;
  createdAt: Date;
}

/** What a reservation left: the counters after it, to settle or disable. */
export interface Counters {
  maxPayments: number | null;
  paymentCount: number;
  pendingCount: number;
  isActive: boolean;
}

export type ChargeHold = 'pending' | 'paid' | 'released';

const WITHIN_LIMIT = '(max_payments = -1 OR payment_count + pending_count < COALESCE(max_payments, 1))';

const PLACE_MOVES = {
  paid: { set: 'pending_count = pending_count - 1, payment_count = payment_count + 1', guard: 'pending_count > 0' },
  released: { set: 'pending_count = pending_count - 1', guard: 'pending_count > 0' },
  counted: { set: 'payment_count = payment_count + 1', guard: WITHIN_LIMIT },
  held: { set: 'pending_count = pending_count + 1', guard: WITHIN_LIMIT },
} as const;

async function movePlace(db: Queryable, clientId: string, id: string, outcome: keyof typeof PLACE_MOVES, now: Date): Promise<Counters | null> {
  const { set, guard } = PLACE_MOVES[outcome];
  const { rows } = await db.query<SessionRow>(
    `UPDATE sessions SET ${set}, updated_at = $3 WHERE id = $1 AND client_id = $2 AND ${guard}
     RETURNING max_payments, payment_count, pending_count, is_active`,
    [id, clientId, now],
  );
  return rows[0] ? countersOf(rows[0]) : null;
}

/**
 * SQL for sessions, their items, charges and history. Every query is scoped by client id, but `linkOwner` and the
 * sweeps (`takeStaleUncounted`, `takeStalePlaces`), which answer client ids that the rest of their work is scoped by.
 */
export interface SessionStore {
  insert(db: Queryable, session: Session, publicKeyHash: string): Promise<void>;
  findById(db: Queryable, clientId: string, id: string, options?: { forUpdate?: boolean }): Promise<Session | null>;
  /**
   * Whose session a payment link's id is: the one read that is not scoped by a client, since a buyer opening the
   * public link has none. It answers the client id alone; the session itself is then read scoped by it.
   */
  linkOwner(db: Queryable, id: string): Promise<string | null>;
  publicKeyHash(db: Queryable, clientId: string, id: string): Promise<string | null>;
  /** The id of the client's session whose public key has this SHA-256, or null. */
  findByKeyHash(db: Queryable, clientId: string, publicKeyHash: string): Promise<string | null>;
  list(db: Queryable, clientId: string, filters: SessionFilters, page: Page): Promise<{ items: Session[]; total: number }>;
  update(db: Queryable, session: Session): Promise<void>;
  /**
   * Takes one place in one statement that also checks the limit: no other buyer can take it between the check and
   * the count. Null when the session is inactive, not `created`, past its due date or full.
   */
  reservePlace(db: Queryable, clientId: string, id: string, now: Date): Promise<Counters | null>;
  /** Moves a pending place: to a paid one, or back (released). */
  settlePlace(db: Queryable, clientId: string, id: string, outcome: 'paid' | 'released', now: Date): Promise<Counters>;
  /**
   * Counts what holds no place, within the session's limit: a payment (`counted`: its attempt's place was given back
   * already) or a pending charge (`held`). Null when the limit is reached: the counters never overshoot it.
   */
  countWithoutPlace(db: Queryable, clientId: string, id: string, outcome: 'counted' | 'held', now: Date): Promise<Counters | null>;
  /**
   * Links a charge to its session as counted, or counts the outcome its event left uncounted: the state to count
   * (the event's, when it came first). Null when the charge was counted already (a retry of the same attempt).
   */
  recordCharge(db: Queryable, charge: { chargeId: string; sessionId: string; clientId: string; state: ChargeHold }, now: Date): Promise<ChargeHold | null>;
  /** Notes the final outcome of a charge no answer has linked yet, uncounted; false when it is linked already. */
  noteOutcome(db: Queryable, charge: { chargeId: string; sessionId: string; clientId: string; state: ChargeHold }, now: Date): Promise<boolean>;
  /** Whether an outcome of the session was noted and not counted yet. */
  hasUncounted(db: Queryable, clientId: string, sessionId: string): Promise<boolean>;
  /** Counts the oldest uncounted outcome of a session: its charge and state, or null when there is none. */
  takeUncounted(db: Queryable, clientId: string, sessionId: string, now: Date): Promise<{ chargeId: string; state: ChargeHold } | null>;
  /** Counts the outcomes noted before `before` that nothing counted since (their attempt gave its place back). */
  takeStaleUncounted(db: Queryable, before: Date, limit: number, now: Date): Promise<Array<{ clientId: string; sessionId: string; chargeId: string; state: ChargeHold }>>;
  /**
   * Starts a buyer's attempt holding a place, or finds the attempt that used the same idempotency key (then
   * `fresh` is false and nothing is reserved again).
   */
  beginAttempt(db: Queryable, attempt: { id: string; clientId: string; sessionId: string; idempotencyKey: string | null }, now: Date): Promise<{ id: string; fresh: boolean }>;
  /** Takes the place away from the attempt; false when it held none any more (settled, or given back by the sweep). */
  takeAttemptPlace(db: Queryable, clientId: string, attemptId: string, now: Date): Promise<boolean>;
  /**
   * Notes that the attempt's call to payments got no answer (its charge may exist): it keeps its place until its
   * charge's outcome arrives. False when it holds no place any more.
   */
  markAnswerLost(db: Queryable, clientId: string, attemptId: string, now: Date): Promise<boolean>;
  /**
   * Takes the place of the oldest attempt of the session whose answer was lost: a charge outcome its event brought
   * is counted with it. False when there is none.
   */
  takeLostPlace(db: Queryable, clientId: string, sessionId: string, now: Date): Promise<boolean>;
  /**
   * In one snapshot: whether a place of the session is free now (what `reservePlace` would take), and how many
   * attempts begun after `since` hold one while they wait for their answer. Null for no such session.
   */
  placeState(db: Queryable, clientId: string, sessionId: string, now: Date, since: Date): Promise<{ free: boolean; inFlight: number } | null>;
  /** Takes the places of attempts that began before `before` and still hold one, oldest first: their sessions. */
  takeStalePlaces(db: Queryable, before: Date, limit: number, now: Date): Promise<Array<{ clientId: string; sessionId: string }>>;
  /** Moves a charge from `from` to `to`; false when it was not in `from` (already settled by another path). */
  moveCharge(db: Queryable, clientId: string, chargeId: string, from: ChargeHold, to: ChargeHold, now: Date): Promise<boolean>;
  findChargeSession(db: Queryable, clientId: string, chargeId: string): Promise<{ sessionId: string; state: ChargeHold } | null>;
  /** Appends a history item; false when an item with the same dedupe key exists. */
  addHistory(db: Queryable, record: HistoryRecord): Promise<boolean>;
  history(db: Queryable, clientId: string, sessionId: string): Promise<HistoryRecord[]>;
}

async function itemsOf(db: Queryable, clientId: string, ids: string[]): Promise<Map<string, SessionItem[]>> {
  const byId = new Map<string, SessionItem[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byId;
  const { rows } = await db.query<ItemRow>(
    'SELECT session_id, name, unit_price, quantity, description FROM session_items WHERE client_id = $1 AND session_id = ANY($2::uuid[]) ORDER BY session_id, position',
    [clientId, ids],
  );
  for (const row of rows) {
    byId.get(row.session_id)?.push({ name: row.name, unitPrice: Number(row.unit_price), quantity: row.quantity, description: row.description });
  }
  return byId;
}

function countersOf(row: { max_payments: number | null; payment_count: number; pending_count: number; is_active: boolean }): Counters {
  return { maxPayments: row.max_payments, paymentCount: row.payment_count, pendingCount: row.pending_count, isActive: row.is_active };
}

export function createSessionStore(): SessionStore {
  return {
    async insert(db, s, publicKeyHash) {
      await db.query(
        `INSERT INTO sessions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
        [
          s.id, s.clientId, s.merchantId, s.name, s.orderId, s.amount, s.currency, s.capture, s.dueDate, s.isActive, s.status, publicKeyHash,
          JSON.stringify(s.paymentMethods), JSON.stringify(s.splitRules), s.statementDescriptor, s.maxPayments, s.paymentCount, s.pendingCount,
          s.createdAt, s.updatedAt,
        ],
      );
      for (const [position, item] of s.items.entries()) {
        await db.query(
          'INSERT INTO session_items (session_id, client_id, position, name, unit_price, quantity, description) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [s.id, s.clientId, position, item.name, item.unitPrice, item.quantity, item.description],
        );
      }
    },

    async findById(db, clientId, id, options = {}) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<SessionRow>(
        `SELECT ${COLUMNS} FROM sessions WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, id],
      );
      if (!rows[0]) return null;
      const items = await itemsOf(db, clientId, [id]);
      return toSession(rows[0], items.get(id) ?? []);
    },

    async linkOwner(db, id) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<{ client_id: string }>('SELECT client_id FROM sessions WHERE id = $1', [id]);
      return rows[0]?.client_id ?? null;
    },

    async publicKeyHash(db, clientId, id) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<{ public_key_hash: string }>('SELECT public_key_hash FROM sessions WHERE client_id = $1 AND id = $2', [clientId, id]);
      return rows[0]?.public_key_hash ?? null;
    },

    async findByKeyHash(db, clientId, publicKeyHash) {
      const { rows } = await db.query<{ id: string }>('SELECT id FROM sessions WHERE client_id = $1 AND public_key_hash = $2', [clientId, publicKeyHash]);
      return rows[0]?.id ?? null;
    },

    async list(db, clientId, filters, page) {
      const where = ['client_id = $1'];
      const args: unknown[] = [clientId];
      const add = (sql: string, value: unknown) => {
        args.push(value);
        where.push(sql.replace('?', `$${args.length}`));
      };
      if (filters.id !== undefined) {
        if (!isUuid(filters.id)) return { items: [], total: 0 };
        add('id = ?', filters.id);
      }
      if (filters.status !== undefined) add('status = ?', filters.status);
      if (filters.isActive !== undefined) add('is_active = ?', filters.isActive);
      if (filters.merchantId !== undefined) {
        if (!isUuid(filters.merchantId)) return { items: [], total: 0 };
        add('merchant_id = ?', filters.merchantId);
      }
      if (filters.orderId !== undefined) add('order_id = ?', filters.orderId);
      if (filters.multiplePaymentsStatus === 'enabled') where.push("(is_active AND status = 'created')");
      if (filters.multiplePaymentsStatus === 'disabled') where.push("NOT (is_active AND status = 'created')");
      if (filters.createdGt) add('created_at > ?', filters.createdGt);
      if (filters.createdLt) add('created_at < ?', filters.createdLt);
      const clause = where.join(' AND ');
      const total = await db.query<{ n: string }>(`SELECT count(*) AS n FROM sessions WHERE ${clause}`, args);
      const { rows } = await db.query<SessionRow>(
        `SELECT ${COLUMNS} FROM sessions WHERE ${clause} ORDER BY created_at ${page.direction}, id ${page.direction} LIMIT ${page.limit} OFFSET ${page.offset}`,
        args,
      );
      const items = await itemsOf(db, clientId, rows.map((r) => r.id));
      return { items: rows.map((r) => toSession(r, items.get(r.id) ?? [])), total: Number(total.rows[0]!.n) };
    },

    async update(db, s) {
      await db.query(
        `UPDATE sessions SET is_active = $3, due_date = $4, max_payments = $5, status = $6, payment_count = $7, pending_count = $8, updated_at = $9
         WHERE client_id = $1 AND id = $2`,
        [s.clientId, s.id, s.isActive, s.dueDate, s.maxPayments, s.status, s.paymentCount, s.pendingCount, s.updatedAt],
      );
    },

    async reservePlace(db, clientId, id, now) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<Counters & SessionRow>(
        `UPDATE sessions SET pending_count = pending_count + 1, updated_at = $3
         WHERE id = $1 AND client_id = $2 AND is_active AND status = 'created' AND (due_date IS NULL OR due_date > $3)
           AND ${WITHIN_LIMIT}
         RETURNING max_payments, payment_count, pending_count, is_active`,
        [id, clientId, now],
      );
      return rows[0] ? countersOf(rows[0]) : null;
    },

    async settlePlace(db, clientId, id, outcome, now) {
      const counters = await movePlace(db, clientId, id, outcome, now);
      if (!counters) throw new Error(`session ${id} has no pending place to settle`);
      return counters;
    },

    countWithoutPlace: movePlace,

    async recordCharge(db, c, now) {
      const { rows } = await db.query<{ state: ChargeHold }>(
        `INSERT INTO session_charges (charge_id, session_id, client_id, state, counted, created_at, updated_at) VALUES ($1, $2, $3, $4, true, $5, $5)
         ON CONFLICT (charge_id) DO UPDATE SET counted = true, updated_at = EXCLUDED.updated_at
           WHERE NOT session_charges.counted AND session_charges.client_id = EXCLUDED.client_id
         RETURNING state`,
        [c.chargeId, c.sessionId, c.clientId, c.state, now],
      );
      return rows[0]?.state ?? null;
    },

    async noteOutcome(db, c, now) {
      const { rowCount } = await db.query(
        `INSERT INTO session_charges (charge_id, session_id, client_id, state, counted, created_at, updated_at) VALUES ($1, $2, $3, $4, false, $5, $5)
         ON CONFLICT (charge_id) DO NOTHING`,
        [c.chargeId, c.sessionId, c.clientId, c.state, now],
      );
      return (rowCount ?? 0) > 0;
    },

    async hasUncounted(db, clientId, sessionId) {
      const { rows } = await db.query('SELECT 1 FROM session_charges WHERE client_id = $1 AND session_id = $2 AND NOT counted LIMIT 1', [clientId, sessionId]);
      return rows.length > 0;
    },

    async takeUncounted(db, clientId, sessionId, now) {
      const { rows } = await db.query<{ charge_id: string; state: ChargeHold }>(
        `UPDATE session_charges SET counted = true, updated_at = $3
         WHERE charge_id = (SELECT charge_id FROM session_charges WHERE client_id = $1 AND session_id = $2 AND NOT counted ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING charge_id, state`,
        [clientId, sessionId, now],
      );
      return rows[0] ? { chargeId: rows[0].charge_id, state: rows[0].state } : null;
    },

    async takeStaleUncounted(db, before, limit, now) {
      const { rows } = await db.query<{ client_id: string; session_id: string; charge_id: string; state: ChargeHold }>(
        `UPDATE session_charges SET counted = true, updated_at = $3
         WHERE charge_id IN (SELECT charge_id FROM session_charges WHERE NOT counted AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING client_id, session_id, charge_id, state`,
        [before, limit, now],
      );
      return rows.map((r) => ({ clientId: r.client_id, sessionId: r.session_id, chargeId: r.charge_id, state: r.state }));
    },

    async beginAttempt(db, a, now) {
      // A concurrent attempt with the same key waits here for the first one's transaction, then finds its row.
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO session_attempts (id, client_id, session_id, idempotency_key, holds_place, created_at, updated_at)
         VALUES ($1, $2, $3, $4, true, $5, $5) ON CONFLICT (client_id, session_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id`,
        [a.id, a.clientId, a.sessionId, a.idempotencyKey, now],
      );
      if (rows[0]) return { id: rows[0].id, fresh: true };
      const found = await db.query<{ id: string }>('SELECT id FROM session_attempts WHERE client_id = $1 AND session_id = $2 AND idempotency_key = $3', [
        a.clientId,
        a.sessionId,
        a.idempotencyKey,
      ]);
      if (!found.rows[0]) throw new Error(`session ${a.sessionId}: the attempt of an idempotency key is neither new nor found`);
      return { id: found.rows[0].id, fresh: false };
    },

    async takeAttemptPlace(db, clientId, attemptId, now) {
      const { rowCount } = await db.query('UPDATE session_attempts SET holds_place = false, updated_at = $3 WHERE id = $1 AND client_id = $2 AND holds_place', [
        attemptId,
        clientId,
        now,
      ]);
      return (rowCount ?? 0) > 0;
    },

    async markAnswerLost(db, clientId, attemptId, now) {
      const { rowCount } = await db.query(
        'UPDATE session_attempts SET answer_lost = true, updated_at = $3 WHERE id = $1 AND client_id = $2 AND holds_place',
        [attemptId, clientId, now],
      );
      return (rowCount ?? 0) > 0;
    },

    async takeLostPlace(db, clientId, sessionId, now) {
      const { rowCount } = await db.query(
        `UPDATE session_attempts SET holds_place = false, updated_at = $3
         WHERE id = (SELECT id FROM session_attempts WHERE client_id = $1 AND session_id = $2 AND holds_place AND answer_lost
                     ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)`,
        [clientId, sessionId, now],
      );
      return (rowCount ?? 0) > 0;
    },

    async placeState(db, clientId, sessionId, now, since) {
      if (!isUuid(sessionId)) return null;
      const { rows } = await db.query<{ free: boolean; in_flight: number }>(
        `SELECT (is_active AND status = 'created' AND (due_date IS NULL OR due_date > $3) AND ${WITHIN_LIMIT}) AS free,
                (SELECT count(*)::int FROM session_attempts
                 WHERE client_id = $2 AND session_id = $1 AND holds_place AND NOT answer_lost AND created_at > $4) AS in_flight
         FROM sessions WHERE id = $1 AND client_id = $2`,
        [sessionId, clientId, now, since],
      );
      return rows[0] ? { free: rows[0].free, inFlight: rows[0].in_flight } : null;
    },

    async takeStalePlaces(db, before, limit, now) {
      const { rows } = await db.query<{ client_id: string; session_id: string }>(
        `UPDATE session_attempts SET holds_place = false, updated_at = $3
         WHERE id IN (SELECT id FROM session_attempts WHERE holds_place AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING client_id, session_id`,
        [before, limit, now],
      );
      return rows.map((r) => ({ clientId: r.client_id, sessionId: r.session_id }));
    },

    async moveCharge(db, clientId, chargeId, from, to, now) {
      const { rowCount } = await db.query(
        'UPDATE session_charges SET state = $4, updated_at = $5 WHERE client_id = $1 AND charge_id = $2 AND state = $3',
        [clientId, chargeId, from, to, now],
      );
      return (rowCount ?? 0) > 0;
    },

    async findChargeSession(db, clientId, chargeId) {
      if (!isUuid(chargeId)) return null;
      const { rows } = await db.query<{ session_id: string; state: ChargeHold }>(
        'SELECT session_id, state FROM session_charges WHERE client_id = $1 AND charge_id = $2',
        [clientId, chargeId],
      );
      return rows[0] ? { sessionId: rows[0].session_id, state: rows[0].state } : null;
    },

    async addHistory(db, r) {
      const { rowCount } = await db.query(
        `INSERT INTO session_history (id, session_id, client_id, merchant_id, status, action, actions, diff, dedupe_key, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (session_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING`,
        [r.id, r.sessionId, r.clientId, r.merchantId, r.status, r.action, r.actions, JSON.stringify(r.diff), r.dedupeKey ?? null, r.createdAt],
      );
      return (rowCount ?? 0) > 0;
    },

    async history(db, clientId, sessionId) {
      if (!isUuid(sessionId)) return [];
      const { rows } = await db.query<{
        id: string;
        session_id: string;
        client_id: string;
        merchant_id: string;
        status: HistoryStatus;
        action: string | null;
        actions: string[];
        diff: Record<string, unknown>;
        created_at: Date;
      }>(
        `SELECT id, session_id, client_id, merchant_id, status, action, actions, diff, created_at FROM session_history
         WHERE client_id = $1 AND session_id = $2 ORDER BY created_at DESC, seq DESC`,
        [clientId, sessionId],
      );
      return rows.map((r) => ({
        id: r.id,
        sessionId: r.session_id,
        clientId: r.client_id,
        merchantId: r.merchant_id,
        status: r.status,
        action: r.action,
        actions: r.actions,
        diff: r.diff,
        createdAt: r.created_at,
      }));
    },
  };
}
