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
. Benchmarks/Scripts/serve-recording.sh
LAUNCHED="$(python3 -c 'import time; print(time.monotonic())')"
serve_a_recording load ${STRESS_ARGS[@]+"${STRESS_ARGS[@]}"}
python3 Benchmarks/Scripts/serve_load_client.py --port "$PORT" --server-pid "$SERVE_PID" \
    --launched "$LAUNCHED" --seconds "$SECONDS_TO_RUN"
echo "trace size: $(du -h "$WORK/load.trace" | cut -f1)" >&2
