import { InvalidWebhookSignatureError, WebhookSignatureValidator } from 'mercadopago';
import { NotificationRefusedError, type InboundNotification, type NotificationReader, type NotificationReading } from '../domain/types';

/**
 * Mercado Pago's Webhooks ("Your integrations" > "Webhooks"): a POST of
 * `{id, live_mode, type: "payment", date_created, user_id, api_version, action: "payment.created" | "payment.updated", data: {id}}`
 * to the URL configured for the application (here `PUBLIC_URL/v1/provider-notifications/{providerId}`), with
 * `?data.id=...&type=payment` in its query. "Validate notification origin": the `x-signature` header holds
 * `ts=<timestamp>,v1=<HMAC-SHA256, hex>` of the manifest `id:[data.id_url];request-id:[x-request-id_header];ts:[ts_header];`
 * keyed with the application's secret signature (the entry's `webhookSecret`); a value absent from the
 * notification is left out of the manifest, and an alphanumeric data.id is signed in lower case. The official SDK's
 * WebhookSignatureValidator computes exactly that manifest and compares in constant time.
 *
 * The signature covers the payment's id, not the body, and the body carries no status: the platform queries the
 * payment back (`GET /v1/payments/{id}`), so nothing else in the post is trusted. Its `ts` is not held against a
 * clock (the manual makes that tolerance optional): a replayed notification only makes the platform ask again. The answer Mercado Pago waits for
 * (22 seconds, else it retries every 15 minutes) is a bare 200.
 */

function header(headers: Record<string, string>, name: string): string | undefined {
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return found?.[1];
}

export const mercadoPagoNotifications: NotificationReader = {
  read(notification: InboundNotification, credentials: Record<string, unknown>): NotificationReading {
    const secret = credentials.webhookSecret;
    if (typeof secret !== 'string' || secret === '') throw new NotificationRefusedError('Mercado Pago notification for an entry without a webhook secret');
    const dataId = notification.query['data.id']?.trim();
    if (!dataId) throw new NotificationRefusedError('Mercado Pago notification without data.id in its URL');
    try {
      WebhookSignatureValidator.validate({
        xSignature: header(notification.headers, 'x-signature'),
        xRequestId: header(notification.headers, 'x-request-id'),
        dataId: /^[A-Za-z0-9]+$/.test(dataId) ? dataId.toLowerCase() : dataId,
        secret,
      });
    } catch (error) {
      // The reason (missing header, mismatch, ...), never the secret or the expected signature.
      if (error instanceof InvalidWebhookSignatureError) throw new NotificationRefusedError(`Mercado Pago notification refused: ${error.reason}`);
      throw error;
    }
    let body: unknown;
    try {
      body = JSON.parse(notification.rawBody.toString('utf8'));
    } catch {
      throw new NotificationRefusedError('Mercado Pago notification is not JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new NotificationRefusedError('Mercado Pago notification is not an object');
    const { type, data } = body as { type?: unknown; data?: { id?: unknown } };
    const bodyId = data && typeof data === 'object' ? data.id : undefined;
    if (bodyId !== undefined && String(bodyId) !== dataId) throw new NotificationRefusedError('Mercado Pago notification names another data.id in its body than in its URL');
    const topic = type ?? notification.query.type;
    // Verified, but about another topic (merchant orders, claims, ...): acknowledged, nothing to read back.
    if (topic !== 'payment') return { transactions: [], reply: { status: 200 } };
    if (!/^\d+$/.test(dataId)) throw new NotificationRefusedError('Mercado Pago payment notification without a payment id');
    return { transactions: [{ transactionId: dataId }], reply: { status: 200 } };
  },
};
