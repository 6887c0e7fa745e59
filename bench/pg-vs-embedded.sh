#!/usr/bin/env bash
# Runner throughput on the embedded store and on PostgreSQL with durable settings, on this
# machine, interleaved (E P E P ...): `fsm start --from` N tasks of a chain of K no-op states,
# then `fsm run --until-idle --workers W`; transitions/s = N*K / run time.
# Usage: bench/pg-vs-embedded.sh [N=5000] [K=4] [W=4] [ROUNDS=3]   (after `mvn -B -q package -DskipTests`)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-5000} K=${2:-4} W=${3:-4} ROUNDS=${4:-3}
work=$(mktemp -d /tmp/fsm-pg-bench.XXXXXX)
trap 'exec 3>&- 2>/dev/null || true; sleep 2; rm -rf "$work"' EXIT
mvn -B -q -o -pl core dependency:build-classpath -Dmdep.outputFile="$work/cp" -Dmdep.includeScope=test >/dev/null
coproc SERVER { java -cp "core/target/test-classes:core/target/classes:$(cat "$work/cp")" \
  dev.fsm.store.postgres.DurableServer "$work/pg" 2>"$work/server.log"; }
exec 3>&"${SERVER[1]}"
read -r -t 60 url <&"${SERVER[0]}"
echo "durable PostgreSQL: $url (fsync=on, synchronous_commit=on)"
mkdir -p "$work/machines"
{
  echo "machine: chain"; echo "states:"
  for i in $(seq 1 "$K"); do
    if [ "$i" -lt "$K" ]; then echo "  s$i: {run: builtin:noop, on: {ok: s$((i+1))}}"
    else echo "  s$i: {run: builtin:noop, on: {ok: done}}"; fi
  done
  echo "  done: {final: completed}"
} >"$work/machines/chain.yaml"
for i in $(seq 1 "$N"); do echo "{\"context\":{\"n\":$i}}"; done >"$work/tasks.jsonl"
fsm() { (cd "$work" && "$OLDPWD/bin/fsm" "$@"); }
run_one() {  # store -> transitions/s
  fsm start chain --from tasks.jsonl --store "$1" >/dev/null 2>&1
  local t0 t1; t0=$(date +%s%N)
  fsm run --until-idle --workers "$W" --store "$1" >/dev/null 2>&1
  t1=$(date +%s%N)
  echo $(( N * K * 1000000000 / (t1 - t0) ))
}
echo "store alone (one PgStore on the durable server):"
FSM_TEST_PG_URL="$url" java -cp "core/target/test-classes:core/target/classes:$(cat "$work/cp")" \
  dev.fsm.store.postgres.PgStoreMeasure 20000 2>/dev/null
printf '%-6s %-12s %s\n' round store transitions/s
for r in $(seq 1 "$ROUNDS"); do
  printf '%-6s %-12s %s\n' "$r" embedded "$(run_one "$work/store-$r")"
  printf '%-6s %-12s %s\n' "$r" postgresql "$(run_one "$url?schema=bench$r")"
done
