import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, readBody, sendJson, type RunningSimulator } from '../http';
import {
  REDE_AUTHORIZATION_RETURNS,
  REDE_FORCED_RETURN_PREFIX,
  REDE_INTEGRATION_RETURNS,
  REDE_REFUND_RETURNS,
  REDE_TOKEN_LIFETIME_SECONDS,
} from './rules';

/**
 * e.Rede on loopback, as its integration manual describes the API since the OAuth 2.0 migration (mandatory from
 * 2026-01-05):
 * - `POST /oauth2/token` (manual: "Autenticação OAuth 2.0"): HTTP Basic with the PV (clientId) and the integration
 *   key (clientSecret), form body `grant_type=client_credentials`; answers `{access_token, token_type, expires_in}`.
 * - `/v2/transactions` with `Authorization: Bearer <access_token>`: `POST` authorizes (capture true or false),
 *   `PUT /{tid}` captures, `POST /{tid}/refunds` cancels or refunds (partially too), `GET /{tid}`,
 *   `GET ?reference=` and `GET /{tid}/refunds` query.
 * Transactions live in memory per PV. A reference is used once per PV, whatever became of its authorization
 * (a second one gets integration return 42). Amounts are integers in centavos, as Rede's.
 */
export interface RedeSimulatorOptions {
  port?: number;
  /** The platform's clock for the simulator: dates in answers, token expiry, same-day refunds. */
  clock?: () => Date;
  /** The merchants it knows: PV (filiação) and integration key (token). */
  accounts: Array<{ pv: string; token: string }>;
  /** Every answer waits this long (a slow provider). */
  latencyMs?: number;
}

export interface RunningRedeSimulator extends RunningSimulator {
  /** Where a connector sends transactions (`REDE_API_URL`). */
  transactionsUrl: string;
  /** Where a connector asks for access tokens (`REDE_OAUTH_URL`). */
  oauthUrl: string;
  /** How many authorizations reached it and created a transaction (a repeated reference creates none). */
  authorizations(): number;
  /** How many access tokens it issued. */
  tokensIssued(): number;
  /** A transaction by its tid, as the simulator holds it (status, capture, refunds), or undefined. */
  transaction(tid: string): { status: 'Approved' | 'Denied' | 'Canceled'; captured: boolean; refunded: number } | undefined;
  /** While on, transaction requests get no answer at all (until turned off or close): a provider that hangs. */
  stall(on: boolean): void;
  /** Changes the latency of every later answer. */
  setLatency(ms: number): void;
}

type RefundStatus = 'Done' | 'Processing';

interface Refund {
  refundId: string;
  amount: number;
  status: RefundStatus;
  requestedAt: Date;
  nsu: string;
}

interface Transaction {
  pv: string;
  tid: string;
  reference: string;
  kind: 'credit' | 'debit';
  amount: number;
  installments: number;
  status: 'Approved' | 'Denied' | 'Canceled';
  returnCode: string;
  returnMessage: string;
  nsu: string;
  authorizationCode?: string;
  dateTime: Date;
  cardBin: string;
  last4: string;
  cardHolderName?: string;
  softDescriptor?: string;
  capture?: { amount: number; nsu: string; dateTime: Date };
  refunds: Refund[];
}

interface Answer {
  status: number;
  body: unknown;
}

const DAY_MS = 86_400_000;

function rede([returnCode, returnMessage]: readonly [string, string]): { returnCode: string; returnMessage: string } {
  return { returnCode, returnMessage };
}

