import { ProviderUnavailableError, type AuthorizeRequest, type ProviderCall } from '../../src/modules/connectors/domain/types';
import { SANDBOX_DECLINE_TABLE, SandboxProvider, SDK_INVALID_CVV_CARDS } from '../../src/modules/connectors/sandbox/sandbox';
import { SandboxAntifraudProvider, sandboxAntifraudOutcome } from '../../src/modules/connectors/sandbox/sandboxAntifraud';
import { boletoBarcodeValid, crc16, dueDateFactor } from '../../src/modules/connectors/sandbox/sandboxDocuments';
import { callWithTimeout } from '../../src/modules/connectors/app/call';
import { isDeclinedCode } from '../../src/modules/charges/domain/charge';
import { cardData, cardNumberEnding } from '../support/cards';

const PUBLIC_URL = 'https://api.example.test';
const TIMEOUT_MS = 100;
let keys = 0;

function request(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    chargeId: '00000000-0000-4000-8000-000000000001',
    merchantId: '00000000-0000-4000-8000-000000000002',
    amount: 1500,
    currency: 'BRL',
    capture: true,
    paymentType: 'credit',
    installments: 1,
    ...overrides,
  };
}

function callWith(signal: AbortSignal): ProviderCall {
  keys += 1;
  return { idempotencyKey: `key-${keys}`, signal, credentials: { type: 'SANDBOX' }, options: {} };
}

/** The authorization as the router runs it: under a deadline. */
function authorize(provider: SandboxProvider, req: AuthorizeRequest) {
  return callWithTimeout(TIMEOUT_MS, (signal) => provider.authorize(req, callWith(signal)));
}

function card(suffix: string, cvv?: string) {
  return cardData(cardNumberEnding(suffix), cvv);
}

