-- One row per authorization attempt made with a card: what the card brands' retry programmes count (declined or
-- failed attempts of the same card in 30 days, src/modules/charges/domain/brandRetryRules.ts). Written as each
-- attempt is answered, whether or not its charge is stored; keyed by the attempt's idempotency key, so that a charge
-- run again after a crash (the providers answer their first result) counts its attempts once.
CREATE TABLE card_authorization_attempts (
  idempotency_key  TEXT PRIMARY KEY,
  client_id        UUID NOT NULL,
  card_fingerprint TEXT NOT NULL,
  card_brand       TEXT NOT NULL,
  charge_id        UUID NOT NULL,
  provider_type    TEXT NOT NULL,
  -- authorized, pending, declined, failed (no answer) or canceled
  outcome          TEXT NOT NULL,
  declined_code    TEXT,
  decision         TEXT,
  attempted_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX card_authorization_attempts_card ON card_authorization_attempts (client_id, card_fingerprint, attempted_at DESC);
