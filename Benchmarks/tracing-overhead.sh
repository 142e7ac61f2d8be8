#!/usr/bin/env bash
# Tracing's cost in instructions (callgrind), repeatable on a busy machine:
# the kairo cases in ReactorCore with tracing compiled out (the root package
# built with its `Tracing` trait disabled), compiled in but off (no tracer
# installed) and on (TraceRecorder writing a file), and one `changed()` event.
#
#   Benchmarks/tracing-overhead.sh            # from anywhere; CASES="deepPropagation" to pick
#
# Builds ReactivityDriver twice in release: .build (default traits) and
# .build-compiled-out (REACTOR_TRACING=off, see Package.swift). A case's cost
# per run is (I(11 runs) − I(1 run)) / 10, so building the graph and starting
# the recorder are subtracted; an event's is (I(200k) − I(100k)) / 100k.
# Callgrind counts every thread, so "traced" includes the writer thread's work.
set -euo pipefail
cd "$(dirname "$0")"
CASES=${CASES:-"deepPropagation broadPropagation diamond triangle"}
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT

swift build -c release --product ReactivityDriver >&2
REACTOR_TRACING=off swift build -c release --product ReactivityDriver \
    --scratch-path .build-compiled-out --manifest-cache none >&2
# Valgrind runs copies without debug information: valgrind 3.19 gives up on the
# DWARF of some Swift builds ("Possibly corrupted debuginfo file"), and counting
# needs only the code.
ON=$SCRATCH/ReactivityDriver
OUT=$SCRATCH/ReactivityDriver-compiled-out
objcopy --strip-debug .build/release/ReactivityDriver "$ON"
objcopy --strip-debug .build-compiled-out/release/ReactivityDriver "$OUT"
"$OUT" events 1 | grep -q "tracing compiled out" || { echo "tracing-overhead: $OUT has tracing compiled in" >&2; exit 1; }

# instructions BINARY ARGS...: the instructions callgrind counted (all threads).
instructions() {
    local counted
    counted=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
    [ -n "$counted" ] || { echo "tracing-overhead: callgrind counted nothing for $*" >&2; exit 1; }
    echo "$counted"
}
# difference BINARY SMALL LARGE RUNS ARGS...: (I(LARGE) − I(SMALL)) / RUNS, ARGS with N replaced.
per() {
    local binary=$1 small=$2 large=$3 divisor=$4; shift 4
    local a b
    a=$(instructions "$binary" "${@/#N/$small}")
    b=$(instructions "$binary" "${@/#N/$large}")
    echo $(( (b - a) / divisor ))
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "| case | compiled out | tracing off | off ÷ compiled out | traced | traced ÷ off | events a run | bytes an event |"
echo "|:--|--:|--:|--:|--:|--:|--:|--:|"
for case in $CASES; do
    out=$(per "$OUT" 1 11 10 "$case" ReactorCore N)
    off=$(per "$ON" 1 11 10 "$case" ReactorCore N)
    on=$(per "$ON" 1 11 10 "$case" ReactorCore N --trace "$SCRATCH/t.trace")
    # Events and bytes of 10 runs (the file includes its header and end block).
    line=$("$ON" "$case" ReactorCore 10 --trace "$SCRATCH/t.trace")
    events=$(sed -n 's/.*traced: \([0-9]*\) events.*/\1/p' <<<"$line")
    bytes=$(sed -n 's/.*events, \([0-9]*\) bytes.*/\1/p' <<<"$line")
    echo "| $case | $out | $off | $(ratio "$off" "$out") | $on | $(ratio "$on" "$off") | $(( events / 10 )) | $(ratio "$bytes" "$events") |"
done
out=$(per "$OUT" 100000 200000 100000 events N)
off=$(per "$ON" 100000 200000 100000 events N)
on=$(per "$ON" 100000 200000 100000 events N --trace "$SCRATCH/t.trace")
echo "| one \`changed()\` | $out | $off | $(ratio "$off" "$out") | $on | +$(( on - off )) an event | 1 | |"
