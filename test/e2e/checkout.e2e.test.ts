import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { cardNumberEnding, eventually } from '@platform/testkit';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

/**
 * The hosted checkout page in a real browser (Debian's chromium, driven by playwright-core) against the whole
 * platform: a buyer pays with a SANDBOX card and sees success; a declined card shows the decline; Pix shows its QR
 * code; a payment answered 409 while other buyers' payments hold the order's places is asked again by the page itself;
 * the page refuses a card number that fails the Luhn check without calling anything. Screenshots are kept in
 * test/artifacts.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts');
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

type Json = Record<string, unknown>;
interface Session extends Json {
  id: string;
  paymentLink: string;
  status: string;
}

const expiry = () => `12/${String(new Date().getUTCFullYear() + 4).slice(2)}`;

describe('the hosted checkout page in headless Chromium', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let merchantId: string;
  let browser: Browser;
  let context: BrowserContext;

  const createSession = async (body: Json) => {
    const res = await api<Session>('POST', '/v1/sessions', {
      auth: client,
      body: {
        merchantId,
        name: 'Ceramic mugs',
        items: [
          { name: 'Blue mug', unitPrice: 2500, quantity: 2, description: 'Hand-glazed, 350 ml' },
          { name: 'Gift wrap', unitPrice: 500, quantity: 1 },
        ],
        paymentMethods: [{ paymentType: 'credit', installments: 3 }, { paymentType: 'pix', expiresIn: 3600 }],
        ...body,
      },
    });
    expect(res.status).toBe(201);
    return res.body;
  };

  /** Opens a page and records every call the page makes to pay. */
  const open = async (link: string): Promise<{ page: Page; chargeCalls: string[] }> => {
    const page = await context.newPage();
    const chargeCalls: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/charge')) chargeCalls.push(request.postData() ?? '');
    });
    const response = await page.goto(link);
    expect(response?.status()).toBe(200);
    return { page, chargeCalls };
  };

  const typeCard = async (page: Page, number: string) => {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Name on the card').fill('Ana Souza');
    await page.getByLabel('Expiry date').fill(expiry());
    await page.getByLabel('Security code').fill('870');
  };

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`the checkout page test needs Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    platform = await startTestPlatform('e2echeckout');
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Checkout Store');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: 'Loja Checkout', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
    const styled = await api('PATCH', '/v1/settings', {
      auth: client,
      body: { mainColor: '#6D28D9', backgroundColor: '#F5F3FF', companyUrl: 'https://loja.example.com/' },
    });
    expect(styled.status).toBe(200);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    context = await browser.newContext(PHONE);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await platform?.stop();
  });

  it('a buyer sees a declined card explained, then pays with a SANDBOX card and sees success', async () => {
    const session = await createSession({});
    expect(new URL(session.paymentLink).pathname).toBe(`/checkout/${session.id}`);
    const { page, chargeCalls } = await open(session.paymentLink);

    await expect(page.locator('h1').textContent()).resolves.toBe('Ceramic mugs');
    expect(await page.locator('#total').textContent()).toMatch(/R\$\s55,00/);
    expect(await page.locator('.items tbody tr').count()).toBe(2);
    // The merchant's colors reach the page; it fits a phone's width without sideways scrolling.
    // (Browser-side snippets are strings: they run in the page, whose DOM types this project does not compile against.)
    expect(await page.evaluate("getComputedStyle(document.querySelector('#pay')).backgroundColor")).toBe('rgb(109, 40, 217)');
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'checkout-form.png'), fullPage: true });

    // Card number ending 02: the SANDBOX declines it with insufficient_funds.
    await typeCard(page, cardNumberEnding('02'));
    await page.getByRole('button', { name: /^Pay/ }).click();
    const message = page.locator('#message');
    await message.filter({ hasText: 'Payment declined' }).waitFor({ timeout: 15_000 });
    expect(await message.textContent()).toBe('Payment declined. The card has insufficient funds. Please check the details or use another card.');
    await page.screenshot({ path: path.join(ARTIFACTS, 'checkout-declined.png'), fullPage: true });

    await page.getByLabel('Card number').fill(cardNumberEnding('00'));
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.locator('#result[data-outcome="approved"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('#result h2').textContent()).toBe('Payment approved');
    expect(await page.locator('#payment').isHidden()).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'checkout-approved.png'), fullPage: true });

    // Two calls, each with the card typed in the page and nothing else; the session is paid.
    expect(chargeCalls).toHaveLength(2);
    const sent = JSON.parse(chargeCalls[1]!) as { paymentMethod: Json; paymentSource: { sourceType: string; card: Json } };
    expect(sent.paymentMethod).toEqual({ paymentType: 'credit', installments: 1 });
    expect(sent.paymentSource.sourceType).toBe('card');
    expect(Object.keys(sent.paymentSource.card).sort()).toEqual(['cardCvv', 'cardExpirationDate', 'cardHolderName', 'cardNumber']);
    const paid = await api<Session>('GET', `/v1/sessions/${session.id}`, { auth: client });
    expect(paid.body.status).toBe('paid');

    // Opened again, the link says the order is paid.
    const again = await open(session.paymentLink);
    expect(await again.page.locator('h1').textContent()).toBe('This order is paid');
    expect(await again.page.locator('form').count()).toBe(0);
    await page.close();
    await again.page.close();
  }, 90_000);

  it('asks again by itself, with the same key, when the payment is answered 409 while other payments of the order are in progress', async () => {
    const session = await createSession({ maxPayments: 5, paymentMethods: [{ paymentType: 'credit', installments: 3 }] });
    const { page } = await open(session.paymentLink);
    const keys: string[] = [];
    let held = 0;
    // The first call meets every place held by other buyers' payments: 409, as the sessions service answers then.
    await page.route('**/v1/sessions/*/charge', async (route) => {
      keys.push(route.request().headers()['x-idempotency-key'] ?? '');
      if (held > 0) return route.continue();
      held += 1;
      return route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 409, key: 'session_payments_in_progress', message: 'Payments of this session are in progress: try again in a moment' } }),
      });
    });
    await typeCard(page, cardNumberEnding('00'));
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.locator('#result[data-outcome="approved"]').waitFor({ timeout: 15_000 });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/.{16,}/);
    expect(keys[1]).toBe(keys[0]);
    expect(await page.locator('#pay').getAttribute('data-retries')).toBe('1');
    const paid = await api<Session & { multiplePayments: { paymentCount: number } }>('GET', `/v1/sessions/${session.id}`, { auth: client });
    expect(paid.body.multiplePayments.paymentCount).toBe(1);
    await page.close();
  }, 60_000);

  it('checks the card number in the page: a number that fails the Luhn check is named and nothing is sent', async () => {
    const session = await createSession({});
    const { page, chargeCalls } = await open(session.paymentLink);
    await typeCard(page, '4111111111111112');
    await page.getByLabel('Expiry date').fill('01/20');
    await page.getByRole('button', { name: /^Pay/ }).click();
    expect(await page.locator('#cardNumber-error').textContent()).toBe('Check the card number.');
    expect(await page.locator('#cardExpiration-error').textContent()).toBe('Type a valid expiry date as MM/YY.');
    expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#message').textContent()).toBe('Please correct the highlighted fields.');
    expect(chargeCalls).toEqual([]);
    await page.close();
  }, 60_000);

  it('pays by Pix: the buyer gives name, e-mail and CPF, and sees the QR code and the copy-paste code', async () => {
    const session = await createSession({ paymentMethods: [{ paymentType: 'pix', expiresIn: 3600 }, { paymentType: 'boleto' }] });
    const { page, chargeCalls } = await open(session.paymentLink);
    // Only the methods the session allows; Pix first, so its buyer fields show and no card field does.
    const choices = await page.locator('input[name="paymentType"]').all();
    expect(await Promise.all(choices.map((choice) => choice.getAttribute('value')))).toEqual(['pix', 'boleto']);
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await page.getByLabel('Full name').fill('Ana Souza');
    await page.getByLabel('E-mail').fill('ana.souza@example.com');
    await page.getByLabel('CPF or CNPJ').fill('111.444.777-35');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.locator('#result[data-outcome="pix"]').waitFor({ timeout: 15_000 });
    const qr = page.locator('#result img.qr');
    await qr.waitFor();
    // Polled from the test: the page's own CSP refuses the eval that waitForFunction would run in it.
    const loaded = "(() => { const img = document.querySelector('#result img.qr'); return img !== null && img.complete && img.naturalWidth > 0; })()";
    await eventually(async () => ((await page.evaluate(loaded)) === true ? true : undefined), 'the Pix QR image loaded', { timeoutMs: 10_000, intervalMs: 100 });
    expect(await page.locator('#pix-code').inputValue()).toMatch(/^000201/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'checkout-pix.png'), fullPage: true });
    const sent = JSON.parse(chargeCalls[0]!) as { paymentMethod: Json; paymentSource: Json };
    expect(sent).toEqual({
      paymentMethod: { paymentType: 'pix', expiresIn: 3600 },
      paymentSource: { sourceType: 'customer', customer: { name: 'Ana Souza', email: 'ana.souza@example.com', document: { type: 'cpf', number: '11144477735', country: 'BR' } } },
    });
    await page.close();
  }, 60_000);

  it('shows a clear page for a canceled session and for an unknown one', async () => {
    const session = await createSession({});
    expect((await api('POST', `/v1/sessions/${session.id}/cancel`, { auth: client })).status).toBe(201);
    const canceled = await open(session.paymentLink);
    expect(await canceled.page.locator('h1').textContent()).toBe('This payment link was canceled');
    await canceled.page.close();
    const page = await context.newPage();
    const response = await page.goto(`${new URL(session.paymentLink).origin}/checkout/00000000-0000-4000-8000-000000000000`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Payment link not found');
    await page.close();
  }, 60_000);
});
