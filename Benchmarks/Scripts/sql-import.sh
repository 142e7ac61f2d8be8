#!/usr/bin/env bash
# `reactor-inspect sql` on a 10 M-event trace (issue 30): side by side in one
# run, release build, timed with /usr/bin/time (wall clock and CPU time, best
# of RUNS; peak resident memory, largest): a `hot` pass; the import into a
# database in memory and into a new file (`--db`), as trace events per second
# of wall clock; the kept database's size against the trace's; and each example
# query of docs/SQL.md on the kept database (the whole process: start, open,
# answer). Prints a Markdown table and the load average before and after.
#
#   Benchmarks/Scripts/sql-import.sh
#   RUNS=1 Benchmarks/Scripts/sql-import.sh
#   TRACES=/some/dir Benchmarks/Scripts/sql-import.sh   # where the trace and database go (about 150 MB)
#
# The trace is recorded once (stress --computations 60 --writes 60000
# --trace-values 64: 10,067,597 events, values on) and kept in TRACES.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
TRACES=${TRACES:-/tmp/reactor-sql}
. Benchmarks/Scripts/release-inspector.sh

trace="$TRACES/stress-values-10M.trace"
db="$TRACES/stress-values-10M.db"
if [ ! -s "$trace" ]; then
    "$BIN/stress" --computations 60 --writes 60000 --trace-values 64 --trace "$trace" >/dev/null
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# measure ARGS...: prints "wall cpu peak-kilobytes", the best wall and CPU time and the largest peak of RUNS runs.
# Before each run: `$before` (a command) runs untimed.
before=true
measure() {
    local best="" cpu="" peak=0 seconds user system kilobytes
    for _ in $(seq "$RUNS"); do
        $before
        /usr/bin/time -f "%e %U %S %M" -o "$SCRATCH" "$INSPECT" "$@" --no-progress >/dev/null 2>&1 || true
        read -r seconds user system kilobytes < "$SCRATCH"
        if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$seconds; fi
        local total; total=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
        if [ -z "$cpu" ] || awk -v a="$total" -v b="$cpu" 'BEGIN { exit !(a < b) }'; then cpu=$total; fi
        if [ "$kilobytes" -gt "$peak" ]; then peak=$kilobytes; fi
    done
    echo "$best $cpu $peak"
}

events=$("$INSPECT" sql "$trace" --csv --no-progress "SELECT events FROM traces" | sed -n 2p | tr -d '\r')
trace_bytes=$(stat -c %s "$trace")

row() { # row LABEL WALL CPU KILOBYTES [NOTE]
    awk -v l="$1" -v s="$2" -v c="$3" -v k="$4" -v n="${5:-}" \
        'BEGIN { printf "| %s | %.2f s | %.2f s | %.0f MB | %s |\n", l, s, c, k / 1024, n }'
}
rate() { # rate WALL HOT-WALL: events/s and the ratio to hot
    awk -v e="$events" -v s="$1" -v h="$2" 'BEGIN { printf "**%.2f M events/s**, %.1f× `hot`", e / s / 1e6, s / h }'
}

echo "Trace: $(awk -v e="$events" 'BEGIN { printf "%.2f M", e / 1e6 }') events, $(awk -v b="$trace_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MB, stress --computations 60 --writes 60000 --trace-values 64."
echo
echo "| what | wall clock | CPU (user + sys) | peak RSS | |"
echo "| --- | --: | --: | --: | --- |"
read -r hot_s hot_c hot_k <<< "$(measure hot "$trace" --no-index)"
row '`hot --no-index` (one pass)' "$hot_s" "$hot_c" "$hot_k" "$(awk -v e="$events" -v s="$hot_s" 'BEGIN { printf "%.2f M events/s", e / s / 1e6 }')"
read -r mem_s mem_c mem_k <<< "$(measure sql "$trace" "SELECT count(*) FROM traces")"
row '`sql TRACE` (database in memory)' "$mem_s" "$mem_c" "$mem_k" "$(rate "$mem_s" "$hot_s")"
before="rm -f $db"
read -r file_s file_c file_k <<< "$(measure sql "$trace" --db "$db" "SELECT count(*) FROM traces")"
before=true
row '`sql TRACE --db new.db` (kept in a new file)' "$file_s" "$file_c" "$file_k" "$(rate "$file_s" "$hot_s")"
db_bytes=$(stat -c %s "$db")

hottest=$("$INSPECT" sql --db "$db" --csv "SELECT name FROM node_stats ORDER BY reruns DESC, name LIMIT 1" | sed -n 2p | tr -d '\r')
echo
echo "Queries on the kept database (\`sql --db FILE QUERY\`, the whole process; \`$hottest\` is the computation with most reruns):"
echo
echo "| query | wall clock | CPU (user + sys) | peak RSS | rows |"
echo "| --- | --: | --: | --: | --: |"
query() { # query LABEL SQL
    local count
    count=$("$INSPECT" sql --db "$db" --csv "$2" | tail -n +2 | wc -l)
    read -r q_s q_c q_k <<< "$(measure sql --db "$db" "$2")"
    row "$1" "$q_s" "$q_c" "$q_k" "$count"
}
query 'the floor: `SELECT 1` (process start, open)' "SELECT 1"
query 'hot: `node_stats`' "SELECT name, kind, runs, reruns, total_ns, self_ns, p50_ns, p99_ns, max_ns FROM node_stats ORDER BY reruns DESC"
query 'summary: `action_stats`' "SELECT name, calls, runs_caused, reruns_caused FROM action_stats"
query "why $hottest: \`node_actions\`" "SELECT root_action, reruns FROM node_actions WHERE name = '$hottest' AND reruns > 0"
query "which dependency invalidated $hottest most: \`dependencies\`" "SELECT n.name, sum(d.invalidations) AS invalidations FROM dependencies d JOIN nodes n ON n.trace_id = d.trace_id AND n.id = d.dependency WHERE d.computation IN (SELECT id FROM nodes WHERE name = '$hottest') GROUP BY n.name ORDER BY 2 DESC"
query 'traces side by side: `node_stats`' "SELECT trace, name, reruns FROM node_stats ORDER BY name, trace"
query 'the runs over 1 ms (`runs`, every row read)' "SELECT name, start_ns, duration_ns, root_action FROM runs WHERE duration_ns > 1000000 ORDER BY duration_ns DESC LIMIT 10"
query '`SELECT count(*) FROM run_slices`' "SELECT count(*) FROM run_slices"
query "why $hottest from the rows (\`runs WHERE name = …\`)" "SELECT root_action, count(*) FROM runs WHERE name = '$hottest' AND NOT first_run GROUP BY root_action"
query 'hot from the rows (`runs GROUP BY name, kind`)' "SELECT name, kind, count(*) AS runs, sum(NOT first_run) AS reruns, sum(duration_ns) AS total, sum(self_ns) AS self, max(duration_ns) AS longest FROM runs GROUP BY name, kind"
echo
awk -v d="$db_bytes" -v t="$trace_bytes" 'BEGIN { printf "Database: %.1f MB, %.2f× the trace.\n", d / 1048576, d / t }'
echo "Machine: $(uname -m), $(nproc) cores; $(date -u +%Y-%m-%d), load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after."
