#!/bin/sh
# `cuzk circuit info`: the 2KiB PoRep line (counts: docs/REFERENCE.md §3.2; non-zeros and hash: our own recorded
# values), the same circuit named by registered proof, and bad arguments (exit 2 with a message).
# Usage: test_porep_circuit_cli.sh <cuzk> [--hash]
set -u
cuzk="$1"
. "$(dirname "$0")/../../cli_expect.sh"

counts="constraints=2687921 inputs=40 aux=2685673 nnz_a=6420965 nnz_b=2689006 nnz_c=5824682"
hash="hash=2c120b1125bd531d5a62b11932b2ae0e0cb47f455cea582994f97534e296bb42"
if [ "${2:-}" = "--hash" ]; then   # seconds and ~0.7 GiB: the slow run only
  expect_line "2KiB with hash" "$counts $hash" "$cuzk" circuit info --kind porep --sector-size 2KiB --hash
fi
expect_line "2KiB partition 0" "$counts" "$cuzk" circuit info --kind porep --sector-size 2KiB --partition 0
expect_line "by registered proof" "$counts" "$cuzk" circuit info --kind porep --registered-proof StackedDrg2KiBV1
expect_line "by proof and size" "$counts" "$cuzk" circuit info --kind porep --sector-size 2048 \
  --registered-proof RegisteredSealProof_StackedDrg2KiBV1_1_Feat_SyntheticPoRep

expect 2 "no kind" "$cuzk" circuit info --sector-size 2KiB
expect 2 "other kind" "$cuzk" circuit info --kind post --sector-size 2KiB
expect 2 "no size" "$cuzk" circuit info --kind porep
expect 2 "bad size" "$cuzk" circuit info --kind porep --sector-size 3KiB
expect 2 "size not a number" "$cuzk" circuit info --kind porep --sector-size big
expect 2 "partition out of range" "$cuzk" circuit info --kind porep --sector-size 2KiB --partition 1
expect 2 "bad partition" "$cuzk" circuit info --kind porep --sector-size 2KiB --partition -1
expect 2 "unknown proof" "$cuzk" circuit info --kind porep --registered-proof StackedDrg2KiBV9
expect 2 "proof of another size" "$cuzk" circuit info --kind porep --sector-size 32GiB \
  --registered-proof StackedDrg2KiBV1_1
expect 2 "unknown option" "$cuzk" circuit info --kind porep --sector-size 2KiB --fast
expect 2 "no subcommand" "$cuzk" circuit
expect 2 "unknown subcommand" "$cuzk" circuit draw

[ "$fails" -eq 0 ] && echo "test_porep_circuit_cli: all passed"
exit "$fails"
