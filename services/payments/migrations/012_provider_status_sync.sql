-- A capture, void or refund its provider accepted but settles later: the request stays pending, and this says
-- the provider has it, so the job that resumes abandoned requests never asks it again (a notification or the
-- status sync settles it).
ALTER TABLE transaction_requests ADD COLUMN provider_accepted_at TIMESTAMPTZ;

-- The status sync: when a charge waiting on its provider (a Pix or boleto not paid yet, a capture or refund the
-- provider settles later) is asked again, how many times it was asked, and when asking stopped (the charge
-- outlived its expiry with the provider still saying pending: the provider's own later answer decides).
ALTER TABLE charges ADD COLUMN sync_next_at TIMESTAMPTZ;
ALTER TABLE charges ADD COLUMN sync_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE charges ADD COLUMN sync_stopped_at TIMESTAMPTZ;
CREATE INDEX charges_status_sync ON charges (provider_type, sync_next_at)
  WHERE status IN ('pending', 'capture_pending', 'refund_pending') AND sync_stopped_at IS NULL;

-- The charge a provider's notification names: its authorization's transaction id at that provider entry.
CREATE INDEX transaction_requests_provider_transaction ON transaction_requests (provider_id, transaction_id)
  WHERE request_type = 'authorization' AND request_status = 'success';
