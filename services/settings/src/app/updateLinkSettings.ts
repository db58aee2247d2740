import { randomUUID } from 'node:crypto';
import { enqueueEvent, errors, withTransaction } from '@platform/kit';
import { hasEffectiveFields, type LinkSettings } from '../domain/linkSettings';
import { linkSettingsEventData, SETTINGS_EVENTS } from '../events/settingsEvents';
import type { AppDeps } from './deps';
import { parseLinkSettingsWrite, type LinkSettingsWriteInput } from './linkSettingsInput';
import { describeScope } from './scope';

/** Changes the settings of exactly the given scope, with no fallback to the client default. */
export async function updateLinkSettings(deps: AppDeps, input: LinkSettingsWriteInput): Promise<LinkSettings> {
  const write = parseLinkSettingsWrite(input);
  const { clientId, merchantId } = write;
  if (!hasEffectiveFields(write.values) && !write.logo) {
    throw errors.businessRule('no_effective_fields', 'Nothing to update: send at least one non-empty field or a logo');
  }
  const now = deps.clock.now();
  return withTransaction(deps.pool, async (tx) => {
    const current = await deps.stores.linkSettings.findByClientIdScope(tx, clientId, merchantId, { forUpdate: true });
    if (!current) throw errors.notFound(`Payment-link settings for ${describeScope(merchantId)}`);
    const next: LinkSettings = { ...current, ...write.values, updatedAt: now };
    if (write.logo) {
      next.logoId = randomUUID();
      await deps.stores.logos.insert(tx, { id: next.logoId, clientId, ...write.logo, createdAt: now });
    }
    await deps.stores.linkSettings.update(tx, next);
    if (write.logo && current.logoId) await deps.stores.logos.deleteUnreferenced(tx, clientId, current.logoId);
    await enqueueEvent(tx, { type: SETTINGS_EVENTS.linkSettingsUpdated, clientId, data: linkSettingsEventData(next), occurredAt: now });
    return next;
  });
}
