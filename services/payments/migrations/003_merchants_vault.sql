-- Breaks ties between rows created in the same millisecond, so pages keep insertion order.
ALTER TABLE merchants ADD COLUMN seq BIGSERIAL;
ALTER TABLE providers ADD COLUMN seq BIGSERIAL;
ALTER TABLE flows ADD COLUMN seq BIGSERIAL;
ALTER TABLE cards ADD COLUMN seq BIGSERIAL;

-- Priority is the order payment providers are tried in, so two of one merchant never share one. Antifraud
-- providers are not tried for payments and stay outside the rule.
CREATE UNIQUE INDEX providers_payment_priority ON providers (merchant_id, priority)
  WHERE deleted_at IS NULL AND credentials_type <> 'SANDBOX_ANTIFRAUD';

CREATE INDEX flows_client ON flows (client_id, created_at DESC, seq DESC);
CREATE INDEX cards_client_seq ON cards (client_id, created_at DESC, seq DESC);
