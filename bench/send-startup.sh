#!/usr/bin/env bash
# Start-up benchmark of `fsm send ID pause|run` to a store a runner (`fsm run`) serves, cold (a
# new JVM every run), against an empty-main hello world on Java 17 and on the launcher's JVM.
# Rounds interleave the commands so machine load hits all alike; each send alternates pause and
# run. Prints wall median and minimum, and median CPU (user+sys), in ms.
#
#   bench/send-startup.sh [RUNS]      RUNS defaults to 20; needs cli/target/fsm.jar
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${1:-20}
jar=$root/cli/target/fsm.jar
[[ -f $jar ]] || { echo "bench: build first: mvn -q -B package -DskipTests" >&2; exit 1; }
java17=${JAVA17:-$(ls -d /usr/lib/jvm/java-17-openjdk-*/bin/java 2>/dev/null | head -1)}
[[ -x $java17 ]] || { echo "bench: no Java 17 found; set JAVA17=/path/to/java" >&2; exit 1; }

work=$(mktemp -d)
runner=""
trap '[[ -n $runner ]] && kill "$runner" && wait "$runner"; rm -rf "$work"' EXIT
printf 'public class Hello { public static void main(String[] a) { } }\n' > "$work/Hello.java"
"${java17%/java}/javac" -d "$work" "$work/Hello.java"
export XDG_CACHE_HOME=$work/cache
mkdir "$work/machines"
printf 'machine: nap\nstates:\n  a: {run: builtin:sleep 1h, on: {ok: b}}\n  b: {final: completed}\n' \
  > "$work/machines/nap.yaml"
for id in a b c; do
  "$java17" -jar "$jar" --store "$work/store" --machines "$work/machines" start nap --id $id \
    >/dev/null 2>&1
done
"$java17" -jar "$jar" --store "$work/store" --machines "$work/machines" run >/dev/null 2>&1 &
runner=$!
for _ in $(seq 300); do [[ -S $work/store/control.sock ]] && break; sleep 0.1; done

# The launcher records its start-up caches in the background on first use; wait for them.
"$root/bin/fsm" --store "$work/store" send a pause >/dev/null
FSM_JAVA=$java17 "$root/bin/fsm" --store "$work/store" send b pause >/dev/null
for _ in $(seq 900); do
  (( $(compgen -G "$XDG_CACHE_HOME/fsm/fsm-*.[aj][os][ta]" | wc -l) >= 2 )) \
    && ! compgen -G "$XDG_CACHE_HOME/fsm/*.lock" >/dev/null && break
  sleep 0.1
done
launcher_java=$("$root/bin/fsm" --version | tail -1)
flags="-XX:+UseSerialGC -XX:-UsePerfData -Xlog:disable -XX:TieredStopAtLevel=1"
java25=$(ls -d /usr/lib/jvm/temurin-25*/bin/java 2>/dev/null | head -1 || true)

names=("java17 hello" "java17 -jar fsm.jar send" "bin/fsm send on java17 (AppCDS)")
commands=("$java17 -cp $work Hello" "$java17 -jar $jar --store $work/store send a"
  "env FSM_JAVA=$java17 $root/bin/fsm --store $work/store send b")
if [[ -n $java25 ]]; then
  names+=("java25 hello, launcher flags" "bin/fsm send on java25 (AOT cache)")
  commands+=("$java25 $flags -cp $work Hello" "$root/bin/fsm --store $work/store send c")
fi
declare -A wall cpu
words=(pause run)
TIMEFORMAT='%R %U %S'
for (( r = 0; r < runs + 2; r++ )); do
  for i in $(shuf -e "${!commands[@]}"); do
    command=${commands[$i]}
    [[ $command == *" send "* ]] && command+=" ${words[r % 2]}"
    t=$( { time $command >/dev/null 2>&1; } 2>&1 )
    (( r < 2 )) && continue   # warm-up rounds: file cache, not JVM
    read -r real user sys <<< "$t"
    wall[$i]+="$real"$'\n'
    cpu[$i]+="$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')"$'\n'
  done
done

median() { sort -n | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.0f", m * 1000}'; }
minimum() { sort -n | head -1 | awk '{printf "%.0f", $1 * 1000}'; }
printf '%-40s %10s %8s %10s\n' "command ($runs runs)" "median ms" "min ms" "CPU ms"
for i in "${!commands[@]}"; do
  printf '%-40s %10s %8s %10s\n' "${names[$i]}" "$(printf '%s' "${wall[$i]}" | median)" \
    "$(printf '%s' "${wall[$i]}" | minimum)" "$(printf '%s' "${cpu[$i]}" | median)"
done
echo "JDK used by bin/fsm: $launcher_java"
