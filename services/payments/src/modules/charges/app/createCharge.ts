import { randomUUID } from 'node:crypto';
import { checkBeforeChange, errors, jsonCodec, type Queryable, requestHash, requireClientId, withIdempotency, withTransaction } from '@platform/kit';
import type { CardData } from '../../vault/domain/card';
import { needsCard, type AntifraudState, type Charge, type ChargePaymentMethod, type ChargeSourceView, type TransactionRequestRecord } from '../domain/charge';
import { antifraudDeclinedCode } from '../domain/chargeChanges';
import { parseNewCharge, type ChargeRequest, type NewCharge, type NewChargeSource } from '../domain/newCharge';
import { platformFeeFor } from '../domain/platformFee';
import type { ChargeStatus } from '../domain/chargeStatus';
import { declinedCodeAfterTechnicalFailures, routeProviders, routingMetadataOf, type Route } from '../domain/routing';
import type { AuthorizeRequest } from '../../connectors/domain/types';
import { payerOf, type Payer } from '../../../shared/customersPort';
import { chargeEventRow, recordChargeEvent } from '../events/chargeEvents';
import type { CardSourceInput, MerchantForCharge } from '../../../shared/ports';
import type { ChargeDeps } from './deps';
import { derivedId } from './derivedId';
import { chargeRoutes, chargesTotal, providerEliminations, routeOrderings } from './metrics';
import { analyzeFraud, authorizeWithFailover } from './providerRequests';
import { markOfRequest, orderBySuccessRate } from '../domain/successRate';
import { successRateSettingsOf } from '../domain/successRateSettings';
import { loadOutcomes, type OutcomeScope } from '../store/outcomeStore';
import type { CardAttempt } from '../store/cardAttempts';
import type { AnsweredExtras, PreparedQueryable } from '../store/chargeStore';
import { SandboxProvider } from '../../connectors/sandbox/sandbox';
import { SandboxAntifraudProvider } from '../../connectors/sandbox/sandboxAntifraud';

export const CREATE_CHARGE_OPERATION = 'payments.charge.create';

/** The idempotency record keeps the answer as the kit's JSON of the domain result, as every payments operation does. */
const chargeCodec = jsonCodec<Charge>();

/**
 * With an idempotency key the charge id is derived from the client, the key and the request, so that a retry
 * that takes over an attempt which died before committing sends the providers the same per-attempt keys again
 * and they answer their first result instead of charging twice. A key reused after its record expired gets a
 * new id.
 */
async function chargeIdFor(deps: ChargeDeps, tx: Queryable, clientId: string, key: string | undefined, request: unknown): Promise<string> {
  if (!key) return randomUUID();
  const id = derivedId(clientId, key, CREATE_CHARGE_OPERATION, request);
  return (await deps.store.idTaken(tx, id)) ? randomUUID() : id;
}

/** The vault's view of where the card is: a customer source pays with the card it names. */
function cardSourceOf(source: NewChargeSource): CardSourceInput {
  const empty: CardSourceInput = { sourceType: 'card', cardId: '', cardCvv: '', tokenId: '' };
  switch (source.kind) {
    case 'token':
      return { ...empty, sourceType: 'token', tokenId: source.tokenId };
    case 'card':
      return { ...empty, cardId: source.cardId ?? '', cardCvv: source.cardCvv ?? '', ...(source.card ? { card: source.card } : {}) };
    case 'customer':
      return { ...empty, cardId: source.cardId ?? '', cardCvv: source.cardCvv ?? '' };
  }
}

function sourceView(input: NewCharge, card: CardData | undefined, cvvChecked: boolean): ChargeSourceView {
  return {
    sourceType: input.source.kind,
    ...(card?.cardId ? { cardId: card.cardId } : {}),
    ...(input.customerId ? { customerId: input.customerId } : {}),
    ...(card
      ? {
          brand: card.brand,
          first6digits: card.first6,
          last4digits: card.last4,
          cardHolderName: card.holderName,
          expirationMonth: card.expirationMonth,
          expirationYear: card.expirationYear,
          cvvChecked,
        }
      : {}),
    ...(input.source.kind === 'customer' && input.source.customer ? { customer: input.source.customer } : {}),
  };
}

