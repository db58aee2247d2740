import type { payments } from '@platform/contracts';
import type { PromiseClient } from '@platform/kit';
import type { PaymentsPort } from './deps';

/** The payments service over gRPC. */
export function createPaymentsPort(client: PromiseClient<typeof payments.PaymentsServiceService>): PaymentsPort {
  return {
    async platformFee(clientId, merchantId) {
      const fee = await client.getPlatformFee({ clientId, merchantId });
      return {
        enabled: fee.platformFeeEnabled,
        rules: fee.rules.map((r) => ({
          paymentMethod: r.paymentMethod,
          ...(r.percentage !== undefined ? { percentage: r.percentage } : {}),
          ...(r.fixedAmount !== undefined ? { fixedAmount: r.fixedAmount } : {}),
          ...(r.installment !== undefined ? { installment: r.installment } : {}),
        })),
      };
    },
    tokenSession: async (clientId, tokenId) => (await client.getTokenSession({ clientId, tokenId })).sessionId,
    createCharge: (request, idempotencyKey) => client.createCharge(request, idempotencyKey ? { idempotencyKey } : undefined),
  };
}
