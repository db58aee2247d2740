-- Reports: a durable job writes each CSV page once, as ordered chunks of UTF-8 text; a download reads them back one at
-- a time.
CREATE TABLE reports (
  id          UUID PRIMARY KEY,
  client_id   UUID NOT NULL,
  type        TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('created', 'processing', 'ready', 'empty', 'error')),
  fields      JSONB NOT NULL,
  filters     JSONB NOT NULL,
  pages_count INTEGER NOT NULL DEFAULT 0,
  row_count   INTEGER NOT NULL DEFAULT 0,
  error       TEXT,
  created_at  TIMESTAMPTZ NOT NULL,
  updated_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX reports_by_client ON reports (client_id, created_at DESC);

CREATE TABLE report_chunks (
  report_id UUID NOT NULL REFERENCES reports (id),
  page      INTEGER NOT NULL,
  seq       INTEGER NOT NULL,
  data      TEXT NOT NULL,
  PRIMARY KEY (report_id, page, seq)
);

-- Receipts: one PDF per charge and type, made once and served again as it was made.
CREATE TABLE receipts (
  id           UUID PRIMARY KEY,
  client_id    UUID NOT NULL,
  charge_id    UUID NOT NULL,
  type         TEXT NOT NULL CHECK (type IN ('refund_receipt', 'cancellation_letter')),
  pdf          BYTEA NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL,
  UNIQUE (client_id, charge_id, type)
);
