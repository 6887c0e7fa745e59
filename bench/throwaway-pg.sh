# Sourced by the bench scripts: a throwaway durable PostgreSQL cluster in $work (from mktemp
# with the prefix in $PG_WORK_PREFIX), run as `nobody` when run as root, on a free port from
# 55432, fsync and synchronous_commit on; `psql` talks to it; it is stopped and $work deleted at
# exit, with every pid in `pids` killed first. Needs PGBIN.
work=$(mktemp -d "/tmp/${PG_WORK_PREFIX:-fsm-pg}.XXXXXX")
chmod 755 "$work"
as_db=()
if [[ $(id -u) == 0 ]]; then as_db=(runuser -u nobody --); fi
pids=()
cleanup() {
  set +e
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  "${as_db[@]}" "$PGBIN/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

port=55432
while (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
mkdir "$work/pg" && chown "$("${as_db[@]}" id -u)" "$work/pg" 2>/dev/null || true
"${as_db[@]}" "$PGBIN/initdb" -D "$work/pg" -U fsm --auth=trust -E UTF8 --locale=C >"$work/initdb.log"
"${as_db[@]}" "$PGBIN/pg_ctl" -D "$work/pg" -w -l "$work/pg/server.log" \
  -o "-p $port -k $work/pg -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on" \
  start >/dev/null
psql() { PGOPTIONS='--client-min-messages=warning' command psql -X -q -h 127.0.0.1 -p "$port" -U fsm -v ON_ERROR_STOP=1 "$@"; }
psql -d postgres -c "CREATE DATABASE fsm"
