import { randomUUID } from 'node:crypto';
import { AppError, type Queryable } from '@platform/kit';
import type { AntifraudStatus, Charge, RequestStatus, RequestType, SellerAmount, TransactionRequestRecord } from '../domain/charge';
import { BRAND_RETRY_WINDOW_DAYS } from '../domain/brandRetryRules';
import { CASCADE_MAX_EXTRA_ATTEMPTS_DEFAULT, CASCADE_MAX_TECHNICAL_ATTEMPTS_DEFAULT, TECHNICAL_DECLINE_CODES, cascadeVerdict, classifyAttempt, decisionOf, type AttemptOutcome } from '../domain/cascade';
import { failedCardAttemptsSince, recordCardAttempt, type CardAttempt } from '../store/cardAttempts';
import { callWithTimeout, type CallOutcome } from '../../connectors/app/call';
import type { AntifraudRequest, AuthorizeRequest, AuthorizeResult, OperationResult, ProviderCall } from '../../connectors/domain/types';
import type { RoutableProvider } from '../../../shared/ports';
import type { ChargeDeps } from './deps';
import { providerFailovers, providerSeconds } from './metrics';

/**
 * Every request to a provider goes through here: it gets its idempotency key and its deadline, and becomes one
 * transaction request record whatever happened.
 */

/** Derived, not random: the same attempt of the same charge always sends the same key. */
export function requestKey(chargeId: string, type: RequestType, attempt: number): string {
  return `${chargeId}:${type}:${attempt}`;
}

/** The next attempt number of a request type on a charge (captures, voids and refunds count separately). */
export function nextAttempt(charge: Pick<Charge, 'transactionRequests'>, type: RequestType): number {
  return charge.transactionRequests.filter((r) => r.requestType === type).length + 1;
}

interface RecordInput {
  chargeId: string;
  clientId: string;
  idempotencyKey: string;
  provider: { id: string | null; type: string };
  type: RequestType;
  amount: number;
  at: Date;
  status: RequestStatus;
  responseMs: number;
  transactionId?: string;
  nsu?: string;
  networkAuthorizationCode?: string;
  networkResponseCode?: string;
  declinedCode?: string;
  message?: string;
  splitRules?: SellerAmount[] | null;
}

function record(input: RecordInput): TransactionRequestRecord {
  return {
    id: randomUUID(),
    chargeId: input.chargeId,
    clientId: input.clientId,
    idempotencyKey: input.idempotencyKey,
    providerId: input.provider.id,
    providerType: input.provider.type,
    transactionId: input.transactionId ?? null,
    amount: input.amount,
    authorizationNsu: input.nsu ?? null,
    requestStatus: input.status,
    requestType: input.type,
    responseMs: input.responseMs,
    networkAuthorizationCode: input.networkAuthorizationCode ?? null,
    networkResponseCode: input.networkResponseCode ?? null,
    declinedCode: input.declinedCode ?? null,
    message: input.message ?? null,
    splitRules: input.splitRules ?? null,
    createdAt: input.at,
    updatedAt: input.at,
  };
}

async function call<T>(
  deps: Pick<ChargeDeps, 'config'>,
  provider: RoutableProvider,
  operation: RequestType,
  idempotencyKey: string,
  adapterMissing: boolean,
  run: (call: ProviderCall) => Promise<T>,
  timeoutMs: number = deps.config.PROVIDER_TIMEOUT_MS,
): Promise<CallOutcome<T>> {
  if (adapterMissing) return { ok: false, failure: 'unavailable', message: `no adapter serves provider type ${provider.type}`, ms: 0 };
  const result = await callWithTimeout(timeoutMs, (signal) =>
    run({ idempotencyKey, signal, credentials: provider.credentials, options: provider.options }),
  );
  providerSeconds.observe({ provider: provider.type, operation, outcome: result.ok ? 'answered' : result.failure }, result.ms / 1000);
  return result;
}

// ---------------------------------------------------------------- authorization with failover

function outcomeOf(result: CallOutcome<AuthorizeResult>): AttemptOutcome {
  if (!result.ok) return { kind: result.failure };
  const answer = result.value;
  if (answer.status !== 'declined') return { kind: answer.status };
  return { kind: 'declined', declinedCode: answer.declinedCode, ...(answer.decision ? { decision: answer.decision } : {}) };
}

