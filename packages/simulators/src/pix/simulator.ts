import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { listen, readBody, sendJson } from '../http';
import { dynamicBrCode } from './brcode';
import { testTls } from './tls';

/**
 * A receiving PSP's API Pix (the Central Bank's standard, v2.9.0 OpenAPI document) on loopback, over HTTPS with
 * mutual TLS: the OAuth2 token endpoint (client credentials), immediate charges (`/cob/{txid}`), refunds
 * (`/pix/{e2eid}/devolucao/{id}`) and the Pix webhook (`/webhook/{chave}`). Answers and problems (RFC 7807,
 * `https://pix.bcb.gov.br/api/v2/error/<Tipo>`) take the document's shapes.
 *
 * Efí's documented homologation rule is followed: a cob of up to R$ 10.00 is paid at once and its webhook posted;
 * a larger one stays ATIVA until `pay(txid)`.
 *
 * The bank profile decides what differs between banks: how the token request authenticates (Efí and BB: HTTP Basic;
 * Itaú and Santander: client_id and client_secret in the form), whether the token endpoint wants the client
 * certificate (BB's does not), BB's `gw-dev-app-key` query parameter and Efí's `x-skip-mtls-checking` header when
 * a webhook is registered.
 */

export type PixSimulatorProfile = 'EFI' | 'ITAU' | 'SANTANDER' | 'BB';

export interface PixSimulatorAccount {
  clientId: string;
  clientSecret: string;
  /** BB's developer application key, required as `gw-dev-app-key` on every API call of the BB profile. */
  developerKey?: string;
  /** The DICT keys of the account; absent: any key is accepted as the receiver's. */
  pixKeys?: string[];
  /** The receiver's CNPJ (shown by GET /webhook). */
  cnpj?: string;
  merchantName?: string;
  city?: string;
}

export type RefundOutcome = 'DEVOLVIDO' | 'EM_PROCESSAMENTO' | 'NAO_REALIZADO';

export interface PixSimulatorOptions {
  port?: number;
  clock?: () => Date;
  accounts: PixSimulatorAccount[];
  profile?: PixSimulatorProfile;
  /** expires_in of the tokens it issues, in seconds (3600 by default, as Efí). */
  tokenLifetimeSeconds?: number;
  /** The largest cob paid at once, in centavos (1000: Efí's R$ 10.00). */
  instantPaymentLimit?: number;
  /**
   * How long after a payment its webhook is posted (250 ms by default): a bank posts after the payer's app is done,
   * never inside the answer to the cob's creation, so the receiver has recorded the charge by then.
   */
  webhookDelayMs?: number;
}

/** One request and its answer, as seen on the wire (the token endpoint's secrets are never kept). */
export interface PixExchange {
  method: string;
  /** The route, as the OpenAPI document names it: `/cob/{txid}`, `/pix/{e2eid}/devolucao/{id}`, `/webhook/{chave}`. */
  route: string;
  status: number;
  requestBody?: unknown;
  responseBody?: unknown;
}

export interface WebhookDelivery {
  url: string;
  body: { pix: PixEntry[] };
  status?: number;
  error?: string;
}

export interface RunningPixSimulator {
  /** The API's base URL (the `/v2` paths of the document). */
  url: string;
  tokenUrl: string;
  profile: PixSimulatorProfile;
  /** Pays an ATIVA cob in full, as a payer's app would; answers the Pix received. */
  pay(txid: string): Promise<PixEntry>;
  /** What the next refunds end in (DEVOLVIDO by default). */
  setRefundOutcome(outcome: RefundOutcome): void;
  /** How many tokens the token endpoint issued. */
  tokensIssued(): number;
  exchanges: PixExchange[];
  deliveries: WebhookDelivery[];
  close(): Promise<void>;
}

interface Devolucao {
  id: string;
  rtrId: string;
  valor: string;
  natureza: 'ORIGINAL';
  horario: { solicitacao: string; liquidacao?: string };
  status: RefundOutcome;
  motivo?: string;
}

interface PixEntry {
  endToEndId: string;
  txid: string;
  valor: string;
  chave: string;
  horario: string;
  infoPagador?: string;
  devolucoes?: Devolucao[];
}

