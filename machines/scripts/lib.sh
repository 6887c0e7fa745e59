# shellcheck shell=bash
# Shared helpers for the example actions. Source it, don't run it:
#
#   . "$(dirname "$0")/lib.sh"
#   fsm_read_input                      # reads the action's JSON from stdin
#   amount=$(json_field amount "")      # a simple field of the task's context
#   emit ok charge_id="ch_1" cents:=1250
#
# Only coreutils, sed, grep and bash itself: no jq, no python.

# The folder of the machine files (scripts/..), so actions find data/ wherever they run.
FSM_MACHINES_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FSM_INPUT='{}'
FSM_CONTEXT='{}'

# Reads the action's input ({"id","machine","version","state","attempt","context"}) from stdin.
# JSON can't hold raw newlines or tabs inside strings, so flattening them is safe.
fsm_read_input() {
  local raw=''
  if [ ! -t 0 ]; then raw=$(cat | tr '\r\n\t' '   '); fi
  [ -n "${raw//[[:space:]]/}" ] || raw='{}'
  FSM_INPUT=$raw
  # Field look-ups search the context first: everything after the first "context" key.
  local re='"context"[[:space:]]*:(.*)$'
  if [[ $FSM_INPUT =~ $re ]]; then FSM_CONTEXT=${BASH_REMATCH[1]}; else FSM_CONTEXT=$FSM_INPUT; fi
}

# json_field NAME [DEFAULT]
# Prints the value of the first "NAME" key in the context: strings unescaped, numbers and
# booleans as written. Made for flat contexts of simple values; nested objects and arrays
# are not parsed. A missing or null field prints DEFAULT (status 0) or nothing (status 1).
json_field() {
  local name=$1 re value
  [[ $name =~ ^[A-Za-z0-9_-]+$ ]] || { echo "json_field: bad field name '$name'" >&2; return 2; }
  re='"'"$name"'"[[:space:]]*:[[:space:]]*("(([^"\]|\\.)*)"|-?[0-9][0-9.eE+-]*|true|false|null)'
  if [[ $FSM_CONTEXT =~ $re ]] && [ "${BASH_REMATCH[1]}" != null ]; then
    if [ "${BASH_REMATCH[1]:0:1}" = '"' ]; then
      value=${BASH_REMATCH[2]}
      value=${value//\\\\/$'\001'}
      value=${value//\\\"/\"}
      value=${value//\\\//\/}
      value=${value//\\n/$'\n'}
      value=${value//\\t/$'\t'}
      value=${value//$'\001'/\\}
    else
      value=${BASH_REMATCH[1]}
    fi
    printf '%s\n' "$value"
    return 0
  fi
  if [ $# -ge 2 ]; then printf '%s\n' "$2"; return 0; fi
  return 1
}

# json_true NAME: succeeds when the context field is true (or the string "true").
json_true() {
  [ "$(json_field "$1" false)" = true ]
}

# json_str VALUE: VALUE as a quoted JSON string.
json_str() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\r'/\\r}
  s=${s//$'\t'/\\t}
  printf '"%s"' "$s"
}

# emit EVENT [key=string ...] [key:=raw-json ...]
# Prints the result line {"event":EVENT,"context":{...}}; the context is merged shallowly
# into the task's. key:=value passes numbers, booleans and null unquoted.
emit() {
  local event=$1 out sep='' arg key
  shift
  out='{"event":'$(json_str "$event")
  if [ $# -gt 0 ]; then
    out+=',"context":{'
    for arg in "$@"; do
      if [[ $arg == *:=* && ${arg%%:=*} != *=* ]]; then
        key=${arg%%:=*}
        out+="$sep$(json_str "$key"):${arg#*:=}"
      else
        key=${arg%%=*}
        out+="$sep$(json_str "$key"):$(json_str "${arg#*=}")"
      fi
      sep=','
    done
    out+='}'
  fi
  printf '%s}\n' "$out"
}

# emit_error MESSAGE: the protocol's error result (the task goes to fault, or takes `error:`).
emit_error() {
  printf '{"error":%s}\n' "$(json_str "$1")"
}

# die MESSAGE [STATUS]: fail the old way, message on stderr, non-zero exit.
die() {
  printf '%s: %s\n' "$(basename "$0")" "$1" >&2
  exit "${2:-1}"
}

# fsm_attempt: this attempt's number (FSM_ATTEMPT, 1 when unset).
fsm_attempt() {
  local a=${FSM_ATTEMPT:-1}
  [[ $a =~ ^[0-9]+$ ]] || a=1
  printf '%s\n' "$a"
}

# safe_name TEXT: TEXT reduced to [A-Za-z0-9._-], for file names built from task ids.
safe_name() {
  local s=${1//[^A-Za-z0-9._-]/_}
  printf '%s\n' "${s:-task}"
}

# abs_path PATH: PATH made absolute against the machines folder (leaves absolute paths alone).
abs_path() {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$FSM_MACHINES_DIR" "$1" ;;
  esac
}

# norm_path PATH: PATH with `.`, `..` and doubled slashes resolved, without touching the disk.
norm_path() {
  local p=$1 abs='' part
  local -a parts=() out=()
  [[ $p == /* ]] && abs=/
  IFS=/ read -ra parts <<<"$p"
  for part in "${parts[@]}"; do
    case $part in
      '' | .) ;;
      ..)
        if [ ${#out[@]} -gt 0 ] && [ "${out[-1]}" != .. ]; then
          unset 'out[-1]'
        elif [ -z "$abs" ]; then
          out+=(..)
        fi ;;
      *) out+=("$part") ;;
    esac
  done
  local IFS=/
  printf '%s%s\n' "$abs" "${out[*]}"
}

# crawl_start URL: the crawl's first queue entry for a start URL (file:// stripped,
# a folder gets index.html, local paths normalised). Used by fetch.sh and crawl_retry.sh.
crawl_start() {
  local start=${1#file://}
  if [[ $start =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]]; then
    printf '%s\n' "$start"
    return 0
  fi
  case $start in
    */ | '') start="${start}index.html" ;;
  esac
  norm_path "$start"
}
