# Thin wrapper around CMake: `make run` builds and runs the main job, `make test` builds and runs every test.
BUILD    ?= build
TYPE     ?= Release
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX   ?= /usr/local

.PHONY: all deps configure build run test test-slow asan fuzz install clean

all: build

deps:
	@./scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(TYPE) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: a short self-check, PoRep C2 end to end on a 2KiB sector (seal, development
# parameters cached in $(BUILD)/params-dev, prove, verify, timings), then the micro benchmarks.
run: build
	./scripts/run-main.sh $(BUILD)

# Every fast test (the default run); the tests labelled `slow` (production-size circuits, 8MiB and
# 512MiB sealing and parent caches: minutes) run with `make test-slow`.
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE slow

test-slow: build
	cd $(BUILD) && CUZK_TEST_SLOW=1 ctest --output-on-failure -L slow

# The same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
asan:
	$(MAKE) test BUILD=build-asan TYPE=RelWithDebInfo CMAKE_FLAGS="-DCUZK_SANITIZE=ON"

# Fuzz the parsers with libFuzzer (needs clang): FUZZ_SECONDS per target, corpus kept in build-fuzz/.
# Each target writes its seeds first (CUZK_FUZZ_SEEDS=<dir>); its log is build-fuzz/fuzz_<name>.log and
# a crashing input lands in build-fuzz/crash-<name>-*.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = point_decode:193 params_file:4096 params_vk:1400 proof_read:192 cs_cache:4096 \
               c1_json:262144 post_vproof:65536 snap_vproof:65536 toml:8192 rpc_request:8192

fuzz: deps
	@cmake -S . -B build-fuzz -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DCUZK_FUZZ=ON -DCUZK_WERROR=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS) $(foreach t,$(FUZZ_TARGETS),--target fuzz_$(firstword $(subst :, ,$(t))))
	@for t in $(FUZZ_TARGETS); do \
	    name=$${t%%:*}; max=$${t##*:}; dir=build-fuzz/corpus/$$name; log=build-fuzz/fuzz_$$name.log; \
	    mkdir -p $$dir && CUZK_FUZZ_SEEDS=$$dir ./build-fuzz/fuzz/fuzz_$$name || exit 1; \
	    echo "fuzz_$$name: $(FUZZ_SECONDS) s, log $$log"; \
	    if ./build-fuzz/fuzz/fuzz_$$name -max_total_time=$(FUZZ_SECONDS) -max_len=$$max \
	        -print_final_stats=1 -artifact_prefix=build-fuzz/crash-$$name- $$dir >$$log 2>&1; then \
	        grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' $$log; \
	    else \
	        tail -n 40 $$log; exit 1; \
	    fi; \
	done

# The library for other programs: the public headers, libcuzk.so* and libcuzk.a, and lib/pkgconfig/cuzk.pc
# under $(DESTDIR)$(PREFIX) (pkg-config --cflags --libs cuzk).
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf build build-asan build-fuzz
