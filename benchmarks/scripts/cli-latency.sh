#!/bin/sh
# Times `memhook search` from process start to exit, RUNS times per path, and prints p50, p99 and
# max in milliseconds, on a store of 10,000 generated memories made with MiniLM:
#   local        no server: the command opens the store read-only and loads the model (today's path)
#   served       a memhook serve runs for the directory: `java -jar memhook.jar search …`
#   served+fast  the same with bin/memhook's short-lived-JVM flags (client compiler, serial GC)
#   cds          the same as served, with an AppCDS archive of the classes a served search loads
#   cds+fast     cds with the fast flags
#   noshare      served with -Xshare:off: what the JDK's own default CDS archive is worth
#   curl         curl posting the same command to POST /cli: the floor of a launcher without a JVM
# The served paths run interleaved, one of each per round, so that the machine's load falls on all
# alike; local runs first, before the server starts. Every run's output is checked against the
# first served one, and that against the local one.
# Usage: benchmarks/scripts/cli-latency.sh [RUNS] [LOCAL_RUNS]   (defaults 50 and 10; run from the
# repository root after `mvn -B -q -pl memory-cli,benchmarks -am -DskipTests package`; needs curl and
# GNU date). The store is built once (about 8 minutes here) by ServeLatency under
# ${TMPDIR:-/tmp}/memhook-bench/serve-n10000, or taken from STORE.
set -eu
runs=${1:-50}
local_runs=${2:-10}
jar=memory-cli/target/memhook.jar
store=${STORE:-${TMPDIR:-/tmp}/memhook-bench/serve-n10000}
query="which cache settings did we pick for sessions"
work=$(mktemp -d)
server=""
trap 'if [ -n "$server" ]; then kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

java -Dai.djl.offline=true -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.ServeLatency \
  --jar "$jar" --size 10000 --dir "$store" --build-only

search() { # $@: JVM options; runs memhook search against the store, stdout to $work/out
  java "$@" -jar "$jar" search --dir "$store" --scope bench/shop "$query" >"$work/out" 2>"$work/err"
}

timed() { # $1: label; rest: the command. Appends the run's microseconds to $work/$1.times
  label=$1
  shift
  start=$(date +%s%N)
  "$@"
  end=$(date +%s%N)
  echo $(((end - start) / 1000)) >>"$work/$label.times"
  if [ -n "${expected:-}" ] && ! cmp -s "$work/out" "$expected"; then
    echo "$label printed something else:" >&2
    cat "$work/out" "$work/err" >&2
    exit 1
  fi
}

report() { # $1: label
  sort -n "$work/$1.times" | awk -v label="$1" '{ t[NR] = $1 } END {
    p50 = t[int(NR * 0.50 + 0.5)]; p99 = t[int(NR * 0.99 + 0.5)]
    if (p50 == "") p50 = t[1]; if (p99 == "") p99 = t[NR]
    printf "%-12s runs %3d  p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms\n", label, NR, p50 / 1000, p99 / 1000, t[NR] / 1000 }'
}

# (d) today's path, no server
rm -f "$store/serve.json"
i=0
while [ "$i" -lt "$local_runs" ]; do
  timed local search
  i=$((i + 1))
done
cp "$work/out" "$work/local.out"
[ -s "$work/local.out" ] || { echo "the local search printed nothing" >&2; exit 1; }

java -XX:+UseSerialGC -jar "$jar" serve --dir "$store" --port 0 >/dev/null 2>"$work/serve.err" &
server=$!
i=0
until [ -f "$store/serve.json" ] && grep -q "\"pid\":$server," "$store/serve.json"; do
  sleep 0.2
  i=$((i + 1))
  [ "$i" -lt 900 ] || { echo "the server did not start:" >&2; cat "$work/serve.err" >&2; exit 1; }
done
port=$(sed 's/.*"port":\([0-9]*\).*/\1/' "$store/serve.json")
token=$(sed 's/.*"token":"\([0-9a-f]*\)".*/\1/' "$store/serve.json")
version=$(sed 's/.*"version":"\([^"]*\)".*/\1/' "$store/serve.json")
dir=$(cd "$store" && pwd)
printf '{"version":"%s","cwd":"%s","dir":"%s","args":["search","--dir","%s","--scope","bench/shop","%s"],"interactive":false}' \
  "$version" "$PWD" "$dir" "$dir" "$query" >"$work/request.json"
viacurl() {
  curl -sf -H "Authorization: Bearer $token" --data-binary @"$work/request.json" \
    "http://127.0.0.1:$port/cli" >"$work/curl.out"
}

search # the first served run: its output is what every other run must print
cmp -s "$work/out" "$work/local.out" || { echo "served and local output differ" >&2; diff "$work/local.out" "$work/out" >&2; exit 1; }
cp "$work/out" "$work/served.out"
expected="$work/served.out"
# the archive: the classes one served search loads, dumped at its exit
search -XX:ArchiveClassesAtExit="$work/memhook.jsa"
cds="-XX:SharedArchiveFile=$work/memhook.jsa"
fast="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
i=0
while [ "$i" -lt 10 ]; do # warm the server's search path
  viacurl
  i=$((i + 1))
done

i=0
while [ "$i" -lt "$runs" ]; do
  timed served search
  # shellcheck disable=SC2086 # the options hold several words
  timed served+fast search $fast
  timed cds search "$cds"
  # shellcheck disable=SC2086
  timed cds+fast search "$cds" $fast
  timed noshare search -Xshare:off
  timed curl viacurl
  i=$((i + 1))
done
grep -q '"exit":0' "$work/curl.out" || { echo "curl got: $(cat "$work/curl.out")" >&2; exit 1; }

echo "store: $store, query: $query, $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "archive: $(du -k "$work/memhook.jsa" | cut -f1) KiB"
for label in local served served+fast cds cds+fast noshare curl; do
  report "$label"
done
