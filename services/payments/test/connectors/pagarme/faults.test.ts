import { startPagarmeSimulator } from '@platform/simulators';
import { cardCharge } from '../../support/charges';
import { describeFaultMatrix } from '../../support/faultMatrix';

const SECRET_KEY = 'sk_test_faults4f3e2d1c0b';

describeFaultMatrix('Pagar.me', async () => {
  const sim = await startPagarmeSimulator({ accounts: [{ secretKey: SECRET_KEY, id: 'acc_faults' }] });
  return {
    proxy: { target: sim.url },
    env: (proxyUrl) => ({ PAGARME_API_URL: `${proxyUrl}${new URL(sim.apiUrl).pathname}` }),
    entry: {
      credentials: { type: 'PAGARME', secretKey: SECRET_KEY, environment: 'sandbox' },
      options: { customer: { name: 'Maria Souza', email: 'maria@example.test', document: '11144477735' } },
    },
    isSale: (r) => r.method === 'POST' && /\/orders$/.test(r.path),
    // The order the charge's attempt made, by its own books: paid is money taken.
    salesOf: (charge) => {
      const id = charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.providerType === 'PAGARME')?.transactionId;
      const held = id ? sim.charge(id) : undefined;
      return held && held.status === 'paid' ? 1 : 0;
    },
    charge: (clientId, merchantId) => cardCharge(clientId, merchantId, '4000000000000010'),
    close: () => sim.close(),
  };
});
