import type { Pool } from '@platform/kit';
import { POOL_HEADROOM } from '../../src/service';
import { startWebhooks, webhooksSetup, type RunningWebhooks } from '../support/service';

const maxOf = (pool: Pool) => (pool as unknown as { options: { max: number } }).options.max;

describe('the webhooks database pool', () => {
  let running: RunningWebhooks | undefined;

  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  it('holds a connection for every delivery in flight and a few more, above a smaller DATABASE_POOL_SIZE', async () => {
    running = await startWebhooks(await webhooksSetup({ env: { DATABASE_POOL_SIZE: '10', WEBHOOKS_DELIVERY_CONCURRENCY: '16' } }));
    expect(maxOf(running.pool)).toBe(16 + POOL_HEADROOM);
  });

  it('keeps a DATABASE_POOL_SIZE that is larger', async () => {
    running = await startWebhooks(await webhooksSetup({ env: { DATABASE_POOL_SIZE: '40', WEBHOOKS_DELIVERY_CONCURRENCY: '16' } }));
    expect(maxOf(running.pool)).toBe(40);
  });
});
