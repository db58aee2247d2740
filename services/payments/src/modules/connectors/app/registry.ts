import { SandboxProvider } from '../sandbox/sandbox';
import { SandboxAntifraudProvider } from '../sandbox/sandboxAntifraud';
import type { AntifraudProvider, PaymentProvider } from '../domain/types';
import { CONNECTORS } from '../catalog';

/** Which adapter serves which credentials type. A type with no adapter is a provider that cannot be reached. */
export interface ProviderRegistry {
  payment(type: string): PaymentProvider | undefined;
  antifraud(type: string): AntifraudProvider | undefined;
  /** Antifraud providers are consulted before authorization and never routed a payment. */
  isAntifraud(type: string): boolean;
  /** The credentials types whose adapter can say where a transaction stands (`query`): the status sync asks only these. */
  queryable(): string[];
}

export interface RegistryOptions {
  publicUrl: string;
  /** The sandbox's coin for cards ending 8. */
  random?: () => number;
  /** The operator's environment (the connectors' `<PROVIDER>_API_URL` overrides); the process's by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The adapters of the platform. SUBACQUIRER, the platform's own acquiring provider, has no adapter yet (its
 * link to a card network processor is outside this repository): a merchant routed to it fails over as if
 * it were down.
 */
export function createProviderRegistry(options: RegistryOptions): ProviderRegistry {
  const environment = { env: options.env ?? process.env, publicUrl: options.publicUrl };
  return fromAdapters(
    [new SandboxProvider({ publicUrl: options.publicUrl, random: options.random }), ...CONNECTORS.flatMap((c) => c.create(environment))],
    [new SandboxAntifraudProvider()],
  );
}

/** A registry over the given adapters (tests pass counting or failing ones). */
export function fromAdapters(paymentAdapters: PaymentProvider[], antifraudAdapters: AntifraudProvider[] = []): ProviderRegistry {
  const payments = new Map(paymentAdapters.map((a) => [a.type.toUpperCase(), a]));
  const antifraud = new Map(antifraudAdapters.map((a) => [a.type.toUpperCase(), a]));
  return {
    payment: (type) => payments.get(type.toUpperCase()),
    antifraud: (type) => antifraud.get(type.toUpperCase()),
    isAntifraud: (type) => antifraud.has(type.toUpperCase()),
    queryable: () => [...payments.values()].filter((a) => typeof a.query === 'function').map((a) => a.type.toUpperCase()),
  };
}
