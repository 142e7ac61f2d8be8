#!/usr/bin/env bash
# The index beside a trace (issue 28): on a stress trace of about 100 million
# events, side by side in one run, release build, timed
# with /usr/bin/time (wall clock and CPU time of the run with the least CPU of RUNS; peak resident memory, largest):
# a `hot` pass; building the index (`reactor-inspect index`); its size against
# the trace's; questions about the whole trace (`hot`, `summary`, `graph`: the
# plain model the index keeps), `why` (by a pass; right after `index`, of a computation in few chunks, from
# those chunks; its first question of a busy one, which explains every computation and keeps them, then others never asked), `history`, and about moments early, in the middle and
# late in the trace (`graph --at` of the 5 hottest and `state --at`, from the
# index's snapshots; `replay --filter to:` of one node; `graph --at action:N`), `replay --last 20` of one
# node and of the trace with values' writes, `replay` of a 1 ms window,
# answered by passes (--no-index) and with the index; the first `report`,
# which leaves the profile in the index, and `report` (each format), `check` and
# `diff` (the trace against itself) by passes and with the index. Prints a Markdown table.
# The stress trace has no values (`state --at` answers that, after its pass) and no actions.
#
#   Benchmarks/Scripts/index-answers.sh
#   MILLIONS=10 RUNS=1 Benchmarks/Scripts/index-answers.sh
#   TRACES=/some/dir Benchmarks/Scripts/index-answers.sh   # where the trace goes (about 3.2 bytes an event)
#
# The trace is recorded once (stress --computations 1000, 322 writes per
# million events) and kept in TRACES (default /tmp/reactor-index), without values.
set -euo pipefail
cd "$(dirname "$0")/../.."
MILLIONS=${MILLIONS:-100}
RUNS=${RUNS:-3}
TRACES=${TRACES:-/tmp/reactor-index}
. Benchmarks/Scripts/release-inspector.sh

trace="$TRACES/stress-${MILLIONS}M.trace"
if [ ! -s "$trace" ]; then
    "$BIN/stress" --computations 1000 --writes $((MILLIONS * 322)) --trace "$trace" >/dev/null
fi

