import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { payments } from '@platform/contracts';
import { AppError, errors, requireClientId, withTransaction } from '@platform/kit';
import type { ChargeResponse } from '../domain/history';
import { allowedMethod, buyerInstallments, checkBuyerSource, refusalOf, splitIsValid } from '../domain/session';
import type { ChargeHold } from '../store/sessionStore';
import { toPaymentMethodMessage, toSplitRuleMessage } from '../wire/sessionMessages';
import type { SessionDeps } from './deps';
import { countLostOutcome, countOutcome, PAID_STATUSES, responseOf, settleReleased } from './paymentAccounting';
import { loadSession } from './sessionView';

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

export interface ChargeSessionInput {
  clientId: string;
  id: string;
  customerId: string;
  paymentMethod?: payments.PaymentMethod;
  paymentSource?: payments.PaymentSource;
  fraudAnalysis?: Record<string, unknown>;
}

/**
 * How long after it began an attempt may still be waiting for payments' answer (its call's deadline, 15 s, with
 * room): a buyer who finds every place held waits for such attempts, not for older ones (their process died).
 */
export const ATTEMPT_IN_FLIGHT_MS = 20_000;

/**
 * How a buyer waits for the attempts in flight to free a place: in the session's queue of this process (woken at once
 * when an attempt of this process settles, the longest-waiting buyer first), looking at the session every `pollMs`
 * for places given back elsewhere, for at most `budgetMs` of real time: well within the gateway's deadline on the
 * call, so that no place is taken for a buyer who was already answered. A buyer whose call is gone stops waiting.
 */
export const PLACE_WAIT = { pollMs: 250, budgetMs: 8_000 } as const;

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
export async function chargeSession(deps: SessionDeps, input: ChargeSessionInput, idempotencyKey?: string, signal?: AbortSignal): Promise<payments.Charge> {
  const clientId = requireClientId(input.clientId);
  const session = await loadSession(deps, deps.pool, clientId, input.id);
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
  const attempt = (await begin()) ?? (await waitForPlace(deps, clientId, session.id, begin, signal));

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
    await withTransaction(deps.pool, async (tx) => {
      const current = await loadSession(deps, tx, clientId, session.id, true);
      const now = deps.clock.now(); // read under the session's lock: its history is written in the order of time
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
    deps.places.released(session.id);
    throw error;
  }

  await withTransaction(deps.pool, async (tx) => {
    const current = await loadSession(deps, tx, clientId, session.id, true);
    const now = deps.clock.now();
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
  // A declined answer gave its place back; a payment may have filled the session: the next buyer in line looks now.
  deps.places.released(session.id);
  deps.outbox?.kick();
  return charge;
}

/**
 * Every place is held: the buyer waits in the session's queue while attempts still waiting for their answer hold
 * places (a decline gives its place back, a payment keeps it), and takes the first place given back. Refused with
 * the session's own reason once no place is in doubt (full, or closed); told to try again in a moment (409) when
 * places are still in doubt at the end of the wait. Each look reads the free place and the attempts in flight in one
 * snapshot, so a place given back between two reads is never mistaken for a full session.
 */
async function waitForPlace(
  deps: SessionDeps,
  clientId: string,
  sessionId: string,
  begin: () => Promise<{ id: string; fresh: boolean } | null>,
  signal: AbortSignal | undefined,
): Promise<{ id: string; fresh: boolean }> {
  const started = performance.now();
  const spent = () => performance.now() - started >= PLACE_WAIT.budgetMs || signal?.aborted === true;
  const ticket = deps.places.join(sessionId);
  try {
    for (;;) {
      const state = await deps.store.placeState(deps.pool, clientId, sessionId, deps.clock.now(), new Date(deps.clock.now().getTime() - ATTEMPT_IN_FLIGHT_MS));
      if (!state) throw errors.notFound('Session', sessionId);
      if (state.free) {
        const attempt = await begin();
        if (attempt) return attempt;
      } else if (state.inFlight === 0) {
        const fresh = await loadSession(deps, deps.pool, clientId, sessionId);
        const refusal = refusalOf(fresh, deps.clock.now());
        if (refusal) throw errors.businessRule(refusal.code, refusal.message);
        // A place given back since the look: the next look takes it.
        if (!spent()) continue;
      }
      if (spent()) {
        throw errors.conflict('Payments of this session are in progress: try again in a moment', 'session_payments_in_progress');
      }
      if (state.free) continue;
      await ticket.wait(Math.max(1, Math.min(PLACE_WAIT.pollMs, PLACE_WAIT.budgetMs - (performance.now() - started))), signal);
    }
  } finally {
    ticket.leave();
  }
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
      ? "This token was made with a client key: a session is paid only with a token made with that session's publicKey (tokenize the buyer's card with X-Api-Key set to it)"
      : "This token was made for another session: a session is paid only with a token made with that session's publicKey",
  );
}

/**
 * An attempt whose call got no answer: marked so that the next final outcome its session's charge events bring is
 * counted with its place at once (the charge it may have made), and counted now when that outcome came first.
 */
async function answerLost(deps: SessionDeps, clientId: string, sessionId: string, attemptId: string): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    const current = await loadSession(deps, tx, clientId, sessionId, true);
    const now = deps.clock.now();
    if (!(await deps.store.markAnswerLost(tx, clientId, attemptId, now))) return;
    await countLostOutcome(deps, tx, current, now);
  }).catch((error: unknown) => {
    // The sweep settles the attempt all the same, later.
    deps.log.warn({ err: error, sessionId, attemptId }, 'could not note a session payment attempt without an answer');
  });
}
