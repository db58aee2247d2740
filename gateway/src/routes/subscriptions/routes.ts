import { toSubscriptionSettingsJson } from '@platform/api-model';
import type { payments as contracts } from '@platform/contracts';
import type { CallMeta } from '@platform/kit';
import type { GatewayClients } from '../../clients';
import { toList } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import {
  toCreateSubscriptionRequest,
  toListSubscriptionCyclesRequest,
  toListSubscriptionsRequest,
  toReplaceSubscriptionRequest,
  toSubscriptionCycleJson,
  toSubscriptionJson,
  toUpdateSubscriptionSettingsRequest,
} from './mapping';
import {
  AdvanceSubscriptionBody,
  CreateSubscriptionBody,
  CyclesQuery,
  ListSubscriptionsQuery,
  ReplaceSubscriptionBody,
  SubscriptionCycleListSchema,
  SubscriptionCycleParams,
  SubscriptionCycleSchema,
  SubscriptionListSchema,
  SubscriptionParams,
  SubscriptionSchema,
  SubscriptionSettingsSchema,
  UpdateSubscriptionSettingsBody,
} from './schemas';

const tags = [TAGS.subscriptions] as const;

type Clients = Pick<GatewayClients, 'settings' | 'payments'>;

/** A change of state by id: PATCH as the public clients call it, POST accepted too. */
interface StateChange {
  action: 'cancel' | 'pause' | 'resume';
  /** The PATCH route's operationId; the POST route's adds `ViaPost`. */
  operationId: string;
  summary: string;
  description: string;
  run(payments: Clients['payments'], request: { clientId: string; id: string }, call: CallMeta): Promise<contracts.Subscription>;
}

const STATE_CHANGES: readonly StateChange[] = [
  {
    action: 'cancel',
    operationId: 'cancelSubscription',
    summary: 'Cancel a subscription',
    description: 'Stops future cycles. A status that cannot change so: 422.',
    run: (payments, request, call) => payments.cancelSubscription(request, call),
  },
  {
    action: 'pause',
    operationId: 'pauseSubscription',
    summary: 'Pause a subscription',
    description: 'No cycle is billed while it is paused. A status that cannot change so: 422.',
    run: (payments, request, call) => payments.pauseSubscription(request, call),
  },
  {
    action: 'resume',
    operationId: 'resumeSubscription',
    summary: 'Resume a paused subscription',
    description: 'Billing continues from the next due date; the cycles missed while paused are not billed. A status that cannot change so: 422.',
    run: (payments, request, call) => payments.resumeSubscription(request, call),
  },
];

