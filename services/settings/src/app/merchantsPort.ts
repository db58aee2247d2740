import type { payments } from '@platform/contracts';
import { AppError, errors, type PromiseClient } from '@platform/kit';

/** What settings needs to know about merchants; they belong to the payments service. */
export interface MerchantsPort {
  /** Resolves when the merchant exists and is the client's; not_found when it is unknown, deleted or another client's. */
  requireMerchant(clientId: string, merchantId: string): Promise<void>;
}

/** The payments service answers over gRPC; its GetMerchant is scoped by client. */
export function createPaymentsMerchantsPort(client: PromiseClient<typeof payments.PaymentsServiceService>): MerchantsPort {
  return {
    requireMerchant: async (clientId, merchantId) => {
      try {
        await client.getMerchant({ clientId, id: merchantId });
      } catch (error) {
        // The same answer for unknown and foreign: the caller learns nothing of another client's merchants.
        if (error instanceof AppError && error.kind === 'not_found') throw errors.notFound('Merchant');
        throw error;
      }
    },
  };
}
