import { randomUUID } from 'node:crypto';
import { SandboxProvider } from '../../src/modules/connectors/sandbox/sandbox';
import { ProviderUnavailableError, type AuthorizeResult } from '../../src/modules/connectors/domain/types';
import {
  cardCharge,
  cardNumberEnding,
  chargeCount,
  chargeEventsOf,
  createMerchant,
  providerIdOf,
  startCharges,
  type RunningCharges,
} from '../support/charges';

/**
 * Cascading through the service: a soft decline (retry_other_provider) moves the charge on to the next provider
 * within CASCADE_MAX_EXTRA_ATTEMPTS and the card brand's retry rules; hard declines and "retry later" stop at once.
 * The SANDBOX cards: ending 1 approves, 72 card_not_supported (retry_other_provider), 32 lost_card (do_not_retry),
 * 02 insufficient_funds (retry_later).
 */

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

afterEach(() => {
  jest.restoreAllMocks();
});

const ELO = '636368';
const names = ['first', 'second', 'third', 'fourth'];

async function merchantWith(clientId: string, count: number) {
  return createMerchant(running.client, clientId, names.slice(0, count).map((name, i) => ({ name, priority: i + 1 })));
}

const authorizations = <R extends { requestType: string }>(charge: { transactionRequests: R[] }): R[] =>
  charge.transactionRequests.filter((r) => r.requestType === 'authorization');

/** The first provider asked declines softly (a generic refusal another acquirer may approve); the others answer as the SANDBOX does. */
function softDeclineAtFirst(decision: 'retry_other_provider' | 'do_not_retry' = 'retry_other_provider') {
  const original = SandboxProvider.prototype.authorize;
  return jest.spyOn(SandboxProvider.prototype, 'authorize').mockImplementation(function (this: SandboxProvider, request, call) {
    if (call.idempotencyKey.endsWith(':authorization:1')) {
      const declined: AuthorizeResult = { status: 'declined', declinedCode: 'generic', decision, message: 'Declined by SANDBOX: generic', networkResponseCode: '05' };
      return Promise.resolve(declined);
    }
    return original.call(this, request, call);
  });
}

describe('cascade: a soft decline at one provider approved at the next, in one charge', () => {
  it('approves at the second provider, records why it was tried, and stores one charge with one event of each kind', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId, 3);
    softDeclineAtFirst();
    const idempotencyKey = randomUUID();
    const request = cardCharge(clientId, merchant.id, cardNumberEnding('1'));
    const charge = await running.client.createCharge(request, { idempotencyKey });

    expect(charge.status).toBe('authorized');
    expect(charge.providerId).toBe(providerIdOf(merchant, 'second'));
    expect(authorizations(charge).map((r) => [r.providerId, r.requestStatus, r.declinedCode, r.routingReason])).toEqual([
      [providerIdOf(merchant, 'first'), 'declined', 'generic', 'priority'],
      [providerIdOf(merchant, 'second'), 'success', '', 'priority; cascade after SANDBOX declined generic (retry_other_provider)'],
    ]);

    // The same request again answers the same charge: no provider is asked again, nothing is stored twice.
    const authorize = jest.spyOn(SandboxProvider.prototype, 'authorize');
    authorize.mockClear();
    const replay = await running.client.createCharge(request, { idempotencyKey });
    expect(replay.id).toBe(charge.id);
    expect(authorize).not.toHaveBeenCalled();
    expect(await chargeCount(running.pool, clientId)).toBe(1);

    const subjects = (await chargeEventsOf(running.pool, clientId)).map((e) => e.subject);
    expect(subjects.length).toBeGreaterThan(0);
    expect(new Set(subjects).size).toBe(subjects.length);
  });

  it('emits the same events as a charge approved at once', async () => {
    const cascadedClient = randomUUID();
    softDeclineAtFirst();
    const cascaded = await running.client.createCharge(cardCharge(cascadedClient, (await merchantWith(cascadedClient, 2)).id, cardNumberEnding('1')));
    jest.restoreAllMocks();
    const plainClient = randomUUID();
    const plain = await running.client.createCharge(cardCharge(plainClient, (await merchantWith(plainClient, 2)).id, cardNumberEnding('1')));
    expect(authorizations(cascaded)).toHaveLength(2);
    expect(authorizations(plain)).toHaveLength(1);
    const subjectsOf = async (clientId: string) => (await chargeEventsOf(running.pool, clientId)).map((e) => e.subject);
    expect(await subjectsOf(cascadedClient)).toEqual(await subjectsOf(plainClient));
  });

  it('does not move on when the connector decides do_not_retry for the same refusal (as a Mastercard advice code 03 makes it)', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId, 2);
    softDeclineAtFirst('do_not_retry');
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(charge.status).toBe('failed');
    expect(charge.declinedCode).toBe('generic');
    expect(authorizations(charge)).toHaveLength(1);
  });
});

