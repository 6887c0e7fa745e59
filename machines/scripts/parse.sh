#!/usr/bin/env bash
# Extracts the title and links of the fetched page and queues the new local pages:
# the `parse` state of crawl.yaml. Only pages inside the crawl's scope (the start page's
# folder) ending in .html/.htm are queued; other links are recorded, never followed.
#
# Context in:  current, page_file, queue, seen, scope, out (set by fetch.sh)
# Writes:      OUT/index/PAGE.tsv   "page<TAB>url<TAB>title", then "link<TAB>url<TAB>kind" lines
# Events:      ok    more pages queued
#              done  the queue is empty
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fsm_read_input
current=$(json_field current) || die "context has no current page; run fetch first"
page_file=$(json_field page_file) || die "context has no page_file; run fetch first"
out=$(json_field out) || die "context has no out folder"
queue=$(json_field queue "")
seen=$(json_field seen "")
scope=$(json_field scope "")
[ -r "$page_file" ] || die "fetched copy of $current is gone: $page_file"

title=$(grep -io '<title[^>]*>[^<]*</title>' "$page_file" | head -n 1 | sed -E 's/<[^>]*>//g; s/^[[:space:]]+|[[:space:]]+$//g' || true)
title=${title//$'\t'/ }
base=$(dirname "$current")

mkdir -p "$out/index"
record="$out/index/$(safe_name "$current").tsv"
printf 'page\t%s\t%s\n' "$current" "$title" >"$record.tmp"

new=0
total=0
while IFS= read -r link; do
  total=$((total + 1))
  link=${link%%#*}
  case $link in
    '' ) continue ;;                       # same-page anchor
    mailto:* | tel:* | javascript:* | data:* )
      printf 'link\t%s\t%s\n' "$link" other >>"$record.tmp"; continue ;;
  esac
  if [[ $link =~ ^[A-Za-z][A-Za-z0-9+.-]*: || $link == //* ]]; then
    printf 'link\t%s\t%s\n' "$link" external >>"$record.tmp"; continue
  fi
  link=${link%%\?*}
  case $link in
    */ | '') link="${link}index.html" ;;
  esac
  if [[ $link == /* ]]; then
    target=$(norm_path "${scope}${link#/}")   # root-relative: against the site's root
  else
    target=$(norm_path "$base/$link")
  fi
  if [[ $target != "$scope"* || $target == ..* ]]; then
    printf 'link\t%s\t%s\n' "$target" out-of-scope >>"$record.tmp"; continue
  fi
  printf 'link\t%s\t%s\n' "$target" internal >>"$record.tmp"
  case $target in
    *.html | *.htm | *.HTML | *.HTM) ;;
    *) continue ;;
  esac
  if [[ " $seen " != *" $target "* ]]; then
    seen="$seen $target"
    queue="${queue:+$queue }$target"
    new=$((new + 1))
  fi
done < <(grep -ioE "href[[:space:]]*=[[:space:]]*(\"[^\"]*\"|'[^']*')" "$page_file" \
           | sed -E "s/^[^=]*=[[:space:]]*[\"']//; s/[\"']\$//" || true)
mv -f "$record.tmp" "$record"

echo "parsed $current: \"$title\", $total links, $new new" >&2
event=ok
[ -n "$queue" ] || event=done
emit "$event" queue="$queue" seen="$seen" last_title="$title" links_found:=$total
