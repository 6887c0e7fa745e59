-- Version 2: the runners working on the store, for `fsm runners`; each keeps its row fresh
-- with its lease renewals, never on the claim or record path.
CREATE TABLE ${schema}.runner (
  id text COLLATE "C" PRIMARY KEY,
  host text NOT NULL,
  pid bigint NOT NULL,
  workers int NOT NULL,
  started timestamptz NOT NULL,
  seen timestamptz NOT NULL
);
