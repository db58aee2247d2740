import type { ConnectorDefinition } from './kit/definition';
import { pixConnector } from './pix';
import { redeConnector } from './rede';
import { cieloConnector } from './cielo';
import { stripeConnector } from './stripe';
import { pagarmeConnector } from './pagarme';
import { mercadoPagoConnector } from './mercadopago';
import { adyenConnector } from './adyen';
// `npm run new-connector` adds a connector's import above this line.

/**
 * The real providers, one folder each (docs/adding-a-connector.md). The registry makes their adapters and
 * the merchants module checks provider entries with their credentials schemas.
 */
export const CONNECTORS: readonly ConnectorDefinition[] = [
  pixConnector,
  redeConnector,
  cieloConnector,
  stripeConnector,
  pagarmeConnector,
  mercadoPagoConnector,
  adyenConnector,
  // `npm run new-connector` adds a connector above this line.
];

/** Every credentials.type a connector serves. */
export function connectorTypes(): string[] {
  return CONNECTORS.flatMap((c) => [...c.types]);
}

export function connectorFor(type: string): ConnectorDefinition | undefined {
  return CONNECTORS.find((c) => c.types.includes(type));
}
