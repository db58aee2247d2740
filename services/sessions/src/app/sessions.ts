import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { payments } from '@platform/contracts';
import { AppError, cancelJobs, checkBeforeChange, errors, isUuid, jsonCodec, requireClientId, scheduleJob, sleep, toPage, withIdempotency, withTransaction, type PageInput, type PageMeta, type Queryable, pageMeta } from '@platform/kit';
import {
  canceledEntry,
  createdEntry,
  expiredByDueDateEntry,
  expiredByMaxPaymentsEntry,
  paymentEntry,
  paymentVoidedEntry,
  updatedEntry,
  type ChargeResponse,
  type HistoryEntry,
} from '../domain/history';
import { hashPublicKey, publicKeyMatches, SESSION_KEY_PREFIX, sessionPublicKey } from '../domain/publicKey';
import {
  allowedMethod,
  applyUpdate,
  buyerInstallments,
  checkBuyerSource,
  checkPlatformFee,
  newSession,
  nextStatus,
  refusalOf,
  splitIsValid,
  UNLIMITED,
  type NewSessionInput,
  type PaymentType,
  type Session,
  type SessionUpdate,
} from '../domain/session';
import { recordSessionEvent, SESSION_EVENTS, type SessionEventType } from '../events/sessionEvents';
import { toPaymentMethodMessage, toSplitRuleMessage } from '../grpc/sessionMessage';
import type { ChargeHold, Counters, HistoryRecord, SessionFilters } from '../store/sessionStore';
import { DUE_DATE_JOB, type SessionDeps } from './deps';

export interface SessionView {
  session: Session;
  publicKey: string;
}

function view(deps: SessionDeps, session: Session): SessionView {
  return { session, publicKey: sessionPublicKey(deps.keySecret, session.id) };
}

async function addHistory(deps: SessionDeps, tx: Queryable, session: Session, entry: HistoryEntry, at: Date): Promise<boolean> {
  const record: HistoryRecord = {
    id: randomUUID(),
    sessionId: session.id,
    clientId: session.clientId,
    merchantId: session.merchantId,
    status: entry.status,
    action: entry.action,
    actions: entry.actions,
    diff: entry.diff,
    dedupeKey: entry.dedupeKey,
    createdAt: at,
  };
  return deps.store.addHistory(tx, record);
}

async function emit(deps: SessionDeps, tx: Queryable, type: SessionEventType, session: Session, at: Date): Promise<void> {
  await recordSessionEvent(tx, type, session, { publicKey: sessionPublicKey(deps.keySecret, session.id), publicUrl: deps.publicUrl }, at);
}

async function scheduleDueDate(tx: Queryable, session: Session): Promise<void> {
  await cancelJobs(tx, { kind: DUE_DATE_JOB, dedupeKey: session.id });
  if (session.dueDate) {
    await scheduleJob(tx, { kind: DUE_DATE_JOB, runAt: session.dueDate, dedupeKey: session.id, payload: { clientId: session.clientId, sessionId: session.id } });
  }
}

async function load(deps: SessionDeps, db: Queryable, clientId: string, id: string, forUpdate = false): Promise<Session> {
  const session = await deps.store.findById(db, clientId, id, { forUpdate });
  if (!session) throw errors.notFound('Session', id);
  return session;
}

export const CREATE_SESSION_OPERATION = 'sessions.create';

/** The record keeps the session only: its public key is derived again for a replay, never stored. */
const sessionCodec = jsonCodec<Session>();

/**
 * Validates the session (before the idempotency key is claimed: a malformed request claims nothing), asks payments
 * that the merchant is the client's and its platform fee fits, and sellers-and-reviews that the split's sellers can
 * receive; then stores it with its history, due-date job and event. The same X-Idempotency-Key answers the same
 * session again.
 */
