#!/usr/bin/env bash
# The embedded runner against an earlier build and db-scheduler on this machine (issue 21).
#
# Runs ROUNDS interleaved rounds of:
#   - `bin/fsm bench --workers 2,4 --tasks TASKS` with this build's jar: TASKS tasks of a chain
#     of 5 no-op states on a fresh embedded store, 2 workers to warm the JVM, then 4 (the
#     measure: durable transitions/s, start to last completion);
#   - the same with BEFORE_JAR, the jar of an earlier build (skipped when not given);
#   - db-scheduler 16.7.1, 1 instance x 4 threads, TASKS x 5 no-op one-time executions enqueued
#     then drained, on a throwaway durable PostgreSQL 15 (bench/throwaway-pg.sh);
# then prints the medians and the ratios to issue 21's targets.
#
# Usage: bench/embedded-runner.sh [ROUNDS=3] [TASKS=20000] [BEFORE_JAR]
# after `mvn -B -q package -DskipTests` (it builds the db-scheduler harness itself).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3} TASKS=${2:-20000} BEFORE=${3:-}
N=$((TASKS * 5))
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
JAR=$PWD/cli/target/fsm.jar
[[ -f $JAR ]] || { echo "embedded-runner: $JAR not found; build it: mvn -B -q package -DskipTests" >&2; exit 1; }
[[ -z $BEFORE || -f $BEFORE ]] || { echo "embedded-runner: no jar at $BEFORE" >&2; exit 1; }
[[ -x $PGBIN/initdb ]] || { echo "embedded-runner: no PostgreSQL binaries in $PGBIN (apt-get install postgresql-15, or set PGBIN)" >&2; exit 1; }
PG_WORK_PREFIX=fsm-embedded-runner
# shellcheck source=bench/throwaway-pg.sh
source bench/throwaway-pg.sh
echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); PostgreSQL $(psql -d fsm -Atc 'SHOW server_version') for db-scheduler"
mvn -B -q -o -f bench/db-scheduler/pom.xml package >"$work/mvn.log" 2>&1 \
  || mvn -B -q -f bench/db-scheduler/pom.xml package >"$work/mvn.log" 2>&1 \
  || { cat "$work/mvn.log" >&2; exit 1; }
dbs_cp="bench/db-scheduler/target/classes:$(cat bench/db-scheduler/target/classpath)"

# Two jars in turn would each record the launcher's start-up cache in the background, each
# deleting the other's, while the other measures; a 20 s run gains nothing from the cache.
export FSM_NO_CACHE=1
fsm_rate() {  # JAR -> the 4-worker transitions/s
  FSM_JAR=$1 bin/fsm bench --workers 2,4 --tasks "$TASKS" --states 5 --sends 5 --seconds 2 \
    --dir "$work" --output json 2>"$work/bench.err" \
    | jq -r '.runs[] | select(.workers == 4) | .transitions_per_second' \
    || { cat "$work/bench.err" >&2; exit 1; }
}
results="$work/results"
: >"$results"
for r in $(seq 1 "$ROUNDS"); do
  now=$(fsm_rate "$JAR")
  echo "round $r fsm 4 workers: $now transitions/s"
  echo "$r now $now" >>"$results"
  if [[ -n $BEFORE ]]; then
    before=$(fsm_rate "$BEFORE")
    echo "round $r fsm 4 workers, $(basename "$BEFORE"): $before transitions/s"
    echo "$r before $before" >>"$results"
  fi
  line=$(java -cp "$dbs_cp" bench.DbSchedulerBench "jdbc:postgresql://127.0.0.1:$port/fsm?user=fsm" "$N" 1 4)
  echo "round $r db-scheduler 1x4: $line"
  echo "$r dbs $(sed -n 's/.*executions_per_second=\([0-9]*\).*/\1/p' <<<"$line")" >>"$results"
  psql -d fsm -c "DROP TABLE scheduled_tasks"
done

python3 - "$results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
med = {}
for kind in ("now", "before", "dbs"):
    vals = [float(r[2]) for r in rows if r[1] == kind]
    if vals:
        med[kind] = statistics.median(vals)
        print(f"median {kind:7s} {med[kind]:8,.0f}/s   rounds: {', '.join(f'{v:,.0f}' for v in vals)}")
def verdict(ok): return "met" if ok else "NOT MET"
now = med["now"]
print(f"fsm 4 workers: {now:,.0f} transitions/s (target >= 20,000: {verdict(now >= 20000)})")
if "before" in med:
    print(f"  / the earlier build: {now / med['before']:.2f}x (target >= 2x: {verdict(now >= 2 * med['before'])})")
print(f"  / db-scheduler 1x4: {now / med['dbs']:.2f}x (target >= 6x: {verdict(now >= 6 * med['dbs'])})")
PY