function authorizationRecord(
  base: Omit<RecordInput, 'status' | 'responseMs'>,
  result: CallOutcome<AuthorizeResult>,
  outcome: AttemptOutcome,
  foundAfter?: string,
): TransactionRequestRecord {
  if (!result.ok) return record({ ...base, status: 'failed', responseMs: result.ms, message: result.message });
  const answer = result.value;
  const common = { ...base, responseMs: result.ms, transactionId: answer.transactionId };
  const found = (message: string) => (foundAfter === undefined ? message : `${message} (found by lookup after ${foundAfter})`);
  switch (answer.status) {
    case 'authorized':
      return record({
        ...common,
        status: 'success',
        nsu: answer.nsu,
        networkAuthorizationCode: answer.networkAuthorizationCode,
        networkResponseCode: answer.networkResponseCode,
        message: found(answer.captured ? 'authorized' : 'pre-authorized'),
      });
    case 'pending':
      return record({ ...common, status: 'success', message: found('pending payment') });
    case 'declined':
      return record({
        ...common,
        // The acquirer could not decide (try_again, issuer_not_available): no answer of the issuer, a failed request.
        status: outcome.kind === 'declined' && TECHNICAL_DECLINE_CODES.includes(outcome.declinedCode) ? 'failed' : 'declined',
        declinedCode: answer.declinedCode,
        networkResponseCode: answer.networkResponseCode,
        message: found(answer.message),
      });
    case 'canceled':
      return record({ ...common, status: 'declined', message: found(answer.message) });
  }
}

export interface AuthorizationRun {
  /** One per provider tried, in order. */
  requests: TransactionRequestRecord[];
  /** The provider whose answer decides the charge; the last one tried when every one failed technically. */
  provider: RoutableProvider;
  /** The deciding answer; absent when every provider failed technically. */
  result?: AuthorizeResult;
  last?: AttemptOutcome;
  /**
   * The last attempt's outcome is unknown and its lookup could not tell (or its adapter has none): the cascade stopped
   * there, the attempt is `processing` and the charge stays pending for the status sync.
   */
  unresolved?: boolean;
}

/** What is left of a charge's time at its providers: each attempt leaves room for the lookup of an unknown outcome. */
function attemptDeadlines(config: ChargeDeps['config'], remainingMs: number): { attemptMs: number; lookupMs: number } {
  const timeout = config.PROVIDER_TIMEOUT_MS;
  const attemptMs = Math.max(1, Math.min(timeout, Math.floor(remainingMs / 2)));
  return { attemptMs, lookupMs: Math.max(1, Math.min(timeout, remainingMs - attemptMs)) };
}

const DAY_MS = 86_400_000;

/**
 * Tries the providers in the order routing gave until one answers for real (domain/cascade.ts):
 * - a technical failure (no answer in time, unreachable) moves on, as many times as the route has providers;
 * - a decline whose decision is `retry_other_provider` (a soft decline: try_again, issuer_not_available, a generic
 *   refusal another acquirer may approve) moves on within CASCADE_MAX_EXTRA_ATTEMPTS extra attempts and the card
 *   brand's retry rules (the card's declined or failed attempts over 30 days, by fingerprint across the client);
 *   the next attempt's routingReason says why ("priority; cascade after CIELO declined generic
 *   (retry_other_provider)");
 * - an approval, a pending payment, a cancellation, a `do_not_retry` or `retry_later` decline stops.
 * Every attempt with a card is recorded for the brand rules (store/cardAttempts.ts) as it is answered. A provider
 * whose adapter does not take the charge's payment type is never asked: the skip is recorded (failed,
 * `skipped: <TYPE> does not take <paymentType>`, 0 ms) and the next one is tried.
 *
 * With `cardAttempts`, the card's attempts are collected there instead, for the caller to write with the charge (a
 * route whose providers answer in-process, where nothing can be lost between the answer and the charge's write);
 * the brand rules then count them as if they were already stored. `reads`: where the brand rules read them (the
 * caller's transaction when it holds one, so that a charge never waits for a second connection).
 */
