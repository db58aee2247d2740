import { ProviderUnavailableError } from '../domain/types';
import type { HttpAnswer } from '../kit/http';

/**
 * e.Rede's answers outside success (manual: "Códigos de retorno" and "Status HTTP"): the transaction API answers
 * `{returnCode, returnMessage}` with 400 (integration return), 402 (declined), 404 (not found) or 401/403 (the
 * bearer token or the PV is refused); the OAuth endpoint answers RFC 6749's `{error, error_description}`. A 5xx
 * never gets here (kit/http throws ProviderUnavailableError for it).
 */
export interface RedeReturn {
  returnCode?: string;
  returnMessage?: string;
}

interface OAuthError {
  error?: string;
  error_description?: string;
}

/** The credentials were refused: the PV and integration key are wrong or not enabled for the API. */
export class RedeCredentialsRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedeCredentialsRefusedError';
  }
}

function objectOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Rede's `{returnCode, returnMessage}`, wherever the answer carries it (top level or under `authorization`). */
export function returnOf(answer: HttpAnswer): RedeReturn {
  const body = objectOf(answer.body);
  const code = body.returnCode ?? objectOf(body.authorization).returnCode;
  const message = body.returnMessage ?? objectOf(body.authorization).returnMessage;
  return {
    ...(typeof code === 'string' || typeof code === 'number' ? { returnCode: String(code) } : {}),
    ...(typeof message === 'string' ? { returnMessage: message.slice(0, 200) } : {}),
  };
}

/**
 * Throws for what is not an answer about the transaction: 429 (Rede is limiting requests: technical, another
 * provider may take the charge) and 401/403 (the credentials: final). Never repeats the request's content.
 */
export function checkAnswer(answer: HttpAnswer): void {
  if (answer.status === 429) throw new ProviderUnavailableError('e.Rede is limiting requests (HTTP 429)');
  if (answer.status === 401 || answer.status === 403) {
    const body = objectOf(answer.body) as OAuthError & RedeReturn;
    const code = body.returnCode ?? body.error ?? `http_${answer.status}`;
    throw new RedeCredentialsRefusedError(`e.Rede refused the credentials (HTTP ${answer.status}, ${String(code).slice(0, 60)})`);
  }
}

/** A failure message for an answer that carries a Rede return (or none). */
export function describeReturn(answer: HttpAnswer, meaning?: string): string {
  const { returnCode, returnMessage } = returnOf(answer);
  if (!returnCode) return `e.Rede answered HTTP ${answer.status} without a return code`;
  return `e.Rede ${returnCode}: ${meaning ?? returnMessage ?? 'no message'}`;
}
