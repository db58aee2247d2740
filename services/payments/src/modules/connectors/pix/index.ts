import type { ConnectorDefinition } from '../kit/definition';
import { PixProvider } from './connector';
import { PIX_TYPES, pixCredentials } from './credentials';

export { PixProvider, registerWebhook, webhookUrlFor } from './connector';
export { PIX_TYPES, pixCredentials } from './credentials';
export type { PixCredentials, PixType } from './credentials';
export { PIX_PROFILES } from './profiles';

/** The Central Bank's API Pix at Efí, Itaú, Santander and Banco do Brasil: one adapter per bank profile. */
export const pixConnector: ConnectorDefinition = {
  types: PIX_TYPES,
  credentials: pixCredentials,
  create: (environment) => PIX_TYPES.map((type) => new PixProvider(type, environment)),
};
