import type { MerchantForCharge } from '../../../shared/ports';

/**
 * A merchant's configuration for charges (MerchantsPort.loadForCharge: its providers with their credentials opened,
 * the flow of a payment method, its platform fee), kept in memory per (client, merchant, payment method) for `ttlMs`.
 *
 * Every use case that changes a merchant, its providers, its platform fee or its flows calls `invalidate` once its
 * transaction has committed, so the next charge of this process reads the change. The service consumes no event of
 * its own, so the other replicas see a change when their entry expires: `ttlMs` bounds how long a replica may
 * charge with the configuration it had (a provider removed keeps being routed to for at most that long).
 *
 * A load that started before an invalidation is answered but not kept: it may have read the rows before the change
 * committed.
 */
export class MerchantCache {
  private readonly entries = new Map<string, { value: MerchantForCharge; expiresAt: number }>();
  /** Bumped by every invalidation: a load that saw it change keeps nothing. */
  private epoch = 0;

  constructor(
    private readonly options: {
      ttlMs: number;
      /** Entries kept at most; the oldest go first. */
      maxEntries?: number;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  private static merchantKey(clientId: string, merchantId: string): string {
    return `${clientId.toLowerCase()}|${merchantId.toLowerCase()}|`;
  }

  async get(clientId: string, merchantId: string, paymentMethod: string, load: () => Promise<MerchantForCharge>): Promise<MerchantForCharge> {
    if (this.options.ttlMs <= 0) return load();
    const key = MerchantCache.merchantKey(clientId, merchantId) + paymentMethod;
    const found = this.entries.get(key);
    const now = this.now();
    if (found && found.expiresAt > now) return found.value;
    if (found) this.entries.delete(key);
    const epoch = this.epoch;
    // A merchant not found is not kept: the next charge asks again.
    const value = await load();
    if (epoch === this.epoch) {
      this.entries.set(key, { value, expiresAt: now + this.options.ttlMs });
      const max = this.options.maxEntries ?? 10_000;
      if (this.entries.size > max) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
    }
    return value;
  }

  /** After a change to the merchant (its row, providers, platform fee or flows) has committed. */
  invalidate(clientId: string, merchantId: string): void {
    this.epoch += 1;
    const prefix = MerchantCache.merchantKey(clientId, merchantId);
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
