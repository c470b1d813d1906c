#!/bin/sh
# Times memhook-hook, the no-JVM hook script `memhook install` writes, start to exit, over RUNS
# runs in each of three states, and prints p50, p99 and max in milliseconds:
#   down     no server: no serve.json, the payload is encrypted into the spool
#   stale    a server died and left serve.json: its pid is dead, so the payload is spooled
#   refused  serve.json names a live process whose port refuses: curl fails, then it is spooled
#   up       a fake server (python3) answers /hook with a fixed context, nothing is spooled
# and first the floor: a shell that only reads its input, which no hook can beat.
# Usage: benchmarks/scripts/hook-script-latency.sh [RUNS]   (default 300; needs openssl, curl,
# GNU date for nanoseconds, and python3 for "up"). Run from the repository root.
set -eu
runs=${1:-300}
script=memory-cli/src/main/resources/dev/memhook/cli/memhook-hook
work=$(mktemp -d)
trap 'kill "${fake:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/store/bin"
cp "$script" "$work/store/bin/memhook-hook"
openssl rand -hex 32 >"$work/store/spool.key" # as install makes it
payload='{"session_id":"bench","transcript_path":"/nowhere","cwd":"/home/dev/shop","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"mvn -q test"},"tool_response":{"stdout":"Tests run: 42, Failures: 0","stderr":""}}'

time_runs() { # $1: label; $2: what runs (default the hook script)
  : >"$work/times"
  i=0
  while [ "$i" -lt "$runs" ]; do
    start=$(date +%s%N)
    printf '%s' "$payload" | sh ${2:-"$work/store/bin/memhook-hook"} me/shop >/dev/null
    end=$(date +%s%N)
    echo $(((end - start) / 1000)) >>"$work/times"
    i=$((i + 1))
  done
  sort -n "$work/times" | awk -v label="$1" '{ t[NR] = $1 } END {
    p50 = t[int(NR * 0.50 + 0.5)]; p99 = t[int(NR * 0.99 + 0.5)]
    printf "%-6s runs %d  p50 %.1f ms  p99 %.1f ms  max %.1f ms\n", label, NR, p50 / 1000, p99 / 1000, t[NR] / 1000 }'
}

# the floor on this machine now: a shell that only reads its input
echo 'cat >/dev/null' >"$work/floor.sh"
time_runs floor "$work/floor.sh"
time_runs down
spooled=$(find "$work/store/hook-spool" -name '*.json.enc' | wc -l)
echo "       spooled files: $spooled (encrypted), dropped: $(cat "$work/store/hook-dropped" 2>/dev/null | wc -l)"
rm -rf "$work/store/hook-spool"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
token=$(openssl rand -hex 32)
sh -c 'exit 0' &
dead=$!
wait "$dead" || true
echo "{\"pid\":$dead,\"port\":$port,\"token\":\"$token\",\"version\":\"bench\"}" >"$work/store/serve.json"
time_runs stale
rm -rf "$work/store/hook-spool"
echo "{\"pid\":$$,\"port\":$port,\"token\":\"$token\",\"version\":\"bench\"}" >"$work/store/serve.json"
time_runs refused
rm -rf "$work/store/hook-spool"

cat >"$work/fake.py" <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = b'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"- mem_1 (fact): x"}}'
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
python3 "$work/fake.py" "$port" &
fake=$!
echo "{\"pid\":$fake,\"port\":$port,\"token\":\"$token\",\"version\":\"bench\"}" >"$work/store/serve.json"
sleep 1
time_runs up
echo "       spooled files: $(find "$work/store/hook-spool" -name '*.json.enc' 2>/dev/null | wc -l)"
