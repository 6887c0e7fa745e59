-- Version 6: when each task last changed (its newest history entry, or its creation), so that
-- `ls --sort updated` and the UPDATED column count an operator's command too. Additive and
-- nullable: rows made before it read as changed when they entered their state, and an older fsm
-- that leaves it unchanged still moves state_entered and last_attempt, which fsm reads beside it.
ALTER TABLE ${schema}.task ADD COLUMN changed timestamptz;