function paymentProvidersOf(deps: ChargeDeps, merchant: MerchantForCharge) {
  const providers = merchant.providers.filter((p) => !deps.providers.isAntifraud(p.type));
  if (providers.length === 0) {
    throw errors.businessRule('merchant_without_provider', 'The merchant has no payment provider to route this charge to');
  }
  return providers;
}

interface Decision {
  status: ChargeStatus;
  declinedCode: string | null;
  capturedAmount: number;
  paymentMethod: ChargePaymentMethod;
  cvvChecked: boolean;
  provider: { id: string; type: string; name: string } | null;
  requests: TransactionRequestRecord[];
  antifraud: AntifraudState | null;
}

function outcomeScopeOf(clientId: string, merchantId: string, input: NewCharge, card: CardData | undefined): OutcomeScope {
  return { clientId, merchantId, paymentType: input.paymentMethod.paymentType, cardBrand: card?.brand.toLowerCase() ?? '' };
}

/**
 * A route in success_rate mode, ordered by its providers' latest outcomes (orderBySuccessRate) before it is tried;
 * its description says why, after the flow's: "flow rule 1; success rate: CIELO 92% of 50, REDE 88% of 40".
 */
async function bySuccessRate<P extends MerchantForCharge['providers'][number]>(
  deps: ChargeDeps,
  route: Route<P>,
  chargeId: string,
  scope: OutcomeScope,
  reads: Queryable,
): Promise<Route<P>> {
  const settings = successRateSettingsOf(deps.config);
  const outcomes = await loadOutcomes(
    reads,
    scope,
    route.providers.map((p) => p.id),
  );
  const types = route.providers.map((p) => p.type);
  const order = orderBySuccessRate(
    route.providers.map((p) => ({
      provider: p,
      // A type the route names twice is told apart by its entry's id.
      label: types.indexOf(p.type) === types.lastIndexOf(p.type) ? p.type : `${p.type} ${p.id}`,
      outcomes: outcomes.get(p.id)!,
    })),
    chargeId,
    deps.clock.now(),
    settings,
  );
  routeOrderings.inc({ reason: order.ranked.some((r) => r.probed) ? 'probe' : order.explored ? 'explore' : 'success_rate' });
  for (const ranked of order.ranked) {
    if (ranked.state !== 'in') providerEliminations.inc({ provider: ranked.provider.type, state: ranked.state });
  }
  return { ...route, providers: order.providers, description: `${route.description}; ${order.description}` };
}

/** The letters of a charge's authorization attempts, by provider entry, oldest first. */
function attemptMarks(requests: TransactionRequestRecord[]): Map<string, string> {
  const marks = new Map<string, string>();
  for (const request of requests) {
    const mark = markOfRequest(request);
    if (mark && request.providerId) marks.set(request.providerId, (marks.get(request.providerId) ?? '') + mark);
  }
  return marks;
}

