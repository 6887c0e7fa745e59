#!/usr/bin/env bash
# fsm's runner fleet against db-scheduler on one durable PostgreSQL (issue 19, "Speed").
#
# Starts a throwaway PostgreSQL 15 cluster (initdb/pg_ctl as `nobody` when run as root, a free
# port, data under /tmp, fsync and synchronous_commit on, default settings otherwise), then runs
# ROUNDS interleaved rounds, back to back on that server, of:
#   - db-scheduler 16.7.1: 4 scheduler instances x 4 threads in one JVM, lock-and-fetch
#     polling, no-op one-time tasks; N executions enqueued, then drained (bench/db-scheduler/);
#   - `fsm bench --runners 1 --workers 4` and `--runners 3 --workers 4`: TASKS tasks of a chain of
#     STATES no-op states (N transitions), each run in a schema of its own, dropped afterwards;
#   - pgbench, 16 clients, one single-row UPDATE per transaction: the server's ceiling for one
#     durable commit per piece of work;
# and prints the medians, the ratios to the targets, and commits and log bytes per transition.
# Then the failover measure: 3 `fsm run --lease 3s` runners on tasks of slow states; KILLS
# times, `kill -9` one runner that holds tasks and time, from the histories, how long after the
# kill each of its tasks' next attempt started (target: lease + 1 s).
#
# Usage: bench/pg-fleet.sh [ROUNDS=3] [TASKS=5000] [STATES=4] [KILLS=10]
# after `mvn -B -q package -DskipTests` (it builds the db-scheduler harness itself).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3} TASKS=${2:-5000} STATES=${3:-4} KILLS=${4:-10}
N=$((TASKS * STATES))
LEASE=3s LEASE_MS=3000
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
JAR=cli/target/fsm.jar
[[ -f $JAR ]] || { echo "pg-fleet: $JAR not found; build it: mvn -B -q package -DskipTests" >&2; exit 1; }
[[ -x $PGBIN/initdb ]] || { echo "pg-fleet: no PostgreSQL binaries in $PGBIN (apt-get install postgresql-15, or set PGBIN)" >&2; exit 1; }

PG_WORK_PREFIX=fsm-pg-fleet
# shellcheck source=bench/throwaway-pg.sh
source bench/throwaway-pg.sh
base="postgresql://fsm@127.0.0.1:$port/fsm"
echo "PostgreSQL $(psql -d fsm -Atc 'SHOW server_version') on port $port: fsync=$(psql -d fsm -Atc 'SHOW fsync'), synchronous_commit=$(psql -d fsm -Atc 'SHOW synchronous_commit'), full_page_writes=$(psql -d fsm -Atc 'SHOW full_page_writes'); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

mvn -B -q -o -f bench/db-scheduler/pom.xml package >"$work/mvn.log" 2>&1 \
  || mvn -B -q -f bench/db-scheduler/pom.xml package >"$work/mvn.log" 2>&1 \
  || { cat "$work/mvn.log" >&2; exit 1; }
dbs_cp="bench/db-scheduler/target/classes:$(cat bench/db-scheduler/target/classpath)"

pgbench_ceiling() {
  command pgbench -h 127.0.0.1 -p "$port" -U fsm -i -q -s 1 fsm >/dev/null 2>&1
  printf '\\set id random(1, 100000)\nUPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :id;\n' >"$work/update.sql"
  command pgbench -h 127.0.0.1 -p "$port" -U fsm -n -c 16 -j 2 -T 10 -f "$work/update.sql" fsm 2>/dev/null \
    | sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p'
}

results="$work/results"
: >"$results"
for r in $(seq 1 "$ROUNDS"); do
  line=$(java -cp "$dbs_cp" bench.DbSchedulerBench "jdbc:postgresql://127.0.0.1:$port/fsm?user=fsm" "$N" 4 4)
  echo "round $r db-scheduler 4x4: $line"
  echo "$r dbs $(sed -n 's/.*executions_per_second=\([0-9]*\).*commits_per_execution=\([0-9.]*\).*wal_bytes_per_execution=\([0-9]*\).*/\1 \2 \3/p' <<<"$line")" >>"$results"
  psql -d fsm -c "DROP TABLE scheduled_tasks"
  for runners in 1 3; do
    schema="fleet_r${r}_${runners}"
    json=$(java -jar "$JAR" bench --store "$base?schema=$schema" --runners "$runners" --workers 4 \
      --tasks "$TASKS" --states "$STATES" --dir "$work" --output json 2>"$work/bench.err") \
      || { cat "$work/bench.err" >&2; exit 1; }
    echo "round $r fsm ${runners}x4: $(jq -c '{transitions_per_second, seconds, per_runner: [.per_runner[].transitions_per_second], server}' <<<"$json")"
    echo "$r fsm$runners $(jq -r '[.transitions_per_second, .server.commits_per_transition, .server.wal_bytes_per_transition] | @tsv' <<<"$json")" >>"$results"
    psql -d fsm -c "DROP SCHEMA $schema CASCADE"
  done
  tps=$(pgbench_ceiling)
  echo "round $r pgbench 16 clients, single-row UPDATE: $tps tps"
  echo "$r pgbench $tps 1 0" >>"$results"
  psql -d fsm -c "DROP TABLE pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history"
