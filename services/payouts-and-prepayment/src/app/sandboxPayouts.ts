import type { PayoutAdapter } from './deps';

/** Amounts ending in this (in minor units) fail their first transfer in the SANDBOX. */
export const SANDBOX_FAILING_TRANSFER = 991;

/** The SANDBOX payout adapter: pays at once; a batch of an amount ending in 991 fails its first attempt. */
export function sandboxPayouts(): PayoutAdapter {
  return {
    method: 'ted',
    transfer: async (batch) => (batch.amount % 1000 === SANDBOX_FAILING_TRANSFER && batch.attempts === 0 ? 'failed' : 'paid'),
  };
}
