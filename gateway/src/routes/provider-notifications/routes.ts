import type { GatewayClients } from '../../clients';
import { RAW_BODY_MAX_BYTES } from '../../http/body';
import { defineRoute, WithStatus, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { z } from '../../openapi/zod';

const ProviderParams = z.object({
  providerId: z.string().openapi({
    description: 'The id of the merchant provider entry the notification URL was registered for (`providers[].id` of a merchant)',
    example: '7d3c2a10-5b6e-4f8a-9c1d-2e3f4a5b6c7d',
  }),
});

/** Whatever the provider sends: every header and query parameter is passed on as it came. */
const anyValue = z.union([z.string(), z.array(z.string())]);
const AnyHeaders = z.object({}).catchall(anyValue);
const AnyQuery = z.object({}).catchall(anyValue);

const RawBody = z.custom<Buffer>((value) => Buffer.isBuffer(value), 'must be the raw body');

const NotificationReply = z.record(z.string(), z.unknown()).openapi('ProviderNotificationReply', {
  description: 'What the provider expects back; `{"received": true}` unless its connector says otherwise',
  example: { received: true },
});

/** Hop-by-hop and forwarding headers say nothing of the notification: they are not passed on. */
const DROPPED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'te', 'trailer']);

function flatten(values: Record<string, string | string[]>, drop?: Set<string>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const key = name.toLowerCase();
    if (drop?.has(key)) continue;
    flat[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Where real providers (acquirers, Pix banks) post what happened to a transaction. No client key: the provider
 * entry in the URL decides whose charges may change, and its connector verifies the notification (a signature
 * over the bytes, a shared secret) with the entry's credentials. The body is passed on as bytes, with every
 * header and query parameter; a charge then follows the status its provider confirms.
 */
export function providerNotificationRoutes({ payments }: Pick<GatewayClients, 'payments'>): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/provider-notifications/{providerId}',
      operationId: 'receiveProviderNotification',
      summary: 'Receive a notification from a payment provider',
      description:
        'For providers, not clients: the URL a provider entry registers at its provider for status notifications. ' +
        `No credentials; the entry's connector verifies what was sent. Any media type, at most ${RAW_BODY_MAX_BYTES} bytes. ` +
        'An unknown or deleted entry: 404; a notification its connector refuses: 401. Sending the same notification again changes nothing.',
      tags: [TAGS.charges],
      resource: 'public',
      params: ProviderParams,
      headers: AnyHeaders,
      query: AnyQuery,
      body: RawBody,
      consumes: ['raw'],
      response: { status: 200, description: 'The notification was received', schema: NotificationReply },
      errors: [401, 404, 413],
      handler: async ({ params, headers, query, body, call }) => {
        const reply = await payments.receiveProviderNotification(
          {
            providerId: params.providerId,
            headers: flatten(headers as Record<string, string | string[]>, DROPPED_HEADERS),
            query: flatten(query as Record<string, string | string[]>),
            rawBody: body,
          },
          call,
        );
        const answer = reply.bodyJson ? (JSON.parse(reply.bodyJson) as Record<string, unknown>) : { received: true };
        return new WithStatus(reply.status || 200, answer);
      },
    }),
  ];
}
