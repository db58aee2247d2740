import type { ConnectorDefinition } from '../kit/definition';
import { CieloProvider, CIELO_TYPE } from './connector';
import { cieloCredentials } from './credentials';

/** Cielo's API E-commerce (API 3.0), directly or through the Braspag gateway (docs/adding-a-connector.md). */
export const cieloConnector: ConnectorDefinition = {
  types: [CIELO_TYPE],
  credentials: cieloCredentials,
  create: (environment) => [new CieloProvider(environment)],
};
