import { errors, requireClientId } from '@platform/kit';
import type { PaymentsDeps } from '../../../shared/deps';
import type { MerchantStore } from '../store/merchantStore';
import type { MerchantsPort, RoutableProvider } from '../../../shared/ports';

/** The merchant as a charge needs it: its providers with their credentials opened, and its flow. */
export function createMerchantsPort(deps: Pick<PaymentsDeps, 'vault'> & { merchants: MerchantStore }): MerchantsPort {
  const { merchants } = deps;
  return {
    async loadForCharge(db, clientId, merchantId, paymentMethod) {
      const record = await merchants.findForCharge(db, requireClientId(clientId), merchantId, paymentMethod.trim().toLowerCase());
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
    },
  };
}
