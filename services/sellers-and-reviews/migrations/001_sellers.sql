-- Sellers (split receivers) of each client; every query filters by client_id. The descriptive parts are kept as
-- the public description shows them (each nested object with its own id, createdAt and updatedAt).
CREATE TABLE sellers (
  id               UUID PRIMARY KEY,
  client_id        UUID NOT NULL,
  merchant_id      TEXT NOT NULL,
  mcc              TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('pending', 'active', 'partial', 'inactive', 'blocked')),
  owner            JSONB NOT NULL,
  business         JSONB,
  bank_account     JSONB NOT NULL,
  transfer_policy  JSONB,
  metadata         JSONB,
  rate_agreements  JSONB NOT NULL DEFAULT '[]',
  sales_plan_id    TEXT NOT NULL DEFAULT '',
  plan_id          TEXT NOT NULL DEFAULT '',
  providers        JSONB NOT NULL DEFAULT '[]',
  -- Filters of the listing, kept beside the documents they come from.
  email            TEXT NOT NULL,
  business_name    TEXT,
  documents        TEXT[] NOT NULL DEFAULT '{}',
  created_at       TIMESTAMPTZ NOT NULL,
  updated_at       TIMESTAMPTZ NOT NULL,
  seq              BIGSERIAL
);

CREATE INDEX sellers_by_client ON sellers (client_id, created_at);
CREATE INDEX sellers_by_document ON sellers USING GIN (documents);
