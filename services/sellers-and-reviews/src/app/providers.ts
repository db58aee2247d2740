import { randomUUID } from 'node:crypto';
import type { LinkStatus, Seller } from '../domain/seller';

/** A provider's answer about a seller's registration. */
export interface RegistrationAnswer {
  externalId: string;
  externalStatus: string;
  externalStatusReason: string;
  status: LinkStatus;
}

/** A provider's answer to a submitted registration review: accepted (finished) or refused (submit_failed). */
export interface ReviewAnswer {
  accepted: boolean;
  reason: string;
}

/** One interface for every provider a seller can be registered at. */
export interface ProviderAdapter {
  register(seller: Seller): Promise<RegistrationAnswer>;
  update(seller: Seller, externalId: string): Promise<RegistrationAnswer>;
  submitReview(processId: string, fields: Record<string, unknown>): Promise<ReviewAnswer>;
}

/** The value that makes the SANDBOX provider refuse a review submission. */
export const SANDBOX_REJECT = 'sandbox_reject';

/** The SANDBOX provider: registers at once (active) and accepts every submission without a `sandbox_reject` value. */
export function createSandboxAdapter(): ProviderAdapter {
  const active = (externalId: string): RegistrationAnswer => ({ externalId, externalStatus: 'approved', externalStatusReason: '', status: 'active' });
  return {
    register: async () => active(`sandbox_${randomUUID()}`),
    update: async (_seller, externalId) => active(externalId),
    submitReview: async (_processId, fields) => {
      const rejected = Object.entries(fields).find(([, v]) => v === SANDBOX_REJECT);
      return rejected ? { accepted: false, reason: `the provider refused ${rejected[0]}` } : { accepted: true, reason: '' };
    },
  };
}

/** Adapters by provider type (the merchant provider's credentials type). */
export type ProviderAdapters = Readonly<Record<string, ProviderAdapter>>;

export function defaultAdapters(): ProviderAdapters {
  return { SANDBOX: createSandboxAdapter() };
}
