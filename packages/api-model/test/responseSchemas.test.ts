import { payments, webhooks } from '@platform/contracts';
import {
  CardSchema,
  CardTokenSchema,
  CreatedWebhookSchema,
  DeliverySchema,
  FlowSchema,
  toCardJson,
  toCardTokenJson,
  toCreatedWebhookJson,
  toDeliveryJson,
  toFlowJson,
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
        rules: [{ when: { amountGte: 1_000, cardBrand: 'visa' }, route: ['prov_1'] }, { route: ['prov_2'] }],
        defaultRoute: ['prov_3'],
        createdAt: at,
        updatedAt: at,
      }),
    );
    expectToMatch(FlowSchema, flow);
    expect(flow.rules[1]!.when).toEqual({ amountGte: null, amountLte: null, cardBrand: null, installmentsGte: null, currency: null });
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
});
