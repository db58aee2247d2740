-- Insertion order, so that lists and transaction requests keep a stable order when timestamps are equal.
ALTER TABLE charges ADD COLUMN seq BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE charges ADD COLUMN provider_name TEXT;
DROP INDEX charges_client_created;
CREATE INDEX charges_client_created ON charges (client_id, created_at DESC, seq DESC);
CREATE INDEX charges_client_provider_type ON charges (client_id, provider_type, created_at DESC);

ALTER TABLE transaction_requests ADD COLUMN seq BIGINT GENERATED ALWAYS AS IDENTITY;
-- How a refund is taken from the split receivers, when the client said so: [{sellerId, amount}].
ALTER TABLE transaction_requests ADD COLUMN split_rules JSONB;
-- Keys are derived from the charge id and the attempt, so one is never used for two requests.
CREATE UNIQUE INDEX transaction_requests_idempotency ON transaction_requests (client_id, idempotency_key);
