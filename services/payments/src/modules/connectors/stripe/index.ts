import type { ConnectorDefinition } from '../kit/definition';
import { StripeProvider, STRIPE_TYPE } from './connector';
import { stripeCredentials } from './credentials';

/** Stripe's PaymentIntents through the official SDK (docs/adding-a-connector.md). */
export const stripeConnector: ConnectorDefinition = {
  types: [STRIPE_TYPE],
  credentials: stripeCredentials,
  create: (environment) => [new StripeProvider(environment)],
};
