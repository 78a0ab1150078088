#!/bin/sh
# SnapDeals vanilla partition proofs with the tools: `cuzk snap vanilla` on a 2KiB CC sector sealed by
# `cuzk seal --data /dev/null` and updated by `cuzk snap encode` writes one file (u64 count 1, then the
# partition proof: 15,072 bytes for 2KiB, the size the serde layout gives) and says which commitments it is
# for (encode's), the same bytes again and with --sector named; `cuzk-bench gen-vanilla snap` writes a sealed
# 2KiB sector's proofs and synthetic ones of 8MiB (4 partitions) and 32GiB (16 partitions) whose size is the
# layout's, printing the commitments line. Bad input (usage, no update directory, another sector key, a
# damaged tree file, a 64GiB sector without --synthetic) exits 2 with a message and writes nothing.
# Usage: test_snap_vanilla_cli.sh <cuzk> <cuzk-bench>
set -u
cuzk="$1"
bench="$2"
. "$(dirname "$0")/../../cli_expect.sh"
count_is() {   # count_is <description> <file> <n>: the file's first 8 bytes, a little-endian u64
  c=$(od -An -tu8 -N8 "$2" 2>/dev/null | tr -d ' ')
  [ "$c" = "$3" ] || { echo "FAIL: $1: $2 counts '$c' partition proofs, $3 expected"; fails=$((fails + 1)); }
}
# one partition's bytes (vanilla.rs PartitionProof): comm_c, the apex leaves, per challenge three MerkleProofs
# (u32 kind, root, leaf, u64 levels, per level u64 count, the siblings, u64 index); a tree-R level of arity 8
# is 8 + 7*32 + 8 bytes, a tree-D level 8 + 32 + 8.
part_len() {   # part_len <apex leaves> <challenges> <tree R bytes> <tree D levels>
  echo $((32 + 8 + 32 * $1 + 8 + $2 * (2 * $3 + 4 + 64 + 8 + 48 * $4)))
}
r_single() { echo $((4 + 64 + 8 + 240 * $1)); }                 # Single proof of n base levels
r_sub() { echo $((4 + 8 + 240 * $1 + 8 + 8 + 32 * ($2 - 1) + 8 + 64)); }   # Sub proof: n base levels, sub arity

expect 0 "seal a CC sector" "$cuzk" seal --sector-size 2KiB --out "$dir/cc" --data /dev/null
expect 0 "seal another" "$cuzk" seal --sector-size 2KiB --out "$dir/cc2" --data /dev/null
head -c 2032 /dev/urandom >"$dir/data"
expect 0 "encode" "$cuzk" snap encode --sector "$dir/cc" --data "$dir/data" --out "$dir/up"
comms=$(cat "$dir/out")

expect 0 "vanilla" "$cuzk" snap vanilla --update "$dir/up" -o "$dir/v"
two=$(part_len 8 10 "$(r_single 2)" 6)
size_is "2KiB proofs" "$dir/v" $((8 + two))
count_is "2KiB proofs" "$dir/v" 1
grep -q "for $comms\$" "$dir/out" ||
  { echo "FAIL: vanilla does not name encode's commitments"; cat "$dir/out"; fails=$((fails + 1)); }
expect 0 "vanilla again, the sector named, one thread" "$cuzk" snap vanilla --update "$dir/up" --sector "$dir/cc" \
  -o "$dir/v2" --threads 1
cmp -s "$dir/v" "$dir/v2" || { echo "FAIL: the same update gave other proofs"; fails=$((fails + 1)); }

# bad input: exit 2, a message, nothing written
expect 2 "no --update" "$cuzk" snap vanilla -o "$dir/x"
expect 2 "no -o" "$cuzk" snap vanilla --update "$dir/up"
expect 2 "no update directory" "$cuzk" snap vanilla --update "$dir/none" -o "$dir/x"
stderr_has "no update directory" "update.json"
no_file "no update directory" "$dir/x"
expect 2 "another sector key" "$cuzk" snap vanilla --update "$dir/up" --sector "$dir/cc2" -o "$dir/x"
stderr_has "another sector key" "not the one"
no_file "another sector key" "$dir/x"
cp "$dir/up/sc-02-data-tree-d.dat" "$dir/treed"
head -c 4000 "$dir/treed" >"$dir/up/sc-02-data-tree-d.dat"
expect 2 "a cut tree D" "$cuzk" snap vanilla --update "$dir/up" -o "$dir/x"
stderr_has "a cut tree D" "sc-02-data-tree-d.dat"
no_file "a cut tree D" "$dir/x"
cp "$dir/treed" "$dir/up/sc-02-data-tree-d.dat"

# cuzk-bench gen-vanilla snap: sealed 2KiB, synthetic 8MiB and 32GiB
expect 0 "gen-vanilla snap 2KiB" "$bench" gen-vanilla snap --sector-size 2KiB -o "$dir/g2"
size_is "gen-vanilla 2KiB" "$dir/g2" $((8 + two))
grep -Eq '^comm_r_old=[0-9a-f]{64} comm_d_new=[0-9a-f]{64} comm_r_new=[0-9a-f]{64}$' "$dir/out" ||
  { echo "FAIL: gen-vanilla's commitments line"; cat "$dir/out"; fails=$((fails + 1)); }
expect 0 "gen-vanilla snap 8MiB synthetic" "$bench" gen-vanilla snap --sector-size 8MiB --synthetic -o "$dir/g8"
count_is "8MiB" "$dir/g8" 4
size_is "8MiB" "$dir/g8" $((8 + 4 * $(part_len 128 10 "$(r_single 6)" 18)))
seed=0101010101010101010101010101010101010101010101010101010101010101
expect 0 "gen-vanilla snap 32GiB synthetic" "$bench" gen-vanilla snap --sector-size 32GiB --synthetic --seed $seed \
  -o "$dir/g32"
count_is "32GiB" "$dir/g32" 16
size_is "32GiB" "$dir/g32" $((8 + 16 * $(part_len 128 86 "$(r_sub 9 8)" 30)))
head -1 "$dir/out" >"$dir/line32"
expect 0 "gen-vanilla snap 32GiB again" "$bench" gen-vanilla snap --registered-proof StackedDrg32GiBV1 --synthetic \
  --seed $seed -o "$dir/g32b"
cmp -s "$dir/g32" "$dir/g32b" || { echo "FAIL: the same seed gave other proofs"; fails=$((fails + 1)); }
head -1 "$dir/out" | cmp -s - "$dir/line32" ||
  { echo "FAIL: the same seed gave other commitments"; fails=$((fails + 1)); }
expect 2 "64GiB not sealed here" "$bench" gen-vanilla snap --sector-size 64GiB -o "$dir/x"
stderr_has "64GiB not sealed here" "synthetic"
expect 2 "a size SnapDeals does not have" "$bench" gen-vanilla snap --sector-size 4KiB --synthetic -o "$dir/x"
expect 2 "a proof of another size" "$bench" gen-vanilla snap --sector-size 2KiB --registered-proof StackedDrg8MiBV1 \
  --synthetic -o "$dir/x"
no_file "refused gen-vanilla" "$dir/x"

[ "$fails" -eq 0 ] && echo "test_snap_vanilla_cli: all passed"
exit "$fails"
