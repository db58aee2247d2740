import { randomUUID } from 'node:crypto';
import { enqueueEvent, withIdempotency } from '@platform/kit';
import type { LinkSettings } from '../domain/linkSettings';
import { linkSettingsEventData, SETTINGS_EVENTS } from '../events/settingsEvents';
import { linkSettingsCodec } from '../wire/settingsMessages';
import type { AppDeps } from './deps';
import { fingerprint, parseLinkSettingsWrite, type LinkSettingsWriteInput } from './linkSettingsInput';

/**
 * Creates the settings of exactly one scope (the client default, or one merchant of the caller: payments is asked,
 * not_found otherwise); a second create is a conflict.
 */
export async function createLinkSettings(deps: AppDeps, input: LinkSettingsWriteInput, idempotencyKey?: string): Promise<LinkSettings> {
  const write = parseLinkSettingsWrite(input);
  const { clientId, merchantId } = write;
  // The merchant is the caller's, or nothing is stored.
  if (merchantId !== null) await deps.merchants.requireMerchant(clientId, merchantId);
  const now = deps.clock.now();
  return withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: 'settings.CreateLinkSettings', request: fingerprint(write), codec: linkSettingsCodec },
    async (tx) => {
      const settings: LinkSettings = { id: randomUUID(), clientId, merchantId, ...write.values, logoId: null, createdAt: now, updatedAt: now };
      if (write.logo) {
        settings.logoId = randomUUID();
        await deps.stores.logos.insert(tx, { id: settings.logoId, clientId, ...write.logo, createdAt: now });
      }
      await deps.stores.linkSettings.insert(tx, settings);
      await enqueueEvent(tx, { type: SETTINGS_EVENTS.linkSettingsCreated, clientId, data: linkSettingsEventData(settings, deps.publicUrl), occurredAt: now });
      return settings;
    },
  );
}