export async function createSession(deps: SessionDeps, input: Omit<NewSessionInput, 'id'>, idempotencyKey?: string): Promise<SessionView> {
  const clientId = requireClientId(input.clientId);
  const session = newSession({ ...input, clientId, id: randomUUID() }, deps.clock.now());
  const created = await withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: CREATE_SESSION_OPERATION, request: input, codec: sessionCodec },
    {
      prepare: async () => {
        await checkBeforeChange(async () => {
          // Also proves the merchant is the client's (not_found otherwise).
          const fee = await deps.payments.platformFee(clientId, session.merchantId);
          checkPlatformFee(session, fee);
          // The sellers of the split are the client's, of the merchant, and can receive: no unknown or foreign id is stored.
          await deps.sellers.checkSplitReceivers(clientId, session.merchantId, session.splitRules.map((r) => r.sellerId));
        });
      },
      commit: async (tx) => {
        const now = session.createdAt;
        await deps.store.insert(tx, session, hashPublicKey(sessionPublicKey(deps.keySecret, session.id)));
        await addHistory(deps, tx, session, createdEntry(session), now);
        await scheduleDueDate(tx, session);
        await emit(deps, tx, SESSION_EVENTS.created, session, now);
        return session;
      },
    },
  );
  deps.outbox?.kick();
  return view(deps, created);
}

export async function getSession(deps: SessionDeps, input: { clientId: string; id: string }): Promise<SessionView> {
  return view(deps, await load(deps, deps.pool, requireClientId(input.clientId), input.id));
}