async function decide(
  deps: ChargeDeps,
  chargeId: string,
  clientId: string,
  input: NewCharge,
  merchant: MerchantForCharge,
  card: CardData | undefined,
  payer: Payer | undefined,
  paymentFlow: Record<string, unknown> | undefined,
  inProcess?: { cardAttempts: CardAttempt[]; reads: Queryable },
): Promise<Decision> {
  const now = deps.clock.now();
  const decision: Decision = {
    status: 'failed',
    declinedCode: null,
    capturedAmount: 0,
    paymentMethod: { ...input.paymentMethod },
    cvvChecked: false,
    provider: null,
    requests: [],
    antifraud: null,
  };

  const routed = routeProviders(paymentProvidersOf(deps, merchant), merchant.flow, {
    chargeId,
    amount: input.amount,
    currency: input.currency,
    installments: input.paymentMethod.installments,
    paymentType: input.paymentMethod.paymentType,
    metadata: routingMetadataOf(paymentFlow),
    ...(card ? { cardBrand: card.brand, first6: card.first6 } : {}),
  });
  chargeRoutes.inc({ reason: routed.reason });
  const route = routed.mode === 'success_rate' ? await bySuccessRate(deps, routed, chargeId, outcomeScopeOf(clientId, merchant.id, input, card), inProcess?.reads ?? deps.pool) : routed;

  // The antifraud analysis comes before any authorization: a reproved charge never reaches a provider. The entry
  // the matching flow rule (or its split branch) names analyses it, else the merchant's first antifraud entry.
  const antifraudProviders = merchant.providers.filter((p) => deps.providers.isAntifraud(p.type));
  const antifraudProvider = input.fraudAnalysis
    ? (antifraudProviders.find((p) => p.id.toLowerCase() === route.antifraudProviderId?.toLowerCase()) ?? antifraudProviders[0])
    : undefined;
  if (antifraudProvider && input.fraudAnalysis) {
    const analysis = await analyzeFraud(deps, {
      clientId,
      provider: antifraudProvider,
      request: {
        chargeId,
        amount: input.amount,
        currency: input.currency,
        paymentType: input.paymentMethod.paymentType,
        fraudAnalysis: input.fraudAnalysis,
        ...(card ? { card: { brand: card.brand, first6: card.first6, last4: card.last4 } } : {}),
      },
    });
    decision.requests.push(analysis.request);
    decision.antifraud = { providerId: antifraudProvider.id, status: analysis.status, updatedAt: now.toISOString() };
    if (analysis.status === 'reproved' || analysis.status === 'failed') {
      decision.declinedCode = antifraudDeclinedCode(analysis.status);
      return decision;
    }
  }

  const { expiresIn, expiresDate, instructions } = input.paymentMethod;
  const request: AuthorizeRequest = {
    chargeId,
    merchantId: merchant.id,
    amount: input.amount,
    currency: input.currency,
    // A pending analysis only holds the money: the antifraud decision captures it or lets it go.
    capture: decision.antifraud?.status === 'pending' ? false : input.capture,
    paymentType: input.paymentMethod.paymentType,
    installments: input.paymentMethod.installments,
    ...(input.paymentMethod.recurrence ? { recurrence: input.paymentMethod.recurrence } : {}),
    ...(input.statementDescriptor ? { statementDescriptor: input.statementDescriptor } : {}),
    ...(card ? { card } : {}),
    ...(payer ? { payer } : {}),
    ...(input.paymentMethod.paymentType === 'pix' ? { pix: { expiresIn: expiresIn ?? 0 } } : {}),
    ...(input.paymentMethod.paymentType === 'boleto' ? { boleto: { expiresDate: expiresDate ?? '', ...(instructions ? { instructions } : {}) } } : {}),
  };
  const run = await authorizeWithFailover(deps, {
    clientId,
    route: route.providers,
    request,
    routingReason: route.description,
    ...(inProcess ?? {}),
  });
  decision.requests.push(...run.requests);
  decision.provider = { id: run.provider.id, type: run.provider.type, name: run.provider.name };
  const result = run.result;
  if (run.unresolved) {
    // Where the money is cannot be told yet: the charge says so (pending, its attempt processing) for the status sync.
    decision.status = 'pending';
    return decision;
  }
  if (!result) {
    decision.declinedCode = declinedCodeAfterTechnicalFailures(run.last);
    return decision;
  }
  switch (result.status) {
    case 'authorized':
      decision.status = result.captured ? 'authorized' : 'pre_authorized';
      decision.capturedAmount = result.captured ? input.amount : 0;
      decision.cvvChecked = result.cvvChecked;
      break;
    case 'pending':
      decision.status = 'pending';
      if (result.pix) {
        decision.paymentMethod.qrCodeData = result.pix.qrCodeData;
        decision.paymentMethod.qrCodeImageUrl = result.pix.qrCodeImageUrl;
        decision.paymentMethod.expiresAt = result.pix.expiresAt.toISOString();
      }
      if (result.boleto) {
        decision.paymentMethod.barcodeData = result.boleto.barcodeData;
        decision.paymentMethod.digitableLine = result.boleto.digitableLine;
        decision.paymentMethod.barcodeImageUrl = result.boleto.barcodeImageUrl;
        decision.paymentMethod.expiresDate = result.boleto.expiresDate;
      }
      break;
    case 'declined':
      decision.declinedCode = result.declinedCode;
      break;
    case 'canceled':
      decision.status = 'canceled';
      break;
  }
  return decision;
}

