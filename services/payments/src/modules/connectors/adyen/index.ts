import type { ConnectorDefinition } from '../kit/definition';
import { AdyenProvider, ADYEN_TYPE } from './connector';
import { adyenCredentials } from './credentials';

/** Adyen's Checkout API v72: credit and debit cards (docs/adding-a-connector.md). */
export const adyenConnector: ConnectorDefinition = {
  types: [ADYEN_TYPE],
  credentials: adyenCredentials,
  create: (environment) => [new AdyenProvider(environment)],
};
