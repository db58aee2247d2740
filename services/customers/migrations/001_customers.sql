-- E-mail and document are unique per client among customers not deleted, unless the create was forced
-- (`?force=true`). A unique index would refuse the forced duplicates, so uniqueness is checked in the create
-- transaction under an advisory lock instead; these indexes only make that check and the filters fast.
CREATE TABLE customers (
  id               UUID PRIMARY KEY,
  -- Breaks ties between customers created in the same millisecond, so pages keep insertion order.
  seq              BIGSERIAL NOT NULL,
  client_id        UUID NOT NULL,
  name             TEXT NOT NULL,
  email            TEXT NOT NULL,
  phone_number     TEXT NOT NULL,
  document_type    TEXT NOT NULL CHECK (document_type IN ('cpf', 'cnpj', 'passport', 'other')),
  document_number  TEXT NOT NULL,
  document_country CHAR(2) NOT NULL,
  address          JSONB,
  created_at       TIMESTAMPTZ NOT NULL,
  updated_at       TIMESTAMPTZ NOT NULL,
  deleted_at       TIMESTAMPTZ
);

CREATE INDEX customers_by_client ON customers (client_id, created_at, seq) WHERE deleted_at IS NULL;
CREATE INDEX customers_by_email ON customers (client_id, email) WHERE deleted_at IS NULL;
CREATE INDEX customers_by_document ON customers (client_id, document_type, document_number) WHERE deleted_at IS NULL;
