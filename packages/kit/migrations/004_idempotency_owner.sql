-- The process whose request holds an in-flight idempotency record: the key of its instance advisory lock
-- (packages/kit/src/instance.ts). A retry that can take that lock knows the process died and takes the record
-- over at once instead of waiting out the in-flight timeout. NULL for records claimed without an instance lock.
ALTER TABLE idempotency_keys ADD COLUMN owner_instance BIGINT;
