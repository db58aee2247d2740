-- Attempts of the current round whose wait the receiver set with Retry-After (429 or 503). They do not move the
-- delivery along the retry schedule (`failures`), so they are counted apart, against a budget of their own.
ALTER TABLE deliveries ADD COLUMN retry_after_attempts INTEGER NOT NULL DEFAULT 0;
