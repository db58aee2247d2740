import type { IdempotencyCodec } from '@platform/kit';
import type { PaymentsDeps } from '../../deps';
import type { Flow } from '../../domain/flow';
import type { Merchant } from '../../domain/merchant';
import type { FlowStore } from '../../store/flowStore';
import type { MerchantStore } from '../../store/merchantStore';

/** How the idempotency record keeps a created merchant or flow (the transport's choice, handed over by service.ts). */
export interface MerchantAnswers {
  merchant: IdempotencyCodec<Merchant>;
  flow: IdempotencyCodec<Flow>;
}

/** What the merchant and flow use cases work with; service.ts builds the real ones. */
export interface MerchantContext extends PaymentsDeps {
  merchants: MerchantStore;
  flows: FlowStore;
  answers: MerchantAnswers;
}
