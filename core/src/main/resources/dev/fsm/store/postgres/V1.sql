-- fsm's tables, version 1. ${schema} is the store's schema, quoted. Ids and names are
-- COLLATE "C" so the server orders them as fsm does (by code point).
CREATE TABLE ${schema}.machine_version (
  machine text COLLATE "C" NOT NULL,
  version text COLLATE "C" NOT NULL,
  number int NOT NULL,
  registered timestamptz NOT NULL,
  definition text NOT NULL,
  PRIMARY KEY (machine, version),
  UNIQUE (machine, number)
);

-- One row per task: its current snapshot. visible_at is the claim key: the due time of a task
-- nobody leases, the later of due time and lease end of a leased one, NULL when it is not
-- scheduled (paused, terminal, waiting for a signal).
CREATE TABLE ${schema}.task (
  id text COLLATE "C" PRIMARY KEY,
  machine text COLLATE "C" NOT NULL,
  version text NOT NULL,
  state text COLLATE "C" NOT NULL,
  status text NOT NULL CHECK (status IN
    ('runnable', 'sleeping', 'paused', 'fault', 'completed', 'failed', 'killed')),
  context text NOT NULL,
  attempt int NOT NULL,
  errors json NOT NULL,
  created timestamptz NOT NULL,
  state_entered timestamptz NOT NULL,
  last_attempt timestamptz,
  due timestamptz,
  lease_owner text,
  lease_until timestamptz,
  pausing_at timestamptz,
  pausing_by text,
  pausing_reason text,
  visible_at timestamptz
) WITH (fillfactor = 90, autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_analyze_scale_factor = 0.02);

CREATE INDEX task_claim ON ${schema}.task (visible_at, id) WHERE visible_at IS NOT NULL;
CREATE INDEX task_leased ON ${schema}.task (lease_until) WHERE lease_owner IS NOT NULL;
CREATE INDEX task_filter ON ${schema}.task (machine, state, status, id);
CREATE INDEX task_created ON ${schema}.task (created, id);

-- Every task's history, insert-only. seq orders one task's entries; xid lets a reader of the
-- whole table stay below the commit horizon, since a later commit may carry a smaller seq.
CREATE TABLE ${schema}.transition (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  task_id text COLLATE "C" NOT NULL,
  machine text COLLATE "C" NOT NULL,
  time timestamptz NOT NULL,
  from_state text NOT NULL,
  event text NOT NULL,
  to_state text NOT NULL,
  duration_ms bigint NOT NULL,
  attempt int NOT NULL,
  actor text NOT NULL,
  reason text NOT NULL
);

CREATE INDEX transition_task ON ${schema}.transition (task_id, seq);
CREATE INDEX transition_machine ON ${schema}.transition (machine, seq);
