import { errors, type Queryable, requireClientId } from '@platform/kit';
import type { PaymentsDeps } from '../../../shared/deps';
import type { MerchantStore } from '../store/merchantStore';
import type { MerchantForCharge, MerchantsPort, RoutableProvider } from '../../../shared/ports';
import type { MerchantCache } from './merchantCache';

/**
 * The merchant as a charge needs it: its providers with their credentials opened, and its flow. With a cache, kept
 * in memory (see MerchantCache: the merchant use cases invalidate it after their changes commit).
 */
export function createMerchantsPort(deps: Pick<PaymentsDeps, 'vault'> & { merchants: MerchantStore; cache?: MerchantCache }): MerchantsPort {
  const { merchants, cache } = deps;
  return {
    async loadForCharge(db, rawClientId, merchantId, rawPaymentMethod) {
      const clientId = requireClientId(rawClientId);
      const paymentMethod = rawPaymentMethod.trim().toLowerCase();
      const load = () => loadMerchant(db, clientId, merchantId, paymentMethod);
      return cache ? cache.get(clientId, merchantId, paymentMethod, load) : load();
    },
  };

  async function loadMerchant(db: Queryable, clientId: string, merchantId: string, paymentMethod: string): Promise<MerchantForCharge> {
    const record = await merchants.findForCharge(db, clientId, merchantId, paymentMethod);
    if (!record) throw errors.notFound('Merchant', merchantId);
    const providers: RoutableProvider[] = await Promise.all(
      record.providers.map(async (p) => ({
        id: p.id,
        merchantId: p.merchantId,
        name: p.name,
        priority: p.priority,
        type: p.credentialsType,
        credentials: JSON.parse(await deps.vault.open('provider-credentials', p.credentialsSealed)) as Record<string, unknown>,
        options: p.options,
      })),
    );
    return {
      id: record.id,
      clientId: record.clientId,
      mcc: record.mcc,
      platformFeeEnabled: record.platformFeeEnabled,
      platformFeeRules: record.platformFeeRules,
      providers,
      ...(record.flow ? { flow: record.flow } : {}),
    };
  }
}
