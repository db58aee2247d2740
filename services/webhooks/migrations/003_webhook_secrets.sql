-- The Standard Webhooks symmetric secret of each webhook (the 32 bytes behind "whsec_"), sealed with AES-256-GCM
-- under a key derived from WEBHOOKS_SIGNING_KEY for secrets only (see src/signing/keySealer.ts). Sealing needs that
-- key, so rows from before this migration are left NULL here and given a secret by the service when it starts.
ALTER TABLE webhooks
  ADD COLUMN sealed_secret BYTEA,
  -- The secret a rotation replaced: deliveries are signed with it too until previous_secret_expires_at.
  ADD COLUMN sealed_previous_secret BYTEA,
  ADD COLUMN previous_secret_expires_at TIMESTAMPTZ,
  ADD CONSTRAINT webhooks_previous_secret_expiry CHECK ((sealed_previous_secret IS NULL) = (previous_secret_expires_at IS NULL));

-- What the start-up backfill looks for; empty once every webhook has a secret.
CREATE INDEX webhooks_without_secret ON webhooks (seq) WHERE sealed_secret IS NULL;
