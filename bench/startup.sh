#!/usr/bin/env bash
# Start-up benchmark: `fsm validate` of a 50-state machine, cold (a new JVM every run), against a
# Java 17 hello-world measured in the same run. Rounds interleave the commands so machine load
# hits both alike. Prints medians and minimums in ms and the ratio of medians.
#
#   bench/startup.sh [RUNS]      RUNS defaults to 15; needs cli/target/fsm.jar
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${1:-15}
jar=$root/cli/target/fsm.jar
machine=$root/cli/src/main/resources/dev/fsm/cli/training/fifty.yaml
[[ -f $jar ]] || { echo "bench: build first: mvn -q -B package -DskipTests" >&2; exit 1; }

java17=${JAVA17:-}
if [[ -z $java17 ]]; then
  for c in /usr/lib/jvm/java-17-openjdk-*/bin/java "${JAVA_HOME:-/nonexistent}/bin/java" "$(type -P java)"; do
    [[ -x $c ]] && "$c" -version 2>&1 | grep -q 'version "17' && { java17=$c; break; }
  done
fi
[[ -n $java17 ]] || { echo "bench: no Java 17 found; set JAVA17=/path/to/java" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' > "$work/Hello.java"
"${java17%/java}/javac" -d "$work" "$work/Hello.java"
export XDG_CACHE_HOME=$work/cache

# The launcher records its start-up cache in the background on first use; wait for it.
"$root/bin/fsm" validate "$machine" >/dev/null 2>&1
for _ in $(seq 600); do
  compgen -G "$XDG_CACHE_HOME/fsm/fsm-*.[aj][os][ta]" >/dev/null && [[ ! -d $(echo "$XDG_CACHE_HOME"/fsm/*.lock) ]] && break
  sleep 0.1
done

names=("java17 hello-world" "bin/fsm validate (50 states)" "java -jar fsm.jar validate")
commands=("$java17 -cp $work Hello" "$root/bin/fsm validate $machine" "$java17 -jar $jar validate $machine")
declare -A times
for (( r = 0; r < runs + 2; r++ )); do
  for i in $(shuf -e 0 1 2); do
    start=$EPOCHREALTIME
    ${commands[$i]} >/dev/null 2>&1
    end=$EPOCHREALTIME
    (( r < 2 )) && continue   # warm-up rounds: file cache, not JVM
    times[$i]+="$(( (${end/./} - ${start/./}) ))"$'\n'
  done
done

median() { sort -n | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.1f", m / 1000}'; }
minimum() { sort -n | head -1 | awk '{printf "%.1f", $1 / 1000}'; }
base=$(printf '%s' "${times[0]}" | median)
printf '%-32s %10s %10s %8s\n' "command ($runs runs)" "median ms" "min ms" "ratio"
for i in 0 1 2; do
  med=$(printf '%s' "${times[$i]}" | median)
  printf '%-32s %10s %10s %7.2fx\n' "${names[$i]}" "$med" "$(printf '%s' "${times[$i]}" | minimum)" \
    "$(awk -v a="$med" -v b="$base" 'BEGIN {print a / b}')"
done
echo "JDK used by bin/fsm: $("$root/bin/fsm" --version | tail -1)"
