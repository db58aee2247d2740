import type { DeclinedCode } from '../../charges/domain/charge';
import type { HttpAnswer } from '../kit/http';
import { declineOf, isTechnicalDecline } from '../kit/tables';
import { PIX_DECLINES } from './declineTable';

/**
 * The error shapes a bank's API Pix answers, made one failure:
 * - the BCB problem (RFC 7807, schema `Problema`): `{type, title, status, detail?, correlationId?, violacoes?: [{razao, propriedade, valor}]}`;
 * - the token endpoint's OAuth2 error (RFC 6749 5.2): `{error, error_description?}`;
 * - Efí's own shape on some answers: `{nome, mensagem}`.
 * 401 and 403 are final (credentials or permissions to fix, never retried elsewhere as a bank outage); 429 is
 * technical; a 5xx never gets here (the HTTP client throws ProviderUnavailableError). The message never carries
 * the `valor` of a violation (it may echo a key or an amount) nor anything of the request.
 */
export interface PixFailure {
  /** The problem's <Tipo>, the OAuth2 `error`, or `http_<status>`. */
  kind: string;
  declinedCode: DeclinedCode;
  technical: boolean;
  message: string;
}

const ERROR_TYPE = /\/error\/([A-Za-z]+)\/?$/;

function text(value: unknown, max = 300): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : undefined;
}

export function failureOf(answer: HttpAnswer, what: string): PixFailure {
  const body = typeof answer.body === 'object' && answer.body !== null ? (answer.body as Record<string, unknown>) : {};
  let kind: string | undefined;
  const parts: string[] = [];
  const type = text(body.type, 200);
  if (type) {
    kind = ERROR_TYPE.exec(type)?.[1] ?? type;
    for (const piece of [text(body.title), text(body.detail)]) if (piece) parts.push(piece);
    if (Array.isArray(body.violacoes)) {
      for (const violation of body.violacoes.slice(0, 5)) {
        if (typeof violation !== 'object' || violation === null) continue;
        const { razao, propriedade } = violation as Record<string, unknown>;
        const reason = [text(propriedade, 100), text(razao, 200)].filter(Boolean).join(': ');
        if (reason) parts.push(reason);
      }
    }
  } else if (text(body.error, 100)) {
    kind = text(body.error, 100)!;
    parts.push(kind, ...(text(body.error_description) ? [text(body.error_description)!] : []));
  } else if (text(body.nome, 100)) {
    kind = text(body.nome, 100)!;
    parts.push(kind, ...(text(body.mensagem) ? [text(body.mensagem)!] : []));
  }
  const key = kind && PIX_DECLINES[kind] ? kind : `http_${answer.status}`;
  const entry = declineOf(PIX_DECLINES, key);
  const final = answer.status === 401 || answer.status === 403;
  const declinedCode = final && isTechnicalDecline(entry) ? (answer.status === 401 ? 'invalid_merchant' : 'not_permitted') : entry.declinedCode;
  return {
    kind: kind ?? key,
    declinedCode,
    technical: final ? false : isTechnicalDecline(entry),
    message: `${what} answered ${answer.status}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`,
  };
}
