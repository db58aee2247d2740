import { payments, sessions, settings } from '@platform/contracts';
import { AppError } from '@platform/kit';
import request from 'supertest';
import { buildGateway, CLIENT_ID, CREATED_AT, PUBLIC_URL, TEST_START, UPDATED_AT } from './helpers';

const SESSION_ID = '0f3e8a2c-71f4-4b1e-9b55-3c0c2d7e9a41';
const UNKNOWN_ID = '11111111-2222-4333-8444-555555555555';
const MERCHANT_ID = 'b7e4c0a2-5d3f-4b8e-9f21-6a1c0d2e3f45';
const CHARGE_ID = '9c5b0d7e-3a41-4f2e-8b6d-7e1f2a3b4c5d';
const SESSION_KEY = 'pk_session_0f3e8a2c';

function sampleSession(overrides: Partial<sessions.Session> = {}): sessions.Session {
  return sessions.Session.fromPartial({
    id: SESSION_ID,
    clientId: CLIENT_ID,
    merchantId: MERCHANT_ID,
    name: 'Blue mugs',
    amount: 5000,
    currency: 'BRL',
    isActive: true,
    status: 'created',
    publicKey: SESSION_KEY,
    paymentMethods: [
      payments.PaymentMethod.fromPartial({ paymentType: 'credit', installments: 3 }),
      payments.PaymentMethod.fromPartial({ paymentType: 'pix', expiresIn: 600 }),
    ],
    items: [
      { name: 'Mug <script>alert(1)</script>', unitPrice: 2000, quantity: 2, description: 'Blue & white' },
      { name: 'Gift wrap', unitPrice: 1000, quantity: 1, description: '' },
    ],
    multiplePayments: { allow: false, maxPayments: 1, paymentCount: 0, pendingCount: 0, status: 'enabled' },
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  });
}

const linkSettings = (overrides: Partial<settings.LinkSettings> = {}) =>
  settings.LinkSettings.fromPartial({
    id: 'f0f0f0f0-1111-4222-8333-444444444444',
    clientId: CLIENT_ID,
    merchantId: MERCHANT_ID,
    mainColor: '#AA3300',
    secondaryColor: '#FFFFFF',
    backgroundColor: '#101010',
    companyUrl: 'https://shop.example.test/',
    logoId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT,
    ...overrides,
  });

function gateway(session: sessions.Session | undefined = sampleSession(), options: { settings?: settings.LinkSettings; charge?: payments.Charge } = {}) {
  return buildGateway({
    sessions: {
      getCheckoutSession: async (r: sessions.GetCheckoutSessionRequest) => {
        if (session && r.id === session.id) return session;
        throw new AppError('not_found', 'Session not found');
      },
    },
    settings: { getLinkSettings: async () => options.settings ?? linkSettings() },
    payments: {
      getCharge: async (r: payments.GetChargeRequest) => {
        if (options.charge && r.id === options.charge.id && r.clientId === options.charge.clientId) return options.charge;
        throw new AppError('not_found', 'Charge not found');
      },
    },
  });
}

/** The nonce of the CSP header, and that the page's one inline style carries it. */
function nonceOf(res: request.Response): string {
  const csp = String(res.headers['content-security-policy']);
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  if (!nonce) throw new Error(`no nonce in ${csp}`);
  return nonce;
}

function configOf(html: string): Record<string, unknown> {
  const json = /<script type="application\/json" id="checkout-config">([^<]*)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error('no checkout config in the page');
  return JSON.parse(json) as Record<string, unknown>;
}

