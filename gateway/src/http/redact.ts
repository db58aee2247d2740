/**
 * Values shaped like credentials, found in text a caller chose (a path, a header) before it is logged. A caller can
 * paste a key anywhere: as a path id, as X-Client-Id or X-Idempotency-Key, after `Bearer`. Recognised by their
 * prefixes (settings' API keys `sk_live_...`/`pk_sandbox_...`, sessions' `sk_session_...`, webhooks' `whsec_...`),
 * and otherwise by looking random: a long run of letters and digits mixed. UUIDs (the ids of every resource) and
 * words joined by dashes (`registration-reviews`) are kept, so a line still says which resource a request named.
 */
const KEY_PREFIX = /^((?:sk|pk)_(?:sandbox|live|session|test)_|sk_session_|whsec_)/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Runs of the characters keys are written with (base64, base64url, hex); the rest (`/`, spaces, `.`, `:`) splits them. */
const CANDIDATE = /[A-Za-z0-9_+=-]{16,}/g;
/** Shorter than this, a run that mixes letters and digits is an id or a word, not a secret. */
const RANDOM_MIN_LENGTH = 24;

export const REDACTED = '[REDACTED]';

function looksRandom(run: string): boolean {
  if (run.length < RANDOM_MIN_LENGTH || UUID.test(run)) return false;
  const digits = (run.match(/[0-9]/g) ?? []).length;
  const letters = (run.match(/[A-Za-z]/g) ?? []).length;
  // Words joined by - or _ have few digits; a random token has digits and letters throughout.
  return digits >= 3 && letters >= 3;
}

function redactRun(run: string): string {
  const prefix = KEY_PREFIX.exec(run);
  if (prefix) return `${prefix[1]}${REDACTED}`;
  return looksRandom(run) ? REDACTED : run;
}

/** The text with every key-shaped value replaced (a known prefix kept, so the line still says what it was). */
export function redactSecrets(text: string): string {
  return text.replace(CANDIDATE, redactRun);
}

/** Whether a value holds anything `redactSecrets` would replace. */
export function holdsSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}
