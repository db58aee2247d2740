import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AuthorizeRequest, AuthorizeResult, QueryResult } from '../domain/types';
import { ProviderOutcomeUnknownError, ProviderUnavailableError } from '../domain/types';
import { statusOf } from '../kit/tables';
import { brCodeProblems } from './brcode';
import { COB_STATUS } from './statusTable';

/** API Pix v2.9.0, schema `TxId`: 26 to 35 letters and digits, chosen by the receiver (PUT /cob/{txid}). */
export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;
/** Schema `DevolucaoId`: 1 to 35 letters and digits, chosen by the receiver. */
export const DEVOLUCAO_ID_PATTERN = /^[a-zA-Z0-9]{1,35}$/;
/** Schema `EndToEndId`. */
export const E2EID_PATTERN = /^[a-zA-Z0-9]{32}$/;
const AMOUNT_PATTERN = /^\d{1,10}\.\d{2}$/;

/**
 * The cob's txid: 32 hex digits derived from the charge id, so every attempt of the same charge at a bank (a
 * retry after a timeout, a repeated request) names the same cob instead of making a second one.
 */
export function txidFor(chargeId: string): string {
  const txid = createHash('sha256').update(`pix-cob:${chargeId}`).digest('hex').slice(0, 32);
  if (!TXID_PATTERN.test(txid)) throw new Error('derived txid does not match the TxId schema');
  return txid;
}

/** A refund's id (schema `DevolucaoId`), derived from the request's idempotency key: the same refund asked twice is one devolução. */
export function devolucaoIdFor(idempotencyKey: string): string {
  const id = createHash('sha256').update(`pix-devolucao:${idempotencyKey}`).digest('hex').slice(0, 32);
  if (!DEVOLUCAO_ID_PATTERN.test(id)) throw new Error('derived devolução id does not match the DevolucaoId schema');
  return id;
}

export function isTxid(value: string): boolean {
  return TXID_PATTERN.test(value);
}

/**
 * Centavos (the platform's integers) to the API's decimal string with two places ("10.00" for 1000): schema
 * `CobValor.original` and `DevolucaoSolicitada.valor`, pattern `\d{1,10}\.\d{2}`.
 */
