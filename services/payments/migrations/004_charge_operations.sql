-- A capture, void or refund is first stored as a pending request (a reservation) and settled once its provider
-- answered, so no transaction stays open while the provider is asked. `cause` says what the charge becomes when
-- the request succeeds, so that a retry or the job that resumes abandoned requests settles it the same way.
ALTER TABLE transaction_requests ADD COLUMN cause JSONB;
CREATE INDEX transaction_requests_pending ON transaction_requests (created_at) WHERE request_status = 'pending';

-- The charge that used a token. The token is used before the providers are asked; the retry of that same charge
-- (same id, after its first attempt died) may open it again.
ALTER TABLE card_tokens ADD COLUMN used_by_charge_id UUID;
