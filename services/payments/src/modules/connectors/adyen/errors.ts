import { ProviderUnavailableError } from '../domain/types';

/**
 * What the Adyen library throws, as a failure (manual: "Response handling", "Error codes"; Checkout v72's
 * ServiceError `{status, errorCode, message, errorType, pspReference}`):
 * - 401 (`errorCode` 000, a wrong API key) and 403 (901 "Invalid Merchant Account", or a key without the role):
 *   the credentials are refused; a final failure.
 * - 400 and 422 (`errorType` validation: "101 Invalid card number", "14_012 The provided amount is invalid", ...):
 *   the request is wrong; a final failure.
 * - 404: Adyen does not know the payment (a modification of an unknown pspReference).
 * - 429 and 5xx, no answer, a refused connection, a request aborted at its deadline: technical
 *   (ProviderUnavailableError), so the charge moves on to its next provider.
 * Messages carry Adyen's status, error code and message only, never what the request carried (the API key, card
 * data): the library's own messages are not repeated, and Adyen's are cut short and stripped of anything that looks
 * like a card number or a key.
 */

export type AdyenFailure =
  | { kind: 'credentials'; status: number; message: string }
  | { kind: 'request'; status: number; errorCode?: string; message: string }
  | { kind: 'not_found'; status: number; message: string };

/** What a card number or a long key would look like inside a message Adyen echoed back. */
const SECRETS = /\d{12,19}|[A-Za-z0-9+/=_-]{32,}/g;

/** A text Adyen wrote, cut short and without anything that looks like a card number or a key. */
export function redact(text: string): string {
  return text.replace(SECRETS, '[redacted]').slice(0, 200);
}

interface ThrownByLibrary {
  statusCode?: unknown;
  errorCode?: unknown;
  apiError?: { status?: unknown; errorCode?: unknown; message?: unknown; errorType?: unknown };
  responseBody?: unknown;
  name?: unknown;
}

function serviceErrorOf(thrown: ThrownByLibrary): { status?: number; errorCode?: string; message?: string } {
  const api = thrown.apiError;
  const parsed = (() => {
    if (api) return api;
    if (typeof thrown.responseBody !== 'string') return undefined;
    try {
      return JSON.parse(thrown.responseBody) as ThrownByLibrary['apiError'];
    } catch {
      return undefined;
    }
  })();
  const status = typeof parsed?.status === 'number' ? parsed.status : typeof thrown.statusCode === 'number' ? thrown.statusCode : undefined;
  return {
    ...(status !== undefined ? { status } : {}),
    ...(typeof parsed?.errorCode === 'string' ? { errorCode: parsed.errorCode } : typeof thrown.errorCode === 'string' ? { errorCode: thrown.errorCode } : {}),
    ...(typeof parsed?.message === 'string' ? { message: parsed.message } : {}),
  };
}

/**
 * The failure of an error the library threw for a request; throws ProviderUnavailableError for the technical
 * ones (no status: the request never got an answer).
 */
export function failureOf(error: unknown, operation: string): AdyenFailure {
  const thrown = (typeof error === 'object' && error !== null ? error : {}) as ThrownByLibrary;
  const { status, errorCode, message } = serviceErrorOf(thrown);
  if (status === undefined || status === 0) {
    throw new ProviderUnavailableError(`Adyen ${operation} got no answer${thrown.name === 'AbortError' ? ' (aborted)' : ''}`);
  }
  if (status === 429 || status === 408 || status >= 500) {
    throw new ProviderUnavailableError(`Adyen ${operation} answered HTTP ${status}${errorCode ? ` (${errorCode})` : ''}`);
  }
  const said = `${errorCode ? `${errorCode} ` : ''}${message ? redact(message) : ''}`.trim();
  if (status === 401 || status === 403) {
    return { kind: 'credentials', status, message: `Adyen refused the API key or merchant account (HTTP ${status}${said ? `, ${said}` : ''})` };
  }
  if (status === 404) return { kind: 'not_found', status, message: `Adyen does not know this payment (HTTP 404${said ? `, ${said}` : ''})` };
  return { kind: 'request', status, ...(errorCode ? { errorCode } : {}), message: `Adyen refused the ${operation} (HTTP ${status}${said ? `, ${said}` : ''})` };
}
