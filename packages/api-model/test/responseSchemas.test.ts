import { payments, payouts, sellers, sessions, settings, webhooks } from '@platform/contracts';
import {
  BalanceSchema,
  CardSchema,
  CardTokenSchema,
  ChargeSchema,
  ClientSchema,
  ClientTokenSchema,
  CreatedApiKeySchema,
  CreatedClientSchema,
  CreatedWebhookSchema,
  DeliverySchema,
  FlowSchema,
  LinkSettingsSchema,
  MerchantSchema,
  PaymentBatchSchema,
  PayoutOrderSchema,
  PlanSchema,
  PrepaymentReceivablesSchema,
  PrepaymentSchema,
  PlatformFeeSchema,
  ProviderSchema,
  ReceiptSchema,
  RegistrationReviewSchema,
  ReportSchema,
  SellerSchema,
  SessionHistoryItemSchema,
  SessionSchema,
  SubscriptionCycleSchema,
  SubscriptionSchema,
  SubscriptionSettingsSchema,
  toBalanceJson,
  toCardJson,
  toCardTokenJson,
  toChargeJson,
  toClientJson,
  toClientTokenJson,
  toCreatedApiKeyJson,
  toCreatedClientJson,
  toCreatedWebhookJson,
  toDeliveryJson,
  toFlowJson,
  toLinkSettingsJson,
  toMerchantJson,
  toPaymentBatchJson,
  toPayoutOrderJson,
  toPlanJson,
  toPlatformFeeJson,
  toPrepaymentJson,
  toPrepaymentReceivablesJson,
  toProviderJson,
  toReceiptJson,
  toRegistrationReviewJson,
  toReportJson,
  toSellerJson,
  toSessionHistoryItemJson,
  toSessionJson,
  toSubscriptionCycleJson,
  toSubscriptionJson,
  toSubscriptionSettingsJson,
  toWebhookJson,
  toWebhookRecoveryJson,
  WebhookRecoverySchema,
  WebhookSchema,
} from '../src';

const at = new Date('2026-03-01T12:00:00.000Z');

/** The mapper's JSON is what the schema the OpenAPI document publishes says, with no field more or less. */
function expectToMatch(schema: { strict(): { parse(value: unknown): unknown } }, json: object) {
  expect(schema.strict().parse(json)).toEqual(json);
}

