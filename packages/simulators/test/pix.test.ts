import { createServer, type IncomingMessage, type Server } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { crc16, startPixSimulator, testTls, type PixSimulatorProfile, type RunningPixSimulator } from '../src/pix';

const tls = testTls();
const ACCOUNT = { clientId: 'Client_Id_simulated', clientSecret: 'Client_Secret_simulated', pixKeys: ['recebedor@example.com'], developerKey: 'bb-developer-key' };
const OTHER = { clientId: 'Client_Id_other', clientSecret: 'Client_Secret_other' };
const KEY = 'recebedor@example.com';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One HTTPS request with the test CA trusted and, unless told otherwise, the test client certificate. */
function call(url: string, method: string, options: { headers?: Record<string, string>; body?: string; certificate?: string | null } = {}): Promise<Answer> {
  const certificate = options.certificate === undefined ? tls.clientBundle : options.certificate;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: options.headers, ca: tls.ca, ...(certificate ? { cert: certificate, key: certificate } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

async function tokenOf(simulator: RunningPixSimulator, account: { clientId: string; clientSecret: string } = ACCOUNT): Promise<string> {
  const answer = await call(simulator.tokenUrl, 'POST', {
    headers: { authorization: basic(account.clientId, account.clientSecret), 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials' }),
  });
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

function api(simulator: RunningPixSimulator, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(`${simulator.url}${path}`, method, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Reads every TLV field of a BR Code (ID, two-digit length, value). */
function fields(code: string): Map<string, string> {
  const found = new Map<string, string>();
  for (let at = 0; at < code.length; ) {
    const length = Number(code.slice(at + 2, at + 4));
    found.set(code.slice(at, at + 2), code.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return found;
}

describe('API Pix simulator', () => {
  let simulator: RunningPixSimulator;
  let receiver: Server;
  let receiverUrl: string;
  const received: Array<{ path: string; body: unknown }> = [];
  let arrived: (() => void) | undefined;
  let now = new Date('2026-05-04T12:00:00Z');
  let txids = 0;
  const txid = () => `simtx${String(++txids).padStart(27, '0')}`;

  beforeAll(async () => {
    simulator = await startPixSimulator({ clock: () => now, accounts: [ACCOUNT, OTHER], tokenLifetimeSeconds: 600 });
    receiver = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200).end();
        arrived?.();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/pix-efi`;
  });
  afterAll(async () => {
    await simulator.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('computes the CRC16 of the BR Code as CRC-16/CCITT-FALSE (check value of "123456789" is 29B1)', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
  });

  it('refuses a connection without a client certificate, and one whose certificate the CA never signed', async () => {
    await expect(call(simulator.tokenUrl, 'POST', { certificate: null })).rejects.toThrow();
    await expect(call(simulator.tokenUrl, 'POST', { certificate: tls.strangerBundle })).rejects.toThrow();
  });

  it('issues a token to the right client credentials only, with its lifetime', async () => {
    const bad = await call(simulator.tokenUrl, 'POST', {
      headers: { authorization: basic(ACCOUNT.clientId, 'wrong'), 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    expect(bad).toEqual({ status: 401, body: { error: 'invalid_client', error_description: expect.any(String) } });
    const good = await call(simulator.tokenUrl, 'POST', {
      headers: { authorization: basic(ACCOUNT.clientId, ACCOUNT.clientSecret), 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    expect(good.body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    const cob = await api(simulator, 'not-a-token', 'GET', `/cob/${txid()}`);
    expect(cob.status).toBe(401);
  });

  it('expires tokens by its clock', async () => {
    const token = await tokenOf(simulator);
    const id = txid();
    expect((await api(simulator, token, 'GET', `/cob/${id}`)).status).toBe(404);
    now = new Date(now.getTime() + 600_000);
    expect((await api(simulator, token, 'GET', `/cob/${id}`)).status).toBe(401);
  });

  it('creates a cob with a BR Code whose fields and CRC check, and answers "already used" for its txid', async () => {
    const token = await tokenOf(simulator);
    const id = txid();
    const created = await api(simulator, token, 'PUT', `/cob/${id}`, { calendario: { expiracao: 3600 }, valor: { original: '123.45' }, chave: KEY, solicitacaoPagador: 'Pedido 42' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ txid: id, status: 'ATIVA', revisao: 0, valor: { original: '123.45' }, chave: KEY, calendario: { expiracao: 3600, criacao: now.toISOString() } });
    const code = created.body.pixCopiaECola as string;
    expect(crc16(code.slice(0, -4))).toBe(code.slice(-4));
    const tlv = fields(code);
    expect(tlv.get('00')).toBe('01');
    expect(tlv.get('54')).toBe('123.45');
    expect(fields(tlv.get('26')!).get('25')).toBe(created.body.location);
    const again = await api(simulator, token, 'PUT', `/cob/${id}`, { calendario: { expiracao: 3600 }, valor: { original: '123.45' }, chave: KEY });
    expect(again.status).toBe(400);
    expect(again.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
    const other = await tokenOf(simulator, OTHER);
    expect((await api(simulator, other, 'GET', `/cob/${id}`)).status).toBe(404);
  });

  it('refuses a key that is not the receiver\'s and an amount that breaks the schema, with violations', async () => {
    const token = await tokenOf(simulator);
    const answer = await api(simulator, token, 'PUT', `/cob/${txid()}`, { calendario: { expiracao: 3600 }, valor: { original: '10' }, chave: 'someone-else@example.com' });
    expect(answer.status).toBe(400);
    expect((answer.body.violacoes as Array<{ propriedade: string }>).map((v) => v.propriedade)).toEqual(['cob.valor.original', 'cob.chave']);
  });

  it('pays a cob of up to R$ 10.00 at once and posts the webhook to {webhookUrl}/pix; a larger one waits for pay()', async () => {
    const token = await tokenOf(simulator);
    const refused = await api(simulator, token, 'PUT', `/webhook/${encodeURIComponent(KEY)}`, { webhookUrl: receiverUrl });
    expect(refused.status).toBe(400);
    const registered = await api(simulator, token, 'PUT', `/webhook/${encodeURIComponent(KEY)}`, { webhookUrl: `${receiverUrl}?ignorar=` }, { 'x-skip-mtls-checking': 'true' });
    expect(registered.status).toBe(200);
    expect((await api(simulator, token, 'GET', `/webhook/${encodeURIComponent(KEY)}`)).body).toMatchObject({ webhookUrl: `${receiverUrl}?ignorar=`, chave: KEY });

    const small = txid();
    const delivered = new Promise<void>((resolve) => (arrived = resolve));
    await api(simulator, token, 'PUT', `/cob/${small}`, { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: KEY });
    await delivered;
    expect(received.at(-1)).toEqual({ path: '/hooks/pix-efi?ignorar=/pix', body: { pix: [expect.objectContaining({ txid: small, valor: '10.00', chave: KEY })] } });
    expect((await api(simulator, token, 'GET', `/cob/${small}`)).body).toMatchObject({ status: 'CONCLUIDA', pix: [{ txid: small, valor: '10.00' }] });

    const large = txid();
    await api(simulator, token, 'PUT', `/cob/${large}`, { calendario: { expiracao: 3600 }, valor: { original: '10.01' }, chave: KEY });
    expect((await api(simulator, token, 'GET', `/cob/${large}`)).body.status).toBe('ATIVA');
    const paid = await simulator.pay(large);
    expect(paid.endToEndId).toMatch(/^E[0-9A-Za-z]{31}$/);
    expect((await api(simulator, token, 'GET', `/cob/${large}`)).body.status).toBe('CONCLUIDA');
    expect((await api(simulator, token, 'DELETE', `/webhook/${encodeURIComponent(KEY)}`)).status).toBe(204);
  });

  it('removes an ATIVA cob once, and never a paid one', async () => {
    const token = await tokenOf(simulator);
    const id = txid();
    await api(simulator, token, 'PUT', `/cob/${id}`, { calendario: { expiracao: 60 }, valor: { original: '50.00' }, chave: KEY });
    const removed = await api(simulator, token, 'PATCH', `/cob/${id}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    expect(removed.body).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    expect((await api(simulator, token, 'PATCH', `/cob/${id}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).status).toBe(400);
    await expect(simulator.pay(id)).rejects.toThrow('REMOVIDA');
  });

  it('refunds a paid Pix in parts, up to its value, each id once', async () => {
    const token = await tokenOf(simulator);
    const id = txid();
    await api(simulator, token, 'PUT', `/cob/${id}`, { calendario: { expiracao: 3600 }, valor: { original: '100.00' }, chave: KEY });
    const { endToEndId } = await simulator.pay(id);
    const first = await api(simulator, token, 'PUT', `/pix/${endToEndId}/devolucao/d1`, { valor: '60.00', natureza: 'ORIGINAL' });
    expect(first).toMatchObject({ status: 201, body: { id: 'd1', valor: '60.00', status: 'DEVOLVIDO' } });
    expect((await api(simulator, token, 'PUT', `/pix/${endToEndId}/devolucao/d1`, { valor: '10.00' })).status).toBe(400);
    expect((await api(simulator, token, 'PUT', `/pix/${endToEndId}/devolucao/d2`, { valor: '40.01' })).body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida');
    simulator.setRefundOutcome('NAO_REALIZADO');
    expect((await api(simulator, token, 'PUT', `/pix/${endToEndId}/devolucao/d3`, { valor: '40.00' })).body.status).toBe('NAO_REALIZADO');
    simulator.setRefundOutcome('DEVOLVIDO');
    expect((await api(simulator, token, 'GET', `/pix/${endToEndId}/devolucao/d1`)).body.status).toBe('DEVOLVIDO');
    const cob = await api(simulator, token, 'GET', `/cob/${id}`);
    expect((cob.body.pix as Array<{ devolucoes: unknown[] }>)[0]!.devolucoes).toHaveLength(2);
  });

  describe.each<[PixSimulatorProfile, (id: string, secret: string) => { url: (tokenUrl: string) => string; headers: Record<string, string>; body: string }]>([
    ['ITAU', (id, secret) => ({ url: (u) => u, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${id}&client_secret=${secret}` })],
    ['SANTANDER', (id, secret) => ({ url: (u) => `${u}?grant_type=client_credentials`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `client_id=${id}&client_secret=${secret}` })],
    ['BB', (id, secret) => ({ url: (u) => u, headers: { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&scope=cob.read' })],
  ])('the %s profile', (profile, tokenRequest) => {
    it('takes the token request as the bank documents it', async () => {
      const bank = await startPixSimulator({ clock: () => now, accounts: [ACCOUNT], profile });
      try {
        const shaped = tokenRequest(ACCOUNT.clientId, ACCOUNT.clientSecret);
        const answer = await call(shaped.url(bank.tokenUrl), 'POST', { headers: shaped.headers, body: shaped.body, certificate: profile === 'BB' ? null : undefined });
        expect(answer.status).toBe(200);
        const wrong = tokenRequest(ACCOUNT.clientId, 'wrong');
        expect((await call(wrong.url(bank.tokenUrl), 'POST', { headers: wrong.headers, body: wrong.body })).status).toBe(401);
        const token = answer.body.access_token as string;
        const path = `/cob/${txid()}`;
        if (profile === 'BB') {
          expect((await api(bank, token, 'GET', path)).status).toBe(403);
          expect((await api(bank, token, 'GET', `${path}?gw-dev-app-key=${ACCOUNT.developerKey}`)).status).toBe(404);
          expect((await call(`${bank.url}${path}?gw-dev-app-key=${ACCOUNT.developerKey}`, 'GET', { headers: { authorization: `Bearer ${token}` }, certificate: null })).status).toBe(403);
        } else {
          expect((await api(bank, token, 'GET', path)).status).toBe(404);
        }
      } finally {
        await bank.close();
      }
    });
  });
});
