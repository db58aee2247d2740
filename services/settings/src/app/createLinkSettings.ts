import { randomUUID } from 'node:crypto';
import { enqueueEvent, errors, isUniqueViolation, withIdempotency, type IdempotencyCodec } from '@platform/kit';
import type { LinkSettings } from '../domain/linkSettings';
import { linkSettingsEventData, SETTINGS_EVENTS } from '../events/settingsEvents';
import { isForeignKeyViolation } from '../store';
import type { AppDeps } from './deps';
import { fingerprint, parseLinkSettingsWrite, type LinkSettingsWriteInput } from './linkSettingsInput';
import { describeScope } from './scope';

const linkSettingsCodec: IdempotencyCodec<LinkSettings> = {
  encode: (settings) => Buffer.from(JSON.stringify(settings)),
  decode: (bytes) => {
    const raw = JSON.parse(Buffer.from(bytes).toString('utf8')) as LinkSettings & { createdAt: string; updatedAt: string };
    return { ...raw, createdAt: new Date(raw.createdAt), updatedAt: new Date(raw.updatedAt) };
  },
};

/** Creates the settings of exactly one scope (the client default, or one merchant); a second create is a conflict. */
export async function createLinkSettings(deps: AppDeps, input: LinkSettingsWriteInput, idempotencyKey?: string): Promise<LinkSettings> {
  const write = parseLinkSettingsWrite(input);
  const { clientId, merchantId } = write;
  const now = deps.clock.now();
  return withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: 'settings.CreateLinkSettings', request: fingerprint(write), codec: linkSettingsCodec },
    async (tx) => {
      const settings: LinkSettings = { id: randomUUID(), clientId, merchantId, ...write.values, logoId: null, createdAt: now, updatedAt: now };
      try {
        if (write.logo) {
          settings.logoId = randomUUID();
          await deps.stores.logos.insert(tx, { id: settings.logoId, clientId, ...write.logo, createdAt: now });
        }
        await deps.stores.linkSettings.insert(tx, settings);
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw errors.conflict(`Payment-link settings already exist for ${describeScope(merchantId)}`, 'link_settings_exist');
        }
        if (isForeignKeyViolation(error)) throw errors.notFound('Client', clientId);
        throw error;
      }
      await enqueueEvent(tx, { type: SETTINGS_EVENTS.linkSettingsCreated, clientId, data: linkSettingsEventData(settings), occurredAt: now });
      return settings;
    },
  );
}
