-- Payment links of each client; every query filters by client_id.
CREATE TABLE sessions (
  id                   UUID PRIMARY KEY,
  client_id            UUID NOT NULL,
  merchant_id          UUID NOT NULL,
  name                 TEXT NOT NULL DEFAULT '',
  order_id             TEXT NOT NULL DEFAULT '',
  amount               BIGINT NOT NULL CHECK (amount > 0),
  currency             TEXT NOT NULL,
  capture              BOOLEAN,
  due_date             TIMESTAMPTZ,
  is_active            BOOLEAN NOT NULL,
  status               TEXT NOT NULL CHECK (status IN ('created', 'paid', 'canceled', 'voided')),
  -- SHA-256 of the session's public key; the key itself is derived from the id and never stored.
  public_key_hash      TEXT NOT NULL,
  payment_methods      JSONB NOT NULL,
  split_rules          JSONB NOT NULL DEFAULT '[]',
  statement_descriptor TEXT NOT NULL DEFAULT '',
  -- NULL: 1:1; -1: unlimited; else the maximum of payments (1:N).
  max_payments         INTEGER CHECK (max_payments IS NULL OR max_payments = -1 OR max_payments BETWEEN 1 AND 99999),
  payment_count        INTEGER NOT NULL DEFAULT 0 CHECK (payment_count >= 0),
  pending_count        INTEGER NOT NULL DEFAULT 0 CHECK (pending_count >= 0),
  created_at           TIMESTAMPTZ NOT NULL,
  updated_at           TIMESTAMPTZ NOT NULL,
  -- No overshoot, whatever the code above does.
  CHECK (max_payments IS NULL OR max_payments = -1 OR payment_count + pending_count <= max_payments),
  CHECK (max_payments IS NOT NULL OR payment_count + pending_count <= 1)
);

CREATE INDEX sessions_by_client ON sessions (client_id, created_at DESC);

CREATE TABLE session_items (
  session_id  UUID NOT NULL REFERENCES sessions (id),
  client_id   UUID NOT NULL,
  position    INTEGER NOT NULL,
  name        TEXT NOT NULL,
  unit_price  BIGINT NOT NULL CHECK (unit_price >= 0),
  quantity    INTEGER NOT NULL CHECK (quantity > 0),
  description TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (session_id, position)
);

-- The charges made through a session and what each holds: a pending place, a paid one, or nothing any more.
CREATE TABLE session_charges (
  charge_id  UUID PRIMARY KEY,
  session_id UUID NOT NULL REFERENCES sessions (id),
  client_id  UUID NOT NULL,
  state      TEXT NOT NULL CHECK (state IN ('pending', 'paid', 'released')),
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX session_charges_by_session ON session_charges (client_id, session_id);

CREATE TABLE session_history (
  id          UUID PRIMARY KEY,
  session_id  UUID NOT NULL REFERENCES sessions (id),
  client_id   UUID NOT NULL,
  merchant_id UUID NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('created', 'paid', 'canceled', 'voided', 'disabled')),
  action      TEXT,
  actions     TEXT[] NOT NULL,
  diff        JSONB NOT NULL,
  -- Set for the 1:N payment records, so one charge is recorded once per action.
  dedupe_key  TEXT,
  seq         BIGSERIAL,
  created_at  TIMESTAMPTZ NOT NULL,
  updated_at  TIMESTAMPTZ NOT NULL
);

-- Newest first is insertion order: the rows of one session are written under its row lock.
CREATE INDEX session_history_by_session ON session_history (client_id, session_id, seq DESC);
CREATE UNIQUE INDEX session_history_dedupe ON session_history (session_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
