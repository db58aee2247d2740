import { type settings as pb } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { authenticate } from '../app/authenticate';
import { createApiKey } from '../app/createApiKey';
import { createClient } from '../app/createClient';
import { createClientToken } from '../app/createClientToken';
import { createLinkSettings } from '../app/createLinkSettings';
import type { AppDeps } from '../app/deps';
import { getClient } from '../app/getClient';
import { getLinkSettings } from '../app/getLinkSettings';
import { getLogo } from '../app/getLogo';
import { getSubscriptionSettings } from '../app/getSubscriptionSettings';
import { revokeApiKey } from '../app/revokeApiKey';
import { updateClient } from '../app/updateClient';
import { updateLinkSettings } from '../app/updateLinkSettings';
import { updateSubscriptionSettings } from '../app/updateSubscriptionSettings';
import { toClientMessage, toLinkSettingsMessage, toLogoMessage, toSubscriptionSettingsMessage } from '../wire/settingsMessages';

export type SettingsHandlers = Handlers<typeof pb.SettingsServiceService>;

export function createSettingsHandlers(deps: AppDeps): SettingsHandlers {
  return {
    async authenticate(request) {
      const { client, key } = await authenticate(deps, request);
      return { client: toClientMessage(client), keyKind: key.kind, scopes: key.scopes, keyId: key.id };
    },

    async createClient(request) {
      const created = await createClient(deps, request);
      return { client: toClientMessage(created.client), apiKey: created.apiKey, keyId: created.keyId };
    },

    async getClient(request) {
      return toClientMessage(await getClient(deps, request));
    },

    async updateClient(request) {
      return toClientMessage(await updateClient(deps, request));
    },

    async createApiKey(request) {
      const { key, apiKey } = await createApiKey(deps, request);
      return { keyId: key.id, apiKey, createdAt: key.createdAt };
    },

    async revokeApiKey(request) {
      await revokeApiKey(deps, request);
      return {};
    },

    async createClientToken(request) {
      const { key, publicKey, expires } = await createClientToken(deps, request);
      return {
        clientId: key.clientId,
        publicKey,
        scope: key.scopes,
        expires,
        createdAt: key.createdAt,
        expiresAt: key.expiresAt ?? undefined,
        keyId: key.id,
      };
    },

    async getLinkSettings(request) {
      return toLinkSettingsMessage(await getLinkSettings(deps, request));
    },

    async createLinkSettings(request, context) {
      return toLinkSettingsMessage(await createLinkSettings(deps, request, context.idempotencyKey));
    },

    async updateLinkSettings(request) {
      return toLinkSettingsMessage(await updateLinkSettings(deps, request));
    },

    async getLogo(request) {
      return toLogoMessage(await getLogo(deps, request));
    },

    async getSubscriptionSettings(request) {
      return toSubscriptionSettingsMessage(await getSubscriptionSettings(deps, request));
    },

    async updateSubscriptionSettings(request) {
      return toSubscriptionSettingsMessage(
        await updateSubscriptionSettings(deps, {
          clientId: request.clientId,
          retryPolicy: request.retryPolicy?.steps,
          cancelAfterAllRetries: request.cancelAfterAllRetries,
          statementDescriptor: request.statementDescriptor,
        }),
      );
    },
  };
}