export async function listSessions(
  deps: SessionDeps,
  input: { clientId: string; page?: PageInput; filters: SessionFilters },
): Promise<{ items: SessionView[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const page = toPage(input.page);
  const { items, total } = await deps.store.list(deps.pool, clientId, input.filters, page);
  return { items: items.map((s) => view(deps, s)), meta: pageMeta(page, items.length, total) };
}

const ONE_TIME_METHODS: ReadonlySet<PaymentType> = new Set(['pix', 'boleto']);

/**
 * Whether a 1:1 Pix or boleto session asked to be reactivated was ever disabled by its due date: such a session stays
 * blocked even once a later PATCH moved its due date forward. Read only when that rule can apply.
 */
async function wasExpiredByDueDate(deps: SessionDeps, tx: Queryable, session: Session, update: SessionUpdate): Promise<boolean> {
  if (update.isActive !== true || session.maxPayments !== null || !session.paymentMethods.some((m) => ONE_TIME_METHODS.has(m.paymentType))) return false;
  const history = await deps.store.history(tx, session.clientId, session.id);
  return history.some((h) => h.actions.includes('sessionExpiredByDueDate'));
}

export async function updateSession(deps: SessionDeps, input: { clientId: string; id: string; update: SessionUpdate }): Promise<SessionView> {
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  const updated = await withTransaction(deps.pool, async (tx) => {
    const session = await load(deps, tx, clientId, input.id, true);
    const { next, changes } = applyUpdate(session, input.update, now, { expiredByDueDate: await wasExpiredByDueDate(deps, tx, session, input.update) });
    if (Object.keys(changes).length === 0) return session;
    await deps.store.update(tx, next);
    await addHistory(deps, tx, next, updatedEntry(next, changes), now);
    if (changes.dueDate) await scheduleDueDate(tx, next);
    await emit(deps, tx, SESSION_EVENTS.updated, next, now);
    return next;
  });
  deps.outbox?.kick();
  return view(deps, updated);
}

export async function cancelSession(deps: SessionDeps, input: { clientId: string; id: string }): Promise<SessionView> {
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  const canceled = await withTransaction(deps.pool, async (tx) => {
    const session = await load(deps, tx, clientId, input.id, true);
    const status = nextStatus(session.status, 'cancel');
    if (!status) throw errors.businessRule('session_not_cancelable', `A ${session.status} session cannot be canceled`);
    const next: Session = { ...session, status, isActive: false, updatedAt: now };
    await deps.store.update(tx, next);
    await addHistory(deps, tx, next, canceledEntry(session), now);
    await cancelJobs(tx, { kind: DUE_DATE_JOB, dedupeKey: session.id });
    await emit(deps, tx, SESSION_EVENTS.canceled, next, now);
    return next;
  });
  deps.outbox?.kick();
  return view(deps, canceled);
}

export async function sessionHistory(deps: SessionDeps, input: { clientId: string; id: string }): Promise<HistoryRecord[]> {
  const clientId = requireClientId(input.clientId);
  await load(deps, deps.pool, clientId, input.id);
  return deps.store.history(deps.pool, clientId, input.id);
}

export async function authenticateSessionKey(deps: SessionDeps, input: { clientId: string; sessionId: string; key: string }): Promise<boolean> {
  if (!isUuid(input.clientId)) return false;
  const hash = await deps.store.publicKeyHash(deps.pool, input.clientId, input.sessionId);
  return hash !== null && publicKeyMatches(hash, input.key);
}

/** The client's session whose public key this is ('' when none is): a card tokenized with it pays that session only. */
export async function findSessionByKey(deps: SessionDeps, input: { clientId: string; key: string }): Promise<string> {
  if (!isUuid(input.clientId) || !input.key.startsWith(SESSION_KEY_PREFIX)) return '';
  const id = await deps.store.findByKeyHash(deps.pool, input.clientId.toLowerCase(), hashPublicKey(input.key));
  return id ?? '';
}

function withCounters(session: Session, counters: Counters): Session {
  return { ...session, paymentCount: counters.paymentCount, pendingCount: counters.pendingCount, isActive: counters.isActive };
}

/** The answer about a charge that exists. */
type ChargeAnswer = ChargeResponse & { chargeId: string };

function responseOf(charge: { id: string; status: string; amount: number; paymentMethod?: { paymentType: string } }): ChargeAnswer {
  return { chargeId: charge.id, status: charge.status, amount: charge.amount, paymentType: charge.paymentMethod?.paymentType ?? '' };
}

/**
 * A pending place became a payment: counts it, closes a 1:1 session (`paid`) and disables a 1:N session that reached
 * its maximum (`sessionExpiredByMaxPayments`).
 */
async function settlePaid(deps: SessionDeps, tx: Queryable, before: Session, response: ChargeAnswer, now: Date, heldPlace = true): Promise<void> {
  const counters = heldPlace
    ? await deps.store.settlePlace(tx, before.clientId, before.id, 'paid', now)
    : await deps.store.countWithoutPlace(tx, before.clientId, before.id, 'counted', now);
  if (!counters) {
    // A charge made while its attempt held no place any more, on a session that is full since: the money was taken,
    // so the item is kept, but the count never goes past the limit. The merchant refunds it.
    deps.log.error({ sessionId: before.id, chargeId: response.chargeId }, 'a session charge was paid beyond the session limit');
    await addHistory(deps, tx, before, paymentEntry('paymentSucceeded', before, before, response), now);
    return;
  }
  let after = withCounters({ ...before, updatedAt: now }, counters);
  if (before.maxPayments === null) {
    after = { ...after, status: nextStatus(before.status, 'pay') ?? before.status };
    await deps.store.update(tx, after);
  }
  const recorded = await addHistory(deps, tx, after, paymentEntry('paymentSucceeded', before, after, response), now);
  if (!recorded) return;
  if (before.maxPayments === null) {
    await cancelJobs(tx, { kind: DUE_DATE_JOB, dedupeKey: before.id });
    // A session canceled while its charge was in flight stays canceled: it counts the payment, it is not paid.
    await emit(deps, tx, after.status === 'paid' && before.status !== 'paid' ? SESSION_EVENTS.paid : SESSION_EVENTS.updated, after, now);
    return;
  }
  await emit(deps, tx, SESSION_EVENTS.updated, after, now);
  if (after.maxPayments !== UNLIMITED && after.maxPayments !== null && after.paymentCount >= after.maxPayments && after.isActive) {
    const disabled: Session = { ...after, isActive: false };
    await deps.store.update(tx, disabled);
    await addHistory(deps, tx, disabled, expiredByMaxPaymentsEntry(disabled, response.chargeId), now);
    await cancelJobs(tx, { kind: DUE_DATE_JOB, dedupeKey: before.id });
    await emit(deps, tx, SESSION_EVENTS.disabled, disabled, now);
  }
}

/** A pending place given back: the charge failed, expired or was voided before it was paid. */
async function settleReleased(
  deps: SessionDeps,
  tx: Queryable,
  before: Session,
  response: ChargeResponse,
  kind: 'paymentExpired' | 'paymentFailed',
  now: Date,
  heldPlace = true,
): Promise<void> {
  const after = heldPlace ? withCounters({ ...before, updatedAt: now }, await deps.store.settlePlace(tx, before.clientId, before.id, 'released', now)) : before;
  await addHistory(deps, tx, after, paymentEntry(kind, before, after, response), now);
}

/**
 * The session's settings of a method with the buyer's choices on top (proto3 zero values mean "not given"): the
 * installments within the session's offer, and the Pix expiry, boleto due date and instructions the session leaves
 * open. A session payment is the buyer's own: no recurrence.
 */
function buyerMethod(session: payments.PaymentMethod, buyer: payments.PaymentMethod | undefined, installments: number): payments.PaymentMethod {
  return {
    ...session,
    installments,
    recurrence: '',
    expiresIn: buyer?.expiresIn || session.expiresIn,
    expiresDate: buyer?.expiresDate || session.expiresDate,
    instructions: buyer?.instructions || session.instructions,
    interest: buyer?.interest ?? session.interest,
    fine: buyer?.fine ?? session.fine,
  };
}

const PAID_STATUSES = new Set(['authorized', 'pre_authorized']);
const RELEASED_STATUSES = new Set(['failed', 'canceled', 'voided', 'expired']);

export interface ChargeSessionInput {
  clientId: string;
  id: string;
  customerId: string;
  paymentMethod?: payments.PaymentMethod;
  paymentSource?: payments.PaymentSource;
  fraudAnalysis?: Record<string, unknown>;
}

/** How long an attempt may hold its place without an answer before the sweep gives it back (its process died). */
export const ATTEMPT_PLACE_TIMEOUT_MS = 5 * 60_000;

/**
 * How long after it began an attempt may still be waiting for payments' answer (its call's deadline, 15 s, with
 * room): a buyer who finds every place held waits for such attempts, not for older ones (their process died).
 */
export const ATTEMPT_IN_FLIGHT_MS = 20_000;

/**
 * How a buyer waits for the attempts in flight to free a place: a look every interval, at most this many times and
 * for at most `budgetMs` of real time (well within the gateway's deadline on the call, so that no place is taken for
 * a buyer who was already answered).
 */
export const PLACE_WAIT = { intervalMs: 100, looks: 100, budgetMs: 8_000 } as const;

/**
 * A buyer pays the session. A place is reserved by one conditional statement before payments is asked (so many
 * buyers at once never overshoot `maxPayments`), then settled from the charge's answer: authorized → paid; pending
 * (Pix, boleto) → kept until the charge's events settle it; failed or an error → given back.
 *
 * The place belongs to an attempt (`session_attempts`). A retry with the same idempotency key finds that attempt:
 * it reserves nothing again and asks payments with the attempt's own key, so payments answers with the charge the
 * first try made (or makes it, if the first try never reached payments). Whichever of the answer and the charge's
 * event links the charge first counts it; an attempt whose process died before the answer is given back its place
 * by the sweep, and its charge is counted from the event.
 */
export async function chargeSession(deps: SessionDeps, input: ChargeSessionInput, idempotencyKey?: string): Promise<payments.Charge> {
  const clientId = requireClientId(input.clientId);
  const session = await load(deps, deps.pool, clientId, input.id);
  // A split a charge would refuse (stored before splits were checked as a charge's): no buyer can pay the link, and
  // none is answered about a field it never sent.
  if (!splitIsValid(session)) throw errors.businessRule('session_disabled', "The session's split rules are not valid: it takes no payments");
  const method = allowedMethod(session, input.paymentMethod?.paymentType ?? '');
  if (!input.paymentSource) throw errors.validation('paymentSource is required', [{ field: 'paymentSource', message: 'is required' }]);
  const source = input.paymentSource;
  checkBuyerSource({ customerId: input.customerId, sourceType: source.sourceType, cardId: source.cardId, customerIdOfSource: source.customerId });
  const installments = buyerInstallments(method, input.paymentMethod?.installments ?? 0);
  if (source.sourceType.trim().toLowerCase() === 'token') await requireTokenOfSession(deps, clientId, session.id, source.tokenId);

  const noPlace = new Error('no place');
  const begin = () =>
    withTransaction(deps.pool, async (tx) => {
      const begun = await deps.store.beginAttempt(tx, { id: randomUUID(), clientId, sessionId: session.id, idempotencyKey: idempotencyKey ?? null }, deps.clock.now());
      if (!begun.fresh || (await deps.store.reservePlace(tx, clientId, session.id, deps.clock.now()))) return begun;
      throw noPlace; // the attempt is not kept either
    }).catch((error: unknown) => {
      if (error === noPlace) return null;
      throw error;
    });
  const inFlight = () => deps.store.attemptsInFlight(deps.pool, clientId, session.id, new Date(deps.clock.now().getTime() - ATTEMPT_IN_FLIGHT_MS));
  // Every place held: while some are held by attempts still waiting for their answer (a decline gives its place
  // back, a payment keeps it), the buyer waits for them rather than being told the session is full.
  const waitStarted = performance.now();
  let attempt = await begin();
  for (let look = 0; !attempt && look < PLACE_WAIT.looks && performance.now() - waitStarted < PLACE_WAIT.budgetMs && (await inFlight()) > 0; look++) {
    await sleep(PLACE_WAIT.intervalMs);
    attempt = await begin();
  }
  if (!attempt) {
    const fresh = await load(deps, deps.pool, clientId, session.id);
    const refusal = refusalOf(fresh, deps.clock.now());
    if (refusal && fresh.maxPayments !== null && refusal.code === 'multiple_payments_limit_reached' && (await inFlight()) > 0) {
      throw errors.conflict('Payments of this session are in progress: try again in a moment', 'session_payments_in_progress');
    }
    const told = refusal ?? { code: 'session_disabled', message: 'The session takes no more payments' };
    throw errors.businessRule(told.code, told.message);
  }

  let charge: payments.Charge;
  try {
    charge = await deps.payments.createCharge(
      {
        clientId,
        merchantId: session.merchantId,
        amount: session.amount,
        currency: session.currency,
        orderId: session.orderId,
        statementDescriptor: session.statementDescriptor,
        description: session.name,
        capture: session.capture ?? undefined,
        // A session names no customer: what the buyer brings pays (checkBuyerSource).
        customerId: '',
        // The session's settings of that method (Pix expiry, boleto due date) with the buyer's choices on top.
        paymentMethod: buyerMethod(toPaymentMethodMessage(method), input.paymentMethod, installments),
        paymentSource: source,
        splitRules: session.splitRules.map(toSplitRuleMessage),
        fraudAnalysis: input.fraudAnalysis,
        sessionId: session.id,
      },
      `session-attempt-${attempt.id}`,
    );
  } catch (error) {
    // No answer (the call to payments failed on its way), another try of this attempt still at work, or a retry with
    // another body that payments refuses under the first try's key: the charge may exist. The attempt keeps its place
    // for its retry, its event, or the sweep.
    const chargeMayExist = !(error instanceof AppError) || error.kind === 'unavailable' || error.kind === 'conflict' || error.businessCode === 'idempotency_key_reused';
    if (chargeMayExist) {
      // Another try of this attempt still at work (conflict) will get the answer; otherwise none is coming, and the
      // place is held only until the charge's outcome is known.
      if (!(error instanceof AppError && error.kind === 'conflict')) await answerLost(deps, clientId, session.id, attempt.id);
      throw error;
    }
    const now = deps.clock.now();
    await withTransaction(deps.pool, async (tx) => {
      const current = await load(deps, tx, clientId, session.id, true);
      // A retry of an attempt already settled (or given back) has no place to give back.
      if (!(await deps.store.takeAttemptPlace(tx, clientId, attempt.id, now))) return;
      // No charge exists: the response has no charge id (and neither has the history item).
      const response: ChargeResponse = {
        status: error.declinedCode ? 'declined' : 'error',
        amount: session.amount,
        paymentType: method.paymentType,
        ...(error.declinedCode ? { declinedCode: error.declinedCode } : {}),
      };
      await settleReleased(deps, tx, current, response, 'paymentFailed', now);
    });
    throw error;
  }

  const now = deps.clock.now();
  await withTransaction(deps.pool, async (tx) => {
    const current = await load(deps, tx, clientId, session.id, true);
    const heldPlace = await deps.store.takeAttemptPlace(tx, clientId, attempt.id, now);
    const answered: ChargeHold = PAID_STATUSES.has(charge.status) ? 'paid' : charge.status === 'pending' ? 'pending' : 'released';
    // The event's outcome when it came first (a Pix paid before its answer was back).
    const state = await deps.store.recordCharge(tx, { chargeId: charge.id, sessionId: session.id, clientId, state: answered }, now);
    if (!state) {
      // Counted already, by this attempt's first try: the place a later try still held goes back.
      if (heldPlace) await deps.store.settlePlace(tx, clientId, session.id, 'released', now);
      return;
    }
    await countOutcome(deps, tx, current, state, responseOf(charge), now, heldPlace);
  });
  deps.outbox?.kick();
  return charge;
}

/**
 * A session is paid with a token made with its own public key only (payments refuses any other too): asked before a
 * place is taken, so a client-made token, or one made for another session, takes no place and writes nothing. A
 * retry of a payment finds its token used but still made for the session.
 */
async function requireTokenOfSession(deps: SessionDeps, clientId: string, sessionId: string, rawTokenId: string): Promise<void> {
  const tokenId = rawTokenId.trim();
  if (tokenId === '') throw errors.validation('invalid payment source: paymentSource.tokenId is required', [{ field: 'paymentSource.tokenId', message: 'is required' }]);
  const madeFor = await deps.payments.tokenSession(clientId, tokenId);
  if (madeFor.toLowerCase() === sessionId.toLowerCase()) return;
  throw errors.businessRule(
    'token_not_for_session',
    madeFor === ''
      ? "This token was made with a client key: a session is paid only with a token made with that session's publicKey"
      : "This token was made for another session: a session is paid only with a token made with that session's publicKey",
  );
}

/**
 * An attempt whose call got no answer: marked so that the next final outcome its session's charge events bring is
 * counted with its place at once (the charge it may have made), and counted now when that outcome came first.
 */
async function answerLost(deps: SessionDeps, clientId: string, sessionId: string, attemptId: string): Promise<void> {
  const now = deps.clock.now();
  await withTransaction(deps.pool, async (tx) => {
    const current = await load(deps, tx, clientId, sessionId, true);
    if (!(await deps.store.markAnswerLost(tx, clientId, attemptId, now))) return;
    await countLostOutcome(deps, tx, current, now);
  }).catch((error: unknown) => {
    // The sweep settles the attempt all the same, later.
    deps.log.warn({ err: error, sessionId, attemptId }, 'could not note a session payment attempt without an answer');
  });
}

/**
 * Pairs an outcome noted from its charge's event, not counted yet, with the place of an attempt whose answer was
 * lost, under the session's row lock: the place becomes a payment or is given back now, not at the sweep.
 */
async function countLostOutcome(deps: SessionDeps, tx: Queryable, current: Session, now: Date): Promise<void> {
  if (!(await deps.store.hasUncounted(tx, current.clientId, current.id))) return;
  if (!(await deps.store.takeLostPlace(tx, current.clientId, current.id, now))) return;
  const outcome = await deps.store.takeUncounted(tx, current.clientId, current.id, now);
  if (outcome) await countOutcome(deps, tx, current, outcome.state, noted(current, outcome), now, true);
  else await settleReleased(deps, tx, current, { status: 'error', amount: current.amount, paymentType: '' }, 'paymentFailed', now);
}

/** Counts a charge's outcome on its session, with the place its attempt held or (heldPlace false) without one. */
async function countOutcome(deps: SessionDeps, tx: Queryable, current: Session, state: ChargeHold, response: ChargeAnswer, now: Date, heldPlace: boolean): Promise<void> {
  if (state === 'paid') {
    await settlePaid(deps, tx, current, response, now, heldPlace);
  } else if (state === 'pending') {
    // The place passes from the attempt to the charge, until its events settle it.
    const counters = heldPlace ? null : await deps.store.countWithoutPlace(tx, current.clientId, current.id, 'held', now);
    const holding = counters ? withCounters(current, counters) : current;
    await addHistory(deps, tx, holding, paymentEntry('paymentPending', holding, holding, response), now);
  } else {
    await settleReleased(deps, tx, current, response, 'paymentFailed', now, heldPlace);
  }
}

/**
 * Settles the places of attempts that began more than ATTEMPT_PLACE_TIMEOUT_MS ago and never settled (their process
 * died, or payments never answered): each is paired with an outcome of its session that no answer counted (its
 * charge's event came), else given back. Then the outcomes left uncounted that long are counted without a place.
 */
export async function releaseStalePlaces(deps: SessionDeps, limit = 500): Promise<number> {
  const now = deps.clock.now();
  const before = new Date(now.getTime() - ATTEMPT_PLACE_TIMEOUT_MS);
  const settled = await withTransaction(deps.pool, async (tx) => {
    const stale = await deps.store.takeStalePlaces(tx, before, limit, now);
    for (const { clientId, sessionId } of stale) {
      const current = await load(deps, tx, clientId, sessionId, true);
      const outcome = await deps.store.takeUncounted(tx, clientId, sessionId, now);
      if (outcome) {
        await countOutcome(deps, tx, current, outcome.state, noted(current, outcome), now, true);
      } else {
        await settleReleased(deps, tx, current, { status: 'error', amount: current.amount, paymentType: '' }, 'paymentFailed', now);
      }
    }
    const orphans = await deps.store.takeStaleUncounted(tx, before, limit, now);
    for (const outcome of orphans) {
      const current = await load(deps, tx, outcome.clientId, outcome.sessionId, true);
      await countOutcome(deps, tx, current, outcome.state, noted(current, outcome), now, false);
    }
    return stale.length + orphans.length;
  });
  if (settled > 0) deps.log.warn({ settled }, 'settled session payment attempts that never got an answer');
  return settled;
}

/** The answer recorded for an outcome its event noted: the charge, and what the event said of it. */
function noted(session: Session, outcome: { chargeId: string; state: ChargeHold }): ChargeAnswer {
  return { chargeId: outcome.chargeId, status: outcome.state === 'paid' ? 'authorized' : 'failed', amount: session.amount, paymentType: '' };
}

/** The part of a `payments.charge.*` event's data sessions reads. */
export interface ChargeEventData {
  id: string;
  sessionId: string | null;
  status: string;
  amount: number;
  paymentMethod: { paymentType: string } | null;
}

/**
 * A later outcome of a session's charge (Pix or boleto paid, expired, failed, voided), applied once: the charge's
 * row moves from `pending` in the same statement that decides it, so a replay or the synchronous path that already
 * settled it changes nothing. A paid charge of a 1:1 session voided later (a pre-authorization voided, a full
 * refund) makes the paid session `voided`.
 */
export async function applyChargeEvent(deps: SessionDeps, tx: Queryable, clientId: string, data: ChargeEventData): Promise<void> {
  if (!data.sessionId) return;
  const link = await deps.store.findChargeSession(tx, clientId, data.id);
  if (link?.state === 'paid' && data.status === 'voided') {
    await voidPaidCharge(deps, tx, clientId, link.sessionId, data);
    return;
  }
  const now = deps.clock.now();
  if (!link) {
    await noteCharge(deps, tx, clientId, data.sessionId, data, now);
    return;
  }
  if (link.state !== 'pending') return;
  const response = responseOf({ id: data.id, status: data.status, amount: data.amount, paymentMethod: data.paymentMethod ?? undefined });
  if (PAID_STATUSES.has(data.status)) {
    if (!(await deps.store.moveCharge(tx, clientId, data.id, 'pending', 'paid', now))) return;
    const session = await load(deps, tx, clientId, link.sessionId, true);
    await settlePaid(deps, tx, session, response, now);
  } else if (RELEASED_STATUSES.has(data.status)) {
    if (!(await deps.store.moveCharge(tx, clientId, data.id, 'pending', 'released', now))) return;
    const session = await load(deps, tx, clientId, link.sessionId, true);
    await settleReleased(deps, tx, session, response, 'paymentExpired', now);
  }
}

/**
 * The final outcome of a session's charge that no answer has linked yet: the event came first, or the attempt that
 * made the charge never got its answer. It is noted uncounted: the answer counts it with its attempt's place, or the
 * sweep does. A pending charge waits for its answer, or for its outcome's event.
 */
async function noteCharge(deps: SessionDeps, tx: Queryable, clientId: string, sessionId: string, data: ChargeEventData, now: Date): Promise<void> {
  const state: ChargeHold | null = PAID_STATUSES.has(data.status) ? 'paid' : RELEASED_STATUSES.has(data.status) ? 'released' : null;
  if (!state) return;
  // Locked like the answer's transaction locks it, so the two never interleave.
  const session = await deps.store.findById(tx, clientId, sessionId, { forUpdate: true });
  if (!session) return;
  if (!(await deps.store.noteOutcome(tx, { chargeId: data.id, sessionId, clientId, state }, now))) return;
  // The charge of an attempt that got no answer: its place is settled now that the outcome is known.
  await countLostOutcome(deps, tx, session, now);
}

/**
 * The void of a charge that paid a 1:1 session: the session goes `paid` → `voided` (the status table), once (the
 * charge's row leaves `paid` in the statement that decides it). A 1:N session keeps its count: a payment voided
 * after it was counted does not give its place back.
 */
async function voidPaidCharge(deps: SessionDeps, tx: Queryable, clientId: string, sessionId: string, data: ChargeEventData): Promise<void> {
  const session = await load(deps, tx, clientId, sessionId, true);
  if (session.maxPayments !== null || session.status !== 'paid') return;
  const status = nextStatus(session.status, 'void');
  if (!status) return;
  const now = deps.clock.now();
  if (!(await deps.store.moveCharge(tx, clientId, data.id, 'paid', 'released', now))) return;
  const voided: Session = { ...session, status, updatedAt: now };
  await deps.store.update(tx, voided);
  const response = responseOf({ id: data.id, status: data.status, amount: data.amount, paymentMethod: data.paymentMethod ?? undefined });
  await addHistory(deps, tx, voided, paymentVoidedEntry(session, voided, response), now);
  await emit(deps, tx, SESSION_EVENTS.updated, voided, now);
}

/** The due-date job: disables the session if it still takes payments, with `sessionExpiredByDueDate`. */
export async function expireByDueDate(deps: SessionDeps, payload: { clientId: string; sessionId: string }): Promise<{ rescheduleAt: Date } | undefined> {
  const early = await withTransaction(deps.pool, async (tx): Promise<Date | undefined> => {
    const session = await deps.store.findById(tx, payload.clientId, payload.sessionId, { forUpdate: true });
    if (!session || !session.dueDate || session.status !== 'created' || !session.isActive) return undefined;
    const now = deps.clock.now();
    // Run before the due time by this process's clock: run again then.
    if (session.dueDate.getTime() > now.getTime()) return session.dueDate;
    const disabled: Session = { ...session, isActive: false, updatedAt: now };
    await deps.store.update(tx, disabled);
    await addHistory(deps, tx, disabled, expiredByDueDateEntry(disabled), now);
    await emit(deps, tx, SESSION_EVENTS.disabled, disabled, now);
    return undefined;
  });
  deps.outbox?.kick();
  return early ? { rescheduleAt: early } : undefined;
}