function brandOf(cardNumber: string): string {
  if (cardNumber.startsWith('4')) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(cardNumber)) return 'Mastercard';
  if (/^3[47]/.test(cardNumber)) return 'Amex';
  return 'Elo';
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export async function startRedeSimulator(options: RedeSimulatorOptions): Promise<RunningRedeSimulator> {
  const clock = options.clock ?? (() => new Date());
  let latencyMs = options.latencyMs ?? 0;
  let stalled = false;
  const held = new Set<ServerResponse>();
  const waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  /** The latency before an answer; close() ends every wait at once. */
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          waits.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      waits.add(entry);
    });
  const tokens = new Map<string, { pv: string; expiresAt: number }>();
  const transactions = new Map<string, Transaction>();
  const references = new Map<string, string>();
  let sequence = 0;
  let issued = 0;
  let created = 0;

  const nextNumber = (digits: number) => String(++sequence).padStart(digits, '0');
  const newTid = () => `${clock().toISOString().slice(2, 10).replace(/-/g, '')}${nextNumber(14)}`;
  const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, '-03:00');

  /** Refunds asked on a later day than the capture settle a day after they were asked. */
  const settle = (transaction: Transaction) => {
    const now = clock().getTime();
    for (const refund of transaction.refunds) {
      if (refund.status === 'Processing' && now - refund.requestedAt.getTime() >= DAY_MS) refund.status = 'Done';
    }
    const base = transaction.capture?.amount ?? transaction.amount;
    const done = transaction.refunds.filter((r) => r.status === 'Done').reduce((sum, r) => sum + r.amount, 0);
    if (transaction.status === 'Approved' && done >= base) transaction.status = 'Canceled';
  };

  const links = (tid: string) => [
    { method: 'GET', rel: 'transaction', href: `/v2/transactions/${tid}` },
    { method: 'POST', rel: 'refund', href: `/v2/transactions/${tid}/refunds` },
  ];

  const view = (t: Transaction) => {
    settle(t);
    return {
      requestDateTime: iso(clock()),
      authorization: {
        dateTime: iso(t.dateTime),
        returnCode: t.returnCode,
        returnMessage: t.returnMessage,
        affiliation: Number(t.pv),
        status: t.status,
        reference: t.reference,
        tid: t.tid,
        nsu: t.nsu,
        ...(t.authorizationCode ? { authorizationCode: t.authorizationCode } : {}),
        kind: t.kind,
        amount: t.amount,
        installments: t.installments,
        ...(t.cardHolderName ? { cardHolderName: t.cardHolderName } : {}),
        cardBin: t.cardBin,
        last4: t.last4,
        ...(t.softDescriptor ? { softDescriptor: t.softDescriptor } : {}),
        origin: 1,
        subscription: false,
        brand: { name: brandOf(t.cardBin), returnCode: t.returnCode, returnMessage: t.returnMessage },
      },
      ...(t.capture ? { capture: { dateTime: iso(t.capture.dateTime), nsu: t.capture.nsu, amount: t.capture.amount } } : {}),
      ...(t.refunds.length > 0
        ? { refunds: t.refunds.map((r) => ({ refundId: r.refundId, refundDateTime: iso(r.requestedAt), status: r.status, amount: r.amount })) }
        : {}),
      links: links(t.tid),
    };
  };

  // Manual: "Autorização" (POST /v2/transactions).
  const authorize = (pv: string, body: Record<string, unknown>): Answer => {
    const invalid = (entry: readonly [string, string]): Answer => ({ status: 400, body: rede(entry) });
    const r = REDE_INTEGRATION_RETURNS;
    const { reference, amount, cardNumber, expirationMonth, expirationYear, securityCode, cardholderName, softDescriptor } = body;
    const kind = body.kind ?? 'credit';
    const installments = body.installments ?? 1;
    if (reference === undefined || reference === '') return invalid(r.referenceMissing);
    if (typeof reference !== 'string' || !/^[\w-]+$/.test(reference)) return invalid(r.referenceFormat);
    if (reference.length > 16) return invalid(r.referenceSize);
    if (amount === undefined) return invalid(r.amountMissing);
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) return invalid(r.amountFormat);
    if (cardNumber === undefined || cardNumber === '') return invalid(r.cardNumberMissing);
    if (typeof cardNumber !== 'string' || !/^\d+$/.test(cardNumber)) return invalid(r.cardNumberFormat);
    if (cardNumber.length < 12 || cardNumber.length > 19) return invalid(r.cardNumberSize);
    if (expirationMonth === undefined) return invalid(r.expirationMonthMissing);
    if (typeof expirationMonth !== 'number' || !Number.isInteger(expirationMonth) || expirationMonth < 1 || expirationMonth > 12) {
      return invalid(r.expirationMonthFormat);
    }
    if (expirationYear === undefined) return invalid(r.expirationYearMissing);
    if (typeof expirationYear !== 'number' || !Number.isInteger(expirationYear) || expirationYear < 0) return invalid(r.expirationYearFormat);
    if (securityCode !== undefined) {
      if (typeof securityCode !== 'string' || !/^\d+$/.test(securityCode)) return invalid(r.securityCodeFormat);
      if (securityCode.length < 3 || securityCode.length > 4) return invalid(r.securityCodeSize);
    }
    if (cardholderName !== undefined && (typeof cardholderName !== 'string' || cardholderName.length > 30)) return invalid(r.cardHolderNameSize);
    if (softDescriptor !== undefined && (typeof softDescriptor !== 'string' || softDescriptor.length > 18)) return invalid(r.softDescriptorSize);
    if (kind !== 'credit' && kind !== 'debit') return invalid(r.kindFormat);
    if (typeof installments !== 'number' || !Number.isInteger(installments) || installments < 1) return invalid(r.installmentsFormat);
    if (installments > 12) return invalid(r.installmentsGreater);
    if (kind === 'debit' && installments > 1) return invalid(r.installmentsNotAllowed);
    const capture = body.capture ?? true;
    if (typeof capture !== 'boolean') return invalid(r.captureNotAllowed);
    if (kind === 'debit' && !capture) return invalid(r.captureNotAllowed);

    const key = `${pv}:${reference}`;
    if (references.has(key)) return invalid(r.referenceUsed);

    const forced = cardNumber.startsWith(REDE_FORCED_RETURN_PREFIX) ? cardNumber.slice(REDE_FORCED_RETURN_PREFIX.length) : undefined;
    const returnCode = forced !== undefined && forced in REDE_AUTHORIZATION_RETURNS ? forced : '00';
    const approved = returnCode === '00';
    const now = clock();
    const transaction: Transaction = {
      pv,
      tid: newTid(),
      reference,
      kind,
      amount,
      installments,
      status: approved ? 'Approved' : 'Denied',
      returnCode,
      returnMessage: REDE_AUTHORIZATION_RETURNS[returnCode] ?? 'Success.',
      nsu: nextNumber(9),
      ...(approved ? { authorizationCode: nextNumber(6) } : {}),
      dateTime: now,
      cardBin: cardNumber.slice(0, 6),
      last4: cardNumber.slice(-4),
      ...(typeof cardholderName === 'string' ? { cardHolderName: cardholderName } : {}),
      ...(typeof softDescriptor === 'string' ? { softDescriptor } : {}),
      ...(approved && capture ? { capture: { amount, nsu: nextNumber(9), dateTime: now } } : {}),
      refunds: [],
    };
    created += 1;
    transactions.set(transaction.tid, transaction);
    references.set(key, transaction.tid);
    const answer = {
      reference,
      tid: transaction.tid,
      nsu: transaction.nsu,
      ...(transaction.authorizationCode ? { authorizationCode: transaction.authorizationCode } : {}),
      dateTime: iso(now),
      amount,
      installments,
      cardBin: transaction.cardBin,
      last4: transaction.last4,
      brand: { name: brandOf(cardNumber), returnCode, returnMessage: transaction.returnMessage },
      returnCode,
      returnMessage: transaction.returnMessage,
      links: links(transaction.tid),
    };
    return { status: approved ? 201 : 402, body: answer };
  };

  // Manual: "Captura" (PUT /v2/transactions/{tid}).
  const capture = (transaction: Transaction, body: Record<string, unknown>): Answer => {
    const r = REDE_INTEGRATION_RETURNS;
    const amount = body.amount;
    if (amount === undefined) return { status: 400, body: rede(r.amountMissing) };
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) return { status: 400, body: rede(r.amountFormat) };
    if (transaction.status !== 'Approved' || transaction.capture) return { status: 400, body: rede(r.operationNotAllowed) };
    const canceled = transaction.refunds.reduce((sum, x) => sum + x.amount, 0);
    if (amount > transaction.amount - canceled) return { status: 400, body: rede(r.amountExceedsAuthorized) };
    const now = clock();
    transaction.capture = { amount, nsu: nextNumber(9), dateTime: now };
    return {
      status: 200,
      body: {
        reference: transaction.reference,
        tid: transaction.tid,
        nsu: transaction.capture.nsu,
        authorizationCode: transaction.authorizationCode,
        dateTime: iso(now),
        ...rede(['00', 'Success.']),
        links: links(transaction.tid),
      },
    };
  };

  // Manual: "Cancelamento" (POST /v2/transactions/{tid}/refunds): of an uncaptured authorization or of a capture.
  const refund = (transaction: Transaction, body: Record<string, unknown>): Answer => {
    settle(transaction);
    const amount = body.amount;
    if (amount === undefined) return { status: 400, body: rede(REDE_INTEGRATION_RETURNS.amountMissing) };
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) return { status: 400, body: rede(REDE_INTEGRATION_RETURNS.amountFormat) };
    if (transaction.status === 'Canceled') return { status: 400, body: rede(REDE_REFUND_RETURNS.alreadyCanceled) };
    if (transaction.status !== 'Approved') return { status: 400, body: rede(REDE_INTEGRATION_RETURNS.operationNotAllowed) };
    const base = transaction.capture?.amount ?? transaction.amount;
    const refunded = transaction.refunds.reduce((sum, r) => sum + r.amount, 0);
    if (refunded + amount > transaction.amount) return { status: 400, body: rede(REDE_REFUND_RETURNS.greaterThanTransaction) };
    if (refunded + amount > base) return { status: 400, body: rede(REDE_REFUND_RETURNS.greaterThanAvailable) };
    const now = clock();
    const sameDay = !transaction.capture || transaction.capture.dateTime.toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
    const entry: Refund = { refundId: randomUUID(), amount, status: sameDay ? 'Done' : 'Processing', requestedAt: now, nsu: nextNumber(9) };
    transaction.refunds.push(entry);
    settle(transaction);
    return {
      status: sameDay ? 201 : 202,
      body: {
        refundDateTime: iso(now),
        refundId: entry.refundId,
        tid: transaction.tid,
        nsu: entry.nsu,
        ...rede(sameDay ? REDE_REFUND_RETURNS.done : REDE_REFUND_RETURNS.requested),
        links: links(transaction.tid),
      },
    };
  };

  const notFound: Answer = { status: 404, body: rede(REDE_INTEGRATION_RETURNS.transactionDoesNotExist) };

  const route = (pv: string, method: string, url: URL, body: Record<string, unknown>): Answer => {
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/v2/transactions') {
      if (method === 'POST') return authorize(pv, body);
      if (method === 'GET') {
        const reference = url.searchParams.get('reference');
        const tid = reference ? references.get(`${pv}:${reference}`) : undefined;
        const found = tid ? transactions.get(tid) : undefined;
        return found ? { status: 200, body: view(found) } : notFound;
      }
      return { status: 405, body: rede(REDE_INTEGRATION_RETURNS.operationNotAllowed) };
    }
    const match = /^\/v2\/transactions\/([^/]+)(\/refunds)?$/.exec(path);
    if (!match) return { status: 404, body: { returnCode: '404', returnMessage: 'Not Found' } };
    const tid = decodeURIComponent(match[1]!);
    if (!/^\d+$/.test(tid)) return { status: 400, body: rede(REDE_INTEGRATION_RETURNS.tidFormat) };
    const transaction = transactions.get(tid);
    const owned = transaction && transaction.pv === pv ? transaction : undefined;
    if (match[2]) {
      if (!owned) return { status: 404, body: rede(method === 'POST' ? REDE_REFUND_RETURNS.notFound : REDE_INTEGRATION_RETURNS.transactionDoesNotExist) };
      if (method === 'POST') return refund(owned, body);
      settle(owned);
      return {
        status: 200,
        body: {
          refunds: owned.refunds.map((r) => ({ refundId: r.refundId, refundDateTime: iso(r.requestedAt), status: r.status, amount: r.amount })),
          links: links(owned.tid),
        },
      };
    }
    if (!owned) return notFound;
    if (method === 'GET') return { status: 200, body: view(owned) };
    if (method === 'PUT') return capture(owned, body);
    return { status: 405, body: rede(REDE_INTEGRATION_RETURNS.operationNotAllowed) };
  };

  // Manual: "Autenticação OAuth 2.0".
  const token = (req: IncomingMessage, raw: Buffer): Answer => {
    const header = req.headers.authorization ?? '';
    const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const pv = colon > 0 ? decoded.slice(0, colon) : '';
    const secret = colon > 0 ? decoded.slice(colon + 1) : '';
    const account = options.accounts.find((a) => safeEqual(a.pv, pv) && safeEqual(a.token, secret));
    if (!account) return { status: 401, body: { error: 'invalid_client', error_description: 'Bad client credentials' } };
    const form = new URLSearchParams(raw.toString('utf8'));
    if (form.get('grant_type') !== 'client_credentials') {
      return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' } };
    }
    const accessToken = randomBytes(32).toString('base64url');
    tokens.set(accessToken, { pv: account.pv, expiresAt: clock().getTime() + REDE_TOKEN_LIFETIME_SECONDS * 1000 });
    issued += 1;
    return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: REDE_TOKEN_LIFETIME_SECONDS, scope: 'erede' } };
  };

  const bearer = (req: IncomingMessage): string | undefined => {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Bearer ')) return undefined;
    const entry = tokens.get(header.slice(7));
    if (!entry || entry.expiresAt <= clock().getTime()) return undefined;
    return entry.pv;
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    let result: Answer;
    if (url.pathname === '/oauth2/token' && req.method === 'POST') {
      result = token(req, raw);
    } else {
      const pv = bearer(req);
      if (!pv) {
        res.setHeader('www-authenticate', 'Bearer error="invalid_token"');
        result = { status: 401, body: { error: 'invalid_token', error_description: 'The access token is missing, invalid or expired' } };
      } else {
        if (stalled) {
          held.add(res);
          res.on('close', () => held.delete(res));
          return;
        }
        let body: Record<string, unknown> = {};
        const contentType = req.headers['content-type'] ?? '';
        if (raw.length > 0 && !contentType.includes('application/json')) {
          result = { status: 400, body: rede(REDE_INTEGRATION_RETURNS.invalidContentType) };
        } else {
          let parsed: unknown = {};
          try {
            parsed = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : {};
          } catch {
            parsed = undefined;
          }
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
            result = { status: 400, body: rede(REDE_INTEGRATION_RETURNS.invalidJson) };
          } else {
            body = parsed as Record<string, unknown>;
            result = route(pv, req.method ?? 'GET', url, body);
          }
        }
      }
    }
    if (latencyMs > 0) await wait(latencyMs);
    if (!res.destroyed) sendJson(res, result.status, result.body);
  };

  const server = createServer((req, res) => {
    answer(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { returnCode: '899', returnMessage: 'Unsuccessful. Please contact Rede.' });
    });
  });
  const running = await listen(server, options.port ?? 0);
  return {
    ...running,
    transactionsUrl: `${running.url}/v2/transactions`,
    oauthUrl: `${running.url}/oauth2/token`,
    authorizations: () => created,
    tokensIssued: () => issued,
    transaction: (tid) => {
      const t = transactions.get(tid);
      return t ? { status: t.status, captured: t.capture !== undefined, refunded: t.refunds.reduce((sum, r) => sum + r.amount, 0) } : undefined;
    },
    stall(on) {
      stalled = on;
      if (!on) for (const res of held) res.destroy();
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    close: async () => {
      for (const res of held) res.destroy();
      for (const entry of waits) {
        clearTimeout(entry.timer);
        entry.resolve();
      }
      waits.clear();
      await running.close();
    },
  };
}
