-- Saved cards (kept in the payments vault) linked to a customer. The card itself never lives here.
CREATE TABLE customer_cards (
  client_id   UUID NOT NULL,
  customer_id UUID NOT NULL REFERENCES customers (id),
  card_id     UUID NOT NULL,
  seq         BIGSERIAL NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, customer_id, card_id)
);
CREATE INDEX customer_cards_by_customer ON customer_cards (client_id, customer_id, created_at DESC, seq DESC);
