import { createHash } from 'node:crypto';
import { CheckoutAPI, Client, EnvironmentEnum } from '@adyen/api-library';
import type {
  AuthorizeRequest,
  AuthorizeResult,
  OperationRequest,
  OperationResult,
  PaymentProvider,
  ProviderCall,
} from '../domain/types';
import { endpoint, type ConnectorEnvironment } from '../kit/definition';
import { saleFailure, trustedAuthorities } from '../kit/http';
import { adyenCredentials, type AdyenCredentials } from './credentials';
import { clientEncryptionKey } from './encryption';
import { failureOf } from './errors';
import { adyenNotifications } from './notifications';
import {
  fromModificationResponse,
  fromPaymentResponse,
  idempotencyKeyOf,
  toCancelRequest,
  toCaptureRequest,
  toPaymentRequest,
  toRefundRequest,
} from './transformers';

export const ADYEN_TYPE = 'ADYEN';

/** The operator's variable: the Checkout base including its version path (a simulator, a proxy, a fixed live host). */
export const ADYEN_CHECKOUT_URL = 'ADYEN_CHECKOUT_URL';

/**
 * The Checkout API v72 hosts Adyen documents ("Live endpoints", "API URLs"): one test host for everyone, and on
 * live a host of the merchant's own, named by the live endpoint prefix of its Customer Area.
 */
export const ADYEN_TEST_CHECKOUT = 'https://checkout-test.adyen.com/v72';
export function adyenLiveCheckout(prefix: string): string {
  return `https://${prefix}-checkout-live.adyenpayments.com/checkout/v72`;
}

/** Where an entry's requests go: `ADYEN_CHECKOUT_URL` when set, else the documented host of its environment. */
export function adyenCheckoutUrl(env: ConnectorEnvironment['env'], credentials: Pick<AdyenCredentials, 'environment' | 'liveEndpointUrlPrefix'>): string {
  const live = credentials.liveEndpointUrlPrefix ? adyenLiveCheckout(credentials.liveEndpointUrlPrefix) : ADYEN_TEST_CHECKOUT;
  return endpoint(env, ADYEN_CHECKOUT_URL, { sandbox: ADYEN_TEST_CHECKOUT, production: live }, credentials.environment).replace(/\/+$/, '');
}

interface Services {
  payments: CheckoutAPI['PaymentsApi'];
  modifications: CheckoutAPI['ModificationsApi'];
}

/**
 * Each service of the Adyen library keeps the base of its requests in its `baseUrl` property (set from its
 * API_BASEPATH and the client's environment when it is made); the connector sets it to the host `endpoint()`
 * chose, so the operator's ADYEN_CHECKOUT_URL is where every request goes. The property is not in the library's
 * public typings, hence the structural view.
 */
function pointAt<T extends object>(service: T, baseUrl: string): T {
  (service as unknown as { baseUrl: string }).baseUrl = baseUrl;
  return service;
}

export interface AdyenProviderOptions {
  /** The time encrypted card fields are generated at (their `generationtime`); the system clock by default. */
  now?: () => Date;
}

/**
 * The adapter of Adyen's Checkout API v72 through its official Node library (@adyen/api-library 32): card
 * payments with raw card data, or with the card's fields encrypted to the merchant's client encryption key when
 * the entry's options say `cardData: "encrypted"` (and give `clientEncryptionPublicKey`), for merchant accounts
 * without the API PCI role; captured at once or held (manual capture) and captured whole or in part, the
 * authorisation cancelled, refunds whole or in part. Every request carries the attempt's key as Adyen's
 * Idempotency-Key. Captures, cancellations and refunds are asynchronous at Adyen (answered `received`): each is
 * pending until the HMAC-signed CAPTURE, CANCELLATION or REFUND notification settles it.
 *
 * No `query`: Checkout v72 has no request that reads a payment's status (Adyen's status reaches the merchant by
 * webhooks only). A notification the platform did not accept (an outage, a 5xx) stays in Adyen's retry queue and
 * is sent again, which is what heals a lost one; the status sync cannot ask Adyen and leaves these charges alone.
 */
export class AdyenProvider implements PaymentProvider {
  readonly type = ADYEN_TYPE;
  readonly paymentTypes = ['credit', 'debit'] as const;
  readonly notifications = adyenNotifications;
  private readonly services = new Map<string, Services>();
  private readonly now: () => Date;