export async function authorizeWithFailover(
  deps: Pick<ChargeDeps, 'providers' | 'config' | 'clock' | 'pool'>,
  input: { clientId: string; route: RoutableProvider[]; request: AuthorizeRequest; routingReason?: string; cardAttempts?: CardAttempt[]; reads?: Queryable },
): Promise<AuthorizationRun> {
  const requests: TransactionRequestRecord[] = [];
  // Each attempt says why its provider was tried at its place: the route's reason ("flow rule 2", "priority"), and
  // after a soft decline the cascade that led to it.
  let reason = input.routingReason;
  const reasoned = (r: TransactionRequestRecord): TransactionRequestRecord => (reason === undefined ? r : { ...r, routingReason: reason });
  const card = input.request.card;
  let extraAttempts = 0;
  let last: AttemptOutcome | undefined;
  // The last decline answered, the charge's answer when a later provider then fails technically.
  let lastDecline: { provider: RoutableProvider; result: AuthorizeResult; last: AttemptOutcome } | undefined;
  // The charge's time budget (CHARGE_TIME_BUDGET_MS, on the injected clock) and the cap on technical failovers.
  const startedAt = deps.clock.now().getTime();
  const budgetMs = deps.config.CHARGE_TIME_BUDGET_MS ?? 12_000;
  const maxTechnical = deps.config.CASCADE_MAX_TECHNICAL_ATTEMPTS ?? CASCADE_MAX_TECHNICAL_ATTEMPTS_DEFAULT;
  let technicalAttempts = 0;
  let lastAsked: RoutableProvider | undefined;
  for (const [index, provider] of input.route.entries()) {
    const idempotencyKey = requestKey(input.request.chargeId, 'authorization', index + 1);
    const adapter = deps.providers.payment(provider.type);
    const at = deps.clock.now();
    if (adapter?.paymentTypes && !adapter.paymentTypes.includes(input.request.paymentType)) {
      requests.push(
        reasoned(record({
          chargeId: input.request.chargeId,
          clientId: input.clientId,
          idempotencyKey,
          provider: { id: provider.id, type: provider.type },
          type: 'authorization',
          amount: input.request.amount,
          at,
          status: 'failed',
          responseMs: 0,
          message: `skipped: ${provider.type} does not take ${input.request.paymentType}`,
        })),
      );
      // A skip says nothing of the providers: an earlier one's failure, if any, still names the charge's decline.
      last ??= { kind: 'unavailable' };
      continue;
    }
    const remainingMs = budgetMs - (at.getTime() - startedAt);
    if (technicalAttempts >= maxTechnical || remainingMs <= 0) break;
    const { attemptMs, lookupMs } = attemptDeadlines(deps.config, remainingMs);
    lastAsked = provider;
    const base = {
      chargeId: input.request.chargeId,
      clientId: input.clientId,
      idempotencyKey,
      provider: { id: provider.id, type: provider.type },
      type: 'authorization' as const,
      amount: input.request.amount,
      at,
    };
    let result = await call(deps, provider, 'authorization', idempotencyKey, !adapter, (c) => adapter!.authorize(input.request, c), attemptMs);
    let foundAfter: string | undefined;
    if (!result.ok && result.failure === 'unknown') {
      // The provider may have made the sale: ask it, by the same request and the same call, before anything else.
      const fault = result.message;
      const lookup = adapter?.lookup
        ? await call(deps, provider, 'authorization', idempotencyKey, false, (c) => adapter.lookup!({ authorization: input.request, now: deps.clock.now() }, c), lookupMs)
        : undefined;
      if (lookup?.ok && lookup.value.found) {
        result = { ok: true, value: lookup.value.result, ms: result.ms + lookup.ms };
        foundAfter = fault;
      } else if (lookup?.ok) {
        result = { ok: false, failure: 'unavailable', message: `not found at the provider after ${fault}`, ms: result.ms + lookup.ms };
      } else {
        const why = lookup ? `the lookup could not tell: ${lookup.message}` : `${provider.type} has no lookup`;
        requests.push(reasoned(record({ ...base, status: 'processing', responseMs: result.ms + (lookup?.ms ?? 0), message: `${fault}; ${why}` })));
        return { requests, provider, last: { kind: 'unknown' }, unresolved: true };
      }
    }
    const outcome = outcomeOf(result);
    last = outcome;
    requests.push(reasoned(authorizationRecord(base, result, outcome, foundAfter)));
    const kind = classifyAttempt(outcome);
    if (card && (outcome.kind === 'declined' || kind === 'technical')) {
      const attempt: CardAttempt = {
        idempotencyKey,
        clientId: input.clientId,
        cardFingerprint: card.fingerprint,
        cardBrand: card.brand,
        chargeId: input.request.chargeId,
        providerType: provider.type,
        outcome: outcome.kind === 'declined' ? 'declined' : 'failed',
        declinedCode: outcome.kind === 'declined' ? outcome.declinedCode : null,
        decision: outcome.kind === 'declined' ? decisionOf(outcome) : null,
        attemptedAt: at,
      };
      if (input.cardAttempts) input.cardAttempts.push(attempt);
      else await recordCardAttempt(deps.pool, attempt);
    }
    const more = index < input.route.length - 1;
    if (kind === 'technical') {
      technicalAttempts += 1;
      if (more) providerFailovers.inc({ provider: provider.type });
      continue;
    }
    if (!result.ok) continue;
    if (kind === 'final' || outcome.kind !== 'declined' || !more) return { requests, provider, result: result.value, last };
    const verdict = cascadeVerdict({
      providerType: provider.type,
      declinedCode: outcome.declinedCode,
      decision: decisionOf(outcome),
      extraAttemptsSoFar: extraAttempts,
      maxExtraAttempts: deps.config.CASCADE_MAX_EXTRA_ATTEMPTS ?? CASCADE_MAX_EXTRA_ATTEMPTS_DEFAULT,
      ...(card
        ? {
            card: {
              brand: card.brand,
              failedAttempts:
                (await failedCardAttemptsSince(input.reads ?? deps.pool, input.clientId, card.fingerprint, new Date(at.getTime() - BRAND_RETRY_WINDOW_DAYS * DAY_MS))) +
                (input.cardAttempts?.length ?? 0),
            },
          }
        : {}),
    });
    if (!verdict.cascade) return { requests, provider, result: result.value, last };
    extraAttempts += 1;
    lastDecline = { provider, result: result.value, last: outcome };
    reason = input.routingReason === undefined ? verdict.reason : `${input.routingReason}; ${verdict.reason}`;
    providerFailovers.inc({ provider: provider.type });
  }
  if (lastDecline && last?.kind !== 'declined') return { requests, ...lastDecline };
  return { requests, provider: lastAsked ?? input.route.at(-1)!, last };
}