/** The charge as stored and answered, once its providers have decided it. */
function chargeOf(
  deps: Pick<ChargeDeps, 'clock'>,
  c: { chargeId: string; clientId: string; input: NewCharge; merchant: MerchantForCharge; platformFee: Charge['platformFee']; card: CardData | undefined; decision: Decision },
): Charge {
  const { chargeId, clientId, input, merchant, platformFee, card, decision } = c;
  const now = deps.clock.now();
  const created: Charge = {
    id: chargeId,
    clientId,
    merchantId: merchant.id,
    customerId: input.customerId,
    sessionId: input.sessionId,
    cardId: card?.cardId ?? null,
    amount: input.amount,
    originalAmount: input.amount,
    capturedAmount: decision.capturedAmount,
    refundedAmount: 0,
    currency: input.currency,
    orderId: input.orderId,
    statementDescriptor: input.statementDescriptor,
    description: input.description,
    capture: input.capture,
    isDispute: false,
    status: decision.status,
    paymentMethod: decision.paymentMethod,
    paymentSource: sourceView(input, card, decision.cvvChecked),
    splitRules: input.splitRules,
    platformFee,
    antifraud: decision.antifraud,
    appInfo: input.appInfo,
    fraudAnalysis: input.fraudAnalysis,
    providerId: decision.provider?.id ?? null,
    providerType: decision.provider?.type ?? null,
    providerName: decision.provider?.name ?? null,
    declinedCode: decision.declinedCode,
    transactionRequests: decision.requests,
    createdAt: now,
    updatedAt: now,
  };
  return created;
}

/**
 * Whether every provider of the merchant, payment and antifraud, answers in-process: the SANDBOX adapters
 * themselves, not an adapter made from them (which may wait on anything).
 */
function answersInProcess(deps: ChargeDeps, merchant: MerchantForCharge): boolean {
  const is = (adapter: object | undefined, type: abstract new (...args: never[]) => object) => adapter !== undefined && Object.getPrototypeOf(adapter) === type.prototype;
  return merchant.providers.every((p) =>
    deps.providers.isAntifraud(p.type) ? is(deps.providers.antifraud(p.type), SandboxAntifraudProvider) : is(deps.providers.payment(p.type), SandboxProvider),
  );
}

/** The key has a record, or the answered charge could not be written as claimed: the kit's path takes over. */
class TakeClaimingPath extends Error {}

/**
 * A charge whose providers all answer in-process, with nothing to write before they are asked (an inline card, or
 * no card), costs one transaction: the charge, its requests, its card's attempts and its idempotency answer in one
 * statement, with its event; its providers' outcomes go to the process's recorder once it commits (OutcomeRecorder).
 *
 * Without a key the providers are asked first, and the transaction opens only to write. With a key the transaction
 * opens first and claims the key (one statement, which also says whether the derived charge id is taken); the
 * providers are asked with it open (in-process: no network wait, a SANDBOX timeout card holds it for the provider
 * deadline) and the record is completed with the answer before the commit. Until then no one else sees the claim: a
 * request with the same key waits on it, then finds it done and is answered the replay.
 *
 * Undefined when the charge must take the claiming path (createCharge): a provider that may answer over the network
 * (its attempt is on record before it is asked), a card read from the vault or a token (used up before any provider
 * is asked), a key with checks of other services (a replay answers without asking them again), or a key that
 * already has a record (a replay, a retry in flight, an expired record). With a key every failure goes there too: the
 * transaction rolled back, so it runs the request again and records the failure as before; without one the failure
 * is the answer, as it always was.
 */
