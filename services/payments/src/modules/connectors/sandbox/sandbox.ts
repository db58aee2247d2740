import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { LookupRequest, LookupResult } from '../domain/types';
import type { DeclinedCode } from '../../charges/domain/charge';
import { boletoDocuments, pixPayload } from './sandboxDocuments';
import { SANDBOX_DECLINES } from './declineTable';
import type {
  AuthorizeRequest,
  AuthorizeResult,
  OperationRequest,
  OperationResult,
  PaymentProvider,
  ProviderCall,
  ThreeDSSetupRequest,
  ThreeDSSetupResult,
} from '../domain/types';

export const SANDBOX_TYPE = 'SANDBOX';

/** Capture, void and refund of this amount fail at the provider (the charge keeps its status). */
export const SANDBOX_FAILING_AMOUNT = 991;

/** Card numbers ending 2 are declined with the code at the index of the digit before the last. */
export const SANDBOX_DECLINE_TABLE: readonly DeclinedCode[] = [
  'insufficient_funds',
  'generic',
  'invalid_cvv',
  'lost_card',
  'stolen_card',
  'not_permitted',
  'invalid_amount',
  'card_not_supported',
  'pickup_card',
  'transaction_not_allowed',
];

/**
 * The test cards the public Node SDK publishes as `invalid_cvv` (sandbox.generateCard). Their last digits (2, 5
 * and 8) would pick another outcome from the table; the SDK names them by what its users expect, so they are
 * declined invalid_cvv whatever their CVV.
 */
export const SDK_INVALID_CVV_CARDS: ReadonlySet<string> = new Set([
  '5240675434648372',
  '4716866286004545',
  '340035263979895',
  '6062823576109778',
  '30383606498545',
]);

/** ISO 8583-style response codes, so that the transaction requests look like an acquirer's. */
const NETWORK_RESPONSE_CODES: Partial<Record<DeclinedCode, string>> = {
  insufficient_funds: '51',
  generic: '05',
  invalid_cvv: 'N7',
  lost_card: '41',
  stolen_card: '43',
  not_permitted: '57',
  invalid_amount: '13',
  card_not_supported: '58',
  pickup_card: '04',
  transaction_not_allowed: '58',
  expired_card: '54',
  restricted_card: '62',
  invalid_data: '12',
};

export interface SandboxOptions {
  /** Base of the image and 3DS URLs it hands out. */
  publicUrl: string;
  /** The coin of card numbers ending 8: below 0.5 authorizes, otherwise the provider times out. */
  random?: () => number;
  now?: () => Date;
  /** How many answers are kept by idempotency key. */
  memory?: number;
}

function digits(length: number): string {
  return Array.from({ length }, () => randomInt(10)).join('');
}

