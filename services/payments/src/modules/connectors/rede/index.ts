import type { ConnectorDefinition } from '../kit/definition';
import { REDE_TYPE, RedeProvider } from './connector';
import { redeCredentials } from './credentials';

/** e.Rede: credit and debit cards (docs/adding-a-connector.md). */
export const redeConnector: ConnectorDefinition = {
  types: [REDE_TYPE],
  credentials: redeCredentials,
  create: (environment) => [new RedeProvider(environment)],
};
