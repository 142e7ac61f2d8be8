# Sourced by the inspector's benchmark scripts (from the package's root, with
# TRACES set): checks for /usr/bin/time, builds reactor-inspect and stress in
# release, and sets BIN (their folder), INSPECT (reactor-inspect, unless given)
# and SCRATCH (a file removed on exit); makes TRACES.
[ -x /usr/bin/time ] || { echo "$(basename "$0" .sh): needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
swift build -c release --product reactor-inspect >&2
swift build -c release --product stress >&2
BIN=$(swift build -c release --show-bin-path)
INSPECT=${INSPECT:-$BIN/reactor-inspect}
mkdir -p "$TRACES"
SCRATCH=$(mktemp)
trap 'rm -f "$SCRATCH"' EXIT
