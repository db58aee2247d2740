import type { Page, Queryable } from '@platform/kit';
import type { AntifraudState, Charge, ChargePaymentMethod, ChargeSourceView, PaymentType, PlatformFeeDetails, RequestStatus, RequestType, SellerAmount, SplitRule, TransactionRequestRecord } from '../domain/charge';
import type { OperationCause } from '../domain/chargeChanges';
import type { ChargeFilters } from '../domain/chargeFilters';
import type { ChargeStatus } from '../domain/chargeStatus';
import { isUuid, OUTBOX_CHANNEL, OUTBOX_COLUMNS } from '@platform/kit';
import type { CardAttempt } from './cardAttempts';

interface ChargeRow {
  id: string;
  client_id: string;
  merchant_id: string;
  customer_id: string | null;
  session_id: string | null;
  card_id: string | null;
  amount: string;
  original_amount: string;
  captured_amount: string;
  refunded_amount: string;
  currency: string;
  order_id: string | null;
  statement_descriptor: string | null;
  description: string | null;
  capture: boolean;
  is_dispute: boolean;
  status: string;
  payment_method: ChargePaymentMethod;
  payment_source: ChargeSourceView;
  split_rules: SplitRule[];
  platform_fee: PlatformFeeDetails | null;
  antifraud: AntifraudState | null;
  app_info: Record<string, unknown> | null;
  fraud_analysis: Record<string, unknown> | null;
  provider_id: string | null;
  provider_type: string | null;
  provider_name: string | null;
  declined_code: string | null;
  created_at: Date;
  updated_at: Date;
}

