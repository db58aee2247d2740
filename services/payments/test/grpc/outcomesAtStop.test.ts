import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { cardCharge, cardNumberEnding, createMerchant, startCharges } from '../support/charges';

describe('the provider outcomes at the service\'s stop', () => {
  it('are written by the stop, not by the charge', async () => {
    const running = await startCharges();
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('5')));
    const recentOf = async (pool: { query: Pool['query'] }) =>
      (await pool.query<{ recent: string }>('SELECT recent FROM provider_outcomes WHERE client_id = $1', [clientId])).rows.map((r) => r.recent);
    expect(await recentOf(running.pool)).toEqual([]);

    await running.stop();

    const pool = new Pool({ connectionString: running.databaseUrl, max: 1 });
    try {
      expect(await recentOf(pool)).toEqual(['ad']);
    } finally {
      await pool.end();
    }
  });
});