  constructor(
    private readonly environment: ConnectorEnvironment,
    options: AdyenProviderOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** "Make a payment": POST /payments. */
  async authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    if (!request.card) return { status: 'declined', declinedCode: 'invalid_data', message: 'Adyen needs card data for a card payment' };
    const credentials = this.credentialsOf(call);
    if (!credentials) return { status: 'declined', declinedCode: 'invalid_merchant', message: 'the ADYEN provider entry has incomplete credentials' };
    let encryption;
    if (call.options.cardData === 'encrypted') {
      const key = clientEncryptionKey(call.options.clientEncryptionPublicKey);
      if (!key) return { status: 'declined', declinedCode: 'invalid_merchant', message: 'the ADYEN provider entry takes encrypted card data but has no usable clientEncryptionPublicKey' };
      encryption = { key, now: this.now() };
    }
    const body = toPaymentRequest(request, { merchantAccount: credentials.merchantAccount, returnUrl: this.returnUrlOf(call), ...(encryption ? { encryption } : {}) });
    try {
      const response = await this.servicesFor(credentials).payments.payments(body, this.options(call));
      return fromPaymentResponse(response, request);
    } catch (error) {
      let failure;
      try {
        failure = failureOf(error, 'payment');
      } catch (technical) {
        // No answer, a 5xx, a reset: the payment may have been made. Only a request that never left moves the charge on.
        throw saleFailure(technical, error);
      }
      return { status: 'declined', declinedCode: failure.kind === 'credentials' ? 'invalid_merchant' : 'invalid_data', message: failure.message };
    }
  }

  /** "Capture an authorised payment": POST /payments/{pspReference}/captures. */
  capture(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.modify(call, 'capture', (services, merchantAccount, options) =>
      services.modifications.captureAuthorisedPayment(request.transactionId, toCaptureRequest(request, merchantAccount), options),
    );
  }

  /** "Cancel an authorised payment": POST /payments/{pspReference}/cancels. */
  cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.modify(call, 'cancellation', (services, merchantAccount, options) =>
      services.modifications.cancelAuthorisedPaymentByPspReference(request.transactionId, toCancelRequest(request, merchantAccount), options),
    );
  }

  /** "Refund a captured payment": POST /payments/{pspReference}/refunds. */
  refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.modify(call, 'refund', (services, merchantAccount, options) =>
      services.modifications.refundCapturedPayment(request.transactionId, toRefundRequest(request, merchantAccount), options),
    );
  }

  private async modify(
    call: ProviderCall,
    what: string,
    send: (services: Services, merchantAccount: string, options: ReturnType<AdyenProvider['options']>) => Promise<{ status?: string; pspReference?: string }>,
  ): Promise<OperationResult> {
    const credentials = this.credentialsOf(call);
    if (!credentials) return { status: 'failed', declinedCode: 'invalid_merchant', message: 'the ADYEN provider entry has incomplete credentials' };
    try {
      const response = await send(this.servicesFor(credentials), credentials.merchantAccount, this.options(call));
      return fromModificationResponse(response, what);
    } catch (error) {
      const failure = failureOf(error, what);
      return { status: 'failed', message: failure.message, ...(failure.kind === 'credentials' ? { declinedCode: 'invalid_merchant' as const } : {}) };
    }
  }

  /**
   * The options of one request: the Idempotency-Key, the call's deadline (the library passes them to Node's
   * https.request) and the authorities the platform trusts (the system's plus NODE_EXTRA_CA_CERTS, as kit/http).
   * A fresh object per request: the library writes its headers, the API key among them, into it.
   */
  private options(call: ProviderCall) {
    return { idempotencyKey: idempotencyKeyOf(call.idempotencyKey), signal: call.signal, ca: trustedAuthorities() };
  }

  /** The entry's option `returnUrl`, else the platform's public URL (no redirect flow is started here). */
  private returnUrlOf(call: ProviderCall): string {
    const option = call.options.returnUrl;
    return typeof option === 'string' && /^https?:\/\//.test(option) ? option : this.environment.publicUrl;
  }

  private credentialsOf(call: ProviderCall): AdyenCredentials | undefined {
    const parsed = adyenCredentials.safeParse(call.credentials);
    return parsed.success ? parsed.data : undefined;
  }

  /** One library client per (host, API key, environment); the key becomes part of no map key as it is. */
  private servicesFor(credentials: AdyenCredentials): Services {
    const baseUrl = adyenCheckoutUrl(this.environment.env, credentials);
    const live = credentials.environment !== 'sandbox';
    const id = `${baseUrl}|${live}|${createHash('sha256').update(credentials.apiKey).digest('hex')}`;
    let services = this.services.get(id);
    if (!services) {
      const client = new Client({
        apiKey: credentials.apiKey,
        environment: live ? EnvironmentEnum.LIVE : EnvironmentEnum.TEST,
        ...(live ? { liveEndpointUrlPrefix: credentials.liveEndpointUrlPrefix } : {}),
      });
      const checkout = new CheckoutAPI(client);
      services = { payments: pointAt(checkout.PaymentsApi, baseUrl), modifications: pointAt(checkout.ModificationsApi, baseUrl) };
      this.services.set(id, services);
    }
    return services;
  }
}
