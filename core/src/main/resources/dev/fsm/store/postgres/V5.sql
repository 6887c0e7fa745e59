-- Version 5: the latest breaker news of each machine, as a runner announced it, so that `fsm
-- machines` and `fsm stats` show the breaker the runners hold. Additive: a V4 fsm neither needs
-- nor hinders it.
CREATE TABLE ${schema}.breaker (
  machine text COLLATE "C" PRIMARY KEY,
  open boolean NOT NULL,
  until timestamptz,
  cooldown_ms bigint,
  error_rate double precision NOT NULL,
  attempts int NOT NULL,
  announced timestamptz NOT NULL DEFAULT now()
);