async function createAnsweredInProcess(
  deps: ChargeDeps,
  request: ChargeRequest & { clientId: string; paymentFlow?: Record<string, unknown> | undefined },
  clientId: string,
  input: NewCharge,
  idempotencyKey: string | undefined,
): Promise<Charge | undefined> {
  const withCard = needsCard(input.paymentMethod.paymentType);
  if (withCard && !(input.source.kind === 'card' && input.source.card)) return undefined;
  if (idempotencyKey && (input.customerId || input.splitRules.length > 0)) return undefined;
  let merchant: MerchantForCharge;
  try {
    merchant = await deps.merchants.loadForCharge(deps.pool, clientId, input.merchantId, input.paymentMethod.paymentType);
  } catch {
    // The claiming path asks in its own order and answers the failure.
    return undefined;
  }
  if (!answersInProcess(deps, merchant)) return undefined;

  const answer = async (chargeId: string, payer: Payer | undefined, reads: Queryable) => {
    paymentProvidersOf(deps, merchant);
    const platformFee = platformFeeFor(merchant, {
      amount: input.amount,
      paymentType: input.paymentMethod.paymentType,
      installments: input.paymentMethod.installments,
      splitRules: input.splitRules,
    });
    // An inline card: nothing is read or written.
    const card = withCard ? await deps.cards.resolve(reads, clientId, cardSourceOf(input.source), { chargeId, sessionId: input.sessionId }) : undefined;
    const cardAttempts: CardAttempt[] = [];
    const decision = await decide(deps, chargeId, clientId, input, merchant, card, payer, request.paymentFlow, { cardAttempts, reads });
    const created = chargeOf(deps, { chargeId, clientId, input, merchant, platformFee, card, decision });
    const extras = { cardAttempts, outcomeScope: outcomeScopeOf(clientId, merchant.id, input, card) };
    return { created, decision, extras };
  };
  // The charge, its requests, its card's attempts, its event (and the key's answer) in one statement: alone it is its
  // own transaction; with a key, the one that claimed the key.
  const write = async (db: PreparedQueryable, created: Charge, extras: { cardAttempts: CardAttempt[] }, idempotency?: AnsweredExtras['idempotency']) => {
    const event = chargeEventRow(created, created.createdAt);
    if (!(await deps.store.insertAnswered(db, created, { cardAttempts: extras.cardAttempts, event, ...(idempotency ? { idempotency } : {}) }))) throw new TakeClaimingPath();
  };
  const answered = (result: { created: Charge; decision: Decision; extras: { outcomeScope: OutcomeScope } }) => {
    chargesTotal.inc({ status: result.decision.status, method: input.paymentMethod.paymentType, provider: result.decision.provider?.type ?? 'none' });
    deps.outbox?.kick();
    // Committed: its outcomes join the recorder's next flush, not this charge's transaction.
    deps.outcomes.add(result.extras.outcomeScope, attemptMarks(result.created.transactionRequests), result.created.createdAt);
    return result.created;
  };

  if (!idempotencyKey) {
    try {
      let payer = payerOf(input.source.kind === 'customer' ? input.source.customer : undefined);
      if (input.customerId) payer = (await deps.customers.requireCustomer(clientId, input.customerId)) ?? payer;
      if (input.splitRules.length > 0) await deps.sellers.checkSplitReceivers(clientId, input.merchantId, input.splitRules.map((r) => r.sellerId));
      const result = await answer(randomUUID(), payer, deps.pool);
      await write(deps.pool, result.created, result.extras);
      return answered(result);
    } catch (error) {
      if (error instanceof TakeClaimingPath) return undefined;
      throw error;
    }
  }
  const key = idempotencyKey;
  try {
    const result = await withTransaction(deps.pool, async (tx) => {
      const derived = derivedId(clientId, key, CREATE_CHARGE_OPERATION, request);
      const claim = await deps.store.claimInTransaction(tx, {
        clientId,
        key,
        operation: CREATE_CHARGE_OPERATION,
        requestHash: requestHash(CREATE_CHARGE_OPERATION, request),
        chargeId: derived,
      });
      if (!claim.claimed) throw new TakeClaimingPath();
      // As chargeIdFor: a key reused after its record expired gets a new id.
      const chargeId = claim.taken ? randomUUID() : derived;
      const payer = payerOf(input.source.kind === 'customer' ? input.source.customer : undefined);
      const decided = await answer(chargeId, payer, tx);
      await write(tx, decided.created, decided.extras, { key, response: Buffer.from(chargeCodec.encode(decided.created)) });
      return decided;
    });
    return answered(result);
  } catch {
    return undefined;
  }
}

