# Reactor — the two commands are `make demo` and `make test`.
SWIFT ?= swift
SWIFT_TEST_FLAGS ?=

.PHONY: setup otlp-proto browser build test tsan bench bench-table demo profile-demo clean

# The OpenTelemetry schema the OTLP export tests validate against: PyPI's
# opentelemetry-proto in a virtual environment under .build (the system Python
# may be externally managed).
OTLP_VENV := .build/otlp-venv

# Installs what a fresh Debian machine lacks (libgraphviz-dev for CGraphviz).
setup:
	@if ! pkg-config --exists libgvc 2>/dev/null; then \
		echo "==> installing libgraphviz-dev"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq libgraphviz-dev pkg-config >/dev/null; \
	fi

otlp-proto:
	@if ! $(OTLP_VENV)/bin/python -c 'import opentelemetry.proto, google.protobuf' 2>/dev/null; then \
		echo "==> installing opentelemetry-proto into $(OTLP_VENV)"; \
		if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then \
			if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
			$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3-venv >/dev/null; \
		fi; \
		rm -rf $(OTLP_VENV) && python3 -m venv $(OTLP_VENV) && \
		$(OTLP_VENV)/bin/python -m pip install -q opentelemetry-proto; \
	fi

# The browser test of `reactor-inspect serve` (Tests/BrowserTests): Debian's
# headless Chromium and its driver, and Selenium from PyPI in a virtual
# environment under .build.
BROWSER_VENV := .build/browser-venv

browser:
	@if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then \
		echo "==> installing chromium and chromium-driver"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi
	@if ! $(BROWSER_VENV)/bin/python -c 'import selenium' 2>/dev/null; then \
		echo "==> installing selenium into $(BROWSER_VENV)"; \
		if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then \
			if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
			$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3-venv >/dev/null; \
		fi; \
		rm -rf $(BROWSER_VENV) && python3 -m venv $(BROWSER_VENV) && \
		$(BROWSER_VENV)/bin/python -m pip install -q selenium; \
	fi

build: setup
	$(SWIFT) build

test: setup otlp-proto browser
	$(SWIFT) build --build-tests
	REACTOR_REQUIRE_OTLP_VALIDATION=1 REACTOR_REQUIRE_BROWSER=1 $(SWIFT) test --skip-build $(SWIFT_TEST_FLAGS)

# The thread suites (runtime, signals and subjects, the trace recorder) under
# ThreadSanitizer, in a separate build folder.
tsan: setup
	$(SWIFT) test --scratch-path .build-tsan --sanitize=thread --filter 'Thread'

# Builds, records the todos sample, prints its hot report and writes its graph.
demo: setup
	$(SWIFT) build --product reactor-inspect
	$(SWIFT) build --product todos
	@mkdir -p out
	@BIN="$$($(SWIFT) build --show-bin-path)"; \
	echo "==> recording the todos sample into out/todos.trace"; \
	"$$BIN/todos" --trace out/todos.trace && \
	echo && echo "==> reactor-inspect hot out/todos.trace" && \
	"$$BIN/reactor-inspect" hot out/todos.trace && \
	echo && echo "==> reactor-inspect why out/todos.trace list" && \
	"$$BIN/reactor-inspect" why out/todos.trace list --limit 3 && \
	echo && echo "==> reactor-inspect graph out/todos.trace" && \
	"$$BIN/reactor-inspect" graph out/todos.trace && \
	echo && echo "trace: out/todos.trace" && echo "graph: out/todos.svg (open it in a browser; hover a node for its statistics)"

# Profiling in CI end to end (README): records a test scenario twice, gates both
# on a budget, diffs them and writes the reports into out/profiling/.
profile-demo: setup
	./Examples/ProfilingInCI/run.sh

# The benchmarks (Benchmarks/README.md): a separate package on ordo-one/benchmark.
# Its MallocInterposer trait counts allocations, so no jemalloc is needed. About 5 minutes.
bench: setup
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark --no-progress

# Regenerates the results table of Benchmarks/README.md: ReactorCore against the
# plain OpenCombine map chain (callgrind instructions, allocations, wall clock).
bench-table: setup
	./Benchmarks/Scripts/results-table.sh

clean:
	rm -rf .build .build-tsan Benchmarks/.build