done

[[ $ROUNDS -gt 0 ]] && python3 - "$results" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
med = {}
for kind in ("dbs", "fsm1", "fsm3", "pgbench"):
    vals = [r[2:] for r in rows if r[1] == kind]
    med[kind] = [statistics.median(float(v[i]) for v in vals) for i in range(3)]
    print(f"median {kind:8s} {med[kind][0]:8,.0f}/s   rounds: {', '.join(f'{float(v[0]):,.0f}' for v in vals)}")
d, f1, f3, p = med["dbs"][0], med["fsm1"][0], med["fsm3"][0], med["pgbench"][0]
def verdict(ok): return "met" if ok else "NOT MET"
print(f"fsm 3x4 / db-scheduler 4x4: {f3 / d:.2f}x (target >= 3x: {verdict(f3 >= 3 * d)}); fsm 1x4 / db-scheduler: {f1 / d:.2f}x")
print(f"fsm 3x4 / pgbench ceiling:  {f3 / p:.2f}x (target >= 1x: {verdict(f3 >= p)})")
print(f"commits per transition: fsm 1x4 {med['fsm1'][1]:.3f}, fsm 3x4 {med['fsm3'][1]:.3f} (target <= 0.2: {verdict(med['fsm3'][1] <= 0.2)}); db-scheduler {med['dbs'][1]:.3f} per execution")
print(f"WAL bytes per transition: fsm 1x4 {med['fsm1'][2]:,.0f}, fsm 3x4 {med['fsm3'][2]:,.0f}; db-scheduler {med['dbs'][2]:,.0f} per execution")
EOF

# Failover: KILLS times, kill -9 a runner that holds tasks; its tasks' next attempts, from the
# histories, against lease + 1 s.
fo="$base?schema=failover"
mkdir -p "$work/machines"
cat >"$work/machines/slow.yaml" <<'EOF'
machine: slow
states:
  a: {run: builtin:sleep 400ms, on: {ok: b}}
  b: {run: builtin:sleep 400ms, on: {ok: c}}
  c: {run: builtin:sleep 400ms, on: {ok: done}}
  done: {final: completed}
EOF
fsm() { java -jar "$JAR" --machines "$work/machines" --store "$fo" "$@"; }
start_runner() {  # exec: $! is then the runner's own pid, which its lease owner names
  (exec java -jar "$JAR" --machines "$work/machines" --store "$fo" run --workers 4 \
    --lease "$LEASE" --grace 1s >/dev/null 2>>"$work/runners.log") &
  pids+=($!)
}
[[ $KILLS -gt 0 ]] || exit 0
for i in 1 2 3; do start_runner; done
: >"$work/failover"
for k in $(seq 1 "$KILLS"); do
  seq 1 24 | sed 's/.*/{}/' >"$work/slow.jsonl"
  fsm start slow --from "$work/slow.jsonl" >/dev/null 2>&1
  victim=${pids[-3]}
  held=0
  for _ in $(seq 1 200); do
    held=$(psql -d fsm -Atc "SELECT count(*) FROM failover.task WHERE lease_owner LIKE 'runner:$victim@%' AND lease_until > now()" 2>/dev/null || echo 0)
    [[ $held -gt 0 ]] && break
    sleep 0.05
  done
  [[ $held -gt 0 ]] || { echo "pg-fleet: failover round $k: runner $victim took no task in 10 s" >&2; exit 1; }
  kill -9 "$victim"
  killed=$(date +%s.%N)
  wait "$victim" 2>/dev/null || true
  psql -d fsm -Atc "SELECT id FROM failover.task WHERE lease_owner LIKE 'runner:$victim@%' AND status NOT IN ('completed','failed','killed','fault')" >"$work/orphans"
  start_runner
  for _ in $(seq 1 400); do
    pending=$(psql -d fsm -Atc "SELECT count(*) FROM failover.task WHERE status NOT IN ('completed','failed','killed','fault')")
    [[ $pending == 0 ]] && break
    sleep 0.05
  done
  [[ $pending == 0 ]] || { echo "pg-fleet: failover round $k: $pending tasks did not complete" >&2; exit 1; }
  while read -r id; do
    [[ -n $id ]] || continue
    psql -d fsm -Atc "SELECT extract(epoch FROM min(time - duration_ms * interval '1 ms')) - $killed
      FROM failover.transition WHERE task_id = '$id' AND actor NOT LIKE 'runner:$victim@%'
      AND time - duration_ms * interval '1 ms' > to_timestamp($killed) - interval '1 ms'" >>"$work/failover"
  done <"$work/orphans"
  echo "kill $k: runner $victim held $(grep -c . "$work/orphans") unfinished task(s)"
done
python3 - "$work/failover" "$LEASE_MS" <<'EOF'
import statistics, sys
d = sorted(float(l) for l in open(sys.argv[1]) if l.strip())
lease = int(sys.argv[2]) / 1000
p50 = statistics.median(d)
ok = "met" if max(d) <= lease + 1 else "NOT MET"
print(f"failover (lease {lease:g} s): {len(d)} interrupted tasks, kill -> next attempt p50 {p50:.2f} s, max {max(d):.2f} s (target <= {lease + 1:g} s: {ok})")
EOF
