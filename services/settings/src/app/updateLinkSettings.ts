import { randomUUID } from 'node:crypto';
import { enqueueEvent, errors, isUniqueViolation, withTransaction, type PoolClient } from '@platform/kit';
import { describeScope, hasEffectiveFields, platformDefaultSettings, type LinkSettings } from '../domain/linkSettings';
import { linkSettingsEventData, SETTINGS_EVENTS } from '../events/settingsEvents';
import type { AppDeps } from './deps';
import { parseLinkSettingsWrite, type LinkSettingsWriteInput } from './linkSettingsInput';

/**
 * Changes the settings of exactly the given scope, with no fallback to the client default. The client default
 * always exists: while the client never stored it, the change applies to the platform's defaults, stored then.
 */
export async function updateLinkSettings(deps: AppDeps, input: LinkSettingsWriteInput): Promise<LinkSettings> {
  const write = parseLinkSettingsWrite(input);
  const { clientId, merchantId } = write;
  if (!hasEffectiveFields(write.values) && !write.logo) {
    throw errors.businessRule('no_effective_fields', 'Nothing to update: send at least one non-empty field or a logo');
  }
  // The merchant is the caller's, or nothing is stored.
  if (merchantId !== null) await deps.merchants.requireMerchant(clientId, merchantId);
  const now = deps.clock.now();
  const change = async (tx: PoolClient): Promise<LinkSettings> => {
    const current = (await deps.stores.linkSettings.findByClientIdScope(tx, clientId, merchantId, { forUpdate: true })) ?? (await storedDefault(deps, tx, clientId, merchantId));
    const next: LinkSettings = { ...current, ...write.values, updatedAt: now };
    if (write.logo) {
      next.logoId = randomUUID();
      await deps.stores.logos.insert(tx, { id: next.logoId, clientId, ...write.logo, createdAt: now });
    }
    await deps.stores.linkSettings.update(tx, next);
    if (write.logo && current.logoId) await deps.stores.logos.deleteUnreferenced(tx, clientId, current.logoId);
    await enqueueEvent(tx, { type: SETTINGS_EVENTS.linkSettingsUpdated, clientId, data: linkSettingsEventData(next, deps.publicUrl), occurredAt: now });
    return next;
  };
  try {
    return await withTransaction(deps.pool, change);
  } catch (error) {
    // Two first changes of the client default at once: one stored the defaults; the other now finds them.
    if (merchantId === null && isUniqueViolation(error)) return withTransaction(deps.pool, change);
    throw error;
  }
}

/** The platform's defaults stored as the client default; a merchant scope without settings is not found. */
async function storedDefault(deps: AppDeps, tx: PoolClient, clientId: string, merchantId: string | null): Promise<LinkSettings> {
  if (merchantId !== null) throw errors.notFound(`Payment-link settings for ${describeScope(merchantId)}`);
  const client = await deps.stores.clients.findById(tx, clientId);
  if (!client) throw errors.notFound('Client', clientId);
  const defaults = platformDefaultSettings(client);
  await deps.stores.linkSettings.insert(tx, defaults);
  return defaults;
}
