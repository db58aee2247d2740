CREATE TABLE clients (
  id                 UUID PRIMARY KEY,
  name               TEXT NOT NULL,
  environment        TEXT NOT NULL CHECK (environment IN ('sandbox', 'live')),
  prepayment_enabled BOOLEAN NOT NULL DEFAULT false,
  created_at         TIMESTAMPTZ NOT NULL,
  updated_at         TIMESTAMPTZ NOT NULL
);

-- Secret keys and public keys (client tokens). Only the SHA-256 of a key is kept.
CREATE TABLE api_keys (
  id         UUID PRIMARY KEY,
  client_id  UUID NOT NULL REFERENCES clients (id),
  kind       TEXT NOT NULL CHECK (kind IN ('secret', 'public')),
  key_hash   BYTEA NOT NULL CHECK (octet_length(key_hash) = 32),
  scopes     TEXT[] NOT NULL DEFAULT '{}',
  expires_at TIMESTAMPTZ,
  revoked_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  CHECK (kind = 'public' OR (cardinality(scopes) = 0 AND expires_at IS NULL))
);
-- Authenticate runs on every REST request: one probe of this index, the client id checked on the same row.
CREATE UNIQUE INDEX api_keys_key_hash ON api_keys (key_hash) INCLUDE (client_id);
CREATE INDEX api_keys_client ON api_keys (client_id);

CREATE TABLE logos (
  id           UUID PRIMARY KEY,
  client_id    UUID NOT NULL REFERENCES clients (id),
  content_type TEXT NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/svg+xml')),
  data         BYTEA NOT NULL CHECK (octet_length(data) BETWEEN 1 AND 1048576),
  created_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX logos_client ON logos (client_id);

-- Payment-link settings: one row per client default (merchant_id NULL) and at most one per merchant.
CREATE TABLE link_settings (
  id               UUID PRIMARY KEY,
  client_id        UUID NOT NULL REFERENCES clients (id),
  merchant_id      UUID,
  main_color       TEXT,
  secondary_color  TEXT,
  attention_color  TEXT,
  error_color      TEXT,
  success_color    TEXT,
  background_color TEXT,
  company_url      TEXT,
  logo_id          UUID REFERENCES logos (id),
  created_at       TIMESTAMPTZ NOT NULL,
  updated_at       TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX link_settings_client_default ON link_settings (client_id) WHERE merchant_id IS NULL;
CREATE UNIQUE INDEX link_settings_merchant ON link_settings (client_id, merchant_id) WHERE merchant_id IS NOT NULL;

CREATE TABLE subscription_settings (
  client_id                UUID PRIMARY KEY REFERENCES clients (id),
  retry_policy             JSONB NOT NULL,
  cancel_after_all_retries BOOLEAN NOT NULL,
  statement_descriptor     TEXT NOT NULL,
  created_at               TIMESTAMPTZ NOT NULL,
  updated_at               TIMESTAMPTZ NOT NULL
);
