#!/usr/bin/env bash
# Profiling in CI, end to end, on this repository (README, "Profiling in CI"):
#   0. check a budget of rerun counts inside Swift Testing (ReactorTesting), as on
#      main and as the pull request;
#   1. record a trace in a test run (Tests/ProfilingScenarios), once as on main
#      and once as a pull request that makes the footer rerun more;
#   2. gate each on the budget (budget.json beside this script), with JUnit output;
#   3. diff the pull request against main;
#   4. publish an HTML and a Markdown report, a Perfetto file and OTLP/JSON spans.
# Everything lands in out/profiling/. `make profile-demo` runs it.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=out/profiling
budget=Examples/ProfilingInCI/budget.json
mkdir -p "$out"

echo "==> building (debug, with the tests)"
swift build --build-tests >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
inspect="$(swift build --show-bin-path)/reactor-inspect"

step() { printf '\n$ %s\n' "$*"; }
record() {   # record TRACE [ENV=VALUE…]: the scenario test with the recorder on
    local trace=$1; shift
    rm -f "$trace"
    env REACTOR_PROFILE_TRACE="$trace" "$@" swift test --skip-build --filter ProfilingScenarios/addingAndCompletingTodos \
        >"$out/test.log" 2>&1 \
        || { cat "$out/test.log"; exit 1; }
    echo "recorded $trace"
}

echo "==> 0. the rerun budget inside Swift Testing (ReactorTesting; rerun-budget.json)"
step swift test --filter ProfilingScenarios/withinTheRerunBudget
swift test --skip-build --filter ProfilingScenarios/withinTheRerunBudget 2>&1 | grep -E '^(✔|✘) Test withinTheRerunBudget'
step REACTOR_PROFILE_SLOW_FOOTER=1 swift test --filter ProfilingScenarios/withinTheRerunBudget
testing_status=0
REACTOR_PROFILE_SLOW_FOOTER=1 swift test --skip-build --filter ProfilingScenarios/withinTheRerunBudget >"$out/budget-test.log" 2>&1 \
    || testing_status=$?
grep -E '^✘ Test withinTheRerunBudget\(\) recorded an issue' "$out/budget-test.log" || cat "$out/budget-test.log"
echo "(exit status $testing_status)"

echo; echo "==> 1. record the scenario on main and on the pull request"
record "$out/main.trace"
record "$out/pr.trace" REACTOR_PROFILE_SLOW_FOOTER=1

echo; echo "==> 2. gate on the budget"
step reactor-inspect check "$out/main.trace" --budget "$budget"
"$inspect" check "$out/main.trace" --budget "$budget"
step reactor-inspect check "$out/pr.trace" --budget "$budget" --junit "$out/budget.xml"
status=0
"$inspect" check "$out/pr.trace" --budget "$budget" --junit "$out/budget.xml" || status=$?
echo "(exit status $status)"

echo; echo "==> 3. diff the pull request against main"
step reactor-inspect diff "$out/main.trace" "$out/pr.trace" --fail-on-regression 10 --min-time-ms 1
diff_status=0
"$inspect" diff "$out/main.trace" "$out/pr.trace" --fail-on-regression 10 --min-time-ms 1 || diff_status=$?
echo "(exit status $diff_status)"

echo; echo "==> 4. reports"
"$inspect" report "$out/pr.trace" -o "$out/pr.html"
"$inspect" report "$out/pr.trace" -o "$out/pr.md"
"$inspect" diff "$out/main.trace" "$out/pr.trace" --markdown --fail-on-regression 10 --min-time-ms 1 >"$out/diff.md" \
    || [ $? -eq 1 ]   # 1: regressions found, which the table marks
echo "wrote $out/diff.md"
"$inspect" export "$out/pr.trace" --format chrome -o "$out/pr.json"
"$inspect" export "$out/pr.trace" --format otlp -o "$out/pr.otlp.json"   # for an OpenTelemetry collector

# The pull request is meant to fail both gates; anything else means the example broke.
if [ "$status" -ne 1 ] || [ "$diff_status" -ne 1 ] || [ "$testing_status" -eq 0 ]; then
    echo "unexpected: check exited $status, diff $diff_status and the budget test $testing_status (all should fail for this pull request)" >&2
    exit 1
fi
echo; echo "The pull request fails its budget test, its budget and its diff, as it should: in CI this job would be red."
