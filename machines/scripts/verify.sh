#!/usr/bin/env bash
# Verifies the archive against its sha256 file and counts its files against the source's:
# the `verify` state of backup.yaml.
#
# Context in:  archive, checksum_file (from archive.sh), files (from backup_check.sh)
# Events:      ok       {verified_at}
#              corrupt  {corrupt_reason}: checksum mismatch, unreadable archive or wrong file count
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fsm_read_input
archive=$(json_field archive) || die "context has no archive; run the archive state first"
checksum_file=$(json_field checksum_file "$archive.sha256")
files=$(json_field files "")

if [ ! -f "$archive" ]; then
  emit corrupt corrupt_reason="archive is missing: $archive"
  exit 0
fi
if [ ! -f "$checksum_file" ]; then
  emit corrupt corrupt_reason="checksum file is missing: $checksum_file"
  exit 0
fi
if ! (cd "$(dirname "$checksum_file")" && sha256sum --check --status "$(basename "$checksum_file")"); then
  emit corrupt corrupt_reason="sha256 mismatch for $archive"
  exit 0
fi
# GNU tar detects the compression itself when listing.
if ! listing=$(tar -tf "$archive" 2>/dev/null); then
  emit corrupt corrupt_reason="tar cannot read $archive"
  exit 0
fi
entries=$(printf '%s\n' "$listing" | grep -vc '/$' || true)
if [[ $files =~ ^[0-9]+$ ]] && [ "$entries" -ne "$files" ]; then
  emit corrupt corrupt_reason="archive holds $entries files, the source had $files"
  exit 0
fi

echo "verified $archive: checksum ok, $entries files" >&2
emit ok verified_at="$(date -u +%Y-%m-%dT%H:%M:%SZ)" verified_files:=$entries
