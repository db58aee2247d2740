import type { payments } from '@platform/contracts';
import type { CreateReceiptInput } from './schemas';

export { toReceiptJson } from '@platform/api-model';

export function toCreateReceiptRequest(clientId: string, input: CreateReceiptInput): payments.CreateReceiptRequest {
  return { clientId, chargeId: input.chargeId, type: input.type };
}