export function centavosToDecimal(amount: number): string {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError('amount must be a non-negative integer of centavos');
  const text = `${Math.trunc(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;
  if (!AMOUNT_PATTERN.test(text)) throw new RangeError('amount is too large for the API Pix');
  return text;
}

/** The API's decimal string back to centavos ("110.00" -> 11000), without floating point. */
export function decimalToCentavos(text: string): number {
  const match = /^(\d{1,10})\.(\d{2})$/.exec(text.trim());
  if (!match) throw new ProviderUnavailableError('the bank answered an amount that is not \\d{1,10}.\\d{2}');
  return Number(match[1]) * 100 + Number(match[2]);
}

/** Schemas `PessoaFisica` / `PessoaJuridica`: the cob's `devedor`, a CPF or a CNPJ, never both, always with the name. */
export type Devedor = { cpf: string; nome: string } | { cnpj: string; nome: string };

/** Schema `CobSolicitada` (PUT /cob/{txid}, request body `CobBody`). */
export interface CobRequest {
  calendario: { expiracao: number };
  devedor?: Devedor;
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
}

/** Schema `Nome` of `PessoaFisica` / `PessoaJuridica`: at most 200 characters. */
const NOME_MAX = 200;

/**
 * The Receita Federal's check digits (modulus 11) of a CPF (11 digits) or a CNPJ (14 characters, digits or, for
 * the alphanumeric CNPJ, capital letters in the first 12, each worth its character code less 48).
 */
function checkDigitsHold(document: string, weights: (length: number) => number[]): boolean {
  const values = [...document].map((c) => c.charCodeAt(0) - 48);
  for (const length of [document.length - 2, document.length - 1]) {
    const sum = weights(length).reduce((total, weight, i) => total + weight * values[i]!, 0);
    const rest = sum % 11;
    if (values[length] !== (rest < 2 ? 0 : 11 - rest)) return false;
  }
  return true;
}

const cpfWeights = (length: number) => Array.from({ length }, (_, i) => length + 1 - i);
const cnpjWeights = (length: number) => Array.from({ length }, (_, i) => ((length - 1 - i) % 8) + 2);

export function isCpf(value: string): boolean {
  return /^\d{11}$/.test(value) && !/^(\d)\1{10}$/.test(value) && checkDigitsHold(value, cpfWeights);
}

export function isCnpj(value: string): boolean {
  return /^[0-9A-Z]{12}\d{2}$/.test(value) && !/^(\d)\1{13}$/.test(value) && checkDigitsHold(value, cnpjWeights);
}

/**
 * Who the cob is addressed to (schema `CobSolicitada.devedor`), from the charge's payer: `{cpf, nome}` for a CPF of
 * 11 digits, `{cnpj, nome}` for a CNPJ of 14 characters, the name cut at 200 characters. The document requires the
 * name with either, so there is none without a name; nor for another kind of document, or a number whose check
 * digits do not hold (the bank would refuse the whole cob for it).
 */
export function devedorOf(payer: AuthorizeRequest['payer']): Devedor | undefined {
  const nome = payer?.name?.trim().slice(0, NOME_MAX);
  const type = payer?.document?.type.trim().toLowerCase();
  const number = payer?.document?.number.trim().toUpperCase();
  if (!nome || !type || !number) return undefined;
  if (type === 'cpf' && isCpf(number)) return { cpf: number, nome };
  if (type === 'cnpj' && isCnpj(number)) return { cnpj: number, nome };
  return undefined;
}

/**
 * The charge as a cob (API Pix v2.9.0, "Cob > Criar cobrança imediata", PUT /cob/{txid}): `calendario.expiracao`
 * in seconds from the charge's pix.expiresIn (3600 when not given), `devedor` the payer when the charge names one
 * with a CPF or a CNPJ and a name (devedorOf), `valor.original` the amount converted from centavos to the decimal
 * string, `chave` the receiver's key, `solicitacaoPagador` the statement descriptor (at most 140 characters, as
 * pacs.008's RemittanceInformation).
 */
export function toCobRequest(request: AuthorizeRequest, pixKey: string): CobRequest {
  const expiracao = request.pix?.expiresIn ?? 3600;
  if (!Number.isSafeInteger(expiracao) || expiracao <= 0 || expiracao > 2_147_483_647) throw new RangeError('pix.expiresIn must be a positive whole number of seconds');
  const descriptor = request.statementDescriptor?.trim();
  const devedor = devedorOf(request.payer);
  return {
    calendario: { expiracao },
    ...(devedor ? { devedor } : {}),
    valor: { original: centavosToDecimal(request.amount) },
    chave: pixKey,
    ...(descriptor ? { solicitacaoPagador: descriptor.slice(0, 140) } : {}),
  };
}

const devolucaoAnswer = z.looseObject({
  id: z.string(),
  valor: z.string(),
  status: z.string(),
  motivo: z.string().optional(),
});

export type DevolucaoAnswer = z.infer<typeof devolucaoAnswer>;

const pixAnswer = z.looseObject({
  endToEndId: z.string(),
  txid: z.string().optional(),
  valor: z.string(),
  horario: z.string().optional(),
  devolucoes: z.array(devolucaoAnswer).optional(),
});

export type PixAnswer = z.infer<typeof pixAnswer>;

/** Schemas `CobGerada` / `CobCompleta`: what the connector reads of them. */
const cobAnswer = z.looseObject({
  txid: z.string(),
  status: z.string(),
  calendario: z.looseObject({ criacao: z.string(), expiracao: z.number().int().optional() }),
  valor: z.looseObject({ original: z.string() }),
  chave: z.string().optional(),
  location: z.string().optional(),
  loc: z.looseObject({ location: z.string().optional() }).optional(),
  pixCopiaECola: z.string().optional(),
  pix: z.array(pixAnswer).optional(),
});

export type CobAnswer = z.infer<typeof cobAnswer>;

export function parseCob(body: unknown): CobAnswer {
  const parsed = cobAnswer.safeParse(body);
  if (!parsed.success) throw new ProviderUnavailableError(`the bank answered a cob that is not the API Pix's CobCompleta (${parsed.error.issues[0]?.path.join('.') ?? ''})`);
  return parsed.data;
}

/**
 * The answer to PUT /cob/{txid} that said it made the cob (200, 201): a body that is not a cob (empty, an HTML page
 * of a proxy, another shape) tells nothing of whether the cob exists, so the outcome is unknown and the cob is
 * looked up by its txid, never taken for a failure of the bank.
 */
export function parseCreatedCob(body: unknown): CobAnswer {
  try {
    return parseCob(body);
  } catch (error) {
    throw new ProviderOutcomeUnknownError(`PUT /cob/{txid} answered a body that is not a cob: ${(error as Error).message}`, { cause: error });
  }
}

export function parseDevolucao(body: unknown): DevolucaoAnswer {
  const parsed = devolucaoAnswer.safeParse(body);
  if (!parsed.success) throw new ProviderUnavailableError('the bank answered a devolução that is not the API Pix\'s Devolucao');
  return parsed.data;
}

