-- The latest authorization outcomes of each provider entry, per client, merchant, payment type and card brand
-- ('' without a card), that success-rate routing orders a route by. `recent` holds one letter per attempt, oldest
-- first: a approved, d declined (a business answer), t a technical failure; at most as many as the routing
-- windows need. `tripped_at` is when the entry was taken out for its technical failures, null while it is in.
-- One upsert per charge keeps it, right after the transaction that stores the charge.
CREATE TABLE provider_outcomes (
  client_id TEXT NOT NULL,
  merchant_id TEXT NOT NULL,
  payment_type TEXT NOT NULL,
  card_brand TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  recent TEXT NOT NULL,
  tripped_at TIMESTAMPTZ,
  updated_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (client_id, merchant_id, payment_type, card_brand, provider_id)
);
