import type { JobHandler } from '@platform/kit';
import type { PaymentsDeps } from '../deps';

/** Durable jobs of the vault; filled in by the vault use cases. */
export function vaultJobs(_deps: PaymentsDeps): Record<string, JobHandler> {
  return {};
}
