import { ProviderUnavailableError } from '../domain/types';
import type { HttpAnswer } from '../kit/http';

/**
 * Pagar.me's answers that are not a 200 (core API v5, "Erros"):
 * - 400 Bad Request and 422 Unprocessable Entity: the request is wrong, `{message, errors: {"<field path>":
 *   ["<what is wrong>"]}}` ("The request is invalid.", e.g. "order.customer.name": ["The name field is
 *   required."]); 412 Precondition Failed: valid parameters, but the operation could not be done (a capture of
 *   more than was authorized, a refund of a charge already refunded). All final failures.
 * - 401 Unauthorized (invalid API key) and 403 Forbidden (blocked by IP or domain): the credentials are refused,
 *   a final failure (another attempt with the same entry would be refused alike).
 * - 404 Not Found: the resource does not exist (or is another account's).
 * - 429 Too Many Requests: technical, the caller retries or fails over; 5xx and no answer never get here (kit/http
 *   throws ProviderUnavailableError).
 *
 * Messages carry Pagar.me's field paths and texts only, cut short and without anything that looks like a card
 * number or a key: never anything the request carried.
 */

export type PagarmeFailure =
  | { kind: 'credentials'; message: string }
  | { kind: 'request'; message: string }
  | { kind: 'not_found'; message: string };

/** What a card number, a document or a key would look like inside a text Pagar.me echoed back. */
const SECRETS = /\d{11,19}|sk_[A-Za-z0-9_]+|[A-Za-z0-9]{32,}/g;

export function redact(text: string): string {
  return text.replace(SECRETS, '[redacted]').slice(0, 200);
}

function describe(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  const parts: string[] = [];
  if (typeof message === 'string' && message.trim() !== '') parts.push(redact(message.trim()));
  if (typeof errors === 'object' && errors !== null && !Array.isArray(errors)) {
    for (const [field, texts] of Object.entries(errors as Record<string, unknown>).slice(0, 5)) {
      const text = Array.isArray(texts) ? texts.filter((t): t is string => typeof t === 'string').join(' ') : typeof texts === 'string' ? texts : '';
      parts.push(`${redact(field)}: ${redact(text)}`.trim());
    }
  }
  return parts.join('; ').slice(0, 500);
}

/** The failure an answer that is not a 200 means; throws ProviderUnavailableError for the technical ones. */
export function failureOf(answer: HttpAnswer): PagarmeFailure {
  if (answer.status === 401 || answer.status === 403) {
    return { kind: 'credentials', message: `Pagar.me refused the secret key (HTTP ${answer.status})` };
  }
  if (answer.status === 408 || answer.status === 429) {
    throw new ProviderUnavailableError(`Pagar.me did not take the request (HTTP ${answer.status})`);
  }
  const text = describe(answer.body);
  if (answer.status === 404) return { kind: 'not_found', message: `Pagar.me does not know it (HTTP 404)${text ? `: ${text}` : ''}` };
  return { kind: 'request', message: `Pagar.me refused the request (HTTP ${answer.status})${text ? `: ${text}` : ''}` };
}
