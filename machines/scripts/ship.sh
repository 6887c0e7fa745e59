#!/usr/bin/env bash
# Books the parcel with a carrier (simulated, no network): the `ship` state of order.yaml.
#
#   scripts/ship.sh [--carrier dhl]
#
# Context in:  flaky (optional; true makes the carrier fail the first attempt),
#              address (optional, echoed into the label).
# Events:      ok {tracking, carrier, shipped_at}; a failure is a non-zero exit with the
#              message on stderr, which order.yaml's `error` edge turns into ship_later.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

carrier=dhl
while [ $# -gt 0 ]; do
  case $1 in
    --carrier) carrier=${2:?--carrier needs a value}; shift 2 ;;
    *) die "unknown option: $1" 2 ;;
  esac
done

fsm_read_input
if json_true flaky && [ "$(fsm_attempt)" -le 1 ]; then
  die "carrier $carrier: booking API timed out (simulated, attempt $(fsm_attempt))" 1
fi

address=$(json_field address "")
tracking=$(printf '%s' "$carrier" | tr '[:lower:]' '[:upper:]')-$(safe_name "${FSM_TASK_ID:-local}")
echo "label printed for ${address:-the address on file}, tracking $tracking" >&2
emit ok tracking="$tracking" carrier="$carrier" shipped_at="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
