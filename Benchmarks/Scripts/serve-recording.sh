# Sourced by serve-live.sh and serve-load.sh (from the package's root): builds
# reactor-inspect and stress in release (or takes them from SERVE_BIN), and
# defines `serve_a_recording NAME [STRESS ARGUMENTS…]`, which starts
# `stress --loop` writing WORK/NAME.trace and `reactor-inspect serve` following it
# on a free loopback port, and sets WORK (a temporary folder), STRESS_PID,
# SERVE_PID and PORT. Both processes and WORK go on exit.
if [ -n "${SERVE_BIN:-}" ]; then
    BIN="$SERVE_BIN"
else
    swift build -c release --product reactor-inspect >/dev/null
    swift build -c release --product stress >/dev/null
    BIN="$(swift build -c release --show-bin-path)"
fi
WORK="$(mktemp -d)"
cleanup() {
    [ -n "${SERVE_PID:-}" ] && kill "$SERVE_PID" 2>/dev/null || true
    [ -n "${STRESS_PID:-}" ] && kill "$STRESS_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

serve_a_recording() {
    local name=$1
    shift
    "$BIN/stress" --loop --trace "$WORK/$name.trace" "$@" >"$WORK/stress.out" 2>&1 &
    STRESS_PID=$!
    "$BIN/reactor-inspect" serve "$WORK/$name.trace" --port 0 >"$WORK/serve.out" 2>"$WORK/serve.err" &
    SERVE_PID=$!
    for _ in $(seq 100); do grep -q "http://" "$WORK/serve.out" 2>/dev/null && break; sleep 0.1; done
    PORT="$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$WORK/serve.out")"
    [ -n "$PORT" ] || { echo "serve printed no address" >&2; cat "$WORK/serve.err" >&2; exit 1; }
}
