-- Version 3: what `fsm runners` shows beyond V2's runner row: the machines a runner claims
-- (`run --machine`, empty for all), the tasks it holds, its recent rate, and a clean stop.
-- Additive: a V2 fsm neither reads nor writes these.
ALTER TABLE ${schema}.runner
  ADD COLUMN machines text[] NOT NULL DEFAULT '{}',
  ADD COLUMN held int NOT NULL DEFAULT 0,
  ADD COLUMN rate double precision NOT NULL DEFAULT 0,
  ADD COLUMN stopped boolean NOT NULL DEFAULT false;
