# Reactor — the two commands are `make demo` and `make test`.
SWIFT ?= swift
SWIFT_TEST_FLAGS ?=

.PHONY: setup otlp-proto browser mcp-client page-check screenshots build test fuzz tsan bench bench-table demo profile-demo clean

# Debian packages $(1), installed as root or through sudo. The package lists
# are fetched at most once a make run (the stamp is named after make's pid).
APT_UPDATED := /tmp/reactor-apt-updated.$(shell echo $$PPID)
define apt_install
if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
if ! [ -e $(APT_UPDATED) ]; then $$SUDO apt-get update -qq && touch $(APT_UPDATED); fi && \
DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(1) >/dev/null
endef

# A virtual environment $(1) under .build (the system Python may be externally
# managed) with PyPI's $(3), made again unless `import $(2)` works in it.
define python_venv
@if ! $(1)/bin/python -c 'import $(2)' 2>/dev/null; then \
	echo "==> installing $(3) into $(1)"; \
	if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then \
		$(call apt_install,python3-venv); \
	fi; \
	rm -rf $(1) && python3 -m venv $(1) && $(1)/bin/python -m pip install -q $(3); \
fi
endef

# Installs what a fresh Debian machine lacks (libgraphviz-dev for CGraphviz,
# libsqlite3-dev for CSQLite).
setup:
	@if ! pkg-config --exists libgvc 2>/dev/null; then \
		echo "==> installing libgraphviz-dev"; \
		$(call apt_install,libgraphviz-dev pkg-config); \
	fi
	@if ! pkg-config --exists sqlite3 2>/dev/null; then \
		echo "==> installing libsqlite3-dev"; \
		$(call apt_install,libsqlite3-dev pkg-config); \
	fi

# The OpenTelemetry schema the OTLP export tests validate against.
OTLP_VENV := .build/otlp-venv
OTLP_IMPORTS := opentelemetry.proto, google.protobuf

otlp-proto:
	$(call python_venv,$(OTLP_VENV),$(OTLP_IMPORTS),opentelemetry-proto)

# The browser test of `reactor-inspect serve` (Tests/BrowserTests): Debian's
# headless Chromium and its driver, and Selenium from PyPI.
BROWSER_VENV := .build/browser-venv

browser:
	@if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then \
		echo "==> installing chromium and chromium-driver"; \
		$(call apt_install,chromium chromium-driver); \
	fi
	$(call python_venv,$(BROWSER_VENV),selenium,selenium)

# The end-to-end test of `reactor-inspect mcp` (Tests/MCPClient): the official
# Python MCP client from PyPI.
MCP_VENV := .build/mcp-venv

mcp-client:
	$(call python_venv,$(MCP_VENV),mcp,mcp)

# Checks the page of `serve` (Sources/ReactorInspectorServer/Page): the script
# parses under Node, the HTML is balanced and has every id the script uses.
page-check:
	@if ! command -v node >/dev/null 2>&1; then \
		echo "==> installing nodejs (to check the page's script)"; \
		$(call apt_install,nodejs); \
	fi
	@python3 Tests/BrowserTests/check_page.py

# The screenshots of serve's page in docs/images (README, docs/SERVE.md): records
# the todos sample and a 4-thread stress run and photographs each view.
screenshots: setup browser
	$(SWIFT) build --product reactor-inspect && $(SWIFT) build --product todos && $(SWIFT) build --product stress
	$(BROWSER_VENV)/bin/python Tests/BrowserTests/screenshots.py --bin "$$($(SWIFT) build --show-bin-path)" --out docs/images

build: setup
	$(SWIFT) build

# Suites that run `serve`'s server in the test process itself (so that `make tsan`
# watches its threads). Its tasks share the process's cooperative pool, which the
# other suites' blocking tests hold for minutes at a time on two cores: they run
# in a second `swift test` of their own, after the rest.
IN_PROCESS_SERVER_SUITES := ServeThreadTests
TEST_ENV := REACTOR_REQUIRE_OTLP_VALIDATION=1 REACTOR_REQUIRE_BROWSER=1 REACTOR_REQUIRE_MCP=1

test: setup otlp-proto browser mcp-client page-check
	$(SWIFT) build --build-tests
	$(TEST_ENV) $(SWIFT) test --skip-build --skip '$(IN_PROCESS_SERVER_SUITES)' $(SWIFT_TEST_FLAGS)
	$(TEST_ENV) $(SWIFT) test --skip-build --filter '$(IN_PROCESS_SERVER_SUITES)' $(SWIFT_TEST_FLAGS)

# The fuzz harness at length (Tests/CLITests/TraceFuzzTests.swift): CRC-valid
# mutants of the samples' traces through every read command, FUZZ_CASES of them
# in-process and FUZZ_BINARY_CASES through the built binary under memory and time
# limits (`make test` runs 400 and 2). The case being read is kept in
# $TMPDIR/reactor-fuzz-case.trace, so a crash leaves its input there.
FUZZ_CASES ?= 5000
FUZZ_BINARY_CASES ?= 40
FUZZ_SEED ?= 26

fuzz: setup
	$(SWIFT) build --build-tests
	REACTOR_FUZZ_CASES=$(FUZZ_CASES) REACTOR_FUZZ_BINARY_CASES=$(FUZZ_BINARY_CASES) REACTOR_FUZZ_SEED=$(FUZZ_SEED) \
		$(SWIFT) test --skip-build --filter TraceFuzzTests

# The thread suites (runtime, signals and subjects, the trace recorder) under
# ThreadSanitizer, in a separate build folder.
tsan: setup
	$(SWIFT) build --build-tests --scratch-path .build-tsan --sanitize=thread
	$(SWIFT) test --skip-build --scratch-path .build-tsan --sanitize=thread --filter 'Thread' --skip '$(IN_PROCESS_SERVER_SUITES)'
	$(SWIFT) test --skip-build --scratch-path .build-tsan --sanitize=thread --filter '$(IN_PROCESS_SERVER_SUITES)'

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
