-- A saved card belongs to one customer at a time. Before this, linking a card to a second customer kept its first
-- link too, while payments recorded the second customer as the card's owner. The newest link of each card is the one
-- payments knows, so it stays; older links move to customer_cards_superseded, kept for the record. The unique index
-- then refuses a second customer's link whatever runs at the same time.
CREATE TABLE customer_cards_superseded (
  client_id     UUID NOT NULL,
  customer_id   UUID NOT NULL,
  card_id       UUID NOT NULL,
  linked_at     TIMESTAMPTZ NOT NULL,
  superseded_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

WITH ranked AS (
  SELECT client_id, customer_id, card_id,
         row_number() OVER (PARTITION BY client_id, card_id ORDER BY created_at DESC, seq DESC) AS n
  FROM customer_cards
), moved AS (
  DELETE FROM customer_cards c USING ranked r
  WHERE r.n > 1 AND c.client_id = r.client_id AND c.customer_id = r.customer_id AND c.card_id = r.card_id
  RETURNING c.client_id, c.customer_id, c.card_id, c.created_at
)
INSERT INTO customer_cards_superseded (client_id, customer_id, card_id, linked_at)
SELECT client_id, customer_id, card_id, created_at FROM moved;

CREATE UNIQUE INDEX customer_cards_one_customer ON customer_cards (client_id, card_id);
