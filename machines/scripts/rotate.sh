#!/usr/bin/env bash
# Deletes old archives of the same name, keeping the newest N: the `rotate` state of backup.yaml.
# The archive of this task is always kept.
#
#   scripts/rotate.sh [--keep 7]
#
# Context in:  dest, name, archive
# Events:      ok {kept, removed}
set -euo pipefail
. "$(dirname "$0")/lib.sh"

keep=7
while [ $# -gt 0 ]; do
  case $1 in
    --keep) keep=${2:?--keep needs a number}; shift 2 ;;
    *) die "unknown option: $1" 2 ;;
  esac
done
[[ $keep =~ ^[1-9][0-9]*$ ]] || die "bad --keep: $keep (a number from 1)" 2

fsm_read_input
dest=$(json_field dest) || die "context has no dest"
name=$(json_field name) || die "context has no name"
current=$(json_field archive "")
[ -d "$dest" ] || die "destination folder not found: $dest"

shopt -s nullglob
archives=("$dest/$name"-*.tar.gz "$dest/$name"-*.tar)
kept=0
removed=0
if [ ${#archives[@]} -gt 0 ]; then
  # Newest first; names hold no newlines (they are NAME-TASKID.tar[.gz]).
  while IFS= read -r a; do
    if [ "$a" = "$current" ] || [ "$kept" -lt "$keep" ]; then
      kept=$((kept + 1))
    else
      rm -f -- "$a" "$a.sha256"
      echo "removed $a" >&2
      removed=$((removed + 1))
    fi
  done < <(ls -1t -- "${archives[@]}")
fi
echo "kept $kept archive(s), removed $removed" >&2
emit ok kept:=$kept removed:=$removed
