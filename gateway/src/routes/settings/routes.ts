import { LINK_SETTINGS_LIMITS, LOGO_CONTENT_TYPES, toLinkSettingsJson } from '@platform/api-model';
import type { SettingsClient } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { toLinkSettingsWrite } from './mapping';
import { LinkSettingsBody, LinkSettingsSchema, LogoParams, MerchantHeaders } from './schemas';

const tags = [TAGS.linkSettings] as const;

/** Logos are shown by the hosted checkout from our own origin, so an SVG must never run script there. */
export const LOGO_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  // A logo id names one upload and never changes content.
  'Cache-Control': 'public, max-age=31536000, immutable',
} as const;

const logoFile = { field: 'logo', maxBytes: LINK_SETTINGS_LIMITS.logoMaxBytes, contentTypes: LOGO_CONTENT_TYPES } as const;

export function settingsRoutes({ settings, publicUrl }: { settings: SettingsClient; publicUrl: string }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/settings',
      operationId: 'getLinkSettings',
      summary: 'Get payment-link settings',
      description: 'With X-Merchant-Id, the merchant settings if they exist, else the client default.',
      tags,
      resource: 'settings',
      headers: MerchantHeaders,
      response: { status: 200, description: 'The settings', schema: LinkSettingsSchema },
      handler: async ({ client, headers, call }) =>
        toLinkSettingsJson(await settings.getLinkSettings({ clientId: client.clientId, merchantId: headers['x-merchant-id'] ?? '' }, call), publicUrl),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/settings',
      operationId: 'createLinkSettings',
      summary: 'Create payment-link settings for the exact scope',
      description: 'JSON (text fields) or multipart/form-data (text fields and a logo file).',
      tags,
      resource: 'settings',
      headers: MerchantHeaders,
      body: LinkSettingsBody,
      consumes: ['json', 'multipart'],
      file: logoFile,
      errors: [409, 422],
      response: { status: 201, description: 'The settings', schema: LinkSettingsSchema },
      handler: async ({ client, headers, body, file, call }) =>
        toLinkSettingsJson(await settings.createLinkSettings(toLinkSettingsWrite(client.clientId, headers['x-merchant-id'], body, file), call), publicUrl),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/settings',
      operationId: 'updateLinkSettings',
      summary: 'Update payment-link settings of the exact scope',
      description: 'JSON (text fields) or multipart/form-data (text fields and a logo file). No effective field: 422.',
      tags,
      resource: 'settings',
      headers: MerchantHeaders,
      body: LinkSettingsBody,
      consumes: ['json', 'multipart'],
      file: logoFile,
      errors: [404, 422],
      response: { status: 200, description: 'The settings', schema: LinkSettingsSchema },
      handler: async ({ client, headers, body, file, call }) =>
        toLinkSettingsJson(await settings.updateLinkSettings(toLinkSettingsWrite(client.clientId, headers['x-merchant-id'], body, file), call), publicUrl),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/settings/logos/{logoId}',
      operationId: 'getLinkSettingsLogo',
      summary: 'Get a logo image',
      description: 'Public, so the hosted checkout can show it; served with a sandboxing Content-Security-Policy.',
      tags,
      resource: 'public',
      params: LogoParams,
      response: { status: 200, description: 'The image bytes', binary: LOGO_CONTENT_TYPES },
      handler: async ({ params, call }) => {
        const logo = await settings.getLogo({ logoId: params.logoId }, call);
        return { contentType: logo.contentType, data: logo.data, headers: LOGO_HEADERS };
      },
    }),
  ];
}
