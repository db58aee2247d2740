-- Subscriptions: a charge per cycle on a saved card of a customer. Every query filters by client_id.
CREATE TABLE subscriptions (
  id               UUID PRIMARY KEY,
  client_id        UUID NOT NULL,
  merchant_id      UUID NOT NULL,
  customer_id      UUID NOT NULL,
  card_id          UUID NOT NULL,
  name             TEXT NOT NULL,
  items            JSONB NOT NULL,
  amount           BIGINT NOT NULL CHECK (amount > 0),
  currency         TEXT NOT NULL,
  interval         TEXT NOT NULL,
  cycles           INTEGER,
  -- The schedule: cycle n is due at anchor + (n - 1) intervals (the trial's end when there is one).
  anchor           TIMESTAMPTZ NOT NULL,
  start_at         TIMESTAMPTZ NOT NULL,
  trial_end_at     TIMESTAMPTZ,
  installments     INTEGER NOT NULL,
  split_rules      JSONB NOT NULL DEFAULT '[]',
  status           TEXT NOT NULL,
  -- The status a paused subscription goes back to.
  paused_from      TEXT,
  -- The number of the next cycle to create; cycles before it exist.
  next_cycle       INTEGER NOT NULL DEFAULT 1,
  cycles_billed    INTEGER NOT NULL DEFAULT 0,
  created_at       TIMESTAMPTZ NOT NULL,
  updated_at       TIMESTAMPTZ NOT NULL,
  canceled_at      TIMESTAMPTZ,
  paused_at        TIMESTAMPTZ
);
CREATE INDEX subscriptions_by_client ON subscriptions (client_id, created_at DESC);

-- One row per cycle, unique per subscription and number: a cycle is billed once whatever runs it.
CREATE TABLE subscription_cycles (
  id                       UUID PRIMARY KEY,
  client_id                UUID NOT NULL,
  subscription_id          UUID NOT NULL REFERENCES subscriptions (id),
  number                   INTEGER NOT NULL,
  status                   TEXT NOT NULL,
  amount                   BIGINT NOT NULL,
  due_at                   TIMESTAMPTZ NOT NULL,
  -- When the next attempt runs (the first at due_at, then the retries); NULL when none is left.
  next_attempt_at          TIMESTAMPTZ,
  -- The retry policy in force when the cycle first failed.
  retry_days               JSONB,
  cancel_after_all_retries BOOLEAN,
  created_at               TIMESTAMPTZ NOT NULL,
  updated_at               TIMESTAMPTZ NOT NULL,
  UNIQUE (subscription_id, number)
);
CREATE INDEX subscription_cycles_due ON subscription_cycles (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX subscription_cycles_by_subscription ON subscription_cycles (client_id, subscription_id, number);

-- Every attempt of a cycle, with the charge it made; unique per cycle and attempt number.
CREATE TABLE subscription_cycle_attempts (
  cycle_id      UUID NOT NULL REFERENCES subscription_cycles (id),
  client_id     UUID NOT NULL,
  attempt       INTEGER NOT NULL,
  charge_id     UUID,
  status        TEXT NOT NULL,
  declined_code TEXT,
  attempted_at  TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (cycle_id, attempt)
);