interface Cob {
  calendario: { criacao: string; expiracao: number };
  txid: string;
  revisao: number;
  loc: { id: number; location: string; tipoCob: 'cob'; criacao: string; txid: string };
  location: string;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
  pixCopiaECola: string;
  pix?: PixEntry[];
}

interface AccountState {
  account: PixSimulatorAccount;
  cobs: Map<string, Cob>;
  webhooks: Map<string, { webhookUrl: string; criacao: string }>;
}

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const E2EID = /^[a-zA-Z0-9]{32}$/;
const DEVOLUCAO_ID = /^[a-zA-Z0-9]{1,35}$/;
const AMOUNT = /^\d{1,10}\.\d{2}$/;
const ERROR_BASE = 'https://pix.bcb.gov.br/api/v2/error/';

class Problem extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    readonly title: string,
    readonly detail: string,
    readonly violacoes?: Array<{ razao: string; propriedade: string }>,
  ) {
    super(title);
  }

  body(): Record<string, unknown> {
    return { type: ERROR_BASE + this.kind, title: this.title, status: this.status, detail: this.detail, ...(this.violacoes ? { violacoes: this.violacoes } : {}) };
  }
}

function cents(amount: string): number {
  const [units = '0', fraction = '00'] = amount.split('.');
  return Number(units) * 100 + Number(fraction);
}

function alphanumeric(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}