function authorizationCode(): string {
  return randomBytes(3).toString('hex').toUpperCase();
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * The test provider: every payment method, with outcomes chosen by the card number (see the SANDBOX outcomes
 * table of the REST contract). A card ending 6 (and half of those ending 8) never answers: the request waits
 * until the caller's PROVIDER_TIMEOUT_MS deadline aborts it, so it goes through the same timeout path as a
 * real provider that hangs. A card ending 9, which the table does not list, is declined `generic`.
 */
export class SandboxProvider implements PaymentProvider {
  readonly type = SANDBOX_TYPE;
  private readonly random: () => number;
  private readonly now: () => Date;
  private readonly answers = new Map<string, unknown>();
  private readonly memory: number;
  private readonly signingKey = randomBytes(32);

  constructor(private readonly options: SandboxOptions) {
    this.random = options.random ?? Math.random;
    this.now = options.now ?? (() => new Date());
    this.memory = options.memory ?? 10_000;
  }

  authorize(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    return this.once(call, () => this.decideAuthorization(request, call));
  }

  /**
   * SANDBOX knows its own authorizations by the key they were sent with: one it answered is found with that answer;
   * a card ending 6 (and the half of those ending 8 that hang) never makes a sale, so it is not found and the charge
   * moves on as before.
   */
  lookup(_request: LookupRequest, call: ProviderCall): Promise<LookupResult> {
    if (!this.answers.has(call.idempotencyKey)) return Promise.resolve({ found: false });
    return Promise.resolve({ found: true, result: this.answers.get(call.idempotencyKey) as AuthorizeResult });
  }

  capture(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.once(call, async () => this.operate(request, 'capture'));
  }

  cancel(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.once(call, async () => this.operate(request, 'void'));
  }

  refund(request: OperationRequest, call: ProviderCall): Promise<OperationResult> {
    return this.once(call, async () => this.operate(request, 'refund'));
  }

  async setupThreeDS(request: ThreeDSSetupRequest, _call: ProviderCall): Promise<ThreeDSSetupResult> {
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    const header = base64url({ alg: 'HS256', typ: 'JWT' });
    const payload = base64url({
      jti: request.setupId,
      iss: SANDBOX_TYPE,
      iat: issuedAt,
      exp: issuedAt + 600,
      ReferenceId: request.setupId,
      Payload: { ActionCode: 'SUCCESS' },
    });
    const signature = createHmac('sha256', this.signingKey).update(`${header}.${payload}`).digest('base64url');
    return {
      token: `${header}.${payload}.${signature}`,
      collectUrl: `${this.options.publicUrl}/v1/sandbox/3ds/${request.setupId}/collect`,
    };
  }

  /** A provider answers a repeated idempotency key with its first answer instead of acting twice. */
  private async once<T>(call: ProviderCall, act: () => Promise<T>): Promise<T> {
    if (this.answers.has(call.idempotencyKey)) return this.answers.get(call.idempotencyKey) as T;
    const answer = await act();
    this.answers.set(call.idempotencyKey, answer);
    if (this.answers.size > this.memory) this.answers.delete(this.answers.keys().next().value!);
    return answer;
  }

  private async decideAuthorization(request: AuthorizeRequest, call: ProviderCall): Promise<AuthorizeResult> {
    const transactionId = `sbx_${randomUUID().replace(/-/g, '')}`;
    if (request.paymentType === 'pix') return this.pix(request, transactionId);
    if (request.paymentType === 'boleto') return this.boleto(request, transactionId);
    if (request.paymentType === 'voucher') return { status: 'pending', transactionId };
    if (!request.card) return this.declined('invalid_data', transactionId, 'SANDBOX needs a card for this payment type');

    const number = request.card.number;
    if (SDK_INVALID_CVV_CARDS.has(number)) return this.declined('invalid_cvv', transactionId);
    const last = number.at(-1);
    switch (last) {
      case '0':
      case '1':
      case '4':
        return this.authorized(request, transactionId);
      case '2':
        return this.declined(SANDBOX_DECLINE_TABLE[Number(number.at(-2) ?? '0')] ?? 'generic', transactionId);
      case '3':
        return this.declined('expired_card', transactionId);
      case '5':
        return this.declined('restricted_card', transactionId);
      case '6':
        return this.neverAnswer(call.signal);
      case '7':
        return { status: 'canceled', transactionId, message: 'Canceled by SANDBOX' };
      case '8':
        return this.random() < 0.5 ? this.authorized(request, transactionId) : this.neverAnswer(call.signal);
      default:
        return this.declined('generic', transactionId);
    }
  }

  private authorized(request: AuthorizeRequest, transactionId: string): AuthorizeResult {
    return {
      status: 'authorized',
      transactionId,
      captured: request.capture,
      cvvChecked: request.card?.cvv?.endsWith('0') ?? false,
      nsu: digits(9),
      networkAuthorizationCode: authorizationCode(),
      networkResponseCode: '00',
    };
  }

  private declined(declinedCode: DeclinedCode, transactionId: string, message = `Declined by SANDBOX: ${declinedCode}`): AuthorizeResult {
    return { status: 'declined', declinedCode, decision: SANDBOX_DECLINES[declinedCode].decision, transactionId, message, networkResponseCode: NETWORK_RESPONSE_CODES[declinedCode] ?? '05' };
  }

  private pix(request: AuthorizeRequest, transactionId: string): AuthorizeResult {
    const expiresIn = request.pix?.expiresIn ?? 3600;
    const txid = transactionId.replace(/^sbx_/, '').slice(0, 25);
    return {
      status: 'pending',
      transactionId,
      pix: {
        qrCodeData: pixPayload({
          location: `pix.sandbox.local/qr/v2/${txid}`,
          amount: request.amount,
          merchantName: request.statementDescriptor ?? 'SANDBOX MERCHANT',
          city: 'SAO PAULO',
          txid,
        }),
        qrCodeImageUrl: `${this.options.publicUrl}/v1/sandbox/pix/${transactionId}.png`,
        expiresAt: new Date(this.now().getTime() + expiresIn * 1000),
      },
    };
  }

  private boleto(request: AuthorizeRequest, transactionId: string): AuthorizeResult {
    const dueDate = request.boleto?.expiresDate ?? this.now().toISOString().slice(0, 10);
    const { barcode, digitableLine } = boletoDocuments({ bankCode: '001', amount: request.amount, dueDate, freeField: digits(25) });
    return {
      status: 'pending',
      transactionId,
      boleto: {
        barcodeData: barcode,
        digitableLine,
        barcodeImageUrl: `${this.options.publicUrl}/v1/sandbox/boleto/${transactionId}.png`,
        expiresDate: dueDate,
      },
    };
  }

  private operate(request: OperationRequest, what: 'capture' | 'void' | 'refund'): OperationResult {
    if (request.amount === SANDBOX_FAILING_AMOUNT) {
      return { status: 'failed', message: `SANDBOX fails every ${what} of amount ${SANDBOX_FAILING_AMOUNT}` };
    }
    return {
      status: 'success',
      transactionId: request.transactionId,
      nsu: digits(9),
      networkAuthorizationCode: authorizationCode(),
      networkResponseCode: '00',
    };
  }

  /** Waits for the caller's deadline and gives up with it: a provider that does not answer. */
  private neverAnswer(signal: AbortSignal): Promise<never> {
    return new Promise<never>((_resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
}
