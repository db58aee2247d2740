import { status as GrpcStatus } from '@grpc/grpc-js';
import type { sellers } from '@platform/contracts';
import { AppError, errors, type PromiseClient } from '@platform/kit';

/** What payments needs to know about the receivers of a split; sellers belong to the sellers-and-reviews service. */
export interface SellersPort {
  /**
   * Resolves when every seller is the client's, belongs to the merchant and can receive (neither blocked nor
   * inactive); otherwise a business rule error whose code and message name the seller (`split_seller_*`).
   */
  checkSplitReceivers(clientId: string, merchantId: string, sellerIds: readonly string[]): Promise<void>;
}

/** How long the split check waits for sellers-and-reviews by default (SPLIT_CHECK_TIMEOUT_MS). */
export const SPLIT_CHECK_TIMEOUT_MS_DEFAULT = 3000;

export const SPLIT_CHECK_TIMED_OUT = 'The sellers service did not answer the split check in time';
export const SPLIT_CHECK_UNREACHABLE = 'The sellers service could not be reached for the split check';

function grpcCodeOf(error: AppError): number | undefined {
  const cause = (error as { cause?: unknown }).cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'number' ? cause.code : undefined;
}

/**
 * The sellers-and-reviews service answers over gRPC; its CheckSplitReceivers is scoped by client. The check has its
 * own short deadline (a hung sellers service must not hold a charge for the gateway's whole deadline), and a check
 * that got no answer fails as a 503 that names the sellers check; the service's own refusals pass on unchanged.
 */
export function createSellersPort(
  client: PromiseClient<typeof sellers.SellersServiceService>,
  options: { timeoutMs?: number } = {},
): SellersPort {
  const deadlineMs = options.timeoutMs ?? SPLIT_CHECK_TIMEOUT_MS_DEFAULT;
  return {
    checkSplitReceivers: async (clientId, merchantId, sellerIds) => {
      if (sellerIds.length === 0) return;
      try {
        await client.checkSplitReceivers({ clientId, merchantId, sellerIds: [...sellerIds] }, { deadlineMs });
      } catch (error) {
        if (error instanceof AppError && error.kind === 'unavailable') {
          const code = grpcCodeOf(error);
          if (code === GrpcStatus.DEADLINE_EXCEEDED) throw errors.unavailable(SPLIT_CHECK_TIMED_OUT);
          if (code === GrpcStatus.UNAVAILABLE) throw errors.unavailable(SPLIT_CHECK_UNREACHABLE);
        }
        throw error;
      }
    },
  };
}
