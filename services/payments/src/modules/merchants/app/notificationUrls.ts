import { callWithTimeout } from '../../connectors/app/call';
import type { MerchantContext } from './context';

/** The platform's address for the notifications of one provider entry (the route is public: no client key). */
export function notificationUrl(publicUrl: string, providerId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/v1/provider-notifications/${providerId}`;
}

/**
 * Tells each saved entry's provider where to post its notifications, for the providers that are told so (a Pix
 * bank's webhook registration). After the entry is committed and never in the way of saving it: a provider that
 * refuses or does not answer is logged (type and entry id, never a secret), and the status sync still settles its
 * charges by asking.
 */
export async function registerNotificationUrls(
  ctx: Pick<MerchantContext, 'providers' | 'config' | 'log'>,
  entries: Array<{ id: string; credentials: Record<string, unknown> & { type: string }; options?: Record<string, unknown> }>,
): Promise<void> {
  await Promise.all(
    entries.map(async (entry) => {
      const adapter = ctx.providers.payment(entry.credentials.type);
      const register = adapter?.registerNotifications?.bind(adapter);
      if (!register) return;
      const url = notificationUrl(ctx.config.PUBLIC_URL, entry.id);
      const outcome = await callWithTimeout(ctx.config.PROVIDER_TIMEOUT_MS, (signal) =>
        register(url, { idempotencyKey: `${entry.id}:notifications`, signal, credentials: entry.credentials, options: entry.options ?? {} }),
      );
      const fields = { providerId: entry.id, providerType: entry.credentials.type };
      if (outcome.ok) ctx.log.info({ ...fields, url }, 'provider notifications registered');
      else ctx.log.warn({ ...fields, failure: outcome.failure, reason: outcome.message }, 'could not register provider notifications');
    }),
  );
}