describe('SANDBOX authorize', () => {
  const sandbox = new SandboxProvider({ publicUrl: PUBLIC_URL });

  it.each(['0', '1', '4'])('authorizes a card ending %s, captured when capture is asked', async (digit) => {
    const captured = await authorize(sandbox, request({ card: card(digit) }));
    expect(captured).toMatchObject({ ok: true, value: { status: 'authorized', captured: true, networkResponseCode: '00' } });
    const held = await authorize(sandbox, request({ card: card(digit), capture: false }));
    expect(held).toMatchObject({ ok: true, value: { status: 'authorized', captured: false } });
    if (held.ok && held.value.status === 'authorized') {
      expect(held.value.transactionId).toMatch(/^sbx_/);
      expect(held.value.nsu).toMatch(/^\d{9}$/);
      expect(held.value.networkAuthorizationCode).toMatch(/^[0-9A-F]{6}$/);
    }
  });

  it('declines a card ending 2 with the code the digit before it picks', async () => {
    expect(SANDBOX_DECLINE_TABLE).toHaveLength(10);
    expect(SANDBOX_DECLINE_TABLE[0]).toBe('insufficient_funds');
    for (const [index, code] of SANDBOX_DECLINE_TABLE.entries()) {
      expect(isDeclinedCode(code)).toBe(true);
      expect(['try_again', 'issuer_not_available']).not.toContain(code);
      const result = await authorize(sandbox, request({ card: card(`${index}2`) }));
      expect(result).toMatchObject({ ok: true, value: { status: 'declined', declinedCode: code } });
    }
  });

  it('declines a card ending 3 expired_card and one ending 5 restricted_card', async () => {
    const expired = await authorize(sandbox, request({ card: card('3') }));
    expect(expired).toMatchObject({ ok: true, value: { status: 'declined', declinedCode: 'expired_card', networkResponseCode: '54' } });
    const restricted = await authorize(sandbox, request({ card: card('5') }));
    expect(restricted).toMatchObject({ ok: true, value: { status: 'declined', declinedCode: 'restricted_card', networkResponseCode: '62' } });
  });

  it('never answers a card ending 6, so the deadline leaves its outcome unknown', async () => {
    const result = await authorize(sandbox, request({ card: card('6') }));
    expect(result).toMatchObject({ ok: false, failure: 'unknown', timedOut: true });
  });

  it('cancels a card ending 7', async () => {
    expect(await authorize(sandbox, request({ card: card('7') }))).toMatchObject({ ok: true, value: { status: 'canceled' } });
  });

  it('authorizes or times out a card ending 8 by its coin', async () => {
    const lucky = new SandboxProvider({ publicUrl: PUBLIC_URL, random: () => 0.1 });
    const unlucky = new SandboxProvider({ publicUrl: PUBLIC_URL, random: () => 0.9 });
    expect(await authorize(lucky, request({ card: card('8') }))).toMatchObject({ ok: true, value: { status: 'authorized' } });
    expect(await authorize(unlucky, request({ card: card('8') }))).toMatchObject({ ok: false, failure: 'unknown', timedOut: true });
  });

  it('declines a card ending 9, which the table does not list, as generic', async () => {
    expect(await authorize(sandbox, request({ card: card('9') }))).toMatchObject({ ok: true, value: { status: 'declined', declinedCode: 'generic' } });
  });

  it("declines the public SDK's invalid_cvv test cards invalid_cvv, whatever their last digit", async () => {
    expect(SDK_INVALID_CVV_CARDS.size).toBe(5);
    for (const number of SDK_INVALID_CVV_CARDS) {
      const result = await authorize(sandbox, request({ card: cardData(number, '231') }));
      expect(result).toMatchObject({ ok: true, value: { status: 'declined', declinedCode: 'invalid_cvv', networkResponseCode: 'N7' } });
    }
  });

  it('validates a CVV ending 0 and accepts any other unchecked', async () => {
    expect(await authorize(sandbox, request({ card: card('1', '120') }))).toMatchObject({ value: { cvvChecked: true } });
    expect(await authorize(sandbox, request({ card: card('1', '123') }))).toMatchObject({ value: { cvvChecked: false } });
    expect(await authorize(sandbox, request({ card: card('1') }))).toMatchObject({ value: { cvvChecked: false } });
  });

  it('answers a repeated idempotency key with its first answer', async () => {
    const call = callWith(new AbortController().signal);
    const first = await sandbox.authorize(request({ card: card('1') }), call);
    const again = await sandbox.authorize(request({ card: card('1') }), call);
    expect(again).toEqual(first);
  });

  it('creates a Pix pending, with an EMV payload whose CRC checks, an image URL and an expiry', async () => {
    const now = new Date('2030-01-01T12:00:00Z');
    const pixSandbox = new SandboxProvider({ publicUrl: PUBLIC_URL, now: () => now });
    const result = await authorize(pixSandbox, request({ paymentType: 'pix', amount: 12345, pix: { expiresIn: 600 } }));
    expect(result).toMatchObject({ ok: true, value: { status: 'pending' } });
    if (!result.ok || result.value.status !== 'pending' || !result.value.pix) throw new Error('no pix instructions');
    const { qrCodeData, qrCodeImageUrl, expiresAt } = result.value.pix;
    expect(qrCodeData.startsWith('000201')).toBe(true);
    expect(qrCodeData).toContain('br.gov.bcb.pix');
    expect(qrCodeData).toContain('5406123.45');
    expect(qrCodeData).toContain('5303986');
    expect(crc16(qrCodeData.slice(0, -4))).toBe(qrCodeData.slice(-4));
    expect(qrCodeImageUrl).toBe(`${PUBLIC_URL}/v1/sandbox/pix/${result.value.transactionId}.png`);
    expect(expiresAt).toEqual(new Date('2030-01-01T12:10:00Z'));
  });

  it('creates a boleto pending, with a bar code and digitable line that check', async () => {
    const result = await authorize(sandbox, request({ paymentType: 'boleto', amount: 25_000, boleto: { expiresDate: '2030-06-15' } }));
    if (!result.ok || result.value.status !== 'pending' || !result.value.boleto) throw new Error('no boleto');
    const { barcodeData, digitableLine, barcodeImageUrl, expiresDate } = result.value.boleto;
    expect(barcodeData).toMatch(/^\d{44}$/);
    expect(boletoBarcodeValid(barcodeData)).toBe(true);
    expect(barcodeData.slice(5, 9)).toBe(dueDateFactor('2030-06-15'));
    expect(barcodeData.slice(9, 19)).toBe('0000025000');
    expect(digitableLine).toMatch(/^\d{47}$/);
    expect(digitableLine.slice(32, 33)).toBe(barcodeData[4]);
    expect(digitableLine.slice(33)).toBe(barcodeData.slice(5, 19));
    expect(barcodeImageUrl).toMatch(new RegExp(`^${PUBLIC_URL}/v1/sandbox/boleto/sbx_`));
    expect(expiresDate).toBe('2030-06-15');
  });

  it('creates a voucher pending', async () => {
    expect(await authorize(sandbox, request({ paymentType: 'voucher', card: card('1') }))).toMatchObject({ ok: true, value: { status: 'pending' } });
  });
});

