CREATE TABLE webhooks (
  id                 UUID PRIMARY KEY,
  -- Breaks ties between webhooks created in the same millisecond, so pages keep insertion order.
  seq                BIGSERIAL NOT NULL,
  client_id          UUID NOT NULL,
  event              TEXT NOT NULL,
  endpoint           TEXT NOT NULL,
  version            DOUBLE PRECISION NOT NULL,
  active             BOOLEAN NOT NULL,
  public_key         TEXT NOT NULL,
  -- The Ed25519 private key (PKCS#8), sealed with AES-256-GCM under WEBHOOKS_SIGNING_KEY.
  sealed_private_key BYTEA NOT NULL,
  created_at         TIMESTAMPTZ NOT NULL,
  updated_at         TIMESTAMPTZ NOT NULL
);

-- The rules of the product, enforced by the database so that two concurrent registrations cannot both pass:
-- one webhook per event and client, and an endpoint is registered once across all webhooks.
CREATE UNIQUE INDEX webhooks_client_event ON webhooks (client_id, event);
CREATE UNIQUE INDEX webhooks_endpoint ON webhooks (endpoint);
CREATE INDEX webhooks_by_client ON webhooks (client_id, created_at, seq);

-- One row per event and webhook it is owed to. The body is kept exactly as first signed, so every attempt sends
-- the same bytes with the same event id.
CREATE TABLE deliveries (
  id              UUID PRIMARY KEY,
  seq             BIGSERIAL NOT NULL,
  client_id       UUID NOT NULL,
  webhook_id      UUID NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id        UUID NOT NULL,
  event           TEXT NOT NULL,
  body            TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  -- Failed attempts since the delivery was (re)started: the position in the retry schedule.
  failures        INTEGER NOT NULL DEFAULT 0,
  -- Bumped by every manual retry; a job of an earlier round finds it changed and leaves the delivery alone.
  round           INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ,
  created_at      TIMESTAMPTZ NOT NULL,
  updated_at      TIMESTAMPTZ NOT NULL,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX deliveries_by_webhook ON deliveries (client_id, webhook_id, created_at DESC, seq DESC);

CREATE TABLE delivery_attempts (
  delivery_id  UUID NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  seq          BIGSERIAL NOT NULL,
  attempted_at TIMESTAMPTZ NOT NULL,
  status_code  INTEGER,
  duration_ms  INTEGER NOT NULL,
  error        TEXT,
  PRIMARY KEY (delivery_id, seq)
);
