#!/bin/sh
# `cuzk circuit info --kind snap`: the 2KiB and 8MiB lines (constraints: storage-proofs-update tests/circuit.rs and
# the cost model, docs/REFERENCE.md; non-zeros and hash: our own recorded values), the circuit named by its update
# proof, and bad arguments (exit 2 with a message).
# Usage: test_snap_circuit_cli.sh <cuzk>
set -u
cuzk="$1"
. "$(dirname "$0")/../../cli_expect.sh"

counts="constraints=1705039 inputs=5 aux=1703569 nnz_a=4030887 nnz_b=1706537 nnz_c=3616648"
hash="hash=c787aea9329f4525b3bcde14533b9b775654f6a9afe0a7c671783c8bd4f1f7a5"
expect_line "2KiB" "$counts" "$cuzk" circuit info --kind snap --sector-size 2KiB
expect_line "2KiB with hash" "$counts $hash" "$cuzk" circuit info --kind snap --sector-size 2KiB --hash
expect_line "by update proof" "$counts" "$cuzk" circuit info --kind snap --registered-proof StackedDrg2KiBV1 \
  --partition 0
expect_line "by Go name and size" "$counts" "$cuzk" circuit info --kind snap --sector-size 2048 \
  --registered-proof RegisteredUpdateProof_StackedDrg2KiBV1
expect_line "8MiB by number" "constraints=10007503 inputs=5 aux=9998039 nnz_a=23284273 nnz_b=10015181 nnz_c=21302734" \
  "$cuzk" circuit info --kind snap --registered-proof 1 --partition 3

expect 2 "a size without an update proof" "$cuzk" circuit info --kind snap --sector-size 4KiB
expect 2 "partition out of range" "$cuzk" circuit info --kind snap --sector-size 8MiB --partition 4
expect 2 "unknown proof" "$cuzk" circuit info --kind snap --registered-proof StackedDrg2KiBV2
expect 2 "proof of another size" "$cuzk" circuit info --kind snap --sector-size 32GiB --registered-proof 0
expect 2 "no size" "$cuzk" circuit info --kind snap

[ "$fails" -eq 0 ] && echo "test_snap_circuit_cli: all passed"
exit "$fails"
