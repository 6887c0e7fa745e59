-- Version 4: `fsm errors` reads the attempt errors recorded since a time. Error entries are a
-- small share of the history, so a partial index on their time finds them without reading the
-- rest. Additive: a V3 fsm neither needs nor hinders it.
CREATE INDEX transition_errors ON ${schema}.transition (time)
  WHERE event IN ('error', 'timeout', 'exhausted');
