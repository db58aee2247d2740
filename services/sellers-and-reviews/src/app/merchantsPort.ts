import type { payments } from '@platform/contracts';
import { AppError, errors, type PromiseClient } from '@platform/kit';

/** A merchant's provider as the seller registration needs it. */
export interface MerchantProvider {
  id: string;
  /** SANDBOX, SUBACQUIRER, ... */
  type: string;
}

/** What sellers needs to know about merchants; they belong to payments. */
export interface MerchantsPort {
  /** The merchant's providers; 422 merchant_not_found when the merchant is unknown or another client's. */
  providersOf(clientId: string, merchantId: string): Promise<MerchantProvider[]>;
}

/** Payments over gRPC (`GetMerchant`, scoped by client). */
export function createMerchantsPort(client: PromiseClient<typeof payments.PaymentsServiceService>): MerchantsPort {
  return {
    async providersOf(clientId, merchantId) {
      try {
        const merchant = await client.getMerchant({ clientId, id: merchantId });
        return merchant.providers.map((p) => ({ id: p.id, type: p.credentialsType }));
      } catch (error) {
        if (error instanceof AppError && error.kind === 'not_found') {
          throw errors.businessRule('merchant_not_found', `merchant ${merchantId} not found`);
        }
        throw error;
      }
    },
  };
}