describe('the answers the API model maps', () => {
  it('cards and tokens', () => {
    expectToMatch(
      CardSchema,
      toCardJson(payments.Card.fromPartial({ id: 'card_1', status: 'active', brand: 'visa', clientId: 'cli_1', expirationMonth: 1, expirationYear: 2031, createdAt: at, updatedAt: at })),
    );
    expectToMatch(CardTokenSchema, toCardTokenJson(payments.CardToken.fromPartial({ tokenId: 'tok_1', expiresAt: at })));
    expectToMatch(CardTokenSchema, toCardTokenJson(payments.CardToken.fromPartial({ tokenId: 'tok_2' })));
  });

  it('flows', () => {
    const flow = toFlowJson(
      payments.Flow.fromPartial({
        id: 'flow_1',
        clientId: 'cli_1',
        merchantId: 'mer_1',
        paymentMethod: 'credit',
        rules: [
          { when: { amountGte: 1_000, cardBrand: 'visa' }, route: ['prov_1'] },
          { route: ['prov_2'] },
          {
            when: {
              metadata: { entries: { segment: { values: ['vip'] } } },
              binRanges: { ranges: [{ from: '400000', to: '499999' }] },
              issuerCountry: { values: ['BR'] },
              any: { conditions: [{ installmentsLte: 6 }, { all: { conditions: [{ paymentType: 'credit' }] } }] },
            },
            split: { branches: [{ percentage: 70, route: ['prov_1'], antifraudProviderId: 'af_1', mode: 'success_rate' }, { percentage: 30, route: ['prov_2'] }] },
            mode: 'success_rate',
          },
        ],
        defaultRoute: ['prov_3'],
        createdAt: at,
        updatedAt: at,
      }),
    );
    expectToMatch(FlowSchema, flow);
    const unset = {
      amountGte: null,
      amountLte: null,
      cardBrand: null,
      installmentsGte: null,
      installmentsLte: null,
      currency: null,
      paymentType: null,
      binRanges: null,
      issuerCountry: null,
      metadata: null,
      all: null,
      any: null,
    };
    expect(flow.rules[1]).toEqual({ when: unset, route: ['prov_2'], split: null, antifraudProviderId: null, mode: 'priority' });
    expect(flow.rules[2]).toEqual({
      when: {
        ...unset,
        metadata: { segment: ['vip'] },
        binRanges: [{ from: '400000', to: '499999' }],
        issuerCountry: ['BR'],
        any: [
          { ...unset, installmentsLte: 6 },
          { ...unset, all: [{ ...unset, paymentType: 'credit' }] },
        ],
      },
      route: [],
      split: [
        { percentage: 70, route: ['prov_1'], antifraudProviderId: 'af_1', mode: 'success_rate' },
        { percentage: 30, route: ['prov_2'], antifraudProviderId: null, mode: null },
      ],
      antifraudProviderId: null,
      mode: 'success_rate',
    });
  });

  it('webhooks, their deliveries and recoveries', () => {
    const webhook = webhooks.Webhook.fromPartial({ id: 'wh_1', clientId: 'cli_1', event: '*', endpoint: 'https://example.com/hook', version: 1, status: true, publicKey: 'pem', createdAt: at, updatedAt: at });
    expectToMatch(WebhookSchema, toWebhookJson(webhook));
    expectToMatch(CreatedWebhookSchema, toCreatedWebhookJson({ ...webhook, secret: 'whsec_x' }));
    expectToMatch(CreatedWebhookSchema, toCreatedWebhookJson(webhook));
    expect(WebhookSchema.strict().safeParse(toCreatedWebhookJson({ ...webhook, secret: 'whsec_x' })).success).toBe(false);
    expectToMatch(
      DeliverySchema,
      toDeliveryJson(
        webhooks.Delivery.fromPartial({
          id: 'dlv_1',
          webhookId: 'wh_1',
          eventId: 'evt_1',
          event: 'authorized',
          status: 'pending',
          attempts: [{ attemptedAt: at, statusCode: 500, durationMs: 20 }, { attemptedAt: at, durationMs: 5_000, error: 'timeout' }],
          nextAttemptAt: at,
          createdAt: at,
          updatedAt: at,
        }),
      ),
    );
    expectToMatch(WebhookRecoverySchema, toWebhookRecoveryJson(webhooks.RecoverWebhookResponse.fromPartial({ webhookId: 'wh_1', since: at, until: at, events: 3 })));
  });

  it('clients, their keys and tokens', () => {
    const client = settings.Client.fromPartial({ id: 'cli_1', name: 'Shop', environment: 'sandbox', createdAt: at, updatedAt: at });
    expectToMatch(ClientSchema, toClientJson(client));
    expectToMatch(CreatedClientSchema, toCreatedClientJson(settings.CreateClientResponse.fromPartial({ client, apiKey: 'sk_1', keyId: 'key_1' })));
    expectToMatch(CreatedApiKeySchema, toCreatedApiKeyJson(settings.CreateApiKeyResponse.fromPartial({ keyId: 'key_2', apiKey: 'sk_2', createdAt: at })));
    expectToMatch(ClientTokenSchema, toClientTokenJson(settings.ClientToken.fromPartial({ clientId: 'cli_1', publicKey: 'pk_1', keyId: 'key_3', scope: ['charges'], expires: 600, createdAt: at, expiresAt: at })));
    expectToMatch(ClientTokenSchema, toClientTokenJson(settings.ClientToken.fromPartial({ clientId: 'cli_1', publicKey: 'pk_2', keyId: 'key_4', scope: ['*'], createdAt: at })));
  });

  it('link settings, receipts and reports', () => {
    const link = toLinkSettingsJson(settings.LinkSettings.fromPartial({ id: 'ls_1', clientId: 'cli_1', mainColor: '#000000', logoId: 'logo_1', createdAt: at, updatedAt: at }), 'https://api.example.com');
    expectToMatch(LinkSettingsSchema, link);
    expect([link.logo, link.merchantId, link.companyUrl]).toEqual(['https://api.example.com/v1/settings/logos/logo_1', null, null]);
    expectToMatch(ReceiptSchema, toReceiptJson(payments.Receipt.fromPartial({ id: 'rcp_1', chargeId: 'ch_1', type: 'refund_receipt', createdAt: at }), 'https://api.example.com'));
    expectToMatch(
      ReportSchema,
      toReportJson(payments.Report.fromPartial({ id: 'rep_1', type: 'transactions', status: 'ready', fields: ['id'], filters: { transactionStatus: ['authorized'], createdGte: at }, pagesCount: 1, rowCount: 3, createdAt: at, updatedAt: at })),
    );
    expectToMatch(ReportSchema, toReportJson(payments.Report.fromPartial({ id: 'rep_2', type: 'transactions', status: 'created', createdAt: at, updatedAt: at })));
  });

  it('sellers and their registration reviews', () => {
    const provider = { providerId: 'prov_1', providerType: 'SUBACQUIRER', status: 'pending', createdAt: at, updatedAt: at };
    const seller = sellers.Seller.fromPartial({ id: 'sel_1', clientId: 'cli_1', merchantId: 'mer_1', mcc: '5411', status: 'pending', owner: { name: 'Ana' }, providers: [provider], createdAt: at, updatedAt: at });
    expectToMatch(SellerSchema, toSellerJson(seller));
    expectToMatch(SellerSchema, toSellerJson({ ...seller, metadataList: [{ key: 'a', value: 'b' }] }));
    const review = sellers.RegistrationReview.fromPartial({ processId: 'rev_1', provider: 'acquirer', reviewType: 'acp', status: 'pending', deadlineAt: at, expiresAt: at, createdAt: at, updatedAt: at });
    expectToMatch(RegistrationReviewSchema, toRegistrationReviewJson({ ...review, requestedFieldsPending: true }));
    expectToMatch(RegistrationReviewSchema, toRegistrationReviewJson({ ...review, raw: ['owner.name'], fields: [{ path: 'owner.name' }] }));
  });

  it('merchants, their providers and platform fees', () => {
    const provider = payments.Provider.fromPartial({ id: 'prov_1', merchantId: 'mer_1', name: 'Sandbox', priority: 1, credentialsType: 'SANDBOX', options: { a: 1 }, createdAt: at, updatedAt: at });
    expectToMatch(ProviderSchema, toProviderJson(provider));
    expectToMatch(ProviderSchema, toProviderJson({ ...provider, options: undefined }));
    expectToMatch(MerchantSchema, toMerchantJson(payments.Merchant.fromPartial({ id: 'mer_1', clientId: 'cli_1', mcc: '5411', status: 'active', providers: [provider], createdAt: at, updatedAt: at })));
    const fee = toPlatformFeeJson(
      payments.PlatformFee.fromPartial({ merchantId: 'mer_1', platformFeeEnabled: true, rules: [{ percentage: 150, paymentMethod: 'credit', installment: 2 }, { fixedAmount: 30, paymentMethod: 'default' }] }),
    );
    expectToMatch(PlatformFeeSchema, fee);
  });

  it('subscriptions, their cycles and settings', () => {
    const subscription = payments.Subscription.fromPartial({
      id: 'sub_1',
      clientId: 'cli_1',
      merchantId: 'mer_1',
      customerId: 'cus_1',
      name: 'Gym',
      items: [{ name: 'Plan', amount: 9_990, quantity: 1 }],
      amount: 9_990,
      currency: 'BRL',
      recurrence: { interval: 'monthly', startAt: at },
      paymentMethod: { type: 'credit', cardId: 'card_1', installments: 1 },
      splitRules: [{ sellerId: 'sel_1', percentage: 1_000, processingFee: true }],
      status: 'active',
      nextBillingAt: at,
      createdAt: at,
      updatedAt: at,
    });
    expectToMatch(SubscriptionSchema, toSubscriptionJson(subscription));
    expectToMatch(SubscriptionSchema, toSubscriptionJson({ ...subscription, trialEndAt: at, canceledAt: at, recurrence: { interval: 'monthly', cycles: 12, startAt: at } }));
    expectToMatch(
      SubscriptionCycleSchema,
      toSubscriptionCycleJson(
        payments.SubscriptionCycle.fromPartial({ id: 'cyc_1', subscriptionId: 'sub_1', number: 1, status: 'retrying', amount: 9_990, dueAt: at, attempts: [{ attempt: 1, status: 'failed', declinedCode: 'insufficient_funds', attemptedAt: at }], retryDays: [3], createdAt: at, updatedAt: at }),
      ),
    );
    expectToMatch(SubscriptionSettingsSchema, toSubscriptionSettingsJson(settings.SubscriptionSettings.fromPartial({ clientId: 'cli_1', retryPolicy: [{ daysAfterLastAttempt: 3 }], cancelAfterAllRetries: true })));
  });

  it('sessions and their history', () => {
    const session = sessions.Session.fromPartial({
      id: 'ses_1',
      clientId: 'cli_1',
      merchantId: 'mer_1',
      amount: 5_000,
      currency: 'BRL',
      isActive: true,
      status: 'created',
      publicKey: 'pk_1',
      paymentMethods: [{ paymentType: 'pix', expiresIn: 3_600 }, { paymentType: 'credit', installments: 3 }],
      items: [{ name: 'Shirt', unitPrice: 2_500, quantity: 2 }],
      splitRules: [{ sellerId: 'sel_1', amount: 500 }],
      multiplePayments: { allow: true, maxPayments: 3 },
      createdAt: at,
      updatedAt: at,
    });
    expectToMatch(SessionSchema, toSessionJson(session, 'https://api.example.com'));
    expectToMatch(SessionSchema, toSessionJson({ ...session, multiplePayments: undefined, capture: false, dueDate: at }, 'https://api.example.com'));
    const item = sessions.SessionHistoryItem.fromPartial({ id: 'h_1', status: 'paid', clientId: 'cli_1', merchantId: 'mer_1', actions: ['paid'], diff: { status: 'paid' }, createdAt: at, updatedAt: at });
    expectToMatch(SessionHistoryItemSchema, toSessionHistoryItemJson(item));
    expectToMatch(SessionHistoryItemSchema, toSessionHistoryItemJson({ ...item, action: 'pay', diff: undefined }));
  });

  it('charges, with their transaction requests', () => {
    const charge = payments.Charge.fromPartial({
      id: 'ch_1',
      clientId: 'cli_1',
      merchantId: 'mer_1',
      amount: 10_000,
      originalAmount: 10_000,
      capturedAmount: 10_000,
      currency: 'BRL',
      capture: true,
      status: 'authorized',
      paymentMethod: { paymentType: 'boleto', installments: 1, expiresDate: '2026-04-01', interest: { days: 1 }, barcodeData: '123', expiresAt: at },
      paymentSource: { sourceType: 'card', cardId: 'card_1', brand: 'visa', first6digits: '411111', last4digits: '1111', expirationMonth: 12, expirationYear: 2030, cvvChecked: true },
      transactionRequests: [
        { id: 'tr_1', amount: 10_000, requestStatus: 'success', requestType: 'authorization', providerAuthorization: { networkAuthorizationCode: '123456' }, createdAt: at, updatedAt: at },
        { id: 'tr_2', amount: 1_000, requestStatus: 'success', requestType: 'refund', splitRules: [{ sellerId: 'sel_1', amount: 100 }], createdAt: at, updatedAt: at },
      ],
      splitRules: [{ sellerId: 'sel_1', percentage: 1_000, liable: true }],
      createdAt: at,
      updatedAt: at,
    });
    expectToMatch(ChargeSchema, toChargeJson(charge));
    expectToMatch(ChargeSchema, toChargeJson({ ...charge, paymentMethod: undefined, paymentSource: undefined, transactionRequests: [], splitRules: [] }));
  });

  it('plans, balances, payment batches, orders and prepayments', () => {
    expectToMatch(
      PlanSchema,
      toPlanJson(
        payouts.Plan.fromPartial({
          id: 'plan_1',
          name: 'Default',
          isDefault: true,
          fees: [{ paymentType: 'credit', installmentsFrom: 1, installmentsTo: 12, percentage: 299, fixedAmount: 0 }],
          settlementDays: { credit: 30, debit: 1, pix: 0, boleto: 1, voucher: 30 },
          prepaymentMonthlyRate: 199,
          createdAt: at,
          updatedAt: at,
        }),
      ),
    );
    expectToMatch(BalanceSchema, toBalanceJson(payouts.Balance.fromPartial({ available: 1_000, receivable: 5_000 })));
    const batch = payouts.PaymentBatch.fromPartial({ id: 'pb_1', amount: 900, feeAmount: 100, paymentDate: '2026-03-02', status: 'pending', paymentMethod: 'pix', createdAt: at, updatedAt: at });
    expectToMatch(PaymentBatchSchema, toPaymentBatchJson(batch));
    expectToMatch(PaymentBatchSchema, toPaymentBatchJson({ ...batch, sellerId: 'sel_1' }));
    expectToMatch(
      PayoutOrderSchema,
      toPayoutOrderJson(payouts.Order.fromPartial({ id: 'ord_1', chargeId: 'ch_1', amount: 900, grossAmount: 1_000, totalFeeAmount: 100, installment: 1, totalInstallments: 1, paymentMethod: 'credit', type: 'authorization', paymentScheduledAt: '2026-03-31', createdAt: at })),
    );
    expectToMatch(
      PrepaymentReceivablesSchema,
      toPrepaymentReceivablesJson(payouts.PrepaymentReceivables.fromPartial({ availableAmount: 900, receivableCount: 1, receivables: [{ id: 'rcv_1', settlementDate: '2026-03-31', paymentArrangement: 'credit', amount: 900 }] })),
    );
    const prepayment = payouts.Prepayment.fromPartial({
      id: 'pre_1',
      status: 'pending',
      grossAmount: 900,
      netAmount: 880,
      feeAmount: 20,
      monthlyRate: 199,
      expiresAt: at,
      paymentDate: '2026-03-02',
      calendar: 'BR',
      feeConvention: 'simple',
      items: [{ receivableId: 'rcv_1', settlementDate: '2026-03-31', paymentArrangement: 'credit', amount: 900, days: 29, feeAmount: 20, netAmount: 880 }],
      createdAt: at,
    });
    expectToMatch(PrepaymentSchema, toPrepaymentJson(prepayment));
    expectToMatch(PrepaymentSchema, toPrepaymentJson({ ...prepayment, status: 'committed', committedAt: at }));
  });
});
