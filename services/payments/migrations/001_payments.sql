-- Merchants (sub-accounts) of a client and the providers each routes over.
CREATE TABLE merchants (
  id                   UUID PRIMARY KEY,
  client_id            UUID NOT NULL,
  mcc                  TEXT NOT NULL,
  name                 TEXT NOT NULL DEFAULT '',
  merchant_name        TEXT NOT NULL DEFAULT '',
  merchant_url         TEXT NOT NULL DEFAULT '',
  status               TEXT NOT NULL DEFAULT 'active',
  platform_fee_enabled BOOLEAN NOT NULL DEFAULT false,
  -- [{percentage (bps), fixedAmount, paymentMethod, installment}]
  platform_fee_rules   JSONB NOT NULL DEFAULT '[]'::jsonb,
  created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
  deleted_at           TIMESTAMPTZ
);
CREATE INDEX merchants_client ON merchants (client_id, created_at DESC) WHERE deleted_at IS NULL;

CREATE TABLE providers (
  id                    UUID PRIMARY KEY,
  client_id             UUID NOT NULL,
  merchant_id           UUID NOT NULL REFERENCES merchants (id),
  name                  TEXT NOT NULL,
  priority              INTEGER NOT NULL,
  credentials_type      TEXT NOT NULL,
  -- The whole credentials object, AES-256-GCM under the vault key (see src/vault/crypto.ts). Never returned.
  credentials_encrypted BYTEA NOT NULL,
  options               JSONB NOT NULL DEFAULT '{}'::jsonb,
  created_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
  deleted_at            TIMESTAMPTZ
);
CREATE INDEX providers_merchant ON providers (client_id, merchant_id, priority) WHERE deleted_at IS NULL;

-- Routing flows: per merchant and payment method, ordered rules [{when, route: [providerId]}] and a default route.
CREATE TABLE flows (
  id             UUID PRIMARY KEY,
  client_id      UUID NOT NULL,
  merchant_id    UUID NOT NULL REFERENCES merchants (id),
  name           TEXT NOT NULL DEFAULT '',
  payment_method TEXT NOT NULL,
  rules          JSONB NOT NULL DEFAULT '[]'::jsonb,
  default_route  JSONB NOT NULL DEFAULT '[]'::jsonb,
  created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX flows_one_per_method ON flows (client_id, merchant_id, payment_method);

-- Single-use card tokens. The CVV is kept (encrypted) only until the token is used or expires.
CREATE TABLE card_tokens (
  id              UUID PRIMARY KEY,
  client_id       UUID NOT NULL,
  pan_encrypted   BYTEA NOT NULL,
  cvv_encrypted   BYTEA,
  holder_name     TEXT NOT NULL,
  exp_month       INTEGER NOT NULL,
  exp_year        INTEGER NOT NULL,
  brand           TEXT NOT NULL,
  first6          TEXT NOT NULL,
  last4           TEXT NOT NULL,
  fingerprint     TEXT NOT NULL,
  expires_at      TIMESTAMPTZ NOT NULL,
  used_at         TIMESTAMPTZ,
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX card_tokens_expiry ON card_tokens (expires_at) WHERE cvv_encrypted IS NOT NULL;

CREATE TABLE cards (
  id            UUID PRIMARY KEY,
  client_id     UUID NOT NULL,
  customer_id   UUID,
  merchant_id   UUID,
  status        TEXT NOT NULL DEFAULT 'active',
  brand         TEXT NOT NULL,
  holder_name   TEXT NOT NULL,
  first6        TEXT NOT NULL,
  last4         TEXT NOT NULL,
  exp_month     INTEGER NOT NULL,
  exp_year      INTEGER NOT NULL,
  pan_encrypted BYTEA NOT NULL,
  -- HMAC-SHA256 of the card number under a configured key: recognises the same card without storing it.
  fingerprint   TEXT NOT NULL,
  cvv_checked   BOOLEAN NOT NULL DEFAULT false,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX cards_client ON cards (client_id, created_at DESC);
CREATE INDEX cards_customer ON cards (client_id, customer_id);
CREATE INDEX cards_fingerprint ON cards (client_id, fingerprint);

CREATE TABLE charges (
  id                   UUID PRIMARY KEY,
  client_id            UUID NOT NULL,
  merchant_id          UUID NOT NULL,
  customer_id          UUID,
  session_id           UUID,
  card_id              UUID,
  amount               BIGINT NOT NULL CHECK (amount > 0),
  original_amount      BIGINT NOT NULL,
  captured_amount      BIGINT NOT NULL DEFAULT 0 CHECK (captured_amount >= 0),
  refunded_amount      BIGINT NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0),
  currency             TEXT NOT NULL,
  order_id             TEXT,
  statement_descriptor TEXT,
  description          TEXT,
  capture              BOOLEAN NOT NULL,
  is_dispute           BOOLEAN NOT NULL DEFAULT false,
  status               TEXT NOT NULL,
  payment_type         TEXT NOT NULL,
  installments         INTEGER NOT NULL DEFAULT 1,
  -- The payment method as asked plus what the provider filled in (QR code, barcode).
  payment_method       JSONB NOT NULL,
  -- What the charge shows of its source: card brand, first six and last four digits; never the number.
  payment_source       JSONB NOT NULL,
  split_rules          JSONB NOT NULL DEFAULT '[]'::jsonb,
  platform_fee         JSONB,
  antifraud            JSONB,
  app_info             JSONB,
  fraud_analysis       JSONB,
  provider_id          UUID,
  provider_type        TEXT,
  declined_code        TEXT,
  created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
  CHECK (refunded_amount <= GREATEST(captured_amount, 0))
);
CREATE INDEX charges_client_created ON charges (client_id, created_at DESC, id);
CREATE INDEX charges_client_order ON charges (client_id, order_id);
CREATE INDEX charges_client_merchant ON charges (client_id, merchant_id, created_at DESC);
CREATE INDEX charges_client_status ON charges (client_id, status, created_at DESC);
CREATE INDEX charges_client_session ON charges (client_id, session_id) WHERE session_id IS NOT NULL;

-- One row per request to a provider: authorization attempts (one per provider tried), captures, voids, refunds.
CREATE TABLE transaction_requests (
  id                         UUID PRIMARY KEY,
  charge_id                  UUID NOT NULL REFERENCES charges (id),
  client_id                  UUID NOT NULL,
  idempotency_key            TEXT NOT NULL,
  provider_id                UUID,
  provider_type              TEXT NOT NULL,
  transaction_id             TEXT,
  amount                     BIGINT NOT NULL,
  authorization_nsu          TEXT,
  request_status             TEXT NOT NULL,
  request_type               TEXT NOT NULL,
  response_ms                INTEGER NOT NULL DEFAULT 0,
  network_authorization_code TEXT,
  network_response_code      TEXT,
  declined_code              TEXT,
  message                    TEXT,
  created_at                 TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at                 TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX transaction_requests_charge ON transaction_requests (charge_id, created_at);

CREATE TABLE three_ds_setups (
  id            UUID PRIMARY KEY,
  client_id     UUID NOT NULL,
  card_id       UUID,
  token_id      UUID,
  provider_type TEXT NOT NULL,
  token         TEXT NOT NULL,
  collect_url   TEXT NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
