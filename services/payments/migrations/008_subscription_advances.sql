-- Sandbox advances under way: one row per subscription while a `sandbox/advance` runs, so that two advances of one
-- subscription never run together (the second answers 409). A row left by a process that died is taken over once it
-- is older than an advance can last; `token` lets only the advance that wrote a row remove it.
CREATE TABLE subscription_advances (
  subscription_id UUID PRIMARY KEY REFERENCES subscriptions (id),
  client_id       UUID NOT NULL,
  token           UUID NOT NULL,
  started_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
