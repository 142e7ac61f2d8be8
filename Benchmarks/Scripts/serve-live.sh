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
SERVE_BIN="${SERVE_LIVE_BIN:-}"
. Benchmarks/Scripts/serve-recording.sh
serve_a_recording live "${STRESS_ARGS[@]}"
python3 Benchmarks/Scripts/serve_live_client.py --port "$PORT" --server-pid "$SERVE_PID" --events "$EVENTS" \
    ${SERVE_LIVE_QUESTIONS:+--questions "$SERVE_LIVE_QUESTIONS"}
echo "trace size: $(du -h "$WORK/live.trace" | cut -f1), load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