/** When the cob can no longer be paid: `calendario.criacao + calendario.expiracao` (86400 when absent, the schema's default). */
export function expiresAt(cob: CobAnswer): Date {
  const created = Date.parse(cob.calendario.criacao);
  if (Number.isNaN(created)) throw new ProviderUnavailableError('the bank answered a cob whose calendario.criacao is not a date');
  return new Date(created + (cob.calendario.expiracao ?? 86400) * 1000);
}

/**
 * A created cob as the charge's answer: pending until the payer pays, with the BR Code ("Pix Copia e Cola") the
 * QR code encodes, once it is checked (TLV fields, field 26's GUI and location, amount, CRC16). A bank's BR Code
 * that does not check is never shown to a payer: the bank counts as failing and the charge moves on.
 * No image URL: the API Pix gives the payload, not an image.
 */
export function toAuthorizeResult(cob: CobAnswer, expected: CobRequest): AuthorizeResult {
  const code = cob.pixCopiaECola;
  if (!code) throw new ProviderUnavailableError('the bank answered a cob without pixCopiaECola');
  const location = cob.location ?? cob.loc?.location;
  const problems = brCodeProblems(code, { amount: expected.valor.original, ...(location ? { location } : {}) });
  if (problems.length > 0) throw new ProviderUnavailableError(`the bank answered a BR Code that does not check: ${problems.join('; ')}`);
  if (cob.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || cob.status === 'REMOVIDA_PELO_PSP') {
    return { status: 'canceled', transactionId: cob.txid, message: `the cob is ${cob.status}` };
  }
  return { status: 'pending', transactionId: cob.txid, pix: { qrCodeData: code, qrCodeImageUrl: '', expiresAt: expiresAt(cob) } };
}

/** The same cob asked for again (a repeated PUT): the same amount to the same key. */
export function sameCob(cob: CobAnswer, expected: CobRequest): boolean {
  return cob.valor.original === expected.valor.original && (cob.chave === undefined || cob.chave === expected.chave);
}

/**
 * GET /cob/{txid} (schema `CobCompleta`) as the charge's status: ATIVA is pending until `criacao + expiracao`,
 * then canceled (the record stays ATIVA, "não guarda relação com o fato de a cobrança encontrar-se expirada");
 * CONCLUIDA is authorized with what the `pix[]` received; the devoluções of those Pix: DEVOLVIDO counts as
 * refunded (all of it: voided), EM_PROCESSAMENTO makes it refund_pending, NAO_REALIZADO counts for nothing.
 */
export function toQueryResult(cob: CobAnswer, now: Date): QueryResult {
  const status = statusOf(COB_STATUS, cob.status);
  if (status === undefined) return { found: true, providerStatus: cob.status };
  if (cob.status === 'ATIVA') {
    if (expiresAt(cob).getTime() <= now.getTime()) return { found: true, status: 'canceled', providerStatus: 'ATIVA (expirada)' };
    return { found: true, status: 'pending', providerStatus: 'ATIVA' };
  }
  if (cob.status !== 'CONCLUIDA') return { found: true, status, providerStatus: cob.status };
  const received = (cob.pix ?? []).reduce((sum, p) => sum + decimalToCentavos(p.valor), 0);
  const devolucoes = (cob.pix ?? []).flatMap((p) => p.devolucoes ?? []);
  const refunded = devolucoes.filter((d) => d.status === 'DEVOLVIDO').reduce((sum, d) => sum + decimalToCentavos(d.valor), 0);
  const processing = devolucoes.some((d) => d.status === 'EM_PROCESSAMENTO');
  const charge = processing ? 'refund_pending' : received > 0 && refunded >= received ? 'voided' : 'authorized';
  return {
    found: true,
    status: charge,
    providerStatus: processing ? 'CONCLUIDA (devolução EM_PROCESSAMENTO)' : refunded > 0 ? `CONCLUIDA (devolvido ${centavosToDecimal(refunded)})` : 'CONCLUIDA',
    ...(received > 0 ? { capturedAmount: received } : {}),
    ...(refunded > 0 ? { refundedAmount: refunded } : {}),
  };
}

/** Schema `DevolucaoSolicitada` (PUT /pix/{e2eid}/devolucao/{id}): the amount in the decimal string, natureza ORIGINAL (a common Pix, MD06). */
export function toDevolucaoRequest(amount: number): { valor: string; natureza: 'ORIGINAL' } {
  return { valor: centavosToDecimal(amount), natureza: 'ORIGINAL' };
}

/** What of a received Pix can still be refunded: its value less the devoluções not NAO_REALIZADO. */
export function refundable(pix: PixAnswer): number {
  const taken = (pix.devolucoes ?? []).filter((d) => d.status !== 'NAO_REALIZADO').reduce((sum, d) => sum + decimalToCentavos(d.valor), 0);
  return decimalToCentavos(pix.valor) - taken;
}
