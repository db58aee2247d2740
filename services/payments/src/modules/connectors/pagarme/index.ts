import type { ConnectorDefinition } from '../kit/definition';
import { PagarmeProvider, PAGARME_TYPE } from './connector';
import { pagarmeCredentials } from './credentials';

/** Pagar.me's core API v5: credit card, Pix and boleto orders (docs/adding-a-connector.md). */
export const pagarmeConnector: ConnectorDefinition = {
  types: [PAGARME_TYPE],
  credentials: pagarmeCredentials,
  create: (environment) => [new PagarmeProvider(environment)],
};
