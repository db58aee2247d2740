import {
  REDE_APPROVED_CARD,
  REDE_AUTHORIZATION_RETURNS,
  REDE_FORCED_RETURN_PREFIX,
  startRedeSimulator,
  type RunningRedeSimulator,
} from '@platform/simulators';
import { connectorFor, CONNECTORS } from '../../../src/modules/connectors/catalog';
import { redeConnector } from '../../../src/modules/connectors/rede';
import { RedeProvider, redeOAuthUrl, REDE_TRANSACTION_HOSTS } from '../../../src/modules/connectors/rede/connector';
import { redeDeclines } from '../../../src/modules/connectors/rede/declineTable';
import { referenceOf } from '../../../src/modules/connectors/rede/transformers';
import {
  NotificationRefusedError,
  ProviderOutcomeUnknownError,
  type AuthorizeRequest,
  type AuthorizeResult,
  type OperationRequest,
  type ProviderCall,
  type QueryRequest,
} from '../../../src/modules/connectors/domain/types';
import { endpoint } from '../../../src/modules/connectors/kit/definition';
import { cardData } from '../../support/cards';

const PV = '1234567890';
const KEY = 'rede-integration-key-0001';
const WRONG_KEY = 'rede-integration-key-WRONG';
const CVV = '235';

describe('e.Rede connector against its simulator', () => {
  let simulator: RunningRedeSimulator;
  let provider: RedeProvider;
  let now = Date.parse('2026-03-10T12:00:00Z');
  let attempt = 0;

  beforeAll(async () => {
    simulator = await startRedeSimulator({ clock: () => new Date(now), accounts: [{ pv: PV, token: KEY }] });
    provider = new RedeProvider(
      { env: { REDE_API_URL: simulator.transactionsUrl, REDE_OAUTH_URL: simulator.oauthUrl }, publicUrl: 'https://api.example.test' },
      { now: () => now },
    );
  });
  afterAll(() => simulator.close());

  const credentials = (token = KEY) => ({ type: 'REDE', pv: PV, token, environment: 'sandbox' });
  const call = (overrides: Partial<ProviderCall> = {}): ProviderCall => ({
    idempotencyKey: `charge-${++attempt}:attempt:1`,
    signal: AbortSignal.timeout(5000),
    credentials: credentials(),
    options: {},
    ...overrides,
  });
  const request = (overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
    chargeId: `00000000-0000-4000-8000-${String(attempt).padStart(12, '0')}`,
    merchantId: '00000000-0000-4000-8000-000000000002',
    amount: 1000,
    currency: 'BRL',
    capture: true,
    paymentType: 'credit',
    installments: 1,
    statementDescriptor: 'LOJA EXEMPLO',
    card: cardData(REDE_APPROVED_CARD, CVV),
    ...overrides,
  });
  const operation = (transactionId: string, amount: number): OperationRequest => ({ chargeId: 'c', transactionId, amount, currency: 'BRL' });
  const query = (transactionId: string): QueryRequest => ({ chargeId: 'c', transactionId, paymentType: 'credit', amount: 1000, currency: 'BRL', now: new Date(now) });
  const tidOf = (result: AuthorizeResult): string => {
    if (result.status !== 'authorized') throw new Error(`expected an authorization, got ${result.status}`);
    return result.transactionId;
  };

  it('is in the catalog and checks provider entries with its credentials schema', () => {
    expect(CONNECTORS).toContain(redeConnector);
    expect(connectorFor('REDE')).toBe(redeConnector);
    const [adapter] = redeConnector.create({ env: {}, publicUrl: 'https://api.example.test' });
    expect(adapter).toMatchObject({ type: 'REDE', paymentTypes: ['credit', 'debit'] });
    expect(redeConnector.credentials.safeParse(credentials()).success).toBe(true);
    expect(redeConnector.credentials.safeParse({ type: 'REDE', pv: PV }).success).toBe(false);
    expect(redeConnector.credentials.safeParse({ type: 'REDE', pv: 'PV-12', token: KEY }).success).toBe(false);
    expect(redeConnector.credentials.safeParse({ ...credentials(), environment: 'staging' }).success).toBe(false);
  });

  it('talks to the documented hosts unless the operator names others', () => {
    expect(endpoint({}, 'REDE_API_URL', REDE_TRANSACTION_HOSTS, 'sandbox')).toBe('https://sandbox-erede.useredecloud.com.br/v2/transactions');
    expect(endpoint({}, 'REDE_API_URL', REDE_TRANSACTION_HOSTS, undefined)).toBe('https://api.userede.com.br/erede/v2/transactions');
    expect(endpoint({ REDE_API_URL: simulator.transactionsUrl }, 'REDE_API_URL', REDE_TRANSACTION_HOSTS, 'production')).toBe(simulator.transactionsUrl);
    expect(redeOAuthUrl({}, 'production')).toBe('https://api.userede.com.br/redelabs/oauth2/token');
    expect(redeOAuthUrl({}, 'sandbox')).toBe('https://rl7-sandbox-api.useredecloud.com.br/oauth2/token');
    expect(redeOAuthUrl({ REDE_OAUTH_URL: 'https://auth.example.test/token', REDE_API_URL: simulator.transactionsUrl }, 'sandbox')).toBe('https://auth.example.test/token');
  });

  it('asks for tokens on the operator host when only REDE_API_URL moved', async () => {
    expect(redeOAuthUrl({ REDE_API_URL: simulator.transactionsUrl }, 'production')).toBe(simulator.oauthUrl);
    const moved = new RedeProvider({ env: { REDE_API_URL: simulator.transactionsUrl }, publicUrl: 'https://api.example.test' }, { now: () => now });
    expect(await moved.authorize(request(), call())).toMatchObject({ status: 'authorized' });
  });

  it('authorizes with capture and the query says authorized', async () => {
    const result = await provider.authorize(request({ amount: 2099 }), call());
    expect(result).toMatchObject({ status: 'authorized', captured: true, cvvChecked: true, networkResponseCode: '00' });
    if (result.status !== 'authorized') return;
    expect(result.transactionId).toMatch(/^\d{20}$/);
    expect(result.nsu).toMatch(/^\d+$/);
    expect(result.networkAuthorizationCode).toMatch(/^\d+$/);
    expect(await provider.query(query(result.transactionId), call())).toEqual({ found: true, status: 'authorized', providerStatus: 'Approved/captured', capturedAmount: 2099 });
  });

  it('holds without capture, captures part of it once, and recognizes a repeated capture', async () => {
    const tid = tidOf(await provider.authorize(request({ capture: false }), call()));
    expect(await provider.query(query(tid), call())).toMatchObject({ found: true, status: 'pre_authorized', providerStatus: 'Approved' });
    expect(await provider.capture(operation(tid, 1200), call())).toMatchObject({ status: 'failed', declinedCode: 'invalid_amount' });
    const captureCall = call();
    expect(await provider.capture(operation(tid, 600), captureCall)).toMatchObject({ status: 'success', transactionId: tid });
    expect(await provider.capture(operation(tid, 600), { ...captureCall, signal: AbortSignal.timeout(5000) })).toMatchObject({ status: 'success' });
    expect(await provider.capture(operation(tid, 600), call())).toMatchObject({ status: 'success' });
    expect(await provider.capture(operation(tid, 700), call())).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
    expect(await provider.query(query(tid), call())).toMatchObject({ status: 'authorized', capturedAmount: 600 });
  });

  it('cancels an authorization that was not captured', async () => {
    const tid = tidOf(await provider.authorize(request({ capture: false, amount: 1500 }), call()));
    expect(await provider.cancel(operation(tid, 1500), call())).toMatchObject({ status: 'success', transactionId: tid });
    expect(await provider.query(query(tid), call())).toMatchObject({ found: true, status: 'voided', providerStatus: 'Canceled', refundedAmount: 1500 });
    expect(await provider.cancel(operation(tid, 1500), call())).toMatchObject({ status: 'success' });
    expect(await provider.capture(operation(tid, 1500), call())).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
  });

  it('refunds a capture in part, then the rest, and refuses more than was captured', async () => {
    const tid = tidOf(await provider.authorize(request({ amount: 1000 }), call()));
    expect(await provider.refund(operation(tid, 400), call())).toMatchObject({ status: 'success' });
    expect(await provider.query(query(tid), call())).toMatchObject({ status: 'authorized', capturedAmount: 1000, refundedAmount: 400 });
    expect(await provider.refund(operation(tid, 700), call())).toMatchObject({ status: 'failed', declinedCode: 'invalid_amount' });
    expect(await provider.refund(operation(tid, 600), call())).toMatchObject({ status: 'success' });
    expect(await provider.query(query(tid), call())).toMatchObject({ status: 'voided', refundedAmount: 1000 });
    expect(await provider.refund(operation(tid, 50), call())).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
  });

  it('reports a refund asked on a later day as pending until Rede has processed it', async () => {
    const tid = tidOf(await provider.authorize(request({ amount: 900 }), call()));
    now += 2 * 86_400_000;
    expect(await provider.refund(operation(tid, 900), call())).toMatchObject({ status: 'pending', transactionId: tid });
    expect(await provider.query(query(tid), call())).toMatchObject({ status: 'refund_pending', providerStatus: 'Approved/refund Processing' });
    now += 86_400_000;
    expect(await provider.query(query(tid), call())).toMatchObject({ status: 'voided', refundedAmount: 900 });
  });

  it('always captures debit, and sends installments for credit', async () => {
    expect(await provider.authorize(request({ paymentType: 'debit', capture: false }), call())).toMatchObject({ status: 'authorized', captured: true });
    expect(await provider.authorize(request({ installments: 3 }), call())).toMatchObject({ status: 'authorized' });
    expect(await provider.authorize(request({ installments: 13 }), call())).toMatchObject({ status: 'declined', declinedCode: 'invalid_installment' });
    expect(await provider.authorize(request({ card: undefined }), call())).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
  });

  it.each(Object.keys(REDE_AUTHORIZATION_RETURNS).filter((code) => code !== '00'))('maps authorization return %s through its decline table', async (code) => {
    const result = await provider.authorize(request({ card: cardData(`${REDE_FORCED_RETURN_PREFIX}${code}`, CVV) }), call());
    const entry = redeDeclines[code]!;
    expect(result).toMatchObject({ status: 'declined', declinedCode: entry.declinedCode, networkResponseCode: code });
    if (result.status === 'declined') {
      expect(result.message).toBe(`e.Rede ${code}: ${entry.meaning}`);
      expect(result.transactionId).toMatch(/^\d{20}$/);
      expect(await provider.query(query(result.transactionId!), call())).toMatchObject({ status: 'failed', declinedCode: entry.declinedCode });
    }
  });

  it('charges once for a repeated idempotency key, even when the first answer was lost', async () => {
    const before = simulator.authorizations();
    const key = `charge-lost-${++attempt}:attempt:1`;
    // Holds an access token first: only the authorization's answer is slow.
    expect(await provider.query(query('1'), call())).toEqual({ found: false });
    simulator.setLatency(3000);
    try {
      await expect(provider.authorize(request(), call({ idempotencyKey: key, signal: AbortSignal.timeout(500) }))).rejects.toThrow(ProviderOutcomeUnknownError);
    } finally {
      simulator.setLatency(0);
    }
    expect(simulator.authorizations()).toBe(before + 1);
    const retried = await provider.authorize(request(), call({ idempotencyKey: key }));
    const again = await provider.authorize(request(), call({ idempotencyKey: key }));
    expect(retried).toMatchObject({ status: 'authorized', captured: true });
    expect(again).toEqual(retried);
    expect(simulator.authorizations()).toBe(before + 1);
    expect(await provider.authorize(request({ amount: 1001 }), call({ idempotencyKey: key }))).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
  });

  it('answers a retried declined attempt with its decline, without a new authorization', async () => {
    const key = `charge-declined-${++attempt}:attempt:1`;
    const declinedCard = cardData(`${REDE_FORCED_RETURN_PREFIX}111`, CVV);
    const first = await provider.authorize(request({ card: declinedCard }), call({ idempotencyKey: key }));
    const before = simulator.authorizations();
    const retried = await provider.authorize(request({ card: declinedCard }), call({ idempotencyKey: key }));
    expect(first).toMatchObject({ status: 'declined', declinedCode: 'insufficient_funds' });
    expect(retried).toMatchObject({ status: 'declined', declinedCode: 'insufficient_funds', transactionId: (first as { transactionId: string }).transactionId });
    expect(simulator.authorizations()).toBe(before);
    expect(referenceOf(key)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('asks for an access token once and again only when it is about to expire', async () => {
    const issued = simulator.tokensIssued();
    await provider.authorize(request(), call());
    await provider.authorize(request(), call());
    expect(simulator.tokensIssued()).toBeLessThanOrEqual(issued + 1);
    const settled = simulator.tokensIssued();
    now += 1400 * 1000;
    await provider.authorize(request(), call());
    expect(simulator.tokensIssued()).toBe(settled + 1);
  });

  it('replaces once a token Rede refuses before the adapter thinks it expired', async () => {
    const issuedAt = now;
    const lagging = new RedeProvider(
      { env: { REDE_API_URL: simulator.transactionsUrl, REDE_OAUTH_URL: simulator.oauthUrl }, publicUrl: 'https://api.example.test' },
      { now: () => issuedAt },
    );
    expect(await lagging.authorize(request(), call())).toMatchObject({ status: 'authorized' });
    const issued = simulator.tokensIssued();
    now += 1441 * 1000;
    expect(await lagging.authorize(request(), call())).toMatchObject({ status: 'authorized' });
    expect(simulator.tokensIssued()).toBe(issued + 1);
  });

  it('declines with invalid_merchant on refused credentials, and repeats no secret', async () => {
    const card = cardData(REDE_APPROVED_CARD, CVV);
    const result = await provider.authorize(request({ card }), call({ credentials: credentials(WRONG_KEY) }));
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant' });
    const operationResult = await provider.refund(operation('12345678901234567890', 100), call({ credentials: credentials(WRONG_KEY) }));
    expect(operationResult).toMatchObject({ status: 'failed', declinedCode: 'invalid_merchant' });
    const text = JSON.stringify([result, operationResult]);
    for (const secret of [WRONG_KEY, KEY, card.number, CVV, Buffer.from(`${PV}:${WRONG_KEY}`).toString('base64')]) expect(text).not.toContain(secret);
    await expect(provider.query(query('1'), call({ credentials: { type: 'REDE', pv: PV } }))).rejects.toThrow('incomplete credentials');
  });

  it('gives up when Rede does not answer in time (an unknown outcome), with an error that repeats no secret', async () => {
    const card = cardData('5448280000000015', CVV);
    simulator.stall(true);
    let caught: unknown;
    try {
      await provider.authorize(request({ card }), call({ signal: AbortSignal.timeout(200) }));
    } catch (error) {
      caught = error;
    } finally {
      simulator.stall(false);
    }
    expect(caught).toBeInstanceOf(ProviderOutcomeUnknownError);
    const error = caught as Error;
    const text = `${error.message} ${String(error.stack)} ${JSON.stringify(error)}`;
    for (const secret of [KEY, card.number, CVV]) expect(text).not.toContain(secret);
  });

  it('finds nothing for an unknown transaction', async () => {
    expect(await provider.query(query('99999999999999999999'), call())).toEqual({ found: false });
  });

  it('refuses every notification: the status sync queries Rede instead', () => {
    const read = () => provider.notifications.read({ headers: {}, rawBody: Buffer.from(JSON.stringify({ tid: '1', status: 'Approved' })), query: {} }, credentials());
    expect(read).toThrow(NotificationRefusedError);
  });
});