/**
 * Validates and claims the idempotency key; asks the customers service that the charge's customer, if it names
 * one, is the caller's (not_found otherwise), and sellers-and-reviews that the sellers of its split can receive
 * (422 `split_seller_*` otherwise); then loads the merchant and opens the card (in a short transaction when a token is
 * used up);
 * asks antifraud and the providers with no transaction open; and stores the charge, its transaction requests
 * and its event in the transaction that completes the idempotency record. A decline is a charge too (status
 * failed); only a card that fails before any provider is asked answers 402. A charge whose providers all answer
 * in-process takes one transaction instead (createAnsweredInProcess), with the same rows and answers.
 */
export async function createCharge(
  deps: ChargeDeps,
  // paymentFlow: what flow rules read (its metadata); it routes the charge and is not kept on it.
  request: ChargeRequest & { clientId: string; paymentFlow?: Record<string, unknown> | undefined },
  idempotencyKey?: string,
): Promise<Charge> {
  const clientId = requireClientId(request.clientId);
  const input = parseNewCharge(request, deps.clock.now());
  const answered = await createAnsweredInProcess(deps, request, clientId, input, idempotencyKey);
  if (answered) return answered;
  // The charge this call stored, if it did (a replay of the request stores nothing).
  let stored: Charge | undefined;
  const charge = await withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: CREATE_CHARGE_OPERATION, request, codec: chargeCodec },
    {
      prepare: async () => {
        // The customer is the caller's, and the sellers of the split can receive, or nothing is stored and no
        // provider is asked.
        // When one of them does not answer, the key is given up: nothing was done, and a retry runs again.
        let payer = payerOf(input.source.kind === 'customer' ? input.source.customer : undefined);
        await checkBeforeChange(async () => {
          if (input.customerId) payer = (await deps.customers.requireCustomer(clientId, input.customerId)) ?? payer;
          await deps.sellers.checkSplitReceivers(clientId, input.merchantId, input.splitRules.map((r) => r.sellerId));
        });
        const open = async (tx: Queryable) => {
          const merchant = await deps.merchants.loadForCharge(tx, clientId, input.merchantId, input.paymentMethod.paymentType);
          paymentProvidersOf(deps, merchant);
          const platformFee = platformFeeFor(merchant, {
            amount: input.amount,
            paymentType: input.paymentMethod.paymentType,
            installments: input.paymentMethod.installments,
            splitRules: input.splitRules,
          });
          const chargeId = await chargeIdFor(deps, tx, clientId, idempotencyKey, request);
          // A token is used up when this commits, before any provider is asked: it is single use whether or not
          // the charge succeeds. Only a retry of this same charge (same id) may open it again.
          const card = needsCard(input.paymentMethod.paymentType)
            ? await deps.cards.resolve(tx, clientId, cardSourceOf(input.source), { chargeId, sessionId: input.sessionId })
            : undefined;
          return { merchant, platformFee, chargeId, card };
        };
        // Only a token is written to (used up) while opening; otherwise the reads need no transaction of their own.
        const usesToken = needsCard(input.paymentMethod.paymentType) && input.source.kind === 'token';
        const opened = usesToken ? await withTransaction(deps.pool, open) : await open(deps.pool);
        const { merchant, platformFee, chargeId, card } = opened;
        const decision = await decide(deps, chargeId, clientId, input, merchant, card, payer, request.paymentFlow);
        chargesTotal.inc({ status: decision.status, method: input.paymentMethod.paymentType, provider: decision.provider?.type ?? 'none' });
        return chargeOf(deps, { chargeId, clientId, input, merchant, platformFee, card, decision });
      },
      commit: async (tx, created) => {
        await deps.store.insert(tx, created);
        await recordChargeEvent(tx, created, created.createdAt);
        stored = created;
        return created;
      },
    },
  );
  deps.outbox?.kick();
  if (stored) recordAttempts(deps, stored);
  return charge;
}

/**
 * What each provider answered feeds success-rate routing, once per stored charge, right after it commits: the
 * process's recorder appends it to the windows with the other charges' in its next flush (OutcomeRecorder).
 */
function recordAttempts(deps: ChargeDeps, charge: Charge): void {
  const scope = { clientId: charge.clientId, merchantId: charge.merchantId, paymentType: charge.paymentMethod.paymentType, cardBrand: charge.paymentSource.brand?.toLowerCase() ?? '' };
  deps.outcomes.add(scope, attemptMarks(charge.transactionRequests), charge.createdAt);
}
