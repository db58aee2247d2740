import { ProviderUnavailableError } from '../domain/types';
import type { HttpAnswer } from '../kit/http';

/**
 * Cielo's answers that are not a sale (manual "API E-commerce Cielo", "API codes"):
 * - 400 "Integration errors": an array of `{Code, Message}` ("API Error Codes", e.g. 126 "Credit Card
 *   Expiration Date is invalid"). The request is wrong: a final failure.
 * - 401 (wrong MerchantId/MerchantKey) and 403 (IP restriction): no JSON body; the credentials are refused, a
 *   final failure (another attempt with the same entry would be refused alike).
 * - 404 on a query: the sale does not exist, is another merchant's or older than three months.
 * - 5xx and no answer never get here: kit/http throws ProviderUnavailableError (technical).
 *
 * Messages carry Cielo's code and message only, never anything the request carried (keys, card data).
 */

export interface CieloApiError {
  Code?: number | string;
  Message?: string;
}

export type CieloFailure =
  | { kind: 'credentials'; message: string }
  | { kind: 'request'; message: string; codes: string[] }
  | { kind: 'not_found'; message: string };

/** What a card number or a 40 character key would look like inside a message Cielo echoed back. */
const SECRETS = /\d{12,19}|[A-Za-z0-9]{32,}/g;

/** A text Cielo wrote, cut short and without anything that looks like a card number or a key. */
export function redact(text: string): string {
  return text.replace(SECRETS, '[redacted]').slice(0, 200);
}

export function apiErrorsOf(body: unknown): CieloApiError[] {
  if (Array.isArray(body)) return body.filter((item): item is CieloApiError => typeof item === 'object' && item !== null);
  if (typeof body === 'object' && body !== null && ('Code' in body || 'Message' in body)) return [body as CieloApiError];
  return [];
}

/** The failure an answer that is not a 200/201 means; throws ProviderUnavailableError for the technical ones. */
export function failureOf(answer: HttpAnswer): CieloFailure {
  if (answer.status === 401 || answer.status === 403) {
    return { kind: 'credentials', message: `Cielo refused the MerchantId/MerchantKey (HTTP ${answer.status})` };
  }
  if (answer.status === 404) return { kind: 'not_found', message: 'Cielo does not know this sale (HTTP 404)' };
  if (answer.status === 408 || answer.status === 429) {
    throw new ProviderUnavailableError(`Cielo did not take the request (HTTP ${answer.status})`);
  }
  const errors = apiErrorsOf(answer.body);
  if (errors.length === 0) return { kind: 'request', message: `Cielo refused the request (HTTP ${answer.status})`, codes: [] };
  const codes = errors.map((error) => String(error.Code ?? ''));
  const text = errors.map((error) => `${error.Code ?? '?'} ${redact(String(error.Message ?? ''))}`.trim()).join('; ');
  return { kind: 'request', message: `Cielo refused the request: ${text}`, codes };
}