function stamp(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 12);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function startPixSimulator(options: PixSimulatorOptions): Promise<RunningPixSimulator> {
  const clock = options.clock ?? (() => new Date());
  const profile = options.profile ?? 'EFI';
  const lifetime = options.tokenLifetimeSeconds ?? 3600;
  const instantLimit = options.instantPaymentLimit ?? 1000;
  const tls = testTls();
  const states = new Map<string, AccountState>(options.accounts.map((a) => [a.clientId, { account: a, cobs: new Map(), webhooks: new Map() }]));
  const tokens = new Map<string, { clientId: string; expiresAt: number }>();
  const exchanges: PixExchange[] = [];
  const deliveries: WebhookDelivery[] = [];
  const pendingDeliveries = new Set<Promise<void>>();
  let issued = 0;
  let locations = 0;
  let refundOutcome: RefundOutcome = 'DEVOLVIDO';
  // BB's OAuth host takes the token request without a client certificate; every other endpoint here wants one.
  const tokenNeedsCertificate = profile !== 'BB';

  const server: Server = createServer({
    key: tls.serverKey,
    cert: tls.serverCert,
    ca: tls.ca,
    requestCert: true,
    rejectUnauthorized: tokenNeedsCertificate,
  });

  function findPix(state: AccountState, e2eid: string): { cob: Cob; pix: PixEntry } | undefined {
    for (const cob of state.cobs.values()) {
      const pix = cob.pix?.find((p) => p.endToEndId === e2eid);
      if (pix) return { cob, pix };
    }
    return undefined;
  }

  function notify(state: AccountState, entries: PixEntry[]): void {
    const chave = entries[0]?.chave;
    const hook = chave === undefined ? undefined : state.webhooks.get(chave);
    if (!hook) return;
    // The callback goes to `{webhookUrl}/pix` (the document's `listaPix` callback), a plain JSON POST.
    const delivery: WebhookDelivery = { url: `${hook.webhookUrl}/pix`, body: { pix: entries.map((e) => structuredClone(e)) } };
    deliveries.push(delivery);
    const sending = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.webhookDelayMs ?? 250);
      timer.unref();
    })
      .then(() => fetch(delivery.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(delivery.body) }))
      .then(async (answer) => {
        delivery.status = answer.status;
        await answer.arrayBuffer();
      })
      .catch((error: unknown) => {
        delivery.error = error instanceof Error ? error.message : String(error);
      })
      .finally(() => pendingDeliveries.delete(sending));
    pendingDeliveries.add(sending);
  }

  function payCob(state: AccountState, cob: Cob): PixEntry {
    const now = clock();
    const entry: PixEntry = {
      endToEndId: `E12345678${stamp(now)}${alphanumeric(11)}`,
      txid: cob.txid,
      valor: cob.valor.original,
      chave: cob.chave,
      horario: now.toISOString(),
      infoPagador: 'Pagamento simulado',
    };
    cob.status = 'CONCLUIDA';
    cob.pix = [entry];
    notify(state, [entry]);
    return entry;
  }

  function token(req: IncomingMessage, body: Buffer, url: URL): { status: number; body: unknown } {
    if (req.method !== 'POST') return { status: 405, body: { error: 'invalid_request', error_description: 'use POST' } };
    const type = req.headers['content-type'] ?? '';
    const form = new URLSearchParams(type.includes('application/x-www-form-urlencoded') ? body.toString('utf8') : '');
    let json: Record<string, unknown> = {};
    if (type.includes('json')) {
      try {
        const parsed: unknown = JSON.parse(body.toString('utf8'));
        if (isObject(parsed)) json = parsed;
      } catch {
        return { status: 400, body: { error: 'invalid_request', error_description: 'body is not JSON' } };
      }
    }
    const grant = json.grant_type ?? form.get('grant_type') ?? url.searchParams.get('grant_type');
    if (grant !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' } };
    let clientId: string | null = null;
    let clientSecret: string | null = null;
    const authorization = req.headers.authorization ?? '';
    if (profile === 'EFI' || profile === 'BB') {
      if (authorization.startsWith('Basic ')) {
        const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        if (colon > 0) [clientId, clientSecret] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
      }
    } else {
      clientId = form.get('client_id');
      clientSecret = form.get('client_secret');
    }
    const state = clientId === null ? undefined : states.get(clientId);
    if (!state || state.account.clientSecret !== clientSecret) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'client authentication failed' } };
    }
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, { clientId: state.account.clientId, expiresAt: clock().getTime() + lifetime * 1000 });
    issued += 1;
    return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: lifetime, scope: 'cob.read cob.write pix.read pix.write webhook.read webhook.write' } };
  }

  function authenticate(req: IncomingMessage, url: URL): AccountState {
    const authorization = req.headers.authorization ?? '';
    const entry = authorization.startsWith('Bearer ') ? tokens.get(authorization.slice(7)) : undefined;
    if (!entry || entry.expiresAt <= clock().getTime()) {
      throw new Problem(401, 'AcessoNegado', 'Não autorizado', 'Token de acesso ausente, inválido ou expirado.');
    }
    const state = states.get(entry.clientId)!;
    if (profile === 'BB' && state.account.developerKey !== undefined && url.searchParams.get('gw-dev-app-key') !== state.account.developerKey) {
      throw new Problem(403, 'AcessoNegado', 'Acesso Negado', 'gw-dev-app-key ausente ou inválida.');
    }
    return state;
  }

  function ownsKey(state: AccountState, chave: unknown): chave is string {
    return typeof chave === 'string' && chave.length > 0 && chave.length <= 77 && (state.account.pixKeys === undefined || state.account.pixKeys.includes(chave));
  }

  function createCob(state: AccountState, txid: string, input: unknown): { status: number; body: unknown; after?: () => void } {
    if (!TXID.test(txid)) throw new Problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', 'O txid não respeita o schema.', [{ razao: 'txid deve ter de 26 a 35 letras e dígitos', propriedade: 'txid' }]);
    const violations: Array<{ razao: string; propriedade: string }> = [];
    const body = isObject(input) ? input : {};
    const calendario = isObject(body.calendario) ? body.calendario : {};
    const expiracao = calendario.expiracao ?? 86400;
    if (typeof expiracao !== 'number' || !Number.isInteger(expiracao) || expiracao <= 0) violations.push({ razao: 'O campo cob.calendario.expiracao é igual ou menor que zero.', propriedade: 'cob.calendario.expiracao' });
    const valor = isObject(body.valor) ? body.valor : {};
    if (typeof valor.original !== 'string' || !AMOUNT.test(valor.original)) violations.push({ razao: 'O campo cob.valor.original não respeita o schema.', propriedade: 'cob.valor.original' });
    else if (cents(valor.original) === 0) violations.push({ razao: 'O campo cob.valor.original é zero.', propriedade: 'cob.valor.original' });
    if (!ownsKey(state, body.chave)) violations.push({ razao: 'O campo cob.chave não corresponde a uma conta deste usuário recebedor.', propriedade: 'cob.chave' });
    const solicitacao = body.solicitacaoPagador;
    if (solicitacao !== undefined && (typeof solicitacao !== 'string' || solicitacao.length > 140)) violations.push({ razao: 'O campo solicitacaoPagador não respeita o schema.', propriedade: 'cob.solicitacaoPagador' });
    if (state.cobs.has(txid)) violations.push({ razao: 'A cobrança já existe: o txid já foi utilizado.', propriedade: 'txid' });
    if (violations.length > 0) {
      throw new Problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', 'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o schema ou está semanticamente errada.', violations);
    }
    const now = clock().toISOString();
    locations += 1;
    const location = `pix.simulator.local/qr/v2/${createHash('sha256').update(`${state.account.clientId}:${txid}`).digest('hex').slice(0, 32)}`;
    const original = valor.original as string;
    const cob: Cob = {
      calendario: { criacao: now, expiracao: expiracao as number },
      txid,
      revisao: 0,
      loc: { id: locations, location, tipoCob: 'cob', criacao: now, txid },
      location,
      status: 'ATIVA',
      valor: { original },
      chave: body.chave as string,
      ...(typeof solicitacao === 'string' ? { solicitacaoPagador: solicitacao } : {}),
      pixCopiaECola: dynamicBrCode({ location, amount: original, merchantName: state.account.merchantName ?? 'RECEBEDOR SIMULADO', city: state.account.city ?? 'SAO PAULO' }),
    };
    state.cobs.set(txid, cob);
    const answer = structuredClone(cob);
    // Efí's homologation: a cob of up to R$ 10.00 is paid as soon as it is created.
    const after = cents(original) <= instantLimit ? () => void payCob(state, cob) : undefined;
    return { status: 201, body: answer, after };
  }

  function reviseCob(state: AccountState, txid: string, input: unknown): { status: number; body: unknown } {
    const cob = state.cobs.get(txid);
    if (!cob) throw new Problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.', 'Cobrança não encontrada para o txid informado.');
    const body = isObject(input) ? input : {};
    if (body.status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || Object.keys(body).length !== 1) {
      throw new Problem(400, 'CobOperacaoInvalida', 'Operação inválida.', 'Só a remoção da cobrança é aceita por este simulador.', [{ razao: 'O campo cob.status não respeita o schema.', propriedade: 'cob.status' }]);
    }
    if (cob.status !== 'ATIVA') {
      throw new Problem(400, 'CobOperacaoInvalida', 'Operação inválida.', 'A cobrança não está ATIVA, e a presente requisição busca alterá-la.', [{ razao: `A cobrança está ${cob.status}.`, propriedade: 'cob.status' }]);
    }
    cob.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
    cob.revisao += 1;
    return { status: 200, body: structuredClone(cob) };
  }

  function refund(state: AccountState, e2eid: string, id: string, input: unknown): { status: number; body: unknown; after?: () => void } {
    if (!E2EID.test(e2eid) || !DEVOLUCAO_ID.test(id)) throw new Problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'O e2eid ou o id da devolução não respeita o schema.');
    const found = findPix(state, e2eid);
    if (!found) throw new Problem(404, 'PixNaoEncontrado', 'Pix não encontrado.', 'Pix não encontrado para o e2eid informado.');
    const body = isObject(input) ? input : {};
    if (typeof body.valor !== 'string' || !AMOUNT.test(body.valor) || cents(body.valor) === 0) {
      throw new Problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'O campo devolucao.valor não respeita o schema.', [{ razao: 'valor inválido', propriedade: 'devolucao.valor' }]);
    }
    if (body.natureza !== undefined && body.natureza !== 'ORIGINAL') {
      throw new Problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'Natureza não aplicável a um Pix comum.', [{ razao: 'natureza deve ser ORIGINAL', propriedade: 'devolucao.natureza' }]);
    }
    const devolucoes = (found.pix.devolucoes ??= []);
    if (devolucoes.some((d) => d.id === id)) {
      throw new Problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'O id da devolução já foi utilizado.', [{ razao: 'id já utilizado', propriedade: 'devolucao.id' }]);
    }
    const returned = devolucoes.filter((d) => d.status !== 'NAO_REALIZADO').reduce((sum, d) => sum + cents(d.valor), 0);
    if (returned + cents(body.valor) > cents(found.pix.valor)) {
      throw new Problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'A soma das devoluções ultrapassa o valor do Pix.', [{ razao: 'valor acima do disponível para devolução', propriedade: 'devolucao.valor' }]);
    }
    const now = clock().toISOString();
    const devolucao: Devolucao = {
      id,
      rtrId: `D12345678${stamp(clock())}${alphanumeric(11)}`,
      valor: body.valor,
      natureza: 'ORIGINAL',
      horario: { solicitacao: now, ...(refundOutcome === 'DEVOLVIDO' ? { liquidacao: now } : {}) },
      status: refundOutcome,
      ...(refundOutcome === 'NAO_REALIZADO' ? { motivo: 'Devolução não realizada: saldo insuficiente.' } : {}),
    };
    devolucoes.push(devolucao);
    // The callback also fires when a refund reaches a final status (DEVOLVIDO or NAO_REALIZADO).
    const after = refundOutcome === 'EM_PROCESSAMENTO' ? undefined : () => notify(state, [found.pix]);
    return { status: 201, body: structuredClone(devolucao), after };
  }

  function webhook(req: IncomingMessage, state: AccountState, chave: string, input: unknown): { status: number; body?: unknown } {
    if (!ownsKey(state, chave)) throw new Problem(404, 'NaoEncontrado', 'Não Encontrado', 'Chave não pertence a este usuário recebedor.');
    if (req.method === 'GET') {
      const hook = state.webhooks.get(chave);
      if (!hook) throw new Problem(404, 'WebhookNaoEncontrado', 'Webhook não encontrado.', 'Webhook não encontrado para a chave informada.');
      return { status: 200, body: { webhookUrl: hook.webhookUrl, chave, cnpj: state.account.cnpj ?? '12345678000195', criacao: hook.criacao } };
    }
    if (req.method === 'DELETE') {
      if (!state.webhooks.delete(chave)) throw new Problem(404, 'WebhookNaoEncontrado', 'Webhook não encontrado.', 'Webhook não encontrado para a chave informada.');
      return { status: 204 };
    }
    const body = isObject(input) ? input : {};
    let target: URL | undefined;
    try {
      target = typeof body.webhookUrl === 'string' ? new URL(body.webhookUrl) : undefined;
    } catch {
      target = undefined;
    }
    if (!target || (target.protocol !== 'https:' && target.protocol !== 'http:')) {
      throw new Problem(400, 'WebhookOperacaoInvalida', 'Webhook inválido.', 'O campo webhookUrl não respeita o schema.', [{ razao: 'webhookUrl não é uma URL', propriedade: 'webhookUrl' }]);
    }
    // Efí checks that the receiving server asks for its client certificate, unless the request says to skip it
    // (header x-skip-mtls-checking: true); a plain http URL can never pass that check.
    if (profile === 'EFI' && target.protocol === 'http:' && req.headers['x-skip-mtls-checking'] !== 'true') {
      throw new Problem(400, 'WebhookOperacaoInvalida', 'Webhook inválido.', 'A URL informada não exige o certificado do PSP (mTLS).', [{ razao: 'webhook sem mTLS', propriedade: 'webhookUrl' }]);
    }
    state.webhooks.set(chave, { webhookUrl: body.webhookUrl as string, criacao: clock().toISOString() });
    return { status: 200 };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const raw = await readBody(req);
    const certified = (req.socket as TLSSocket).authorized;
    if (url.pathname === '/oauth/token') {
      if (!certified) {
        // Only BB's profile gets here without a certificate: its token endpoint does not ask for one.
        if (tokenNeedsCertificate) return sendJson(res, 401, { error: 'invalid_client', error_description: 'client certificate required' });
      }
      const answer = token(req, raw, url);
      exchanges.push({ method: req.method ?? '', route: '/oauth/token', status: answer.status, responseBody: answer.status === 200 ? { ...(answer.body as object), access_token: '(hidden)' } : answer.body });
      return sendJson(res, answer.status, answer.body);
    }
    let route = url.pathname;
    let requestBody: unknown;
    try {
      if (!certified) throw new Problem(403, 'AcessoNegado', 'Acesso Negado', 'Certificado de cliente ausente ou não confiável.');
      if (raw.length > 0) {
        try {
          requestBody = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new Problem(400, 'RequisicaoInvalida', 'Requisição inválida.', 'O corpo não é JSON.');
        }
      }
      const state = authenticate(req, url);
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (parts[0] !== 'v2') throw new Problem(404, 'NaoEncontrado', 'Não Encontrado', 'Recurso inexistente.');
      let answer: { status: number; body?: unknown; after?: () => void };
      if (parts[1] === 'cob' && parts.length === 3) {
        route = '/cob/{txid}';
        const txid = parts[2]!;
        if (req.method === 'PUT') answer = createCob(state, txid, requestBody);
        else if (req.method === 'PATCH') answer = reviseCob(state, txid, requestBody);
        else if (req.method === 'GET') {
          const cob = state.cobs.get(txid);
          if (!cob) throw new Problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.', 'Cobrança não encontrada para o txid informado.');
          answer = { status: 200, body: structuredClone(cob) };
        } else throw new Problem(405, 'RequisicaoInvalida', 'Método não permitido.', `${req.method} não é aceito aqui.`);
      } else if (parts[1] === 'pix' && parts[3] === 'devolucao' && parts.length === 5) {
        route = '/pix/{e2eid}/devolucao/{id}';
        const [e2eid, id] = [parts[2]!, parts[4]!];
        if (req.method === 'PUT') answer = refund(state, e2eid, id, requestBody);
        else if (req.method === 'GET') {
          const devolucao = findPix(state, e2eid)?.pix.devolucoes?.find((d) => d.id === id);
          if (!devolucao) throw new Problem(404, 'PixDevolucaoNaoEncontrada', 'Devolução não encontrada.', 'Devolução não encontrada para o e2eid e id informados.');
          answer = { status: 200, body: structuredClone(devolucao) };
        } else throw new Problem(405, 'RequisicaoInvalida', 'Método não permitido.', `${req.method} não é aceito aqui.`);
      } else if (parts[1] === 'webhook' && parts.length === 3) {
        route = '/webhook/{chave}';
        answer = webhook(req, state, parts[2]!, requestBody);
      } else {
        throw new Problem(404, 'NaoEncontrado', 'Não Encontrado', 'Recurso inexistente.');
      }
      exchanges.push({ method: req.method ?? '', route, status: answer.status, requestBody, responseBody: answer.body });
      if (answer.body === undefined) {
        res.writeHead(answer.status);
        res.end();
      } else {
        sendJson(res, answer.status, answer.body);
      }
      answer.after?.();
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      exchanges.push({ method: req.method ?? '', route, status: error.status, requestBody, responseBody: error.body() });
      const text = JSON.stringify(error.body());
      res.writeHead(error.status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    }
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { type: `${ERROR_BASE}ErroInternoDoServidor`, title: 'Erro interno', status: 500 });
      else res.end();
    });
  });

  const running = await listen(server, options.port ?? 0, 'https');
  return {
    url: `${running.url}/v2`,
    tokenUrl: `${running.url}/oauth/token`,
    profile,
    async pay(txid) {
      for (const state of states.values()) {
        const cob = state.cobs.get(txid);
        if (!cob) continue;
        if (cob.status !== 'ATIVA') throw new Error(`cob ${txid} is ${cob.status}`);
        if (Date.parse(cob.calendario.criacao) + cob.calendario.expiracao * 1000 <= clock().getTime()) throw new Error(`cob ${txid} has expired`);
        return structuredClone(payCob(state, cob));
      }
      throw new Error(`no cob ${txid}`);
    },
    setRefundOutcome(outcome) {
      refundOutcome = outcome;
    },
    tokensIssued: () => issued,
    exchanges,
    deliveries,
    async close() {
      await Promise.allSettled([...pendingDeliveries]);
      await running.close();
    },
  };
}
