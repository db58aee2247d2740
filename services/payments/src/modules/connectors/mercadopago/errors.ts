import { MercadoPagoError, MPConnectionError } from 'mercadopago';
import { ProviderUnavailableError } from '../domain/types';

/**
 * Mercado Pago's answers that are not a resource (API reference, "Errors"): the body
 * `{message, error, status, cause: [{code, description, data}]}`, which the SDK throws as a MercadoPagoError
 * with `status`, `error` and `causes`.
 * - 400 (and 409, 422): the request is wrong (e.g. 2006 "Card Token not found", 4037 "Invalid
 *   transaction_amount", 4050 "payer.email must be a valid email"): a final failure.
 * - 401 and 403: the access token is refused: a final failure (another attempt with the same entry is refused alike).
 * - 404: the payment does not exist or is another seller's.
 * - 408, 423 (an idempotency key still locked), 424, 429, 5xx and no answer (MPConnectionError): technical,
 *   ProviderUnavailableError, so the charge moves on.
 *
 * Messages carry Mercado Pago's codes and descriptions only, never what the request carried (the access token,
 * card data).
 */

export type MercadoPagoFailure =
  | { kind: 'credentials'; message: string }
  | { kind: 'request'; message: string; codes: string[] }
  | { kind: 'not_found'; message: string };

/** What a card number or an access token would look like inside a text Mercado Pago echoed back. */
const SECRETS = /\d{12,19}|(APP_USR|TEST)-[A-Za-z0-9-]+|[A-Za-z0-9]{32,}/g;

/** A text Mercado Pago wrote, cut short and without anything that looks like a card number or a key. */
export function redact(text: string): string {
  return text.replace(SECRETS, '[redacted]').slice(0, 200);
}

const TECHNICAL = new Set([408, 423, 424, 429]);

/** The failure an error of the SDK means; throws ProviderUnavailableError for the technical ones. */
export function failureOf(error: unknown, operation: string): MercadoPagoFailure {
  if (error instanceof ProviderUnavailableError) throw error;
  if (error instanceof MPConnectionError) {
    throw new ProviderUnavailableError(`Mercado Pago did not answer ${operation} (${error.message === 'This operation was aborted' ? 'timed out' : 'connection failed'})`);
  }
  if (!(error instanceof MercadoPagoError)) {
    throw new ProviderUnavailableError(`Mercado Pago ${operation} failed: ${error instanceof Error ? error.name : 'unknown error'}`);
  }
  const status = error.status;
  if (status >= 500 || TECHNICAL.has(status)) throw new ProviderUnavailableError(`Mercado Pago did not take ${operation} (HTTP ${status})`);
  if (status === 401 || status === 403) return { kind: 'credentials', message: `Mercado Pago refused the access token (HTTP ${status})` };
  if (status === 404) return { kind: 'not_found', message: `Mercado Pago does not know this payment (HTTP 404)` };
  const causes = Array.isArray(error.causes) ? error.causes : [];
  const codes = causes.map((cause) => String((cause as { code?: unknown }).code ?? ''));
  const described = causes
    .map((cause) => {
      const { code, description } = cause as { code?: unknown; description?: unknown };
      return `${String(code ?? '?')} ${redact(String(description ?? ''))}`.trim();
    })
    .join('; ');
  const text = described || redact(error.message);
  return { kind: 'request', message: `Mercado Pago refused ${operation} (HTTP ${status})${text ? `: ${text}` : ''}`, codes };
}