// ---------------------------------------------------------------- antifraud

export async function analyzeFraud(
  deps: Pick<ChargeDeps, 'providers' | 'config' | 'clock'>,
  input: { clientId: string; provider: RoutableProvider; request: AntifraudRequest },
): Promise<{ status: AntifraudStatus; request: TransactionRequestRecord }> {
  const idempotencyKey = requestKey(input.request.chargeId, 'antifraud', 1);
  const adapter = deps.providers.antifraud(input.provider.type);
  const at = deps.clock.now();
  const result = await call(deps, input.provider, 'antifraud', idempotencyKey, !adapter, (c) => adapter!.analyze(input.request, c));
  const base = {
    chargeId: input.request.chargeId,
    clientId: input.clientId,
    idempotencyKey,
    provider: { id: input.provider.id, type: input.provider.type },
    type: 'antifraud' as const,
    amount: input.request.amount,
    at,
    responseMs: result.ms,
  };
  // An analysis that could not be made protects nothing: it counts as failed.
  if (!result.ok) return { status: 'failed', request: record({ ...base, status: 'failed', message: result.message }) };
  const { status, transactionId, message } = result.value;
  const requestStatus: RequestStatus = status === 'reproved' ? 'declined' : status === 'failed' ? 'failed' : 'success';
  return {
    status,
    request: record({
      ...base,
      status: requestStatus,
      transactionId,
      message: message ?? `analysis ${status}`,
      ...(status === 'reproved' ? { declinedCode: 'fraud_suspect' } : {}),
    }),
  };
}

// ---------------------------------------------------------------- capture, void, refund

/** A provider refused or did not answer a capture, void or refund: nothing changed, and the request is on record. */
export class ProviderRequestFailedError extends AppError {
  constructor(readonly request: TransactionRequestRecord) {
    super('business_rule', `The provider did not ${request.requestType} the charge: ${request.message ?? 'failed'}`, {
      businessCode: 'provider_request_failed',
    });
  }
}

/** The provider that authorized the charge, with its credentials; undefined when the merchant no longer has it. */
export async function providerOfCharge(deps: Pick<ChargeDeps, 'merchants'>, db: Queryable, charge: Charge): Promise<RoutableProvider | undefined> {
  if (!charge.providerId) return undefined;
  try {
    const merchant = await deps.merchants.loadForCharge(db, charge.clientId, charge.merchantId, charge.paymentMethod.paymentType);
    return merchant.providers.find((p) => p.id === charge.providerId);
  } catch (error) {
    if (error instanceof AppError && error.kind === 'not_found') return undefined;
    throw error;
  }
}

