import { randomUUID } from 'node:crypto';
import { FAULTS_AFTER_THE_SALE, FAULTS_BEFORE_THE_SALE, startFaultProxy, type Fault, type FaultProxy, type FaultProxyOptions, type ProxiedRequest } from '@platform/testkit';
import type { payments } from '@platform/contracts';
import { providerIdOf, startCharges, type RunningCharges } from './charges';

/**
 * The charge of a card whose authorization's answer is lost, at a real connector behind a fault-injecting proxy in
 * front of its simulator, with SANDBOX as the next provider of the merchant's cascade. Every fault of the matrix
 * ends with at most one sale in all, and a charge that says where the money is:
 * - the sale made, its answer lost (late, a 500, truncated, an HTML page, a reset): the connector's lookup finds
 *   it, and the charge is authorized at the connector, SANDBOX never asked;
 * - the request broken before it reached the provider (a 500, an empty 200): the lookup finds nothing, and the
 *   charge moves on to SANDBOX.
 */
export interface FaultBench {
  /** The simulator the proxy stands in front of (with TLS and upstream options when it is served over https). */
  proxy: FaultProxyOptions;
  /** The variables that point the connector at a base URL (the proxy's): set in process.env while the bench runs. */
  env(proxyUrl: string): Record<string, string>;
  /** The connector's provider entry (its credentials and options). */
  entry: { credentials: Record<string, unknown>; options?: Record<string, unknown> };
  /** Whether a request the proxy sees is the sale (the authorization's own request). */
  isSale(request: { method: string; path: string; body: string }): boolean;
  /** The sales standing at the provider for a charge (made, not voided): by the simulator's own books. */
  salesOf(charge: payments.Charge, requests: ProxiedRequest[]): number;
  /** The charge to make: a card the provider approves. */
  charge(clientId: string, merchantId: string): payments.CreateChargeRequest;
  /** The deadline of one provider call for the bench (PROVIDER_TIMEOUT_MS); 1500 ms by default. */
  providerTimeoutMs?: number;
  close(): Promise<void>;
}

const LATE_BY_MS = 1500;

/** SANDBOX approves cards ending 0, 1 and 4. */
const approvedAtSandbox = (request: payments.CreateChargeRequest): boolean => {
  const number = request.paymentSource?.card?.cardNumber ?? '';
  return ['0', '1', '4'].includes(number.slice(-1));
};

export function describeFaultMatrix(name: string, setup: () => Promise<FaultBench>): void {
  describe(`${name} behind a faulty network, SANDBOX next: at most one sale and a charge that says where it is`, () => {
    let bench: FaultBench;
    let proxy: FaultProxy;
    let running: RunningCharges;
    const saved = new Map<string, string | undefined>();

    beforeAll(async () => {
      bench = await setup();
      proxy = await startFaultProxy(bench.proxy);
      for (const [key, value] of Object.entries(bench.env(proxy.url))) {
        saved.set(key, process.env[key]);
        process.env[key] = value;
      }
      running = await startCharges({ PROVIDER_TIMEOUT_MS: String(bench.providerTimeoutMs ?? 1500) });
    });

    afterAll(async () => {
      await running?.stop();
      await proxy?.close();
      await bench?.close();
      for (const [key, value] of saved) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    });

    afterEach(() => proxy.clear());

    async function chargeWith(fault: Fault) {
      const clientId = randomUUID();
      const merchant = await running.client.createMerchant({
        clientId,
        mcc: '5999',
        name: 'Loja Falhas',
        merchantName: 'Loja Falhas',
        merchantUrl: 'https://loja.example.test',
        providers: [
          { name: 'first', priority: 1, credentials: bench.entry.credentials, options: bench.entry.options ?? {} },
          { name: 'second', priority: 2, credentials: { type: 'SANDBOX', apiKey: 'sk_test_secret' }, options: {} },
        ],
      });
      proxy.fault({ match: (r) => bench.isSale(r), fault, times: 1, lateMs: (bench.providerTimeoutMs ?? 1500) + LATE_BY_MS });
      const seenBefore = proxy.requests.length;
      const request = bench.charge(clientId, merchant.id);
      const charge = await running.client.createCharge(request);
      const requests = proxy.requests.slice(seenBefore);
      const authorizations = charge.transactionRequests.filter((r) => r.requestType === 'authorization');
      const atSandbox = authorizations.filter((r) => r.providerId === providerIdOf(merchant, 'second') && r.requestStatus === 'success').length;
      return { merchant, request, charge, requests, authorizations, atProvider: bench.salesOf(charge, requests), atSandbox };
    }

    it.each(FAULTS_AFTER_THE_SALE.map((fault) => [fault]))('the sale made, its answer lost (%s): found by lookup, the charge is the provider’s', async (fault) => {
      const { merchant, charge, requests, authorizations, atProvider, atSandbox } = await chargeWith(fault);
      expect(requests.filter((r) => bench.isSale(r) && r.forwarded)).toHaveLength(1);
      expect(atProvider + atSandbox).toBeLessThanOrEqual(1);
      expect(atProvider).toBe(1);
      expect(atSandbox).toBe(0);
      expect(['authorized', 'pre_authorized']).toContain(charge.status);
      expect(charge.providerId).toBe(providerIdOf(merchant, 'first'));
      expect(authorizations).toHaveLength(1);
      expect(authorizations[0]).toMatchObject({ requestStatus: 'success' });
      expect(authorizations[0]!.message).toContain('found by lookup');
    });

    it.each(FAULTS_BEFORE_THE_SALE.map((fault) => [fault]))('the sale never reached the provider (%s): not found, the charge moves on to SANDBOX', async (fault) => {
      const { merchant, request, charge, requests, authorizations, atProvider, atSandbox } = await chargeWith(fault);
      expect(requests.filter((r) => bench.isSale(r) && r.forwarded)).toHaveLength(0);
      expect(atProvider).toBe(0);
      expect(atProvider + atSandbox).toBeLessThanOrEqual(1);
      expect(authorizations[0]).toMatchObject({ providerId: providerIdOf(merchant, 'first'), requestStatus: 'failed' });
      expect(authorizations[0]!.message).toContain('not found at the provider');
      expect(authorizations[1]).toMatchObject({ providerId: providerIdOf(merchant, 'second') });
      if (approvedAtSandbox(request)) {
        expect(charge).toMatchObject({ status: 'authorized', providerId: providerIdOf(merchant, 'second') });
        expect(atSandbox).toBe(1);
      } else {
        expect(atSandbox).toBe(0);
      }
    });
  });
}