export function subscriptionRoutes({ settings, payments }: Clients): RouteDefinition[] {
  return [
    // Before /v1/subscriptions/{id}, so `settings` is never read as a subscription id.
    defineRoute({
      method: 'get',
      path: '/v1/subscriptions/settings',
      operationId: 'getSubscriptionSettings',
      summary: 'Get subscription settings',
      tags,
      resource: 'subscriptions',
      response: { status: 200, description: 'The settings (the defaults until changed)', schema: SubscriptionSettingsSchema },
      handler: async ({ client, call }) => toSubscriptionSettingsJson(await settings.getSubscriptionSettings({ clientId: client.clientId }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/subscriptions/settings',
      operationId: 'updateSubscriptionSettings',
      summary: 'Update subscription settings',
      tags,
      resource: 'subscriptions',
      body: UpdateSubscriptionSettingsBody,
      errors: [422],
      response: { status: 200, description: 'The updated settings', schema: SubscriptionSettingsSchema },
      handler: async ({ client, body, call }) =>
        toSubscriptionSettingsJson(await settings.updateSubscriptionSettings(toUpdateSubscriptionSettingsRequest(client.clientId, body), call)),
    }),

    defineRoute({
      method: 'post',
      path: '/v1/subscriptions',
      operationId: 'createSubscription',
      summary: 'Create a subscription',
      description:
        "Each cycle is one charge of the items' total on the customer's saved card, made at the cycle's due time. A trial delays the first " +
        'cycle to trial.endAt (status trialing). Without recurrence.cycles the subscription bills until canceled.',
      tags,
      resource: 'subscriptions',
      body: CreateSubscriptionBody,
      response: { status: 201, description: 'The subscription', schema: SubscriptionSchema },
      errors: [409, 422],
      handler: async ({ client, body, call }) => toSubscriptionJson(await payments.createSubscription(toCreateSubscriptionRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/subscriptions',
      operationId: 'listSubscriptions',
      summary: 'List subscriptions, newest first',
      tags,
      resource: 'subscriptions',
      query: ListSubscriptionsQuery,
      response: { status: 200, description: 'A page of subscriptions', schema: SubscriptionListSchema },
      handler: async ({ client, query, call }) => {
        const page = await payments.listSubscriptions(toListSubscriptionsRequest(client.clientId, query), call);
        return toList(page.items.map(toSubscriptionJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/subscriptions/{id}',
      operationId: 'getSubscription',
      summary: 'Get a subscription',
      tags,
      resource: 'subscriptions',
      params: SubscriptionParams,
      response: { status: 200, description: 'The subscription', schema: SubscriptionSchema },
      handler: async ({ client, params, call }) => toSubscriptionJson(await payments.getSubscription({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'put',
      path: '/v1/subscriptions/{id}',
      operationId: 'replaceSubscription',
      summary: "Replace a subscription's items and card",
      description: 'The next cycles bill the new total on the new card; the name changes only when given.',
      tags,
      resource: 'subscriptions',
      params: SubscriptionParams,
      body: ReplaceSubscriptionBody,
      response: { status: 200, description: 'The subscription', schema: SubscriptionSchema },
      errors: [422],
      handler: async ({ client, params, body, call }) =>
        toSubscriptionJson(await payments.replaceSubscription(toReplaceSubscriptionRequest(client.clientId, params.id, body), call)),
    }),
    ...STATE_CHANGES.flatMap((change) =>
      (['patch', 'post'] as const).map((method) =>
        defineRoute({
          method,
          path: `/v1/subscriptions/{id}/${change.action}`,
          operationId: method === 'patch' ? change.operationId : `${change.operationId}ViaPost`,
          summary: change.summary,
          description: `${change.description}${method === 'post' ? ` Same as PATCH /v1/subscriptions/{id}/${change.action}.` : ''}`,
          tags,
          resource: 'subscriptions',
          params: SubscriptionParams,
          response: { status: 200, description: 'The subscription', schema: SubscriptionSchema },
          errors: [422],
          handler: async ({ client, params, call }) => toSubscriptionJson(await change.run(payments, { clientId: client.clientId, id: params.id }, call)),
        }),
      ),
    ),
    defineRoute({
      method: 'get',
      path: '/v1/subscriptions/{id}/cycles',
      operationId: 'listSubscriptionCycles',
      summary: "List a subscription's billing cycles",
      tags,
      resource: 'subscriptions',
      params: SubscriptionParams,
      query: CyclesQuery,
      response: { status: 200, description: 'A page of cycles, with their attempts', schema: SubscriptionCycleListSchema },
      handler: async ({ client, params, query, call }) => {
        const page = await payments.listSubscriptionCycles(toListSubscriptionCyclesRequest(client.clientId, params.id, query), call);
        return toList(page.items.map(toSubscriptionCycleJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/subscriptions/{id}/cycles/{cycleId}',
      operationId: 'getSubscriptionCycle',
      summary: 'Get a billing cycle of a subscription',
      tags,
      resource: 'subscriptions',
      params: SubscriptionCycleParams,
      response: { status: 200, description: 'The cycle, with its attempts', schema: SubscriptionCycleSchema },
      handler: async ({ client, params, call }) =>
        toSubscriptionCycleJson(await payments.getSubscriptionCycle({ clientId: client.clientId, subscriptionId: params.id, id: params.cycleId }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/subscriptions/{id}/sandbox/advance',
      operationId: 'advanceSandboxSubscription',
      summary: 'Sandbox: run the subscription as if the clock were at the given instant',
      description:
        'Every cycle and retry of the subscription due up to `to` runs, in order, so a test sees billing, retries and expiry without waiting. ' +
        'One call bills at most 36 cycles: a `to` that would bill more is refused with 422 `advance_too_far` before anything is billed (advance in steps). ' +
        'One advance of a subscription runs at a time: a second one meanwhile answers 409 `subscription_advance_in_progress`.',
      tags,
      resource: 'subscriptions',
      sandboxOnly: true,
      params: SubscriptionParams,
      body: AdvanceSubscriptionBody,
      response: { status: 200, description: 'The subscription after the run', schema: SubscriptionSchema },
      errors: [409, 422],
      handler: async ({ client, params, body, call }) =>
        toSubscriptionJson(await payments.advanceSubscription({ clientId: client.clientId, id: params.id, to: body.to }, call)),
    }),
  ];
}
