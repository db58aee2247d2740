-- Events written in the same transaction as the change that caused them; the relay publishes them to JetStream.
CREATE TABLE outbox (
  seq          BIGSERIAL PRIMARY KEY,
  id           UUID NOT NULL UNIQUE,
  subject      TEXT NOT NULL,
  payload      JSONB NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  published_at TIMESTAMPTZ
);
CREATE INDEX outbox_unpublished ON outbox (seq) WHERE published_at IS NULL;

-- Events this service's consumers have already applied: a redelivery is recognised by its id and skipped.
CREATE TABLE processed_events (
  consumer     TEXT NOT NULL,
  event_id     UUID NOT NULL,
  processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);

-- Durable delayed work (due dates, retries, cycles). A lease makes each run happen once across replicas.
CREATE TABLE jobs (
  id           UUID PRIMARY KEY,
  kind         TEXT NOT NULL,
  payload      JSONB NOT NULL DEFAULT '{}'::jsonb,
  run_at       TIMESTAMPTZ NOT NULL,
  status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed', 'canceled')),
  attempts     INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL DEFAULT 10,
  locked_until TIMESTAMPTZ,
  last_error   TEXT,
  dedupe_key   TEXT UNIQUE,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'pending';

-- X-Idempotency-Key records, written in the same transaction as the change they protect.
CREATE TABLE idempotency_keys (
  client_id     UUID NOT NULL,
  key           TEXT NOT NULL,
  operation     TEXT NOT NULL,
  request_hash  TEXT NOT NULL,
  state         TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
  response      BYTEA,
  error         JSONB,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, key)
);