describe('the hosted checkout page', () => {
  it('shows the items, the total, the allowed methods and the card fields with their autocomplete names', async () => {
    const gw = gateway();
    const res = await request(gw.app).get(`/checkout/${SESSION_ID}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.text;
    expect(html).toContain('<h1 id="order-title">Blue mugs</h1>');
    // Text from the integrator is escaped, never markup.
    expect(html).toContain('Mug &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('Blue &amp; white');
    expect(html).toMatch(/<td class="total" id="total">R\$\s50,00<\/td>/);
    expect(html).toMatch(/Pay R\$\s50,00/);
    expect(html).toContain('value="credit" checked> Credit card');
    expect(html).toContain('value="pix"> Pix');
    expect(html).not.toContain('value="boleto"');
    for (const autocomplete of ['cc-number', 'cc-name', 'cc-exp', 'cc-csc']) expect(html).toContain(`autocomplete="${autocomplete}"`);
    for (const id of ['cardNumber', 'cardHolderName', 'cardExpiration', 'cardCvv', 'buyerName', 'buyerEmail', 'buyerDocument']) {
      expect(html).toContain(`<label for="${id}">`);
    }
    expect(html).toContain('<option value="3">3×</option>');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    // Everything the page loads is its own.
    expect(html.match(/(?:src|href)="([^"]+)"/g)?.filter((a) => !/"(\/|https:\/\/api\.example\.test\/|https:\/\/shop\.example\.test\/)/.test(a))).toEqual([]);
  });

  it('hands the script the session id, client id and session key only, and the amount and methods to pay', async () => {
    const res = await request(gateway().app).get(`/checkout/${SESSION_ID}`);
    expect(configOf(res.text)).toEqual({
      sessionId: SESSION_ID,
      clientId: CLIENT_ID,
      publicKey: SESSION_KEY,
      amount: 5000,
      currency: 'BRL',
      methods: [
        { paymentType: 'credit', installments: 3 },
        { paymentType: 'pix', installments: 1, expiresIn: 600 },
      ],
    });
  });

  it('uses the merchant colors, logo and store link, in a style block allowed by nonce, and nothing from another origin', async () => {
    const res = await request(gateway().app).get(`/checkout/${SESSION_ID}`);
    const nonce = nonceOf(res);
    expect(res.text).toContain(`<style nonce="${nonce}">:root{--main:#AA3300;--secondary:#FFFFFF;`);
    expect(res.text).toContain('--background:#101010');
    expect(res.text).toContain(`<img class="logo" src="${PUBLIC_URL}/v1/settings/logos/a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d" alt="Store logo">`);
    expect(res.text).toContain('<a class="store-link" href="https://shop.example.test/"');
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');
    // A new nonce for each page.
    expect(nonceOf(await request(gateway().app).get(`/checkout/${SESSION_ID}`))).not.toBe(nonce);
  });

  it('writes no color that is not a color, and no link that is not http(s)', async () => {
    const res = await request(gateway(sampleSession(), { settings: linkSettings({ mainColor: 'red;}body{display:none', companyUrl: 'javascript:alert(1)', logoId: '' }) }).app).get(
      `/checkout/${SESSION_ID}`,
    );
    expect(res.text).toContain('--main:#1A73E8');
    expect(res.text).not.toContain('display:none');
    expect(res.text).not.toContain('javascript:');
    expect(res.text).not.toContain('class="logo"');
  });

  it('keeps working in the platform colors when the settings cannot be read', async () => {
    const gw = buildGateway({
      sessions: { getCheckoutSession: async () => sampleSession() },
      settings: {
        getLinkSettings: async () => {
          throw new AppError('unavailable', 'settings down');
        },
      },
    });
    const res = await request(gw.app).get(`/checkout/${SESSION_ID}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('--main:#1A73E8');
    expect(gw.lines.map((l) => l.msg)).toContain('checkout: payment-link settings unavailable');
  });

  it.each([
    ['paid', sampleSession({ status: 'paid' }), 'This order is paid'],
    ['canceled', sampleSession({ status: 'canceled' }), 'This payment link was canceled'],
    ['voided', sampleSession({ status: 'voided' }), 'This payment link was canceled'],
    ['inactive', sampleSession({ isActive: false }), 'This payment link is no longer available'],
    ['past its due date', sampleSession({ dueDate: new Date(TEST_START - 1000) }), 'This payment link is no longer available'],
    [
      'a 1:N session at its maximum',
      sampleSession({ multiplePayments: { allow: true, maxPayments: 3, paymentCount: 3, pendingCount: 0, status: 'disabled' } }),
      'This payment link is no longer available',
    ],
    [
      'split in shares that add up to 150% (stored before splits were checked)',
      sampleSession({
        amount: 5000,
        splitRules: [
          { sellerId: '3b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d', percentage: 10_000, processingFee: false, chargeRemainderFee: false, liable: false },
          { sellerId: '4c2d3e4f-5a61-4b7c-9d8e-0f1a2b3c4d5e', percentage: 5_000, processingFee: false, chargeRemainderFee: false, liable: false },
        ],
      }),
      'This payment link is no longer available',
    ],
    [
      'a 1:1 session with its payment pending',
      sampleSession({ multiplePayments: { allow: false, maxPayments: 1, paymentCount: 0, pendingCount: 1, status: 'disabled' } }),
      'A payment is in progress',
    ],
  ])('shows a clear page and no form for a session that is %s', async (_label, session, title) => {
    const res = await request(gateway(session).app).get(`/checkout/${SESSION_ID}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<h1>${title}</h1>`);
    expect(res.text).not.toContain('checkout-form');
    expect(res.text).not.toContain('checkout-config');
    expect(res.text).not.toContain(SESSION_KEY);
  });

  it('pays a session whose due date is still ahead', async () => {
    const res = await request(gateway(sampleSession({ dueDate: new Date(TEST_START + 60_000) })).app).get(`/checkout/${SESSION_ID}`);
    expect(res.text).toContain('checkout-form');
  });

  it('answers an unknown or malformed session with a 404 page, not JSON, asking sessions only for a well-formed id', async () => {
    const gw = gateway();
    const unknown = await request(gw.app).get(`/checkout/${UNKNOWN_ID}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toContain('text/html');
    expect(unknown.text).toContain('<h1>Payment link not found</h1>');
    for (const path of ['/checkout/not-a-session', '/checkout/%ff', `/checkout/${SESSION_ID}/elsewhere`, '/checkout/']) {
      const res = await request(gw.app).get(path);
      expect({ path, status: res.status, html: res.text.includes('Payment link not found') }).toEqual({ path, status: 404, html: true });
    }
    expect(gw.sessionsCalls.map((c) => c.request)).toEqual([{ id: UNKNOWN_ID }]);
  });

  it('answers a page, not a stack, when sessions is down', async () => {
    const gw = buildGateway({
      sessions: {
        getCheckoutSession: async () => {
          throw new AppError('unavailable', 'down');
        },
      },
    });
    const res = await request(gw.app).get(`/checkout/${SESSION_ID}`);
    expect(res.status).toBe(503);
    expect(res.text).toContain('The payment page is unavailable right now');
  });

  it('serves its own script and stylesheet', async () => {
    const gw = gateway();
    const script = await request(gw.app).get('/checkout/assets/checkout.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('application/javascript');
    expect(script.text).toContain('function luhnValid');
    const css = await request(gw.app).get('/checkout/assets/checkout.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
  });
});

describe('the Pix QR code of a checkout charge', () => {
  const pixCharge = (overrides: Partial<payments.Charge> = {}) =>
    payments.Charge.fromPartial({
      id: CHARGE_ID,
      clientId: CLIENT_ID,
      sessionId: SESSION_ID,
      amount: 5000,
      status: 'pending',
      paymentMethod: payments.PaymentMethod.fromPartial({ paymentType: 'pix', qrCodeData: '00020101021226830014br.gov.bcb.pix2561pix.sandbox.local/qr/v2/abc5204000053039865802BR6304ABCD' }),
      createdAt: CREATED_AT,
      updatedAt: UPDATED_AT,
      ...overrides,
    });

  it("draws the charge's Pix code as an SVG image", async () => {
    const gw = gateway(sampleSession(), { charge: pixCharge() });
    const res = await request(gw.app).get(`/checkout/${SESSION_ID}/charges/${CHARGE_ID}/pix.svg`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(String(res.body)).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(gw.paymentsCalls.map((c) => c.request)).toEqual([{ clientId: CLIENT_ID, id: CHARGE_ID }]);
  });

  it('draws nothing for a charge of another session, a card charge, or an unknown charge', async () => {
    for (const charge of [pixCharge({ sessionId: UNKNOWN_ID }), pixCharge({ paymentMethod: payments.PaymentMethod.fromPartial({ paymentType: 'credit' }) }), undefined]) {
      const res = await request(gateway(sampleSession(), { charge }).app).get(`/checkout/${SESSION_ID}/charges/${CHARGE_ID}/pix.svg`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).not.toContain('svg');
    }
    const unknownSession = await request(gateway(sampleSession(), { charge: pixCharge() }).app).get(`/checkout/${UNKNOWN_ID}/charges/${CHARGE_ID}/pix.svg`);
    expect(unknownSession.status).toBe(404);
  });
});
