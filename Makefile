# Thin wrapper around CMake: `make run` builds and runs the main job, `make test` builds and runs every test.
BUILD    ?= build
TYPE     ?= Release
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build run test asan bench clean

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

clean:
	rm -rf build build-asan
