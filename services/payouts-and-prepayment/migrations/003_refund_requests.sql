-- The refund requests of a charge the ledger has taken in (ids of the charge's transaction requests), so that a
-- refund with its own split is applied by that split exactly once, whatever the order or number of the events that
-- show it. Charges refunded before this column existed start empty: their earlier refunds are recognised by amount.
ALTER TABLE ledger_charges ADD COLUMN refund_request_ids TEXT[] NOT NULL DEFAULT '{}';