# measure ARGS...: prints "wall-seconds cpu-seconds peak-kilobytes": the run with the least CPU time
# (user + system: wall clock on a loaded machine counts other people's work) and the largest peak of RUNS runs.
measure() {
    local best_wall="" best_cpu="" peak=0 wall user system kilobytes
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %U %S %M" -o "$SCRATCH" "$INSPECT" "$@" --no-progress >/dev/null 2>&1 || true
        # A command that exits non-zero (a question the trace cannot answer) has time's note first.
        read -r wall user system kilobytes <<< "$(tail -n 1 "$SCRATCH")"
        local cpu
        cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
        if [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then
            best_cpu=$cpu
            best_wall=$wall
        fi
        if [ "$kilobytes" -gt "$peak" ]; then peak=$kilobytes; fi
    done
    echo "$best_wall $best_cpu $peak"
}

row() { # row LABEL WALL-SECONDS CPU-SECONDS KILOBYTES [RATIO-TEXT]
    awk -v l="$1" -v w="$2" -v c="$3" -v k="$4" -v r="${5:-}" \
        'BEGIN { printf "| %s | %.3f s | %.2f s | %.0f MB | %s |\n", l, w, c, k / 1024, r }'
}

table_header() {
    echo "| what | wall clock | CPU | peak RSS | ratio (CPU) |"
    echo "| --- | --: | --: | --: | --- |"
}

# ratio A B TEXT: "A/B× TEXT" (CPU seconds; B of 0 counts as 5 ms).
ratio() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { r = a / (b > 0 ? b : 0.005); printf (r < 0.1 ? "%.3f× %s" : "%.2f× %s"), r, t }'; }


# both LABEL COMMAND ARGS...: the command on the trace by a pass (--no-index) and with the index, as two rows.
both() {
    local label=$1 passes_w passes_c passes_k indexed_w indexed_c indexed_k
    shift
    read -r passes_w passes_c passes_k <<< "$(measure "$1" "$trace" "${@:2}" --no-index)"
    read -r indexed_w indexed_c indexed_k <<< "$(measure "$1" "$trace" "${@:2}")"
    row "$label, by a pass" "$passes_w" "$passes_c" "$passes_k"
    row "$label, with the index" "$indexed_w" "$indexed_c" "$indexed_k" "$(ratio "$indexed_c" "$passes_c" "the CPU time by a pass")"
}
summary=$("$INSPECT" summary "$trace" --json --no-index --no-progress)
events=$(echo "$summary" | sed -n 's/^ *"events" : \([0-9]*\).*/\1/p')
stress_trace=$trace
duration=$(echo "$summary" | sed -n 's/^ *"durationNanoseconds" : \([0-9]*\).*/\1/p')
trace_bytes=$(stat -c %s "$trace")

echo "Trace: $(awk -v e="$events" 'BEGIN { printf "%.1f M", e / 1e6 }') events, $((trace_bytes / 1048576)) MB, stress --computations 1000."
echo
table_header
read -r hot_w hot_s hot_k <<< "$(measure hot "$trace" --no-index)"
row '`hot` (one pass)' "$hot_w" "$hot_s" "$hot_k" ""
rm -f "$trace.rindex"
read -r index_w index_s index_k <<< "$(measure index "$trace")"
row '`index` (build it)' "$index_w" "$index_s" "$index_k" "$(ratio "$index_s" "$hot_s" 'a `hot` pass')"
index_bytes=$(stat -c %s "$trace.rindex")
# Questions about the whole trace: the plain model the index keeps.
for command in "hot --top 10" "summary --json" "graph --top 5 --format dot -o /dev/null"; do
    both "\`$command\`" $command
done
# `why` of a busy computation: its first question is a pass that explains every computation and keeps them all in the index;
# then `why` of any computation (effect47 again, others never asked) reads only the index. A `--limit`
# over 20 is a pass of its own the first time. `history` of this trace (no values) and an unknown name
# (effct47): from the kept model.
# Right after `index`, a computation in few chunks (c9.30, which never runs) is explained from the chunks that
# mention it, read alone from their light points: no pass, and the index is not rewritten.
for command in "why c9.30" "why c9.30 --json --limit 5"; do
    both "\`$command\`, right after \`index\` (from its chunks)" $command
done
size_before=$(stat -c %s "$trace.rindex")
read -r passes_w passes_s passes_k <<< "$(measure why "$trace" effect47 --no-index)"
row '`why effect47`, by a pass' "$passes_w" "$passes_s" "$passes_k"
read -r first_w first_s first_k <<< "$(RUNS=1 measure why "$trace" effect47)"
row '`why effect47`, first right after `index` (a pass explaining every computation; keeps them)' "$first_w" "$first_s" "$first_k" \
    "$(ratio "$first_s" "$passes_s" "the CPU time by a pass"), $(ratio "$first_s" "$hot_s" 'a `hot` pass')"
why_bytes=$(( $(stat -c %s "$trace.rindex") - size_before ))
for command in "why effect47" "why effect48" "why effect47 --json --limit 5" "why #500 --json" "why effect200 --limit 0" \
               "why effct47" "history effect47"; do
    both "\`$command\`" $command
done
# A `--limit` over the 20 runs every computation's explanation lists: a pass of its own the first time (keeping
# that explanation), then from the index.
read -r passes_w passes_s passes_k <<< "$(measure why "$trace" effect47 --limit 50 --no-index)"
row '`why effect47 --limit 50`, by a pass' "$passes_w" "$passes_s" "$passes_k"
read -r first_w first_s first_k <<< "$(RUNS=1 measure why "$trace" effect47 --limit 50)"
row '`why effect47 --limit 50`, first with the index (a pass; keeps it)' "$first_w" "$first_s" "$first_k" \
    "$(ratio "$first_s" "$passes_s" "the CPU time by a pass"), $(ratio "$first_s" "$hot_s" 'a `hot` pass')"
read -r again_w again_s again_k <<< "$(measure why "$trace" effect47 --limit 50)"
row '`why effect47 --limit 50`, again' "$again_w" "$again_s" "$again_k" "$(ratio "$again_s" "$passes_s" "the CPU time by a pass")"
# `replay` from the index: the last 20 lines of one node (stretches read backwards from the end), and a
# window of 1 ms in the middle (only the stretches whose chunks' times meet it); by passes, a lookahead pass
# (final names, previous values) then the lines' pass.
middle=$((duration / 2 / 1000))
for command in "replay --last 20 --filter name:effect47" "replay --filter from:${middle}us --filter to:$((middle + 1000))us"; do
    both "\`$command\`" $command
done
# `replay` of a name from the chunks that mention it (the index's mentions), each alone from its light point:
# a computed of the graph's first layer that never reruns (c9.30: a few chunks), whole and its last lines, and the
# busiest name's whole replay (effect47: in nearly every chunk, so every chunk is read, from the snapshots).
for command in "replay --filter name:c9.30" "replay --last 20 --filter name:c9.30" "replay --filter name:effect47"; do
    both "\`$command\`" $command
done
# replay's first run on a trace without an index: its lookahead pass builds the index too (then a name, window
# or --last answers from it at once; a kind filter reads the lines' pass as before), against the same by passes.
first_run() { # first_run COMMAND ARGS...: by passes, then its first run on the trace without an index.
    local passes_w passes_s passes_k first_w first_s first_k
    read -r passes_w passes_s passes_k <<< "$(measure "$1" "$trace" "${@:2}" --no-index)"
    rm -f "$trace.rindex"
    read -r first_w first_s first_k <<< "$(RUNS=1 measure "$1" "$trace" "${@:2}")"
    row "\`$*\`, by passes" "$passes_w" "$passes_s" "$passes_k"
    row "\`$*\`, first run without an index (leaves it)" "$first_w" "$first_s" "$first_k" \
        "$(ratio "$first_s" "$passes_s" "the CPU time by passes"), $(ratio "$first_s" "$hot_s" 'a `hot` pass')"
}
first_run replay --last 20 --filter name:effect47
first_run replay --filter kind:issue
rm -f "$trace.rindex"
"$INSPECT" index "$trace" --no-progress >/dev/null 2>&1
for percent in 1 50 99 action; do
    at="$((duration / 100 * ${percent/action/99} / 1000))us"
    commands=("graph --at $at --top 5 --format dot -o /dev/null" "state --at $at --json"
              "replay --filter to:$at --filter name:effect47")
    # action:N: the stress trace has no actions, so this is the answer "no such action" (from the last snapshot).
    where="$percent% in"
    if [ "$percent" = action ]; then where="no such action"; commands=("graph --at action:3 --top 5 --format dot -o /dev/null"); fi
    for command in "${commands[@]}"; do
        both "\`$command\` ($where)" $command
    done
done
# The profile's questions: the first `report` reads the trace (a profile pass) and leaves the profile in the
# index, as the first `check` after a fresh `index` does; then `report` (each format), `check` and `diff` by a
# pass and from the index.
budget=$(mktemp --suffix=.json)
trap 'rm -f "$SCRATCH" "$budget"' EXIT
echo '{ "computations": [ { "match": "*", "maxReruns": 1000000 } ], "actions": [ { "match": "*", "maxRerunsPerAction": 100000 } ], "forbid": ["runaway", "cycle"] }' > "$budget"
before_profile=$(stat -c %s "$trace.rindex")
read -r profile_w profile_s profile_k <<< "$(RUNS=1 measure report "$trace" --format json -o /dev/null)"
row '`report --format json`, first (leaves the profile in the index)' "$profile_w" "$profile_s" "$profile_k" \
    "$(ratio "$profile_s" "$hot_s" 'a `hot` pass')"
profile_bytes=$(stat -c %s "$trace.rindex")
# The same after a fresh `index` (which leaves no profile): the first `check` is that pass too.
rm -f "$trace.rindex"
"$INSPECT" index "$trace" --no-progress >/dev/null 2>&1
read -r first_check_w first_check_s first_check_k <<< "$(RUNS=1 measure check "$trace" --budget "$budget")"
row '`check --budget budget.json`, first after `index` (leaves the profile in the index)' "$first_check_w" \
    "$first_check_s" "$first_check_k" "$(ratio "$first_check_s" "$hot_s" 'a `hot` pass')"
for command in "report --format json -o /dev/null" "report --format md -o /dev/null" \
               "report --format html -o /dev/null" "check --budget $budget" "diff $trace"; do
    label=${command/$budget/budget.json}
    both "\`${label/$trace/TRACE}\`" $command
done
# A trace with values, written from four threads (about 3,500 events a write): the index built on it against
# a `hot` pass, `state --at end` (the snapshot after the last chunk) and `history` of nodes changed often,
# seldom and once (each from the chunks its node's events are in, per the index's positions; after the chunk where
# the pass starts following it, each chunk alone from its light point) by a pass and with the index: Source.value (every
# source, all through the trace), one source (#3: one thread's writes), a computed of the first layer, an effect.
values_trace="$TRACES/stress-threads-values-${MILLIONS}M.trace"
if [ ! -s "$values_trace" ]; then
    REACTOR_TRACE_VALUES=64 "$BIN/stress" --threads 4 --writes $((MILLIONS * 300)) --trace "$values_trace" >/dev/null
fi
values_events=$("$INSPECT" summary "$values_trace" --json --no-index --no-progress | sed -n 's/^ *"events" : \([0-9]*\).*/\1/p')
echo
echo "Trace with values: $(awk -v e="$values_events" 'BEGIN { printf "%.1f M", e / 1e6 }') events, $(( $(stat -c %s "$values_trace") / 1048576 )) MB, stress --threads 4, values on."
echo
table_header
read -r values_hot_w values_hot_s values_hot_k <<< "$(measure hot "$values_trace" --no-index)"
row '`hot` (one pass)' "$values_hot_w" "$values_hot_s" "$values_hot_k" ""
rm -f "$values_trace.rindex"
read -r values_index_w values_index_s values_index_k <<< "$(measure index "$values_trace")"
row '`index` (build it)' "$values_index_w" "$values_index_s" "$values_index_k" "$(ratio "$values_index_s" "$values_hot_s" 'a `hot` pass')"
values_index_bytes=$(stat -c %s "$values_trace.rindex")
trace=$values_trace
both '`state --at end --json`' state --at end --json
for name in Source.value '#3' '#5' c0.0 effect3; do
    both "\`history $name\`" history "$name"
done
# The last 20 writes with old → new in time order across the threads: from the index, the last stretch's
# writes and its snapshot's values; by passes, a lookahead pass keeping every write.
both '`replay --last 20 --filter kind:changed`' replay --last 20 --filter kind:changed
# A name on four threads' chunks: an effect (no values; chunks alone), a computed that never reruns, and one
# whose `changed` lines carry old → new (c0.0: the stretches holding its chunks, from the snapshots).
for command in "replay --last 20 --filter name:effect47" "replay --filter name:c9.30" "replay --filter name:effect47" \
               "replay --last 20 --filter name:c0.0"; do
    both "\`$command\`" $command
done
# serve's Timeline panel (/api/timeline) on the stress trace, once the follower has read it to its end:
# the whole trace and a 1% window at 90% of the time, 1000 pixels wide, by a pass (`serve --no-index`)
# and from the follower's live index. Wall clock of the request (curl) and serve's CPU time for it
# (user + system from /proc before and after), the run with the least CPU of RUNS.
trace=$stress_trace
# serve_timeline QUERY [SERVE-FLAGS…]: prints "wall-seconds cpu-seconds".
serve_timeline() {
    local query=$1 output pid url="" best_wall="" best_cpu=""
    shift
    output=$(mktemp)
    "$INSPECT" serve "$trace" --port 0 "$@" >"$output" 2>/dev/null &
    pid=$!
    for _ in $(seq 600); do
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$output" | head -n 1 || true)
        [ -n "$url" ] && break
        sleep 0.1
    done
    until curl -sf "${url}api/snapshot" | grep -q '"status" *: *"finished"'; do sleep 0.5; done
    local ticks span begin end
    ticks=$(getconf CLK_TCK)
    # The trace's first and last times, for a window given in hundredths (LATE: 1% at 90%), not timed.
    span=$(curl -sf "${url}api/timeline?from=0&to=0&width=1")
    begin=$(echo "$span" | sed -n 's/^ *"traceBeginNanoseconds" : \([0-9]*\).*/\1/p')
    end=$(echo "$span" | sed -n 's/^ *"traceEndNanoseconds" : \([0-9]*\).*/\1/p')
    query=${query/LATE/from=$((begin + (end - begin) / 100 * 90))\&to=$((begin + (end - begin) / 100 * 91))}
    for _ in $(seq "$RUNS"); do
        local before after wall cpu
        before=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
        wall=$(curl -sf -o /dev/null -w '%{time_total}' "${url}api/timeline?${query}")
        after=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
        cpu=$(awk -v a="$after" -v b="$before" -v t="$ticks" 'BEGIN { printf "%.2f", (a - b) / t }')
        if [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then
            best_cpu=$cpu
            best_wall=$wall
        fi
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -f "$output"
    echo "$best_wall $best_cpu"
}
echo
echo "serve's Timeline panel on the stress trace (the request's wall clock; serve's CPU time for it):"
echo
table_header
for window in "whole trace|width=1000" "1% at 90%|LATE&width=1000"; do
    label=${window%%|*}
    query=${window#*|}
    read -r pass_w pass_c <<< "$(serve_timeline "$query" --no-index)"
    read -r indexed_w indexed_c <<< "$(serve_timeline "$query")"
    row "\`/api/timeline\` ($label), by a pass" "$pass_w" "$pass_c" 0 ""
    row "\`/api/timeline\` ($label), from the index" "$indexed_w" "$indexed_c" 0 \
        "$(ratio "$indexed_c" "$pass_c" "the CPU time by a pass")"
done
echo
awk -v i="$values_index_bytes" -v t="$(stat -c %s "$values_trace")" \
    'BEGIN { printf "Index of the trace with values: %d bytes, %.3f%% of the trace.\n", i, i * 100 / t }'
echo
awk -v i="$index_bytes" -v t="$trace_bytes" 'BEGIN { printf "Index: %d bytes, %.3f%% of the trace.\n", i, i * 100 / t }'
awk -v i="$why_bytes" -v t="$trace_bytes" 'BEGIN { printf "The explanations of every computation kept in it: %d bytes, %.3f%% of the trace.\n", i, i * 100 / t }'
awk -v i="$profile_bytes" -v p="$before_profile" -v t="$trace_bytes" \
    'BEGIN { printf "With the profile: %d bytes, %.3f%% of the trace (the profile section: %d bytes).\n", i, i * 100 / t, i - p }'
echo "Machine: $(uname -m), $(nproc) cores; $(date -u +%Y-%m-%d), load average $(cut -d' ' -f1-3 /proc/loadavg)."
