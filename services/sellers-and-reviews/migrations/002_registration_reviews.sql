-- Registration review processes of each client's sellers; every query filters by client_id.
CREATE TABLE registration_reviews (
  process_id      UUID PRIMARY KEY,
  client_id       UUID NOT NULL,
  seller_id       UUID REFERENCES sellers (id),
  -- Digits of the document the provider opened the process for (matches a seller created later).
  document        TEXT NOT NULL,
  provider        TEXT NOT NULL,
  provider_id     TEXT,
  review_type     TEXT NOT NULL CHECK (review_type IN ('acp', 'aci')),
  status          TEXT NOT NULL CHECK (status IN ('unmatched', 'pending', 'overdue', 'submitting', 'submit_failed', 'expired', 'finished', 'canceled')),
  deadline_at     TIMESTAMPTZ NOT NULL,
  expires_at      TIMESTAMPTZ NOT NULL,
  raw             JSONB,
  fields          JSONB,
  submitted       JSONB,
  failure_reason  TEXT NOT NULL DEFAULT '',
  created_at      TIMESTAMPTZ NOT NULL,
  updated_at      TIMESTAMPTZ NOT NULL,
  seq             BIGSERIAL
);

CREATE INDEX registration_reviews_by_client ON registration_reviews (client_id, created_at);
CREATE INDEX registration_reviews_by_seller ON registration_reviews (client_id, seller_id);
CREATE INDEX registration_reviews_unmatched ON registration_reviews (client_id, document) WHERE status = 'unmatched';
