#!/usr/bin/env bash
# Replay throughput and peak memory (issue 5): `reactor-inspect hot` (read the
# trace, build the model, rank), `reactor-inspect replay` (every event as a
# line of text, to /dev/null) and `replay --without-lookahead` (the same without
# its first pass for time-ordered old → new and final names, issue 27) on stress
# traces of about 1, 10 and 100 million events, on one thread, timed with
# /usr/bin/time (wall clock, best of RUNS; peak resident memory, largest of RUNS).
# VALUES=64 records with value capture (`--trace-values 64`).
#
#   Benchmarks/replay-throughput.sh                 # from anywhere
#   SIZES="1 10" RUNS=5 Benchmarks/replay-throughput.sh
#   TRACES=/some/dir Benchmarks/replay-throughput.sh  # where the traces go (about 3.2 bytes an event)
#   INSPECT=/path/to/other/reactor-inspect Benchmarks/replay-throughput.sh   # compare another build
#   SCRATCH_PATH=.build-release Benchmarks/replay-throughput.sh   # build there (beside a debug .build in use)
#
# Traces are recorded once (stress --computations 1000, 322 writes per
# million events) and kept in TRACES (default /tmp/reactor-replay) for later runs.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"1 10 100"}
RUNS=${RUNS:-3}
TRACES=${TRACES:-/tmp/reactor-replay}
[ -x /usr/bin/time ] || { echo "replay-throughput: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

SCRATCH_PATH=${SCRATCH_PATH:-.build}
VALUES=${VALUES:-}
swift build -c release --scratch-path "$SCRATCH_PATH" --product reactor-inspect >&2
swift build -c release --scratch-path "$SCRATCH_PATH" --product stress >&2
BIN=$(swift build -c release --scratch-path "$SCRATCH_PATH" --show-bin-path)
INSPECT=${INSPECT:-$BIN/reactor-inspect}
mkdir -p "$TRACES"
SCRATCH=$(mktemp)
trap 'rm -f "$SCRATCH"' EXIT

# measure "COMMAND [FLAGS]" TRACE: prints "seconds peak-kilobytes", best time and largest peak of RUNS runs.
measure() {
    local best="" peak=0 seconds kilobytes
    for _ in $(seq "$RUNS"); do
        # shellcheck disable=SC2086 # the command and its flags are words
        /usr/bin/time -f "%e %M" -o "$SCRATCH" "$INSPECT" $1 "$2" --no-progress --color never >/dev/null
        read -r seconds kilobytes < "$SCRATCH"
        if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$seconds; fi
        if [ "$kilobytes" -gt "$peak" ]; then peak=$kilobytes; fi
    done
    echo "$best $peak"
}

echo "| events | command | seconds | events/s | peak RSS |"
echo "| --: | --- | --: | --: | --: |"
for millions in $SIZES; do
    trace="$TRACES/stress-${millions}M${VALUES:+-values$VALUES}.trace"
    if [ ! -s "$trace" ]; then
        "$BIN/stress" --computations 1000 --writes $((millions * 322)) ${VALUES:+--trace-values "$VALUES"} \
            --trace "$trace" >/dev/null
    fi
    events=$("$BIN/reactor-inspect" summary "$trace" --json --no-progress | sed -n 's/^ *"events" : \([0-9]*\).*/\1/p')
    for command in hot replay "replay --without-lookahead"; do
        read -r seconds kilobytes <<< "$(measure "$command" "$trace")"
        awk -v e="$events" -v c="$command" -v s="$seconds" -v k="$kilobytes" 'BEGIN {
            printf "| %.1f M | `%s` | %.2f s | %.1f M | %.0f MB |\n", e / 1e6, c, s, e / (s > 0 ? s : 0.01) / 1e6, k / 1024 }'
    done
done
