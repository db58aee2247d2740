-- The process that holds an advance's claim, by the key of its instance lock (as idempotency records name theirs): a
-- claim whose process died (its lock released) is taken over at once instead of after the stale timeout.
ALTER TABLE subscription_advances ADD COLUMN owner_instance BIGINT;