interface RequestRow {
  id: string;
  charge_id: string;
  client_id: string;
  idempotency_key: string;
  provider_id: string | null;
  provider_type: string;
  transaction_id: string | null;
  amount: string;
  authorization_nsu: string | null;
  request_status: string;
  request_type: string;
  response_ms: number;
  network_authorization_code: string | null;
  network_response_code: string | null;
  declined_code: string | null;
  message: string | null;
  split_rules: SellerAmount[] | null;
  routing_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

const CHARGE_COLUMNS = `id, client_id, merchant_id, customer_id, session_id, card_id, amount, original_amount, captured_amount,
  refunded_amount, currency, order_id, statement_descriptor, description, capture, is_dispute, status, payment_method,
  payment_source, split_rules, platform_fee, antifraud, app_info, fraud_analysis, provider_id, provider_type, provider_name,
  declined_code, created_at, updated_at`;

const REQUEST_COLUMNS = `id, charge_id, client_id, idempotency_key, provider_id, provider_type, transaction_id, amount,
  authorization_nsu, request_status, request_type, response_ms, network_authorization_code, network_response_code,
  declined_code, message, split_rules, routing_reason, created_at, updated_at`;

function toRequest(row: RequestRow): TransactionRequestRecord {
  return {
    id: row.id,
    chargeId: row.charge_id,
    clientId: row.client_id,
    idempotencyKey: row.idempotency_key,
    providerId: row.provider_id,
    providerType: row.provider_type,
    transactionId: row.transaction_id,
    amount: Number(row.amount),
    authorizationNsu: row.authorization_nsu,
    requestStatus: row.request_status as RequestStatus,
    requestType: row.request_type as RequestType,
    responseMs: row.response_ms,
    networkAuthorizationCode: row.network_authorization_code,
    networkResponseCode: row.network_response_code,
    declinedCode: row.declined_code,
    message: row.message,
    splitRules: row.split_rules,
    routingReason: row.routing_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toCharge(row: ChargeRow, requests: TransactionRequestRecord[]): Charge {
  return {
    id: row.id,
    clientId: row.client_id,
    merchantId: row.merchant_id,
    customerId: row.customer_id,
    sessionId: row.session_id,
    cardId: row.card_id,
    amount: Number(row.amount),
    originalAmount: Number(row.original_amount),
    capturedAmount: Number(row.captured_amount),
    refundedAmount: Number(row.refunded_amount),
    currency: row.currency,
    orderId: row.order_id,
    statementDescriptor: row.statement_descriptor,
    description: row.description,
    capture: row.capture,
    isDispute: row.is_dispute,
    status: row.status as ChargeStatus,
    paymentMethod: { ...row.payment_method, paymentType: row.payment_method.paymentType as PaymentType },
    paymentSource: row.payment_source,
    splitRules: row.split_rules,
    platformFee: row.platform_fee,
    antifraud: row.antifraud,
    appInfo: row.app_info,
    fraudAnalysis: row.fraud_analysis,
    providerId: row.provider_id,
    providerType: row.provider_type,
    providerName: row.provider_name,
    declinedCode: row.declined_code,
    transactionRequests: requests,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** A connection that takes named (prepared) statements: a pooled client or a transaction's. */
export interface PreparedQueryable {
  query<R extends Record<string, unknown> = Record<string, unknown>>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

/** What is written with an answered charge (ChargeStore.insertAnswered). */
export interface AnsweredExtras {
  /** The idempotency record this transaction claimed (claimInTransaction), completed with its answer; absent without a key. */
  idempotency?: { key: string; response: Buffer };
  /** The attempts made with the charge's card that the brands' retry rules count (store/cardAttempts.ts). */
  cardAttempts: CardAttempt[];
  /** The charge's event as an outbox row (chargeEventRow), written by the same statement, with its NOTIFY if it asks one. */
  event?: { values: readonly unknown[]; notify: boolean };
}

/** The charge's row, its values $1 to $32 (chargeValues), and $33 its requests. */
const INSERT_CHARGE = `INSERT INTO charges (id, client_id, merchant_id, customer_id, session_id, card_id, amount, original_amount, captured_amount,
             refunded_amount, currency, order_id, statement_descriptor, description, capture, is_dispute, status, payment_type,
             installments, payment_method, payment_source, split_rules, platform_fee, antifraud, app_info, fraud_analysis,
             provider_id, provider_type, provider_name, declined_code, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24,
             $25, $26, $27, $28, $29, $30, $31, $32)`;

function chargeValues(c: Charge): unknown[] {
  return [
    c.id,
    c.clientId,
    c.merchantId,
    c.customerId,
    c.sessionId,
    c.cardId,
    c.amount,
    c.originalAmount,
    c.capturedAmount,
    c.refundedAmount,
    c.currency,
    c.orderId,
    c.statementDescriptor,
    c.description,
    c.capture,
    c.isDispute,
    c.status,
    c.paymentMethod.paymentType,
    c.paymentMethod.installments,
    json(c.paymentMethod),
    json(c.paymentSource),
    json(c.splitRules),
    json(c.platformFee),
    json(c.antifraud),
    json(c.appInfo),
    json(c.fraudAnalysis),
    c.providerId,
    c.providerType,
    c.providerName,
    c.declinedCode,
    c.createdAt,
    c.updatedAt,
    JSON.stringify(c.transactionRequests.map(requestRow)),
  ];
}

const CARD_ATTEMPT_COLUMNS = `idempotency_key, client_id, card_fingerprint, card_brand, charge_id, provider_type, outcome, declined_code, decision, attempted_at`;

function cardAttemptRow(a: CardAttempt) {
  return {
    idempotency_key: a.idempotencyKey,
    client_id: a.clientId,
    card_fingerprint: a.cardFingerprint,
    card_brand: a.cardBrand,
    charge_id: a.chargeId,
    provider_type: a.providerType,
    outcome: a.outcome,
    declined_code: a.declinedCode,
    decision: a.decision,
    attempted_at: a.attemptedAt.toISOString(),
  };
}

/** A request as a row of transaction_requests, for jsonb_populate_recordset. */
function requestRow(r: TransactionRequestRecord) {
  return {
    id: r.id,
    charge_id: r.chargeId,
    client_id: r.clientId,
    idempotency_key: r.idempotencyKey,
    provider_id: r.providerId,
    provider_type: r.providerType,
    transaction_id: r.transactionId,
    amount: r.amount,
    authorization_nsu: r.authorizationNsu,
    request_status: r.requestStatus,
    request_type: r.requestType,
    response_ms: r.responseMs,
    network_authorization_code: r.networkAuthorizationCode,
    network_response_code: r.networkResponseCode,
    declined_code: r.declinedCode,
    message: r.message,
    split_rules: r.splitRules,
    routing_reason: r.routingReason ?? null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** A capture, void or refund reserved on a charge and not settled yet. */
export interface Reservation {
  request: TransactionRequestRecord;
  cause: OperationCause;
  /** When the provider answered that it took the operation and settles it later; null while it is being asked. */
  acceptedAt: Date | null;
}

/** Where the status sync stands on a charge. */
export interface SyncState {
  /** When to ask the provider next; null: a minute after the charge last changed. */
  nextAt: Date | null;
  attempts: number;
  /** Set when the sync gave up on the charge (it outlived its expiry); null while it goes on. */
  stoppedAt: Date | null;
}

/** A charge the status sync asks about now. */
export interface DueCharge {
  clientId: string;
  id: string;
  attempts: number;
}

export interface ChargePage {
  items: Charge[];
  totalItems: number;
}

export interface ThreeDSSetupRow {
  id: string;
  clientId: string;
  cardId: string | null;
  tokenId: string | null;
  providerType: string;
  token: string;
  collectUrl: string;
  createdAt: Date;
}

/**
 * SQL for the charge aggregate (the charge and its transaction requests). Every query is scoped by client id.
 * Pending requests (reservations) are never part of a charge read: they are read on their own.
 */
export interface ChargeStore {
  /** The charge with the transaction requests it carries, in one statement (its event is the kit's outbox writer's). */
  insert(db: Queryable, charge: Charge): Promise<void>;
  /**
   * A charge whose providers have already answered, written in one statement with everything that goes with it:
   * its requests, its idempotency answer (done, when a key was given) and its card's attempts (its providers'
   * outcomes go to the outcome recorder once it commits). False when the charge id is already taken or the claim is
   * not this transaction's any more: the caller rolls its transaction back.
   */
  insertAnswered(db: PreparedQueryable, charge: Charge, extras: AnsweredExtras): Promise<boolean>;
  /**
   * Claims an idempotency key in the caller's transaction, which writes the charge before it commits: the record
   * is seen by no one else until then, and a request with the same key waits on it (then finds it done). Not
   * claimed when the key has a record (a replay, a retry in flight, an expired record): the caller rolls back and
   * takes the kit's path. `taken`: whether any client has a charge with the id `chargeId`.
   */
  claimInTransaction(
    tx: PreparedQueryable,
    claim: { clientId: string; key: string; operation: string; requestHash: string; chargeId: string },
  ): Promise<{ claimed: boolean; taken: boolean }>;
  /** Writes what a capture, void, refund or notification changes. */
  update(tx: Queryable, charge: Charge): Promise<void>;
  /** Stores a pending request with why it was asked, before its provider is asked. */
  reserve(db: Queryable, reservation: Reservation): Promise<void>;
  /** The charge's pending requests, oldest first. */
  reservationsOf(db: Queryable, clientId: string, chargeId: string): Promise<Reservation[]>;
  /**
   * Pending requests reserved before `before`, of any client: their process died before settling them. A request
   * its provider accepted as pending is not abandoned (a notification or the status sync settles it).
   */
  abandonedReservations(db: Queryable, before: Date, limit: number): Promise<Reservation[]>;
  /**
   * Records on a pending request that its provider took it and settles it later (its answer's transaction id,
   * message and time): it stays pending. False when it was not pending, or already accepted.
   */
  accept(db: Queryable, request: TransactionRequestRecord, at: Date): Promise<boolean>;
  /** The charge of that provider entry (hence of its client) whose successful authorization has this transaction id. */
  findByProviderTransaction(db: Queryable, clientId: string, providerId: string, transactionId: string): Promise<Charge | null>;
  /**
   * Charges of the given provider types, of any client, waiting on their provider (pending, capture_pending,
   * refund_pending, or with an operation the provider accepted as pending) whose next check is due at `now`.
   */
  dueForSync(db: Queryable, now: Date, providerTypes: string[], limit: number): Promise<DueCharge[]>;
  setSync(db: Queryable, clientId: string, id: string, state: SyncState): Promise<void>;
  /** Writes the provider's answer on a pending request; false when it was not pending any more (settled by another). */
  settle(db: Queryable, request: TransactionRequestRecord): Promise<boolean>;
  /** With `forUpdate`, the row stays locked until the transaction ends: reservations and settlements on one charge run one at a time. */
  findById(db: Queryable, clientId: string, id: string, options?: { forUpdate?: boolean }): Promise<Charge | null>;
  list(db: Queryable, clientId: string, filters: ChargeFilters, page: Page): Promise<ChargePage>;
  /** Whether any client has a charge with this id. */
  idTaken(db: Queryable, id: string): Promise<boolean>;
  insertThreeDSSetup(db: Queryable, setup: ThreeDSSetupRow): Promise<void>;
  /**
   * The Pix payload or boleto barcode of the charge whose SANDBOX authorization has this transaction id, of any
   * client: the id is random and known only from that client's charge, so it is the key (the image URL holds it).
   */
  sandboxDocument(db: Queryable, transactionId: string, paymentType: 'pix' | 'boleto'): Promise<string | null>;
}

async function requestsOf(db: Queryable, clientId: string, chargeIds: string[]): Promise<Map<string, TransactionRequestRecord[]>> {
  const byCharge = new Map<string, TransactionRequestRecord[]>(chargeIds.map((id) => [id, []]));
  if (chargeIds.length === 0) return byCharge;
  const { rows } = await db.query<RequestRow>(
    `SELECT ${REQUEST_COLUMNS} FROM transaction_requests
     WHERE client_id = $1 AND charge_id = ANY($2::uuid[]) AND request_status <> 'pending'
     ORDER BY created_at, seq`,
    [clientId, chargeIds],
  );
  for (const row of rows) byCharge.get(row.charge_id)?.push(toRequest(row));
  return byCharge;
}

type ReservationRow = RequestRow & { cause: OperationCause; provider_accepted_at: Date | null };

function toReservation(row: ReservationRow): Reservation {
  return { request: toRequest(row), cause: row.cause, acceptedAt: row.provider_accepted_at };
}

export function createChargeStore(): ChargeStore {
  const store: ChargeStore = {
    async insert(db, c) {
      // Parent and children in one statement: the foreign key is checked at its end, when both exist.
      await db.query(`WITH charge AS (${INSERT_CHARGE})
         INSERT INTO transaction_requests (${REQUEST_COLUMNS})
         SELECT ${REQUEST_COLUMNS} FROM jsonb_populate_recordset(NULL::transaction_requests, $33::jsonb) WITH ORDINALITY ORDER BY ordinality`, chargeValues(c));
    },

    async insertAnswered(db, c, extras) {
      const values = chargeValues(c);
      const param = (value: unknown) => {
        values.push(value);
        return `$${values.length}`;
      };
      const parts: string[] = [];
      const variant: string[] = [];
      let answered = 'true';
      if (extras.idempotency) {
        const i = extras.idempotency;
        parts.push(`idem AS (
           UPDATE idempotency_keys SET state = 'done', response = ${param(i.response)}, updated_at = now()
            WHERE client_id = ${param(c.clientId)} AND key = ${param(i.key)} AND state = 'in_flight' RETURNING 1)`);
        answered = 'EXISTS (SELECT 1 FROM idem)';
        variant.push('k');
      }
      parts.push(`charge AS (${INSERT_CHARGE} ON CONFLICT DO NOTHING RETURNING id)`);
      parts.push(`requests AS (
         INSERT INTO transaction_requests (${REQUEST_COLUMNS})
         SELECT ${REQUEST_COLUMNS} FROM jsonb_populate_recordset(NULL::transaction_requests, $33::jsonb) WITH ORDINALITY
          WHERE EXISTS (SELECT 1 FROM charge) ORDER BY ordinality)`);
      if (extras.cardAttempts.length > 0) {
        parts.push(`attempts AS (
           INSERT INTO card_authorization_attempts (${CARD_ATTEMPT_COLUMNS})
           SELECT ${CARD_ATTEMPT_COLUMNS} FROM jsonb_populate_recordset(NULL::card_authorization_attempts, ${param(JSON.stringify(extras.cardAttempts.map(cardAttemptRow)))}::jsonb)
            WHERE EXISTS (SELECT 1 FROM charge)
           ON CONFLICT (idempotency_key) DO NOTHING)`);
        variant.push('a');
      }
      let notify = '';
      if (extras.event) {
        const [id, subject, payload, headers] = extras.event.values.map(param);
        parts.push(`event AS (
           INSERT INTO outbox (${OUTBOX_COLUMNS}) SELECT ${id}::uuid, ${subject}, ${payload}::jsonb, ${headers}::jsonb
            WHERE EXISTS (SELECT 1 FROM charge) RETURNING 1)`);
        variant.push('e');
        if (extras.event.notify) {
          notify = `, (SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM event)`;
          variant.push('n');
        }
      }
      const { rows } = await db.query<{ inserted: boolean }>({
        // Prepared once per connection and variant: the text of a variant never changes.
        name: `payments.charge.insert_answered.${variant.join('') || 'plain'}`,
        text: `WITH ${parts.join(',\n')}
               SELECT ${answered} AND EXISTS (SELECT 1 FROM charge) AS inserted${notify}`,
        values,
      });
      return rows[0]?.inserted === true;
    },

    async claimInTransaction(tx, c) {
      const { rows } = await tx.query<{ claimed: boolean; taken: boolean }>({
        name: 'payments.idempotency.claim_in_transaction',
        text: `WITH idem AS (
                 INSERT INTO idempotency_keys (client_id, key, operation, request_hash, state)
                 VALUES ($1, $2, $3, $4, 'in_flight') ON CONFLICT DO NOTHING RETURNING 1)
               SELECT EXISTS (SELECT 1 FROM idem) AS claimed, EXISTS (SELECT 1 FROM charges WHERE id = $5) AS taken`,
        values: [c.clientId, c.key, c.operation, c.requestHash, c.chargeId],
      });
      return { claimed: rows[0]?.claimed === true, taken: rows[0]?.taken === true };
    },

    async update(tx, c) {
      await tx.query(
        `UPDATE charges SET status = $3, amount = $4, captured_amount = $5, refunded_amount = $6, is_dispute = $7,
           payment_method = $8, antifraud = $9, provider_id = $10, provider_type = $11, provider_name = $12, declined_code = $13,
           updated_at = $14
         WHERE client_id = $1 AND id = $2`,
        [
          c.clientId,
          c.id,
          c.status,
          c.amount,
          c.capturedAmount,
          c.refundedAmount,
          c.isDispute,
          json(c.paymentMethod),
          json(c.antifraud),
          c.providerId,
          c.providerType,
          c.providerName,
          c.declinedCode,
          c.updatedAt,
        ],
      );
    },

    async reserve(db, { request: r, cause }) {
      await db.query(
        `INSERT INTO transaction_requests (id, charge_id, client_id, idempotency_key, provider_id, provider_type, transaction_id,
           amount, authorization_nsu, request_status, request_type, response_ms, network_authorization_code,
           network_response_code, declined_code, message, split_rules, created_at, updated_at, cause)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
        [
          r.id,
          r.chargeId,
          r.clientId,
          r.idempotencyKey,
          r.providerId,
          r.providerType,
          r.transactionId,
          r.amount,
          r.authorizationNsu,
          'pending',
          r.requestType,
          r.responseMs,
          r.networkAuthorizationCode,
          r.networkResponseCode,
          r.declinedCode,
          r.message,
          json(r.splitRules),
          r.createdAt,
          r.updatedAt,
          json(cause),
        ],
      );
    },

    async reservationsOf(db, clientId, chargeId) {
      const { rows } = await db.query<ReservationRow>(
        `SELECT ${REQUEST_COLUMNS}, cause, provider_accepted_at FROM transaction_requests
         WHERE client_id = $1 AND charge_id = $2 AND request_status = 'pending' ORDER BY created_at, seq`,
        [clientId, chargeId],
      );
      return rows.map(toReservation);
    },

    async abandonedReservations(db, before, limit) {
      const { rows } = await db.query<ReservationRow>(
        `SELECT ${REQUEST_COLUMNS}, cause, provider_accepted_at FROM transaction_requests
         WHERE request_status = 'pending' AND provider_accepted_at IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2`,
        [before, limit],
      );
      return rows.map(toReservation);
    },

    async accept(db, r, at) {
      const result = await db.query(
        `UPDATE transaction_requests SET provider_accepted_at = $3, transaction_id = $4, response_ms = $5, message = $6, updated_at = $3
         WHERE client_id = $1 AND id = $2 AND request_status = 'pending' AND provider_accepted_at IS NULL`,
        [r.clientId, r.id, at, r.transactionId, r.responseMs, r.message],
      );
      return result.rowCount === 1;
    },

    async findByProviderTransaction(db, clientId, providerId, transactionId) {
      if (!isUuid(providerId)) return null;
      const { rows } = await db.query<{ charge_id: string }>(
        `SELECT t.charge_id FROM transaction_requests t
           JOIN charges c ON c.id = t.charge_id AND c.client_id = t.client_id
          WHERE t.client_id = $1 AND t.provider_id = $2 AND t.transaction_id = $3
            AND t.request_type = 'authorization' AND t.request_status = 'success' AND c.provider_id = $2
          LIMIT 1`,
        [clientId, providerId.toLowerCase(), transactionId],
      );
      const row = rows[0];
      return row ? store.findById(db, clientId, row.charge_id) : null;
    },

    async dueForSync(db, now, providerTypes, limit) {
      if (providerTypes.length === 0) return [];
      const { rows } = await db.query<{ client_id: string; id: string; sync_attempts: number }>(
        `SELECT c.client_id, c.id, c.sync_attempts FROM charges c
          WHERE c.provider_type = ANY($2::text[]) AND c.sync_stopped_at IS NULL
            AND COALESCE(c.sync_next_at, c.updated_at + interval '1 minute') <= $1
            AND (c.status IN ('pending', 'capture_pending', 'refund_pending')
              OR EXISTS (SELECT 1 FROM transaction_requests t
                          WHERE t.charge_id = c.id AND t.client_id = c.client_id
                            AND t.request_status = 'pending' AND t.provider_accepted_at IS NOT NULL))
          ORDER BY COALESCE(c.sync_next_at, c.updated_at + interval '1 minute'), c.seq
          LIMIT $3`,
        [now, providerTypes, limit],
      );
      return rows.map((r) => ({ clientId: r.client_id, id: r.id, attempts: r.sync_attempts }));
    },

    async setSync(db, clientId, id, state) {
      await db.query(`UPDATE charges SET sync_next_at = $3, sync_attempts = $4, sync_stopped_at = $5 WHERE client_id = $1 AND id = $2`, [
        clientId,
        id,
        state.nextAt,
        state.attempts,
        state.stoppedAt,
      ]);
    },

    async settle(db, r) {
      const result = await db.query(
        `UPDATE transaction_requests SET request_status = $3, transaction_id = $4, authorization_nsu = $5, response_ms = $6,
           network_authorization_code = $7, network_response_code = $8, declined_code = $9, message = $10, updated_at = $11
         WHERE client_id = $1 AND id = $2 AND request_status = 'pending'`,
        [
          r.clientId,
          r.id,
          r.requestStatus,
          r.transactionId,
          r.authorizationNsu,
          r.responseMs,
          r.networkAuthorizationCode,
          r.networkResponseCode,
          r.declinedCode,
          r.message,
          r.updatedAt,
        ],
      );
      return result.rowCount === 1;
    },

    async findById(db, clientId, id, options = {}) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<ChargeRow>(
        `SELECT ${CHARGE_COLUMNS} FROM charges WHERE client_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, id.toLowerCase()],
      );
      const row = rows[0];
      if (!row) return null;
      const requests = await requestsOf(db, clientId, [row.id]);
      return toCharge(row, requests.get(row.id) ?? []);
    },

    async list(db, clientId, filters, page) {
      for (const id of [filters.merchantId, filters.id, filters.sessionId]) {
        if (id !== undefined && !isUuid(id)) return { items: [], totalItems: 0 };
      }
      const values: unknown[] = [clientId];
      const where = ['client_id = $1'];
      const add = (condition: (placeholder: string) => string, value: unknown) => {
        if (value === undefined) return;
        values.push(value);
        where.push(condition(`$${values.length}`));
      };
      add((p) => `merchant_id = ${p}`, filters.merchantId);
      add((p) => `id = ${p}`, filters.id);
      add((p) => `session_id = ${p}`, filters.sessionId);
      add((p) => `status = ANY(${p}::text[])`, filters.statuses && filters.statuses.length > 0 ? filters.statuses : undefined);
      add((p) => `payment_type = ANY(${p}::text[])`, filters.paymentTypes);
      add((p) => `order_id = ${p}`, filters.orderId);
      add((p) => `provider_type = ANY(${p}::text[])`, filters.providerTypes);
      add((p) => `original_amount = ${p}`, filters.originalAmount);
      add((p) => `(jsonb_array_length(split_rules) > 0) = ${p}`, filters.hasSplitRules);
      add((p) => `created_at >= ${p}`, filters.createdFrom);
      add((p) => `created_at < ${p}`, filters.createdUntil);
      add((p) => `created_at > ${p}`, filters.createdAfter);
      add((p) => `created_at < ${p}`, filters.createdBefore);
      const condition = where.join(' AND ');
      const counted = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM charges WHERE ${condition}`, values);
      const direction = page.direction === 'ASC' ? 'ASC' : 'DESC';
      const { rows } = await db.query<ChargeRow>(
        `SELECT ${CHARGE_COLUMNS} FROM charges WHERE ${condition}
         ORDER BY created_at ${direction}, seq ${direction}
         LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        [...values, page.limit, page.offset],
      );
      const requests = await requestsOf(
        db,
        clientId,
        rows.map((r) => r.id),
      );
      return { items: rows.map((row) => toCharge(row, requests.get(row.id) ?? [])), totalItems: counted.rows[0]?.total ?? 0 };
    },

    async idTaken(db, id) {
      const { rows } = await db.query('SELECT 1 FROM charges WHERE id = $1', [id]);
      return rows.length > 0;
    },

    async sandboxDocument(db, transactionId, paymentType) {
      const { rows } = await db.query<{ data: string | null }>(
        `SELECT c.payment_method->>(CASE c.payment_type WHEN 'pix' THEN 'qrCodeData' ELSE 'barcodeData' END) AS data
           FROM transaction_requests t
           JOIN charges c ON c.id = t.charge_id AND c.client_id = t.client_id
          WHERE t.transaction_id = $1 AND t.provider_type = 'SANDBOX' AND t.request_type = 'authorization'
            AND c.payment_type = $2 AND c.provider_type = 'SANDBOX'
          LIMIT 1`,
        [transactionId, paymentType],
      );
      return rows[0]?.data || null;
    },

    async insertThreeDSSetup(db, s) {
      await db.query(
        `INSERT INTO three_ds_setups (id, client_id, card_id, token_id, provider_type, token, collect_url, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [s.id, s.clientId, s.cardId, s.tokenId, s.providerType, s.token, s.collectUrl, s.createdAt],
      );
    },
  };
  return store;
}