describe('cascade: a soft decline, then a provider that does not answer', () => {
  it('answers the charge with the decline, not with a timeout', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId, 2);
    jest.spyOn(SandboxProvider.prototype, 'authorize').mockImplementation((_request, call) => {
      if (call.idempotencyKey.endsWith(':authorization:1')) {
        const declined: AuthorizeResult = { status: 'declined', declinedCode: 'card_not_supported', decision: 'retry_other_provider', message: 'Declined by SANDBOX' };
        return Promise.resolve(declined);
      }
      return Promise.reject(new ProviderUnavailableError('ECONNREFUSED'));
    });
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(charge.status).toBe('failed');
    expect(charge.declinedCode).toBe('card_not_supported');
    expect(charge.providerId).toBe(providerIdOf(merchant, 'first'));
    expect(authorizations(charge).map((r) => r.requestStatus)).toEqual(['declined', 'failed']);
  });
});

describe('cascade: declines that stop at once', () => {
  it.each([
    ['32', 'lost_card'],
    ['02', 'insufficient_funds'],
    ['3', 'expired_card'],
  ])('a card ending %s (%s) is asked of one provider only', async (suffix, code) => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId, 3);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding(suffix)));
    expect(charge.status).toBe('failed');
    expect(charge.declinedCode).toBe(code);
    expect(authorizations(charge).map((r) => r.providerId)).toEqual([providerIdOf(merchant, 'first')]);
  });
});

describe('cascade: the cap and the brand rules', () => {
  it('tries at most CASCADE_MAX_EXTRA_ATTEMPTS (2) more providers after soft declines', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId, 4);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('72')));
    expect(charge.status).toBe('failed');
    expect(charge.declinedCode).toBe('card_not_supported');
    expect(authorizations(charge).map((r) => r.providerId)).toEqual(['first', 'second', 'third'].map((n) => providerIdOf(merchant, n)));
    expect(charge.providerId).toBe(providerIdOf(merchant, 'third'));
  });

  it('never retries a category the brand forbids (Elo: card not supported)', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId, 3);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('72', ELO)));
    expect(charge.paymentSource?.brand).toBe('elo');
    expect(charge.declinedCode).toBe('card_not_supported');
    expect(authorizations(charge)).toHaveLength(1);
  });

  it('does not retry a Visa card past 15 failed attempts in 30 days, and retries it again once they are older', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId, 3);
    const card = cardNumberEnding('72');
    const start = new Date('2026-05-01T12:00:00Z');
    running.clock.set(start);
    // Five charges of three declined attempts each: 15 failed attempts of the same card.
    for (let i = 0; i < 5; i++) {
      const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, card));
      expect([i, authorizations(charge).length]).toEqual([i, 3]);
    }
    const limited = await running.client.createCharge(cardCharge(clientId, merchant.id, card));
    expect(authorizations(limited)).toHaveLength(1);
    expect(limited.declinedCode).toBe('card_not_supported');

    // Another card of the same client is not affected.
    const other = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('72')));
    expect(authorizations(other)).toHaveLength(3);

    // Thirty days later the attempts no longer count.
    running.clock.set(new Date(start.getTime() + 31 * 86_400_000));
    const later = await running.client.createCharge(cardCharge(clientId, merchant.id, card));
    expect(authorizations(later)).toHaveLength(3);
  });

  it('fails over providers known to have done nothing up to CASCADE_MAX_TECHNICAL_ATTEMPTS, and counts them as attempts of the card', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId, 4);
    const original = SandboxProvider.prototype.authorize;
    jest.spyOn(SandboxProvider.prototype, 'authorize').mockImplementation(function (this: SandboxProvider, request, call) {
      if (!call.idempotencyKey.endsWith(':authorization:4')) return Promise.reject(new ProviderUnavailableError('ECONNREFUSED'));
      return original.call(this, request, call);
    });
    const card = cardNumberEnding('1');
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, card));
    // Three providers tried after technical failures (the default cap): the fourth is never asked.
    expect(charge.status).toBe('failed');
    expect(charge.declinedCode).toBe('try_again');
    expect(authorizations(charge).map((r) => r.requestStatus)).toEqual(['failed', 'failed', 'failed']);
    const { rows } = await running.pool.query<{ outcome: string; n: number }>(
      `SELECT outcome, count(*)::int AS n FROM card_authorization_attempts WHERE charge_id = $1 GROUP BY outcome`,
      [charge.id],
    );
    expect(rows).toEqual([{ outcome: 'failed', n: 3 }]);
  });
});