function authorizationTransactionId(charge: Charge): string | undefined {
  const approved = charge.transactionRequests.filter((r) => r.requestType === 'authorization' && r.requestStatus === 'success');
  return approved.at(-1)?.transactionId ?? undefined;
}

/**
 * The pending request that reserves a capture, void or refund on a charge. Its key counts every request of its
 * type, the pending ones included, so requests reserved at the same time get distinct keys.
 */
export function reservedRequest(
  deps: Pick<ChargeDeps, 'clock'>,
  charge: Charge,
  pending: TransactionRequestRecord[],
  input: { id?: string; type: 'capture' | 'void' | 'refund'; amount: number; splitRules?: SellerAmount[] | null },
): TransactionRequestRecord {
  const { type, amount } = input;
  return {
    ...record({
      chargeId: charge.id,
      clientId: charge.clientId,
      idempotencyKey: requestKey(charge.id, type, nextAttempt({ transactionRequests: [...charge.transactionRequests, ...pending] }, type)),
      provider: { id: charge.providerId, type: charge.providerType ?? 'UNKNOWN' },
      type,
      amount,
      at: deps.clock.now(),
      status: 'pending',
      responseMs: 0,
      splitRules: input.splitRules ?? null,
    }),
    ...(input.id ? { id: input.id } : {}),
  };
}

/**
 * Asks the charge's provider to do a reserved capture, void (cancel what was not captured) or refund, with the
 * reservation's key: asking again after a crash gets the provider's first answer. Answers the request as it is
 * to be settled, and what the provider did: `done`, `failed` (the caller decides what that means) or `pending`
 * (it took the operation and settles it later: the request stays pending, with the provider's transaction id and
 * message). No transaction may be open here: the merchant's providers are read on a connection of their own.
 */
export type ProviderAnswer = 'done' | 'failed' | 'pending';

export async function askProvider(
  deps: Pick<ChargeDeps, 'providers' | 'config' | 'clock' | 'merchants' | 'pool'>,
  charge: Charge,
  reserved: TransactionRequestRecord,
): Promise<{ outcome: ProviderAnswer; request: TransactionRequestRecord }> {
  const type = reserved.requestType;
  if (type !== 'capture' && type !== 'void' && type !== 'refund') throw new Error(`a ${type} request is not an operation on a charge`);
  const settled = (fields: Partial<TransactionRequestRecord>): TransactionRequestRecord => ({ ...reserved, ...fields, updatedAt: deps.clock.now() });
  const provider = await providerOfCharge(deps, deps.pool, charge);
  const transactionId = authorizationTransactionId(charge);
  if (!provider || !transactionId) {
    const message = !provider ? 'the provider of this charge is no longer configured' : 'the charge has no authorization at its provider';
    return { outcome: 'failed', request: settled({ requestStatus: 'failed', message }) };
  }
  const adapter = deps.providers.payment(provider.type);
  const operation = { chargeId: charge.id, transactionId, amount: reserved.amount, currency: charge.currency };
  const result: CallOutcome<OperationResult> = await call(deps, provider, type, reserved.idempotencyKey, !adapter, (c) =>
    type === 'capture' ? adapter!.capture(operation, c) : type === 'void' ? adapter!.cancel(operation, c) : adapter!.refund(operation, c),
  );
  if (!result.ok) return { outcome: 'failed', request: settled({ requestStatus: 'failed', responseMs: result.ms, message: result.message }) };
  const answer = result.value;
  if (answer.status === 'pending') {
    return {
      outcome: 'pending',
      request: settled({
        requestStatus: 'pending',
        responseMs: result.ms,
        transactionId: answer.transactionId ?? transactionId,
        message: answer.message ?? `${type} pending at the provider`,
      }),
    };
  }
  if (answer.status === 'failed') {
    return {
      outcome: 'failed',
      request: settled({
        requestStatus: 'failed',
        responseMs: result.ms,
        transactionId,
        message: answer.message,
        declinedCode: answer.declinedCode ?? null,
      }),
    };
  }
  return {
    outcome: 'done',
    request: settled({
      requestStatus: 'success',
      responseMs: result.ms,
      transactionId: answer.transactionId ?? transactionId,
      authorizationNsu: answer.nsu ?? null,
      networkAuthorizationCode: answer.networkAuthorizationCode ?? null,
      networkResponseCode: answer.networkResponseCode ?? null,
      message: `${type} done`,
    }),
  };
}
