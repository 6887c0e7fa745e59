#!/usr/bin/env bash
# Archives the source folder with tar and writes a sha256 file beside the archive:
# the `archive` (gzip) and `archive_plain` (no compression) states of backup.yaml.
#
#   scripts/archive.sh [--compress gzip|none]
#
# Context in:  source, dest, name (from backup_check.sh)
#              slow    seconds to stall before a gzip archive (simulates a slow run, to
#                      exercise the `timeout` edge; default 0)
#              tamper  true: damage the archive after its checksum is written (verify fails)
# Events:      ok {archive, checksum_file, sha256, compressed, archive_bytes}
# The archive is named NAME-TASKID.tar[.gz], so a retried attempt overwrites its own file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

compress=gzip
while [ $# -gt 0 ]; do
  case $1 in
    --compress) compress=${2:?--compress needs gzip or none}; shift 2 ;;
    --no-compress) compress=none; shift ;;
    *) die "unknown option: $1" 2 ;;
  esac
done
case $compress in
  gzip) ext=tar.gz; zflag=-z ;;
  none) ext=tar; zflag= ;;
  *) die "bad --compress: $compress (gzip or none)" 2 ;;
esac

fsm_read_input
source=$(json_field source) || die "context has no source; run the check state first"
dest=$(json_field dest) || die "context has no dest; run the check state first"
name=$(safe_name "$(json_field name "$(basename "$source")")")
slow=$(json_field slow 0)
[[ $slow =~ ^[0-9]+$ ]] || die "bad slow: $slow (whole seconds)" 2
[ -d "$source" ] || die "source folder not found: $source"
mkdir -p "$dest"

base="$name-$(safe_name "${FSM_TASK_ID:-local}").$ext"
archive="$dest/$base"
tmp="$dest/.$base.partial"
trap 'rm -f "$tmp"' EXIT

if [ "$compress" = gzip ] && [ "$slow" -gt 0 ]; then
  echo "compressing slowly (simulated ${slow}s stall)" >&2
  sleep "$slow"
fi
tar $zflag -cf "$tmp" -C "$(dirname "$source")" "$(basename "$source")" || die "tar failed for $source"
mv -f "$tmp" "$archive"
(cd "$dest" && sha256sum "$base" >"$base.sha256.partial" && mv -f "$base.sha256.partial" "$base.sha256")
sha=$(cut -d ' ' -f 1 "$archive.sha256")

if json_true tamper; then
  echo "tampering with $archive (simulated damage)" >&2
  printf 'bit rot' >>"$archive"
fi

compressed=false
[ "$compress" = gzip ] && compressed=true
size=$(stat -c %s "$archive")
echo "wrote $archive ($size bytes, sha256 $sha)" >&2
emit ok archive="$archive" checksum_file="$archive.sha256" sha256="$sha" \
  compressed:=$compressed archive_bytes:=$size
