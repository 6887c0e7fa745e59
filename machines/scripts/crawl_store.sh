#!/usr/bin/env bash
# Stores the crawl's results: the `store` state of crawl.yaml. Merges the per-page records
# of parse.sh into one pages file, one links file and a short report, all in OUT.
#
#   scripts/crawl_store.sh [--format tsv|csv]
#
# Context in:  out, missing, skipped, gave_up
# Events:      ok {report, pages_file, links_file, pages, links}
set -euo pipefail
. "$(dirname "$0")/lib.sh"

format=tsv
while [ $# -gt 0 ]; do
  case $1 in
    --format) format=${2:?--format needs a value}; shift 2 ;;
    *) die "unknown option: $1" 2 ;;
  esac
done
case $format in
  tsv) to_format() { cat; } ;;
  # CSV: every field quoted, quotes doubled.
  csv) to_format() { sed -E 's/"/""/g; s/^/"/; s/$/"/; s/\t/","/g'; } ;;
  *) die "bad --format: $format (tsv or csv)" 2 ;;
esac

fsm_read_input
task=$(safe_name "${FSM_TASK_ID:-local}")
out=$(json_field out "${TMPDIR:-/tmp}/fsm-crawl/$task")
mkdir -p "$out/index"

pages_file="$out/pages.$format"
links_file="$out/links.$format"
report="$out/report.txt"
shopt -s nullglob
records=("$out"/index/*.tsv)

{
  printf 'url\ttitle\tlinks\n'
  for r in "${records[@]}"; do
    printf '%s\t%s\n' "$(sed -n '1s/^page\t//p' "$r")" "$(grep -c '^link' "$r" || true)"
  done | sort
} | to_format >"$pages_file.tmp"
{
  printf 'from\tto\tkind\n'
  for r in "${records[@]}"; do
    from=$(sed -n '1s/^page\t\([^\t]*\).*/\1/p' "$r")
    sed -n '2,$s/^link\t//p' "$r" | sed "s|^|$(printf '%s' "$from" | sed 's/[|&\\]/\\&/g')\t|"
  done | sort -u
} | to_format >"$links_file.tmp"
mv -f "$pages_file.tmp" "$pages_file"
mv -f "$links_file.tmp" "$links_file"

pages=${#records[@]}
links=$(($(wc -l <"$links_file") - 1))
missing=$(json_field missing "")
skipped=$(json_field skipped "")
gave_up=$(json_field gave_up "")
{
  echo "crawl ${FSM_TASK_ID:-local}: $pages pages, $links distinct links"
  echo "missing (not found): ${missing:-none}"
  echo "skipped (not local): ${skipped:-none}"
  echo "gave up (errors):    ${gave_up:-none}"
  echo "pages: $pages_file"
  echo "links: $links_file"
} >"$report.tmp"
mv -f "$report.tmp" "$report"

cat "$report" >&2
emit ok report="$report" pages_file="$pages_file" links_file="$links_file" pages:=$pages links:=$links
