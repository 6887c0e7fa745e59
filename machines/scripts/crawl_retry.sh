#!/usr/bin/env bash
# The crawl's retry node: fetch.sh's `error` edge leads here (crawl.yaml, state `retry`).
# Counts the failures of the page at the head of the queue and decides what to do.
#
#   scripts/crawl_retry.sh [--max 3]
#
# Context in:  queue, fetch_errors, gave_up, strict (true: abort the crawl instead of skipping)
# Events:      again    fewer than --max failures: try the same page again (after the delay)
#              give_up  --max failures: drop the page, note it in gave_up, crawl on
#              abort    --max failures and strict is true
set -euo pipefail
. "$(dirname "$0")/lib.sh"

max=3
while [ $# -gt 0 ]; do
  case $1 in
    --max) max=${2:?--max needs a value}; shift 2 ;;
    *) die "unknown option: $1" 2 ;;
  esac
done
[[ $max =~ ^[1-9][0-9]*$ ]] || die "bad --max: $max" 2

fsm_read_input
errors=$(json_field fetch_errors 0)
[[ $errors =~ ^[0-9]+$ ]] || errors=0
errors=$((errors + 1))
if seen=$(json_field seen); then
  queue=$(json_field queue "" | tr -s ' ' | sed 's/^ //; s/ $//')
else
  # The start page itself failed: fetch.sh had not yet stored the queue.
  queue=$(crawl_start "$(json_field url "data/site/index.html")")
  seen=$queue
fi
gave_up=$(json_field gave_up "")
head=${queue%% *}

if [ "$errors" -lt "$max" ]; then
  echo "fetch of ${head:-?} failed $errors time(s), trying again" >&2
  emit again fetch_errors:=$errors
  exit 0
fi

gave_up="${gave_up:+$gave_up }$head"
if json_true strict; then
  echo "fetch of ${head:-?} failed $errors times; strict crawl, aborting" >&2
  emit abort fetch_errors:=$errors gave_up="$gave_up"
  exit 0
fi
rest=''
[ "$head" = "$queue" ] || rest=${queue#* }
echo "fetch of ${head:-?} failed $errors times, giving up on it" >&2
emit give_up fetch_errors:=0 queue="$rest" seen="$seen" gave_up="$gave_up"
