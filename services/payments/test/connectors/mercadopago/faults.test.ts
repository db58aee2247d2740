import { MERCADOPAGO_TEST_CARDS, startMercadoPagoSimulator } from '@platform/simulators';
import { cardCharge } from '../../support/charges';
import { describeFaultMatrix } from '../../support/faultMatrix';

const ACCOUNT = { accessToken: 'TEST-4444333322221111-031012-0fedcba9876543210fedcba987654321-987654321', webhookSecret: 'webhook-secret-of-the-faults' };

describeFaultMatrix('Mercado Pago', async () => {
  const sim = await startMercadoPagoSimulator({ accounts: [ACCOUNT], clock: () => new Date() });
  return {
    proxy: { target: sim.url },
    env: (proxyUrl) => ({ MERCADOPAGO_API_URL: proxyUrl }),
    entry: { credentials: { type: 'MERCADOPAGO', ...ACCOUNT, environment: 'sandbox' }, options: { payerEmail: 'pagamentos@loja.example.test' } },
    isSale: (r) => r.method === 'POST' && /^\/v1\/payments(\?|$)/.test(r.path),
    // The payment the charge's attempt made, by the simulator's books: approved is money taken.
    salesOf: (charge) => {
      const id = charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.providerType === 'MERCADOPAGO')?.transactionId;
      return id && sim.payment(id)?.status === 'approved' ? 1 : 0;
    },
    charge: (clientId, merchantId) => cardCharge(clientId, merchantId, MERCADOPAGO_TEST_CARDS.visa.number),
    close: () => sim.close(),
  };
});
