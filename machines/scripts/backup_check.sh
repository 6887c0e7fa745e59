#!/usr/bin/env bash
# Checks the backup's source and destination before archiving: the `check` state of backup.yaml.
#
# Context in:  source  folder to back up (default data/backup-sample, relative to machines/)
#              dest    folder for the archives (default ${TMPDIR:-/tmp}/fsm-backups)
#              name    archive name prefix (default: the source folder's name)
# Events:      ok     {source, dest, name, files, bytes} with absolute paths
#              empty  the source holds no files: nothing to back up
#              error  (non-zero exit) source missing or dest not writable: the retry policy applies
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fsm_read_input
source=$(abs_path "$(json_field source "data/backup-sample")")
dest=$(abs_path "$(json_field dest "${TMPDIR:-/tmp}/fsm-backups")")
[ -d "$source" ] || die "source folder not found: $source"
[ -r "$source" ] && [ -x "$source" ] || die "source folder not readable: $source"
source=$(cd "$source" && pwd)
name=$(safe_name "$(json_field name "$(basename "$source")")")

mkdir -p "$dest" 2>/dev/null || die "cannot create destination folder: $dest"
probe="$dest/.fsm-write-test.$$"
: >"$probe" 2>/dev/null || die "destination folder not writable: $dest"
rm -f "$probe"
dest=$(cd "$dest" && pwd)
case "$dest/" in
  "$source/"*) die "destination $dest is inside the source $source" ;;
esac

# Regular files only (tar keeps symlinks as links); ** does not follow linked folders.
shopt -s globstar dotglob nullglob
files=0
bytes=0
for f in "$source"/**; do
  if [ -f "$f" ] && [ ! -L "$f" ]; then
    files=$((files + 1))
    bytes=$((bytes + $(stat -c %s "$f")))
  fi
done

if [ "$files" -eq 0 ]; then
  echo "nothing to back up in $source" >&2
  emit empty source="$source" dest="$dest" name="$name" files:=0 bytes:=0
  exit 0
fi
echo "$files files, $bytes bytes in $source" >&2
emit ok source="$source" dest="$dest" name="$name" files:=$files bytes:=$bytes
