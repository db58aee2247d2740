import { randomBytes, randomUUID } from 'node:crypto';
import { context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { createLogger } from '@platform/kit';
import { createCharge } from '../../src/modules/charges/app/createCharge';
import type { ChargeDeps } from '../../src/modules/charges/app/deps';
import { createMerchantsPort } from '../../src/modules/merchants/app/merchantsPort';
import { createCardSource, createVaultLookup } from '../../src/modules/vault/app/cardSource';
import { createProviderRegistry } from '../../src/modules/connectors/app/registry';
import { createCardStore } from '../../src/modules/vault/store/cardStore';
import { createChargeStore } from '../../src/modules/charges/store/chargeStore';
import { createMerchantStore } from '../../src/modules/merchants/store/merchantStore';
import { createTokenStore } from '../../src/modules/vault/store/tokenStore';
import { vaultFromConfig } from '../../src/modules/vault/crypto/keyRing';
import { createMerchant, pixCharge, PROVIDER_TIMEOUT_MS, PUBLIC_URL, startCharges, type RunningCharges } from '../support/charges';
import { FakeCustomers } from '../support/customers';
import { FakeSellers } from '../support/sellers';

const encryptionKey = randomBytes(32);
const fingerprintKey = randomBytes(32);
let running: RunningCharges;
let deps: ChargeDeps;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  running = await startCharges({ CARD_ENCRYPTION_KEY: encryptionKey.toString('hex'), CARD_FINGERPRINT_KEY: fingerprintKey.toString('hex') });
  const vault = vaultFromConfig({ CARD_ENCRYPTION_KEY: encryptionKey, CARD_FINGERPRINT_KEY: fingerprintKey });
  const stores = { merchants: createMerchantStore(), cards: createCardStore(), tokens: createTokenStore(), charges: createChargeStore() };
  deps = {
    pool: running.pool,
    log: createLogger({ name: 'payments-test', level: 'silent' }),
    clock: running.clock,
    config: { PROVIDER_TIMEOUT_MS, PUBLIC_URL },
    store: stores.charges,
    outcomes: running.outcomes,
    providers: createProviderRegistry({ publicUrl: PUBLIC_URL }),
    cards: createCardSource({ vault, clock: running.clock, cards: stores.cards, tokens: stores.tokens }),
    merchants: createMerchantsPort({ vault, merchants: stores.merchants }),
    customers: new FakeCustomers({ strict: false }),
    sellers: new FakeSellers(),
    vault: createVaultLookup(stores),
  };
});

afterAll(async () => {
  await running.stop();
  propagation.disable();
  context.disable();
});

describe("a new charge's event", () => {
  it('keeps the trace context of the call that created it, for the relay to publish the event in that trace', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const call = { traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), traceFlags: TraceFlags.SAMPLED };
    const charge = await context.with(trace.setSpanContext(context.active(), call), () => createCharge(deps, pixCharge(clientId, merchant.id)));

    const { rows } = await running.pool.query<{ subject: string; headers: { traceparent?: string } | null }>(
      `SELECT subject, headers FROM outbox WHERE payload->>'clientId' = $1 AND subject LIKE 'payments.charge.%' ORDER BY seq`,
      [clientId],
    );
    expect(rows.map((r) => r.subject)).toEqual([`payments.charge.${charge.status}`]);
    expect(rows[0]!.headers?.traceparent).toBe(`00-${call.traceId}-${call.spanId}-01`);
  });
});
