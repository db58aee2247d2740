import { randomUUID } from 'node:crypto';
import { SandboxProvider } from '../../src/modules/connectors/sandbox/sandbox';
import { ProviderOutcomeUnknownError, ProviderUnavailableError, type AuthorizeResult, type LookupResult } from '../../src/modules/connectors/domain/types';
import { cardCharge, cardNumberEnding, createMerchant, providerIdOf, startCharges, type RunningCharges } from '../support/charges';

/**
 * An authorization whose outcome is unknown (a 5xx after the sale, a reset, an unreadable answer) is never taken for a
 * failure: it is looked up at its provider by the same request and call before the charge moves on.
 */

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

const sandboxLookup = SandboxProvider.prototype.lookup;

afterEach(() => {
  jest.restoreAllMocks();
  SandboxProvider.prototype.lookup = sandboxLookup;
});

const authorizations = <R extends { requestType: string }>(charge: { transactionRequests: R[] }): R[] =>
  charge.transactionRequests.filter((r) => r.requestType === 'authorization');

async function merchantWith(clientId: string) {
  return createMerchant(running.client, clientId, [
    { name: 'first', priority: 1 },
    { name: 'second', priority: 2 },
  ]);
}

/** The first provider's answer is lost after the sale; its lookup answers `found`. */
function lostAtFirst(found: (key: string) => Promise<LookupResult>) {
  const original = SandboxProvider.prototype.authorize;
  const authorize = jest.spyOn(SandboxProvider.prototype, 'authorize').mockImplementation(function (this: SandboxProvider, request, call) {
    if (call.idempotencyKey.endsWith(':authorization:1')) return Promise.reject(new ProviderOutcomeUnknownError('POST sandbox/sales answered 500'));
    return original.call(this, request, call);
  });
  const lookup = jest.spyOn(SandboxProvider.prototype, 'lookup').mockImplementation((_request, call) => found(call.idempotencyKey));
  return { authorize, lookup };
}

const sale: AuthorizeResult = { status: 'authorized', transactionId: 'sale-1', captured: true, cvvChecked: true, nsu: '123' };

describe('an authorization whose outcome is unknown', () => {
  it('takes the sale found by lookup as the attempt\'s answer: one authorization, no failover', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId);
    const { authorize, lookup } = lostAtFirst(() => Promise.resolve({ found: true, result: sale }));
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(charge.status).toBe('authorized');
    expect(charge.providerId).toBe(providerIdOf(merchant, 'first'));
    expect(authorize).toHaveBeenCalledTimes(1);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup.mock.calls[0]![1].idempotencyKey).toBe(`${charge.id}:authorization:1`);
    const [attempt] = authorizations(charge);
    expect(authorizations(charge)).toHaveLength(1);
    expect(attempt!.requestStatus).toBe('success');
    expect(attempt!.transactionId).toBe('sale-1');
    expect(attempt!.message).toContain('found by lookup');
  });

  it('moves on when the provider says it has none', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId);
    lostAtFirst(() => Promise.resolve({ found: false }));
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(charge.status).toBe('authorized');
    expect(charge.providerId).toBe(providerIdOf(merchant, 'second'));
    expect(authorizations(charge).map((r) => r.requestStatus)).toEqual(['failed', 'success']);
    expect(authorizations(charge)[0]!.message).toContain('not found at the provider after');
  });

  it('stops the cascade when the lookup cannot tell: the charge is pending, the attempt processing, no second provider asked', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId);
    const { authorize } = lostAtFirst(() => Promise.reject(new ProviderOutcomeUnknownError('GET sandbox/sales answered 503')));
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(charge.status).toBe('pending');
    expect(charge.providerId).toBe(providerIdOf(merchant, 'first'));
    expect(authorize).toHaveBeenCalledTimes(1);
    expect(authorizations(charge).map((r) => r.requestStatus)).toEqual(['processing']);
  });

  it('fails over the SANDBOX card ending 6 (no sale made: its lookup finds none)', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('6')));
    expect(authorizations(charge).map((r) => r.requestStatus)).toEqual(['failed', 'failed']);
    expect(charge.status).toBe('failed');
  });

  it('stops the cascade when the adapter has no lookup', async () => {
    const clientId = randomUUID();
    const merchant = await merchantWith(clientId);
    jest.spyOn(SandboxProvider.prototype, 'authorize').mockRejectedValue(new Error('socket hang up'));
    (SandboxProvider.prototype as { lookup?: unknown }).lookup = undefined;
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(charge.status).toBe('pending');
    expect(authorizations(charge).map((r) => r.requestStatus)).toEqual(['processing']);
  });
});

describe('a charge\'s time budget', () => {
  it('asks no provider once CHARGE_TIME_BUDGET_MS (12 s) is spent, on the injected clock', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId, [
      { name: 'first', priority: 1 },
      { name: 'second', priority: 2 },
      { name: 'third', priority: 3 },
    ]);
    running.clock.set(new Date('2026-03-01T12:00:00Z'));
    // Each provider takes 7 s of the charge's time and was unreachable: the third would start past the budget.
    const authorize = jest.spyOn(SandboxProvider.prototype, 'authorize').mockImplementation(() => {
      running.clock.advance(7000);
      return Promise.reject(new ProviderUnavailableError('ECONNREFUSED'));
    });
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    expect(authorize).toHaveBeenCalledTimes(2);
    expect(charge.status).toBe('failed');
    expect(authorizations(charge).map((r) => r.requestStatus)).toEqual(['failed', 'failed']);
  });
});
