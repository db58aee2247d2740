import { REDE_APPROVED_CARD, REDE_AUTHORIZATION_RETURNS, REDE_FORCED_RETURN_PREFIX, startRedeSimulator, type RunningRedeSimulator } from '../src/rede';

const PV = '1234567890';
const KEY = 'integration-key-of-the-store';
const OTHER_PV = '9876543210';
const OTHER_KEY = 'integration-key-of-another-store';

describe('e.Rede simulator', () => {
  let simulator: RunningRedeSimulator;
  let now = new Date('2026-03-10T12:00:00Z');
  let references = 0;
  beforeAll(async () => {
    simulator = await startRedeSimulator({ clock: () => now, accounts: [{ pv: PV, token: KEY }, { pv: OTHER_PV, token: OTHER_KEY }] });
  });
  afterAll(() => simulator.close());

  const basic = (pv: string, key: string) => `Basic ${Buffer.from(`${pv}:${key}`).toString('base64')}`;
  const tokenFor = async (pv = PV, key = KEY): Promise<string> => {
    const answer = await fetch(simulator.oauthUrl, {
      method: 'POST',
      headers: { authorization: basic(pv, key), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { access_token: string }).access_token;
  };
  const send = async (token: string, method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${simulator.transactionsUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const reference = () => `ref${String(++references).padStart(6, '0')}`;
  const sale = (overrides: Record<string, unknown> = {}) => ({
    capture: true,
    kind: 'credit',
    reference: reference(),
    amount: 2099,
    installments: 1,
    cardholderName: 'John Snow',
    cardNumber: REDE_APPROVED_CARD,
    expirationMonth: 12,
    expirationYear: 2030,
    securityCode: '235',
    ...overrides,
  });

  it('issues access tokens for a known PV and integration key only, with its OAuth error shape', async () => {
    const refused = await fetch(simulator.oauthUrl, {
      method: 'POST',
      headers: { authorization: basic(PV, 'wrong-key'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'invalid_client', error_description: 'Bad client credentials' });
    const wrongGrant = await fetch(simulator.oauthUrl, { method: 'POST', headers: { authorization: basic(PV, KEY) }, body: 'grant_type=password' });
    expect(wrongGrant.status).toBe(400);
    const issued = await fetch(simulator.oauthUrl, { method: 'POST', headers: { authorization: basic(PV, KEY) }, body: 'grant_type=client_credentials' });
    expect(await issued.json()).toMatchObject({ token_type: 'Bearer', expires_in: 1440, access_token: expect.any(String) });
  });

  it('refuses transactions without a valid bearer token, and one that expired by the clock', async () => {
    expect((await send('not-a-token', 'GET', '/123')).status).toBe(401);
    const token = await tokenFor();
    expect((await send(token, 'POST', '', sale())).status).toBe(201);
    now = new Date(now.getTime() + 1441 * 1000);
    expect(await send(token, 'POST', '', sale())).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
  });

  it('authorizes without capture, captures part once, and cancels within what was captured', async () => {
    const token = await tokenFor();
    const authorized = await send(token, 'POST', '', sale({ capture: false, amount: 5000 }));
    expect(authorized).toMatchObject({ status: 201, body: { returnCode: '00', returnMessage: 'Success.', amount: 5000, last4: '0007' } });
    const tid = authorized.body.tid as string;
    expect(tid).toMatch(/^\d{20}$/);
    expect((await send(token, 'GET', `/${tid}`)).body).toMatchObject({ authorization: { status: 'Approved', amount: 5000 } });
    expect((await send(token, 'GET', `/${tid}`)).body.capture).toBeUndefined();

    expect((await send(token, 'PUT', `/${tid}`, { amount: 6000 })).body).toMatchObject({ returnCode: '49' });
    expect(await send(token, 'PUT', `/${tid}`, { amount: 3000 })).toMatchObject({ status: 200, body: { returnCode: '00' } });
    expect((await send(token, 'PUT', `/${tid}`, { amount: 3000 })).body).toMatchObject({ returnCode: '171' });

    expect((await send(token, 'POST', `/${tid}/refunds`, { amount: 3500 })).body).toMatchObject({ returnCode: '358' });
    expect(await send(token, 'POST', `/${tid}/refunds`, { amount: 1000 })).toMatchObject({ status: 201, body: { returnCode: '359' } });
    expect((await send(token, 'GET', `/${tid}`)).body).toMatchObject({ authorization: { status: 'Approved' }, capture: { amount: 3000 }, refunds: [{ amount: 1000, status: 'Done' }] });
    expect((await send(token, 'POST', `/${tid}/refunds`, { amount: 2000 })).body).toMatchObject({ returnCode: '359' });
    expect((await send(token, 'GET', `/${tid}`)).body).toMatchObject({ authorization: { status: 'Canceled' } });
    expect((await send(token, 'POST', `/${tid}/refunds`, { amount: 1 })).body).toMatchObject({ returnCode: '355' });
    expect((await send(token, 'GET', `/${tid}/refunds`)).body.refunds).toHaveLength(2);
  });

  it('cancels an uncaptured authorization whole', async () => {
    const token = await tokenFor();
    const tid = (await send(token, 'POST', '', sale({ capture: false, amount: 1500 }))).body.tid as string;
    expect((await send(token, 'POST', `/${tid}/refunds`, { amount: 1600 })).body).toMatchObject({ returnCode: '357' });
    expect((await send(token, 'POST', `/${tid}/refunds`, { amount: 1500 })).body).toMatchObject({ returnCode: '359' });
    expect((await send(token, 'GET', `/${tid}`)).body).toMatchObject({ authorization: { status: 'Canceled' } });
    expect((await send(token, 'PUT', `/${tid}`, { amount: 1500 })).body).toMatchObject({ returnCode: '171' });
  });

  it('takes a refund asked on a later day than the capture, and settles it a day later', async () => {
    const token = await tokenFor();
    const tid = (await send(token, 'POST', '', sale({ amount: 800 }))).body.tid as string;
    now = new Date(now.getTime() + 2 * 86_400_000);
    const fresh = await tokenFor();
    expect(await send(fresh, 'POST', `/${tid}/refunds`, { amount: 800 })).toMatchObject({ status: 202, body: { returnCode: '360' } });
    expect((await send(fresh, 'GET', `/${tid}`)).body).toMatchObject({ authorization: { status: 'Approved' }, refunds: [{ status: 'Processing' }] });
    now = new Date(now.getTime() + 86_400_000);
    const later = await tokenFor();
    expect((await send(later, 'GET', `/${tid}`)).body).toMatchObject({ authorization: { status: 'Canceled' }, refunds: [{ status: 'Done' }] });
    expect(token).not.toBe(later);
  });

  it('uses a reference once per PV, even when its authorization was declined, and finds it by reference', async () => {
    const token = await tokenFor();
    const declined = sale({ cardNumber: `${REDE_FORCED_RETURN_PREFIX}111` });
    expect(await send(token, 'POST', '', declined)).toMatchObject({ status: 402, body: { returnCode: '111', returnMessage: 'Unauthorized. Insufficient funds.' } });
    const before = simulator.authorizations();
    expect(await send(token, 'POST', '', { ...declined, cardNumber: REDE_APPROVED_CARD })).toMatchObject({
      status: 400,
      body: { returnCode: '42', returnMessage: 'reference: Order number already exists.' },
    });
    expect(simulator.authorizations()).toBe(before);
    expect((await send(token, 'GET', `?reference=${declined.reference as string}`)).body).toMatchObject({
      authorization: { status: 'Denied', returnCode: '111', reference: declined.reference },
    });
    const other = await tokenFor(OTHER_PV, OTHER_KEY);
    expect(await send(other, 'POST', '', { ...declined, cardNumber: REDE_APPROVED_CARD })).toMatchObject({ status: 201 });
  });

  it.each(Object.keys(REDE_AUTHORIZATION_RETURNS).filter((code) => code !== '00'))('declines with authorization return %s on its forcing card', async (code) => {
    const token = await tokenFor();
    const answer = await send(token, 'POST', '', sale({ cardNumber: `${REDE_FORCED_RETURN_PREFIX}${code}` }));
    expect(answer).toMatchObject({ status: 402, body: { returnCode: code, returnMessage: REDE_AUTHORIZATION_RETURNS[code] } });
  });

  it('answers integration returns for a malformed request', async () => {
    const token = await tokenFor();
    expect((await send(token, 'POST', '', sale({ reference: undefined }))).body).toMatchObject({ returnCode: '41' });
    expect((await send(token, 'POST', '', sale({ reference: 'x'.repeat(17) }))).body).toMatchObject({ returnCode: '39' });
    expect((await send(token, 'POST', '', sale({ amount: 10.5 }))).body).toMatchObject({ returnCode: '71' });
    expect((await send(token, 'POST', '', sale({ kind: 'voucher' }))).body).toMatchObject({ returnCode: '76' });
    expect((await send(token, 'POST', '', sale({ kind: 'debit', capture: false }))).body).toMatchObject({ returnCode: '158' });
    expect((await send(token, 'POST', '', sale({ securityCode: '12' }))).body).toMatchObject({ returnCode: '15' });
    expect((await send(token, 'POST', '', sale({ cardNumber: undefined }))).body).toMatchObject({ returnCode: '38' });
  });

  it('hides a PV’s transactions from another PV', async () => {
    const token = await tokenFor();
    const tid = (await send(token, 'POST', '', sale())).body.tid as string;
    const other = await tokenFor(OTHER_PV, OTHER_KEY);
    expect(await send(other, 'GET', `/${tid}`)).toMatchObject({ status: 404, body: { returnCode: '78' } });
    expect(await send(other, 'POST', `/${tid}/refunds`, { amount: 1 })).toMatchObject({ status: 404, body: { returnCode: '353' } });
  });

  it('gives no answer while stalled, so a caller can only give up', async () => {
    const token = await tokenFor();
    simulator.stall(true);
    try {
      const pending = fetch(`${simulator.transactionsUrl}/1`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(200) });
      await expect(pending).rejects.toThrow();
    } finally {
      simulator.stall(false);
    }
    expect((await send(token, 'GET', '/1')).status).toBe(404);
  });
});
