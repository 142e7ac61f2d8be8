#!/usr/bin/env bash
# The cost of following secrets (issue 25), in callgrind instructions, side by
# side: two release builds of ReactivityDriver, BASE (before) and NEW (after),
# measured in one run of this script.
#
#   BASE=/path/to/old/ReactivityDriver NEW=.build/release/ReactivityDriver \
#       Benchmarks/Scripts/secrets-overhead.sh
#
# A case's cost a run is (I(11 runs) − I(1 run)) / 10; a write's is
# (I(2001 writes) − I(1001 writes)) / 1000, so setting up is subtracted.
# Callgrind counts every thread, so "traced" includes the writer thread's work.
set -euo pipefail
: "${BASE:?BASE=path of the driver built before}" "${NEW:?NEW=path of the driver built after}"
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
objcopy --strip-debug "$BASE" "$SCRATCH/base"
objcopy --strip-debug "$NEW" "$SCRATCH/new"

instructions() {
    local counted
    counted=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
    [ -n "$counted" ] || { echo "secrets-overhead: callgrind counted nothing for $*" >&2; exit 1; }
    echo "$counted"
}
# per BINARY SMALL LARGE DIVISOR ARGS...: (I(LARGE) − I(SMALL)) / DIVISOR, N in ARGS replaced.
per() {
    local binary=$1 small=$2 large=$3 divisor=$4; shift 4
    local a b
    a=$(instructions "$binary" "${@/#N/$small}")
    b=$(instructions "$binary" "${@/#N/$large}")
    awk -v a="$a" -v b="$b" -v d="$divisor" 'BEGIN { printf "%.1f", (b - a) / d }'
}
row() {
    local label=$1 small=$2 large=$3 divisor=$4; shift 4
    local base new
    base=$(per "$SCRATCH/base" "$small" "$large" "$divisor" "$@")
    new=$(per "$SCRATCH/new" "$small" "$large" "$divisor" "$@")
    awk -v l="$label" -v a="$base" -v b="$new" 'BEGIN { printf "| %s | %s | %s | %+.1f | %+.2f%% |\n", l, a, b, b - a, (b - a) * 100 / a }'
}
T="$SCRATCH/t.trace"
echo "| measure | before | after | after − before | change |"
echo "|:--|--:|--:|--:|--:|"
for case in ${CASES:-deepPropagation broadPropagation}; do
    row "$case a run, untraced" 1 11 10 "$case" ReactorCore N
    row "$case a run, traced, values off" 1 11 10 "$case" ReactorCore N --trace "$T"
    row "$case a run, traced, values on (200)" 1 11 10 "$case" ReactorCore N --trace "$T" --trace-values 200
done
for source in "" secret; do
    what=${source:-clear}
    row "write ($what source) → computed → autorun, untraced" 1001 2001 1000 write N computed $source
    row "write ($what source) → computed → autorun, traced, values off" 1001 2001 1000 write N computed $source --trace "$T"
    row "write ($what source) → computed → autorun, traced, values on (200)" 1001 2001 1000 write N computed $source --trace "$T" --trace-values 200
done
