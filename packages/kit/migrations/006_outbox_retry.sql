-- An event the broker refuses (no stream for its subject, say) waits until retry_at, longer after each failure,
-- instead of staying at the head of the outbox and holding back every event behind it.
ALTER TABLE outbox ADD COLUMN publish_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN retry_at TIMESTAMPTZ;
