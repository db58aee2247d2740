import type { ConnectorDefinition } from '../kit/definition';
import { MercadoPagoProvider, MERCADOPAGO_TYPE } from './connector';
import { mercadoPagoCredentials } from './credentials';

/** Mercado Pago's payments API (Checkout API / Checkout Transparente), through its official Node SDK (docs/adding-a-connector.md). */
export const mercadoPagoConnector: ConnectorDefinition = {
  types: [MERCADOPAGO_TYPE],
  credentials: mercadoPagoCredentials,
  create: (environment) => [new MercadoPagoProvider(environment)],
};
