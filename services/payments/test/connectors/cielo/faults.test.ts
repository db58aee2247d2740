import { startCieloSimulator } from '@platform/simulators';
import { cardCharge, cardNumberEnding } from '../../support/charges';
import { describeFaultMatrix } from '../../support/faultMatrix';

const ACCOUNT = { merchantId: '3c5e7a9b-1d2f-4a6c-8e0b-2f4d6a8c0e1f', merchantKey: 'CIELOFAULTSKEY00000000000000000000000000' };

describeFaultMatrix('Cielo', async () => {
  const sim = await startCieloSimulator({ merchants: [ACCOUNT] });
  return {
    proxy: { target: sim.url },
    // One proxy stands for both of Cielo's hosts: the sale goes to the API host, the lookup to the query host.
    env: (proxyUrl) => ({ CIELO_API_URL: proxyUrl, CIELO_QUERY_URL: proxyUrl }),
    entry: { credentials: { type: 'CIELO', ...ACCOUNT, environment: 'sandbox' } },
    isSale: (r) => r.method === 'POST' && /^\/1\/sales\/?$/.test(r.path),
    // The sales the simulator holds for the charge's attempt, authorized or captured.
    salesOf: (charge) => {
      const id = charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.providerType === 'CIELO' && r.transactionId)?.transactionId;
      const sale = id ? sim.sale(id) : undefined;
      return sale && (sale.status === 1 || sale.status === 2) ? 1 : 0;
    },
    charge: (clientId, merchantId) => cardCharge(clientId, merchantId, cardNumberEnding('1')),
    close: () => sim.close(),
  };
});
