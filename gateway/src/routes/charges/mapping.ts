import { payments } from '@platform/contracts';
import { toPageRequest } from '../../http/pagination';
import { toCardInput } from '../tokens/mapping';
import type { CreateChargeInput, ListChargesInput, ThreeDSSetupInput, ThreeDSSetupJson, VoidChargeInput } from './schemas';

export { toChargeJson } from '@platform/api-model';

/** What the request leaves out stays at its proto3 zero value (`fromPartial`), which says "not given" and nothing else. */
export function toPaymentMethod(method: CreateChargeInput['paymentMethod']): payments.PaymentMethod {
  switch (method.paymentType) {
    case 'credit':
      return payments.PaymentMethod.fromPartial({ paymentType: 'credit', installments: method.installments ?? 1, recurrence: method.recurrence });
    case 'debit':
    case 'voucher':
      return payments.PaymentMethod.fromPartial({ paymentType: method.paymentType, installments: 1, recurrence: method.recurrence });
    case 'pix':
      return payments.PaymentMethod.fromPartial({ paymentType: 'pix', installments: method.installments ?? 1, expiresIn: method.expiresIn });
    case 'boleto':
      return payments.PaymentMethod.fromPartial({
        paymentType: 'boleto',
        installments: 1,
        expiresDate: method.expiresDate,
        instructions: method.instructions,
        interest: method.interest,
        fine: method.fine,
      });
    default: {
      const unmapped: never = method;
      throw new Error(`unmapped payment type ${JSON.stringify(unmapped)}`);
    }
  }
}

export function toPaymentSource(source: CreateChargeInput['paymentSource']): payments.PaymentSource {
  const base: payments.PaymentSource = { sourceType: source.sourceType, cardId: '', cardCvv: '', tokenId: '', customerId: '' };
  switch (source.sourceType) {
    case 'card':
      return { ...base, cardId: source.cardId ?? '', cardCvv: source.cardCvv ?? '', card: source.card ? toCardInput(source.card) : undefined };
    case 'token':
      return { ...base, tokenId: source.tokenId };
    case 'customer':
      return { ...base, customerId: source.customerId ?? '', customer: source.customer, cardId: source.cardId ?? '', cardCvv: source.cardCvv ?? '' };
    case 'wallet':
      return { ...base, wallet: source.wallet };
    default: {
      const unmapped: never = source;
      throw new Error(`unmapped source type ${JSON.stringify((unmapped as { sourceType?: unknown }).sourceType)}`);
    }
  }
}

export function toCreateChargeRequest(clientId: string, input: CreateChargeInput): payments.CreateChargeRequest {
  return {
    clientId,
    merchantId: input.merchantId,
    amount: input.amount,
    currency: input.currency,
    orderId: input.orderId ?? '',
    statementDescriptor: input.statementDescriptor ?? '',
    description: input.description ?? '',
    capture: input.capture,
    customerId: input.customerId ?? '',
    paymentMethod: toPaymentMethod(input.paymentMethod),
    paymentSource: toPaymentSource(input.paymentSource),
    splitRules: toSplitRules(input.splitRules),
    fraudAnalysis: input.fraudAnalysis,
    threeDSecure2: input.threeDSecure2,
    appInfo: input.appInfo,
    paymentFlow: input.paymentFlow,
    // Only a session's own charge route sets it.
    sessionId: '',
  };
}

export function toListChargesRequest(clientId: string, query: ListChargesInput): payments.ListChargesRequest {
  return {
    clientId,
    page: toPageRequest(query),
    merchantId: query.merchantId,
    id: query.id,
    sessionId: query.sessionId,
    status: query.status ?? [],
    paymentType: query.paymentType ?? [],
    orderId: query.orderId,
    created: query.created,
    createdGt: query['created.gt'],
    createdLt: query['created.lt'],
    providerType: query.providerType ? query.providerType.split(',').map((t) => t.trim()).filter((t) => t !== '') : [],
    originalAmount: query.originalAmount,
    hasSplitRules: query.splitRules,
  };
}

export function toVoidChargeRequest(clientId: string, id: string, input: VoidChargeInput): payments.VoidChargeRequest {
  return {
    clientId,
    id,
    amount: input.amount,
    splitRules: (input.splitRules ?? []).map((rule) => ({
      sellerId: rule.sellerId,
      amount: rule.amount,
      processingFee: false,
      chargeRemainderFee: false,
      liable: false,
    })),
  };
}

export function toSetupThreeDSRequest(clientId: string, input: ThreeDSSetupInput): payments.SetupThreeDSRequest {
  return {
    clientId,
    sourceType: input.sourceType,
    cardId: input.sourceType === 'card' ? input.cardId : '',
    tokenId: input.sourceType === 'token' ? input.tokenId : '',
  };
}

export function toThreeDSSetupJson(setup: payments.ThreeDSSetup): ThreeDSSetupJson {
  return { id: setup.id, token: setup.token, collectUrl: setup.collectUrl, providerType: setup.providerType };
}

/** Split rules of a request as the contract carries them: absent flags are false. */
export function toSplitRules(rules: CreateChargeInput['splitRules']): payments.SplitRule[] {
  return (rules ?? []).map((rule) => ({
    sellerId: rule.sellerId,
    percentage: rule.percentage,
    amount: rule.amount,
    processingFee: rule.processingFee ?? false,
    chargeRemainderFee: rule.chargeRemainderFee ?? false,
    liable: rule.liable ?? false,
  }));
}
