#!/usr/bin/env bash
# Fetches the next page of the crawl queue: the `fetch` state of crawl.yaml.
# LOCAL FILES ONLY: http(s) URLs are never requested, they are recorded as skipped.
#
# Context in:  url        start page (default data/site/index.html, relative to machines/;
#                         absolute paths and file:// URLs work too)
#              out        output folder (default ${TMPDIR:-/tmp}/fsm-crawl/TASK_ID)
#              max_pages  stop after this many pages (default 50)
#              flaky      a page whose fetch fails once (simulated transient error)
#              down       a page whose fetch always fails (the retry node gives up on it)
#              queue, seen, scope, pages, fetch_errors, missing, skipped: crawl state
# Events:      ok    the page is in OUT/pages/, `current` and `page_file` say which
#              skip  not fetched (missing file or not a local URL), popped off the queue
#              done  queue empty or max_pages reached
#              error (non-zero exit) transient failure: queue untouched, the retry node decides
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fsm_read_input
task=$(safe_name "${FSM_TASK_ID:-local}")
out=$(json_field out "${TMPDIR:-/tmp}/fsm-crawl/$task")
max_pages=$(json_field max_pages 50)
pages=$(json_field pages 0)
fetch_errors=$(json_field fetch_errors 0)
missing=$(json_field missing "")
skipped=$(json_field skipped "")
[[ $max_pages =~ ^[0-9]+$ ]] || die "bad max_pages: $max_pages" 2
[[ $pages =~ ^[0-9]+$ ]] || pages=0
[[ $fetch_errors =~ ^[0-9]+$ ]] || fetch_errors=0

if seen=$(json_field seen); then
  queue=$(json_field queue "")
  scope=$(json_field scope "")
else
  # First fetch: the queue starts with the start page; the crawl stays inside its folder.
  start=$(crawl_start "$(json_field url "data/site/index.html")")
  queue=$start
  seen=$start
  scope="$(dirname "$start")/"
  [ "$scope" = "./" ] && scope=''
fi

mkdir -p "$out/pages" || die "cannot create output folder $out"
state=(out="$out" seen="$seen" scope="$scope" fetch_errors:=0)

queue=$(printf '%s' "$queue" | tr -s ' ' | sed 's/^ //; s/ $//')
if [ -z "$queue" ]; then
  emit done "${state[@]}" queue="" stop_reason="queue empty"
  exit 0
fi
if [ "$pages" -ge "$max_pages" ]; then
  emit done "${state[@]}" queue="$queue" stop_reason="max_pages ($max_pages) reached"
  exit 0
fi

head=${queue%% *}
rest=''
[ "$head" = "$queue" ] || rest=${queue#* }

if [[ $head =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]]; then
  echo "not fetching $head: this crawler reads local files only" >&2
  emit skip "${state[@]}" queue="$rest" skipped="${skipped:+$skipped }$head"
  exit 0
fi

path=$(abs_path "$head")
if [ ! -f "$path" ]; then
  echo "not found: $head" >&2
  emit skip "${state[@]}" queue="$rest" missing="${missing:+$missing }$head"
  exit 0
fi

# Simulated network trouble, so the retry node can be exercised without a network.
if [ "$(json_field down "")" = "$head" ]; then
  die "fetch $head: connection refused (simulated)"
fi
if [ "$(json_field flaky "")" = "$head" ] && [ "$fetch_errors" -lt 1 ]; then
  die "fetch $head: connection reset by peer (simulated, fails once)"
fi

[ -r "$path" ] || die "fetch $head: permission denied"
page_file="$out/pages/$(safe_name "$head")"
cp "$path" "$page_file.tmp" && mv -f "$page_file.tmp" "$page_file" || die "fetch $head: cannot write $page_file"

echo "fetched $head ($(wc -c <"$page_file") bytes)" >&2
emit ok "${state[@]}" queue="$rest" current="$head" page_file="$page_file" pages:=$((pages + 1))
