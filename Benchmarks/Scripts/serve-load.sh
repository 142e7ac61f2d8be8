#!/usr/bin/env bash
# `reactor-inspect serve` under load (Benchmarks/README.md, "serve under load"):
# the stress sample records with --loop, serve follows the trace, and a client
# reads the event stream the page draws from. Reports how far the figures
# trail the trace (lag) and the server's RSS, sampled from /proc every few seconds.
#
#   Benchmarks/Scripts/serve-load.sh [SECONDS] [STRESS ARGUMENTS…]
#
# SECONDS defaults to 600 (10 minutes). Release builds; the trace goes to a
# temporary folder (about 3 bytes an event) and is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_TO_RUN="${1:-600}"
shift || true
STRESS_ARGS=("$@")
swift build -c release --product reactor-inspect >/dev/null
swift build -c release --product stress >/dev/null
BIN="$(swift build -c release --show-bin-path)"
WORK="$(mktemp -d)"
cleanup() {
    [ -n "${SERVE_PID:-}" ] && kill "$SERVE_PID" 2>/dev/null || true
    [ -n "${STRESS_PID:-}" ] && kill "$STRESS_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
LAUNCHED="$(python3 -c 'import time; print(time.monotonic())')"
"$BIN/stress" --loop --trace "$WORK/load.trace" ${STRESS_ARGS[@]+"${STRESS_ARGS[@]}"} >"$WORK/stress.out" 2>&1 &
STRESS_PID=$!
"$BIN/reactor-inspect" serve "$WORK/load.trace" --port 0 >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVE_PID=$!
for _ in $(seq 100); do grep -q "http://" "$WORK/serve.out" 2>/dev/null && break; sleep 0.1; done
PORT="$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$WORK/serve.out")"
[ -n "$PORT" ] || { echo "serve printed no address" >&2; cat "$WORK/serve.err" >&2; exit 1; }
python3 Benchmarks/Scripts/serve_load_client.py --port "$PORT" --server-pid "$SERVE_PID" \
    --launched "$LAUNCHED" --seconds "$SECONDS_TO_RUN"
echo "trace size: $(du -h "$WORK/load.trace" | cut -f1)" >&2
