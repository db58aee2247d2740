import { REDE_APPROVED_CARD, startRedeSimulator } from '@platform/simulators';
import { cardCharge } from '../../support/charges';
import { describeFaultMatrix } from '../../support/faultMatrix';

const PV = '2233445566';
const KEY = 'rede-faults-key-0001';

describeFaultMatrix('e.Rede', async () => {
  const sim = await startRedeSimulator({ accounts: [{ pv: PV, token: KEY }] });
  return {
    // The transactions go through the proxy; the access tokens straight to the simulator.
    proxy: { target: sim.url },
    env: (proxyUrl) => ({ REDE_API_URL: `${proxyUrl}${new URL(sim.transactionsUrl).pathname}`, REDE_OAUTH_URL: sim.oauthUrl }),
    entry: { credentials: { type: 'REDE', pv: PV, token: KEY, environment: 'sandbox' } },
    isSale: (r) => r.method === 'POST' && /\/v2\/transactions\/?$/.test(r.path),
    salesOf: (charge) => {
      const tid = charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.providerType === 'REDE' && r.transactionId)?.transactionId;
      return tid && sim.transaction(tid)?.status === 'Approved' ? 1 : 0;
    },
    charge: (clientId, merchantId) => cardCharge(clientId, merchantId, REDE_APPROVED_CARD),
    close: () => sim.close(),
  };
});
