import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startAdyenSimulator,
  startCieloSimulator,
  startMercadoPagoSimulator,
  startPagarmeSimulator,
  startPixSimulator,
  startRedeSimulator,
  startStripeSimulator,
  testTls,
  type CieloSimulator,
  type MercadoPagoSimulator,
  type PagarmeSimulator,
  type PixSimulatorProfile,
  type RunningAdyenSimulator,
  type RunningPixSimulator,
  type RunningRedeSimulator,
  type RunningStripeSimulator,
} from '@platform/simulators';

/**
 * The real providers' simulators beside a local platform (`npm start`, the end-to-end tests): each on a free
 * loopback port, with the demo accounts below, and the operator variables that point the connectors at them.
 * A variable the operator already set is kept (then that provider is reached where it says, and its simulator
 * is not started): pointing the platform at a real provider is a configuration change, not a code change.
 */

/** The accounts the simulators accept, and the demo merchant's provider entries carry. Not secrets: test values. */
export const DEMO_ACCOUNTS = {
  cielo: { merchantId: 'b3c2d1a0-5e4f-4a3b-9c8d-7e6f5a4b3c2d', merchantKey: 'DEMOCIELOKEYSIMULATOR0000000000000000000' },
  rede: { pv: '10000001', token: 'demo-rede-integration-key' },
  pix: { clientId: 'Client_Id_demo_simulator', clientSecret: 'Client_Secret_demo_simulator', pixKey: 'pix@demo.example' },
  pagarme: { secretKey: 'sk_test_DemoSimulatorPagarme0001' },
  mercadopago: { accessToken: 'TEST-0000000000000000-000000-DemoSimulatorMercadoPago', webhookSecret: 'demo-mercadopago-webhook-secret' },
  stripe: { secretKey: 'sk_test_DemoSimulatorStripe0001', webhookSecret: 'whsec_DemoSimulatorStripe0001' },
  adyen: {
    apiKey: 'AQE_demo_simulator_adyen_api_key',
    merchantAccount: 'DemoStoreECOM',
    hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
  },
} as const;

const PIX_PROFILES: readonly PixSimulatorProfile[] = ['EFI', 'ITAU', 'SANTANDER', 'BB'];

export interface ProviderSimulators {
  /** The variables to give the platform's processes (only those the environment did not set). */
  env: Record<string, string>;
  /** Which simulators run (`cielo`, `rede`, `pix_efi`, ...), by the variable they answer for. */
  running: string[];
  /** The simulators themselves (absent: the operator pointed that provider elsewhere), for tests to drive them. */
  cielo?: CieloSimulator;
  rede?: RunningRedeSimulator;
  pix: Partial<Record<PixSimulatorProfile, RunningPixSimulator>>;
  pagarme?: PagarmeSimulator;
  mercadopago?: MercadoPagoSimulator;
  stripe?: RunningStripeSimulator;
  adyen?: RunningAdyenSimulator;
  close(): Promise<void>;
}

