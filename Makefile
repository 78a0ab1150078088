# Thin wrapper around CMake: `make run` builds and runs the main job, `make test` builds and runs every test.
BUILD    ?= build
TYPE     ?= Release
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build run test asan fuzz clean

all: build

deps:
	@./scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(TYPE) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: a short self-check, then the micro benchmarks at small sizes.
run: build
	./$(BUILD)/bin/cuzk selfcheck
	./scripts/run-micro.sh $(BUILD)/bin/cuzk-bench

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
asan:
	$(MAKE) test BUILD=build-asan TYPE=RelWithDebInfo CMAKE_FLAGS="-DCUZK_SANITIZE=ON"

# Fuzz the parsers with libFuzzer (needs clang): FUZZ_SECONDS per target, corpus kept in build-fuzz/.
FUZZ_SECONDS ?= 60
fuzz: deps
	@cmake -S . -B build-fuzz -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DCUZK_FUZZ=ON -DCUZK_WERROR=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_point_decode
	@mkdir -p build-fuzz/corpus/point_decode
	./build-fuzz/fuzz/fuzz_point_decode -max_total_time=$(FUZZ_SECONDS) -max_len=193 \
	    build-fuzz/corpus/point_decode

clean:
	rm -rf build build-asan build-fuzz