describe('sandbox documents', () => {
  it('computes CRC-16/CCITT-FALSE as the BR Code asks', () => {
    expect(crc16('123456789')).toBe('29B1');
    const example =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304';
    expect(crc16(example)).toBe('1D3D');
  });

  it('restarts the due date factor at 1000 on 2025-02-22', () => {
    expect(dueDateFactor('2000-07-03')).toBe('1000');
    expect(dueDateFactor('2025-02-21')).toBe('9999');
    expect(dueDateFactor('2025-02-22')).toBe('1000');
  });
});

describe('SANDBOX capture, void and refund', () => {
  const sandbox = new SandboxProvider({ publicUrl: PUBLIC_URL });
  const operation = (amount: number) => ({ chargeId: 'c', transactionId: 'sbx_1', amount, currency: 'BRL' });

  it.each(['capture', 'cancel', 'refund'] as const)('%s succeeds, except for amount 991', async (method) => {
    const ok = await sandbox[method](operation(1000), callWith(new AbortController().signal));
    expect(ok).toMatchObject({ status: 'success', transactionId: 'sbx_1', networkResponseCode: '00' });
    const failed = await sandbox[method](operation(991), callWith(new AbortController().signal));
    expect(failed).toMatchObject({ status: 'failed', message: expect.stringContaining('991') });
  });
});

describe('SANDBOX 3DS2 setup', () => {
  it('answers a JWT-shaped token and a collect URL', async () => {
    const sandbox = new SandboxProvider({ publicUrl: PUBLIC_URL });
    const setup = await sandbox.setupThreeDS({ setupId: 'setup-1', cardId: 'card-1' }, callWith(new AbortController().signal));
    const [header, payload, signature] = setup.token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ jti: 'setup-1', iss: 'SANDBOX' });
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(setup.collectUrl).toBe(`${PUBLIC_URL}/v1/sandbox/3ds/setup-1/collect`);
  });
});

describe('SANDBOX_ANTIFRAUD analyze', () => {
  it.each([
    ['12345678900', 'pending'],
    ['12345678901', 'approved'],
    ['12345678902', 'failed'],
    ['12345678903', 'reproved'],
    ['12345678909', 'reproved'],
    ['', 'reproved'],
  ])('decides identity %s as %s', async (identity, expected) => {
    expect(sandboxAntifraudOutcome({ customer: { identity } })).toBe(expected);
    const result = await new SandboxAntifraudProvider().analyze(
      { chargeId: 'c', amount: 100, currency: 'BRL', paymentType: 'credit', fraudAnalysis: { customer: { identity } } },
      callWith(new AbortController().signal),
    );
    expect(result.status).toBe(expected);
    expect(result.transactionId).toMatch(/^sbxaf_/);
  });

  it('reproves an analysis without a customer identity', () => {
    expect(sandboxAntifraudOutcome({})).toBe('reproved');
    expect(sandboxAntifraudOutcome({ customer: 'x' })).toBe('reproved');
  });
});

describe('callWithTimeout', () => {
  it('answers what the provider answered in time', async () => {
    expect(await callWithTimeout(1000, async () => 'yes')).toMatchObject({ ok: true, value: 'yes' });
  });

  it('counts a provider that throws ProviderUnavailableError as unavailable, any other error as an unknown outcome', async () => {
    const refused = await callWithTimeout(1000, async () => {
      throw new ProviderUnavailableError('connection refused');
    });
    expect(refused).toMatchObject({ ok: false, failure: 'unavailable', message: expect.stringContaining('connection refused') });
    const broken = await callWithTimeout(1000, async () => {
      throw new Error('socket hang up');
    });
    expect(broken).toMatchObject({ ok: false, failure: 'unknown', message: expect.stringContaining('socket hang up') });
  });

  it('stops waiting for a provider that ignores the abort', async () => {
    let settle: (v: string) => void = () => undefined;
    const result = await callWithTimeout(50, () => new Promise<string>((resolve) => (settle = resolve)));
    expect(result).toMatchObject({ ok: false, failure: 'unknown', timedOut: true });
    settle('late');
  });
});