/** Starts the simulators whose providers the environment does not already point elsewhere. */
export async function startProviderSimulators(options: { env?: NodeJS.ProcessEnv; clock?: () => Date } = {}): Promise<ProviderSimulators> {
  const given = options.env ?? process.env;
  const isSet = (name: string) => (given[name] ?? '').trim() !== '';
  const env: Record<string, string> = {};
  const closers: Array<() => Promise<void>> = [];
  const running: string[] = [];
  const started: Pick<ProviderSimulators, 'cielo' | 'rede' | 'pix' | 'pagarme' | 'mercadopago' | 'stripe' | 'adyen'> = { pix: {} };
  try {
    if (!isSet('CIELO_API_URL') && !isSet('CIELO_QUERY_URL')) {
      const cielo = await startCieloSimulator({ clock: options.clock, merchants: [DEMO_ACCOUNTS.cielo] });
      closers.push(() => cielo.close());
      started.cielo = cielo;
      // One simulator serves Cielo's transactional and query hosts, and the Braspag gateway's shapes too.
      Object.assign(env, { CIELO_API_URL: cielo.url, CIELO_QUERY_URL: cielo.url, CIELO_BRASPAG_API_URL: cielo.url, CIELO_BRASPAG_QUERY_URL: cielo.url });
      running.push('cielo');
    }
    if (!isSet('REDE_API_URL')) {
      const rede = await startRedeSimulator({ clock: options.clock, accounts: [{ pv: DEMO_ACCOUNTS.rede.pv, token: DEMO_ACCOUNTS.rede.token }] });
      closers.push(() => rede.close());
      started.rede = rede;
      Object.assign(env, { REDE_API_URL: rede.transactionsUrl, REDE_OAUTH_URL: rede.oauthUrl });
      running.push('rede');
    }
    for (const profile of PIX_PROFILES) {
      if (isSet(`PIX_${profile}_API_URL`)) continue;
      const pix = await startPixSimulator({ clock: options.clock, profile, accounts: [{ clientId: DEMO_ACCOUNTS.pix.clientId, clientSecret: DEMO_ACCOUNTS.pix.clientSecret }] });
      closers.push(() => pix.close());
      started.pix[profile] = pix;
      Object.assign(env, { [`PIX_${profile}_API_URL`]: pix.url, [`PIX_${profile}_TOKEN_URL`]: pix.tokenUrl });
      running.push(`pix_${profile.toLowerCase()}`);
    }
    if (!isSet('PAGARME_API_URL')) {
      const pagarme = await startPagarmeSimulator({ clock: options.clock, accounts: [DEMO_ACCOUNTS.pagarme] });
      closers.push(() => pagarme.close());
      started.pagarme = pagarme;
      env.PAGARME_API_URL = pagarme.apiUrl;
      running.push('pagarme');
    }
    if (!isSet('MERCADOPAGO_API_URL')) {
      const mercadopago = await startMercadoPagoSimulator({ clock: options.clock, accounts: [{ ...DEMO_ACCOUNTS.mercadopago }] });
      closers.push(() => mercadopago.close());
      started.mercadopago = mercadopago;
      env.MERCADOPAGO_API_URL = mercadopago.url;
      running.push('mercadopago');
    }
    if (!isSet('STRIPE_API_URL')) {
      const stripe = await startStripeSimulator({ clock: options.clock, accounts: [{ ...DEMO_ACCOUNTS.stripe }] });
      closers.push(() => stripe.close());
      started.stripe = stripe;
      env.STRIPE_API_URL = stripe.url;
      running.push('stripe');
    }
    if (!isSet('ADYEN_CHECKOUT_URL')) {
      const adyen = await startAdyenSimulator({ clock: options.clock, accounts: [{ ...DEMO_ACCOUNTS.adyen }] });
      closers.push(() => adyen.close());
      started.adyen = adyen;
      env.ADYEN_CHECKOUT_URL = adyen.checkoutUrl;
      running.push('adyen');
    }
    // The Pix and Adyen simulators serve TLS with a test CA: the platform trusts it as it would a bank's private one, beside
    // the authorities the environment already adds (a machine's NODE_EXTRA_CA_CERTS is kept, in one bundle with it).
    if (running.some((name) => name.startsWith('pix_') || name === 'adyen')) {
      const extra = (given.NODE_EXTRA_CA_CERTS ?? '').trim();
      if (extra === '' || !existsSync(extra)) {
        env.NODE_EXTRA_CA_CERTS = testTls().caFile;
      } else {
        const folder = mkdtempSync(path.join(os.tmpdir(), 'platform-simulators-ca-'));
        closers.push(async () => rmSync(folder, { recursive: true, force: true }));
        env.NODE_EXTRA_CA_CERTS = path.join(folder, 'ca-bundle.pem');
        writeFileSync(env.NODE_EXTRA_CA_CERTS, `${readFileSync(extra, 'utf8').trimEnd()}\n${testTls().ca}`);
      }
    }
  } catch (error) {
    await Promise.all(closers.map((close) => close().catch(() => undefined)));
    throw error;
  }
  return { env, running, ...started, close: async () => void (await Promise.all(closers.map((close) => close().catch(() => undefined)))) };
}

/**
 * The demo merchant's providers: Cielo first, then Rede, then SANDBOX, and the Efí Pix account, so the first charge
 * of the README meets real connectors and failover. The client certificate is the simulators' test one.
 */
export function demoProviders(): Array<{ name: string; priority: number; credentials: Record<string, unknown> }> {
  const tls = testTls();
  return [
    { name: 'Cielo (simulator)', priority: 1, credentials: { type: 'CIELO', ...DEMO_ACCOUNTS.cielo, environment: 'sandbox' } },
    { name: 'Rede (simulator)', priority: 2, credentials: { type: 'REDE', ...DEMO_ACCOUNTS.rede, environment: 'sandbox' } },
    { name: 'Sandbox', priority: 3, credentials: { type: 'SANDBOX' } },
    {
      name: 'Pix Efí (simulator)',
      priority: 4,
      credentials: { type: 'PIX_EFI', ...DEMO_ACCOUNTS.pix, certificate: tls.clientBundle, environment: 'sandbox' },
    },
  ];
}

/**
 * The second demo merchant, for merchants that hold PSP accounts rather than acquirer affiliations: Pagar.me first,
 * then Mercado Pago, Stripe, Adyen and SANDBOX, every one simulated here.
 */
export function demoPspProviders(): Array<{ name: string; priority: number; credentials: Record<string, unknown>; options?: Record<string, unknown> }> {
  const buyer = { name: 'Comprador Demo', email: 'buyer@demo.example', document: '12345678909', type: 'individual' };
  return [
    { name: 'Pagar.me (simulator)', priority: 1, credentials: { type: 'PAGARME', ...DEMO_ACCOUNTS.pagarme, environment: 'sandbox' }, options: { customer: buyer } },
    { name: 'Mercado Pago (simulator)', priority: 2, credentials: { type: 'MERCADOPAGO', ...DEMO_ACCOUNTS.mercadopago, environment: 'sandbox' }, options: { payerEmail: buyer.email } },
    { name: 'Stripe (simulator)', priority: 3, credentials: { type: 'STRIPE', ...DEMO_ACCOUNTS.stripe, environment: 'sandbox' } },
    { name: 'Adyen (simulator)', priority: 4, credentials: { type: 'ADYEN', ...DEMO_ACCOUNTS.adyen, environment: 'sandbox' } },
    { name: 'Sandbox', priority: 5, credentials: { type: 'SANDBOX' } },
  ];
}
