-- Why an authorization's provider was tried at its place: "flow rule 2", "flow rule 1, split branch 1 of 2 (70%)",
-- "flow default route", "priority". Requests recorded before, and captures, voids and refunds, have none.
ALTER TABLE transaction_requests ADD COLUMN routing_reason TEXT;
