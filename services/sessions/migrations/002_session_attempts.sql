-- A buyer's attempt to pay a session. The place it reserved (sessions.pending_count) belongs to the attempt until the
-- charge's answer settles it, or passes to the charge (a pending Pix or boleto), or the sweep gives it back when the
-- attempt's process died before it knew the answer. A retry with the same X-Idempotency-Key finds its attempt again,
-- so it reserves no second place and asks payments for the same charge.
CREATE TABLE session_attempts (
  id              UUID PRIMARY KEY,
  client_id       UUID NOT NULL,
  session_id      UUID NOT NULL REFERENCES sessions (id),
  idempotency_key TEXT,
  holds_place     BOOLEAN NOT NULL,
  created_at      TIMESTAMPTZ NOT NULL,
  updated_at      TIMESTAMPTZ NOT NULL
);

CREATE UNIQUE INDEX session_attempts_by_key ON session_attempts (client_id, session_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX session_attempts_holding ON session_attempts (created_at) WHERE holds_place;

-- A charge's outcome that arrived by its event before any answer counted it (`counted` false): the answer that comes
-- next counts it with its attempt's place, or the sweep does once the attempt is known dead.
ALTER TABLE session_charges ADD COLUMN counted BOOLEAN NOT NULL DEFAULT true;
CREATE INDEX session_charges_uncounted ON session_charges (client_id, session_id, created_at) WHERE NOT counted;
