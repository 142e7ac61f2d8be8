#!/usr/bin/env bash
# `reactor-inspect serve`'s on-demand panels on a trace still growing
# (Benchmarks/README.md, "serve's panels on a growing trace"): the stress
# sample records with --loop, serve follows it, and once the trace holds
# EVENTS events a client asks each panel's question (the page's requests) and
# times the answer while the recording goes on. Prints one line per question.
#
#   Benchmarks/Scripts/serve-live.sh [EVENTS] [STRESS ARGUMENTS…]
#
# EVENTS defaults to 100000000; the stress arguments to
# `--writes-per-second 320` (1,000 computations: about a million events a second). Release builds;
# the trace (about 3 bytes an event) goes to a temporary folder, removed afterwards.
# SERVE_LIVE_BIN=DIR takes reactor-inspect and stress from DIR instead (another build to compare);
# SERVE_LIVE_QUESTIONS=moments asks only the state/graph questions about moments.
set -euo pipefail
cd "$(dirname "$0")/../.."
EVENTS="${1:-100000000}"
shift || true
STRESS_ARGS=("$@")
[ ${#STRESS_ARGS[@]} -gt 0 ] || STRESS_ARGS=(--writes-per-second 320)
if [ -n "${SERVE_LIVE_BIN:-}" ]; then
    BIN="$SERVE_LIVE_BIN"
else
    swift build -c release --product reactor-inspect >/dev/null
    swift build -c release --product stress >/dev/null
    BIN="$(swift build -c release --show-bin-path)"
fi
WORK="$(mktemp -d)"
cleanup() {
    [ -n "${SERVE_PID:-}" ] && kill "$SERVE_PID" 2>/dev/null || true
    [ -n "${STRESS_PID:-}" ] && kill "$STRESS_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
"$BIN/stress" --loop --trace "$WORK/live.trace" "${STRESS_ARGS[@]}" >"$WORK/stress.out" 2>&1 &
STRESS_PID=$!
"$BIN/reactor-inspect" serve "$WORK/live.trace" --port 0 >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVE_PID=$!
for _ in $(seq 100); do grep -q "http://" "$WORK/serve.out" 2>/dev/null && break; sleep 0.1; done
PORT="$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$WORK/serve.out")"
[ -n "$PORT" ] || { echo "serve printed no address" >&2; cat "$WORK/serve.err" >&2; exit 1; }
python3 Benchmarks/Scripts/serve_live_client.py --port "$PORT" --server-pid "$SERVE_PID" --events "$EVENTS" \
    ${SERVE_LIVE_QUESTIONS:+--questions "$SERVE_LIVE_QUESTIONS"}
echo "trace size: $(du -h "$WORK/live.trace" | cut -f1), load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
