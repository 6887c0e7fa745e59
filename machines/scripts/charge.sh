#!/usr/bin/env bash
# Charges the order's card (simulated, no network): the `pay` state of order.yaml.
#
#   scripts/charge.sh [--currency EUR] [--limit 1000]
#
# Context in:  amount (required, e.g. 49.90), card (optional; "declined" is declined,
#              "error" makes the gateway fail).
# Events:      ok       {charge_id, charged, currency, paid_at}
#              declined {decline_reason}   when card is "declined" or amount > limit
#              error    {"error": ...} for a bad amount; exit 75 when the gateway fails
set -euo pipefail
. "$(dirname "$0")/lib.sh"

currency=EUR
limit=1000
while [ $# -gt 0 ]; do
  case $1 in
    --currency) currency=${2:?--currency needs a value}; shift 2 ;;
    --limit) limit=${2:?--limit needs a value}; shift 2 ;;
    *) die "unknown option: $1" 2 ;;
  esac
done

# "49.9" -> 4990; anything else is not an amount.
to_cents() {
  local re='^([0-9]{1,12})(\.([0-9]{1,2}))?$'
  [[ $1 =~ $re ]] || return 1
  local frac=${BASH_REMATCH[3]}00
  printf '%s\n' $((10#${BASH_REMATCH[1]} * 100 + 10#${frac:0:2}))
}
format_cents() { printf '%d.%02d\n' $(($1 / 100)) $(($1 % 100)); }

fsm_read_input
amount=$(json_field amount "")
card=$(json_field card "")

limit_cents=$(to_cents "$limit") || die "bad --limit: $limit" 2
if [ -z "$amount" ]; then
  emit_error "context has no amount"
  exit 0
fi
if ! cents=$(to_cents "$amount") || [ "$cents" -le 0 ]; then
  emit_error "bad amount: $amount (want a positive number with at most 2 decimals)"
  exit 0
fi

case $card in
  error) die "payment gateway unavailable (simulated), try again later" 75 ;;
  declined)
    emit declined decline_reason="card declined by issuer"
    exit 0 ;;
esac

if [ "$cents" -gt "$limit_cents" ]; then
  emit declined decline_reason="amount $(format_cents "$cents") $currency is over the limit of $(format_cents "$limit_cents") $currency"
  exit 0
fi

echo "charged $(format_cents "$cents") $currency" >&2
# The task id doubles as an idempotency key: a retried charge is the same charge.
emit ok charge_id="ch_$(safe_name "${FSM_TASK_ID:-local}")" charged="$(format_cents "$cents")" \
  currency="$currency" paid_at="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
