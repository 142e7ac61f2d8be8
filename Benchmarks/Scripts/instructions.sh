#!/usr/bin/env bash
# Instructions and heap allocations per computed update, repeatable on a busy
# machine: ReactivityDriver (release) runs each case 1 and 1 + RUNS times under
# `valgrind --tool=callgrind` (instructions) and `--tool=memcheck` (its heap
# summary's allocations); the difference, divided by RUNS, is one run's cost with
# building the graph subtracted. One run writes the source 51 times; a write
# updates 50 computeds on deep and 100 on broad (a map stage counts as one);
# other cases (CASES="diamond …") get instructions a run and allocations a
# write (the driver's `writes CASE` tells a run's writes).
#
#   Benchmarks/Scripts/instructions.sh                # markdown rows on stdout
#   RUNS=20 CASES=deepPropagation IMPLEMENTATIONS="ReactorCore" Benchmarks/Scripts/instructions.sh
#   NO_BUILD=1 ...                                    # use the driver already built
#
# Columns: case, implementation, instructions per run, per computed update,
# allocations per write.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-10}
CASES=${CASES:-"deepPropagation broadPropagation"}
IMPLEMENTATIONS=${IMPLEMENTATIONS:-"ReactorCore OpenCombineMapChain"}
WRITES_PER_RUN=51  # deep and broad: 1 + 50 writes

# Computeds (or map stages) a write updates; 0 for the other cases, which
# report instructions a run only (writes and batches differ per case).
updates_per_write() {
    case $1 in
        deepPropagation) echo 50 ;;
        broadPropagation) echo 100 ;;
        *) echo 0 ;;
    esac
}

[ -n "${NO_BUILD:-}" ] || swift build -c release --product ReactivityDriver >&2
# Valgrind runs a copy without debug information: valgrind 3.19 gives up on
# the DWARF of some Swift builds ("Possibly corrupted debuginfo file"), and
# counting needs only the code.
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
DRIVER=$SCRATCH/ReactivityDriver
objcopy --strip-debug .build/release/ReactivityDriver "$DRIVER"

# instructions ARGS...: what callgrind counted for the driver run with ARGS.
instructions() {
    local counted
    counted=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$DRIVER" "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : //p')
    [ -n "$counted" ] || { echo "instructions.sh: callgrind counted nothing for $*" >&2; exit 1; }
    echo "$counted"
}
# allocations ARGS...: the allocations of memcheck's heap summary.
allocations() {
    local counted
    counted=$(valgrind --tool=memcheck --leak-check=no "$DRIVER" "$@" 2>&1 >/dev/null |
        sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,)
    [ -n "$counted" ] || { echo "instructions.sh: memcheck counted nothing for $*" >&2; exit 1; }
    echo "$counted"
}

echo "| case | implementation | instructions a run | instructions a computed update | allocations a write |"
echo "|:--|:--|--:|--:|--:|"
for case in $CASES; do
    updates=$(( WRITES_PER_RUN * $(updates_per_write "$case") ))
    writes=$("$DRIVER" writes "$case")
    for implementation in $IMPLEMENTATIONS; do
        one=$(instructions "$case" "$implementation" 1)
        many=$(instructions "$case" "$implementation" $(( RUNS + 1 )))
        a_one=$(allocations "$case" "$implementation" 1)
        a_many=$(allocations "$case" "$implementation" $(( RUNS + 1 )))
        awk -v c="$case" -v i="$implementation" -v one="$one" -v many="$many" -v runs="$RUNS" \
            -v updates="$updates" -v aone="$a_one" -v amany="$a_many" -v writes="$writes" 'BEGIN {
            run = (many - one) / runs
            per = updates > 0 ? sprintf("%.1f", run / updates) : ""
            printf "| %s | %s | %d | %s | %.2f |\n", c, i, run, per, (amany - aone) / runs / writes
        }'
    done
done
