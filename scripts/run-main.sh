#!/bin/sh
# The main job (`make run`): the self-check, then PoRep C2 end to end on a 2KiB sector — seal, development
# parameters (made once, then reused from <build>/params-dev), prove, verify, with timings — then the
# micro benchmarks at small sizes.
# Usage: run-main.sh <build dir>
set -e
build="$1"
cuzk="$build/bin/cuzk"
work="$build/run-main"
params="$build/params-dev"
"$cuzk" selfcheck
echo
echo "=== PoRep C2, 2KiB sector ==="
rm -rf "$work"
mkdir -p "$work"
"$cuzk" seal --sector-size 2KiB --out "$work/sector" --miner-id 1000 --sector-num 1
"$cuzk" params generate --kind porep --sector-size 2KiB --out "$params"
CUZK_TIMING=1 "$cuzk" porep prove --c1 "$work/sector/c1-wrapper.json" --params "$params" \
  --out "$work/proof.bin" --miner-id 1000 --sector-num 1
"$cuzk" porep verify --c1 "$work/sector/c1.json" --params "$params" --proof "$work/proof.bin" \
  --miner-id 1000 --sector-num 1
"$build/bin/cuzk-bench" synth-only --sector-size 2KiB --mode count -i 3
echo
./scripts/run-micro.sh "$build/bin/cuzk-bench"
