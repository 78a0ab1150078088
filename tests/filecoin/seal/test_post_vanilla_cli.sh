#!/bin/sh
# PoSt vanilla proofs from sealed sectors with the tools: `cuzk seal` keeps the sector's files beside its C1
# output (--c1-only does not); `cuzk post vanilla` makes one bincode file per sector, the same bytes for the
# same sector and randomness, moving with the sector index under the V1 proofs only; a Window PoSt of two
# sealed sectors proved and verified by `cuzk post prove|verify` on development parameters (Winning too
# with --full); `cuzk-bench gen-vanilla winning|window` by sealing and --synthetic (32GiB). Every bad input
# (usage, a missing, short or damaged sector file, a non-canonical randomness, a proof of another kind or
# size) exits 2 with a message naming it and leaves no output file, also for the sectors that were fine.
# Usage: test_post_vanilla_cli.sh <cuzk> <cuzk-bench> <params dir> [--full]
set -u
cuzk="$1"
bench="$2"
p="$3"
full="${4:-}"
msg_on="1 2"
. "$(dirname "$0")/../../cli_expect.sh"
differ() {   # differ <description> <file> <file>
  cmp -s "$2" "$3" && { echo "FAIL: $1: $2 and $3 are the same"; fails=$((fails + 1)); }
}

rand=0101010101010101010101010101010101010101010101010101010101010101
rand2=0202020202020202020202020202020202020202020202020202020202020202
notfr=ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff

# two sealed 2KiB sectors and their files
expect 0 "seal sector 1" "$cuzk" seal --sector-size 2KiB --out "$dir/s1" --sector-num 1
stdout_has "seal sector 1" "sector files: sealed: 2048 bytes, sc-02-data-tree-r-last.dat: 32 bytes, p_aux: 64 bytes"
expect 0 "seal sector 2" "$cuzk" seal --sector-size 2KiB --out "$dir/s2" --sector-num 2
for f in c1.json c1-wrapper.json sealed sc-02-data-tree-r-last.dat p_aux t_aux sector.json; do
  [ -f "$dir/s1/$f" ] || { echo "FAIL: seal: no $f"; fails=$((fails + 1)); }
done
size_is "sealed" "$dir/s1/sealed" 2048
size_is "p_aux" "$dir/s1/p_aux" 64
expect 0 "seal --c1-only" "$cuzk" seal --sector-size 2KiB --out "$dir/c1only" --c1-only
no_file "seal --c1-only" "$dir/c1only/sealed"
no_file "seal --c1-only" "$dir/c1only/sector.json"

# vanilla proofs: Window (V1_1 by default, 10 challenges of 2 levels), Winning (66 challenges)
post_vanilla() { "$cuzk" post vanilla "$@"; }
expect 0 "window" post_vanilla --kind window --sector "$dir/s1" --sector "$dir/s2" --randomness $rand \
  -o "$dir/w1" -o "$dir/w2"
stdout_has "window" "StackedDrgWindow2KiBV1_2: 2 vanilla proof"
stdout_has "window" "sector 2 .*5680 bytes, 10 challenges, 2-level paths, sector index 1"
size_is "window" "$dir/w1" 5680
expect 0 "window again" post_vanilla --kind window --sector "$dir/s1" --randomness $rand -o "$dir/w1b"
same "the same sector and randomness" "$dir/w1" "$dir/w1b"
expect 0 "window, another randomness" post_vanilla --kind window --sector "$dir/s1" --randomness $rand2 -o "$dir/w1c"
differ "another randomness" "$dir/w1" "$dir/w1c"
expect 0 "window V1_2, sector index 7" post_vanilla --kind window --sector "$dir/s1" --randomness $rand \
  --sector-index 7 -o "$dir/w1d"
same "V1_2 does not depend on the sector index" "$dir/w1" "$dir/w1d"
expect 0 "window V1, index 0" post_vanilla --registered-proof StackedDrgWindow2KiBV1 --sector "$dir/s1" \
  --randomness $rand -o "$dir/v1a"
expect 0 "window V1, index 1" post_vanilla --registered-proof 5 --sector "$dir/s1" --randomness $rand \
  --sector-index 1 -o "$dir/v1b"
differ "V1 challenges follow the sector index" "$dir/v1a" "$dir/v1b"
expect 0 "winning" post_vanilla --kind winning --sector "$dir/s1" --randomness $rand -o "$dir/win"
stdout_has "winning" "StackedDrgWinning2KiBV1: 1 vanilla proof"
size_is "winning" "$dir/win" 36816

# bad input: exit 2, a message, no file (not even the good sector's)
expect 2 "no --sector" post_vanilla --kind window --randomness $rand -o "$dir/x"
expect 2 "no --kind" post_vanilla --sector "$dir/s1" --randomness $rand -o "$dir/x"
expect 2 "outputs and sectors" post_vanilla --kind window --sector "$dir/s1" --sector "$dir/s2" \
  --randomness $rand -o "$dir/x"
stderr_has "outputs and sectors" "one output file per sector"
expect 2 "kind and proof" post_vanilla --kind winning --registered-proof StackedDrgWindow2KiBV1_2 \
  --sector "$dir/s1" --randomness $rand -o "$dir/x"
expect 2 "unknown proof" post_vanilla --registered-proof StackedDrgWindow3KiBV1 --sector "$dir/s1" \
  --randomness $rand -o "$dir/x"
expect 2 "another size" post_vanilla --registered-proof StackedDrgWindow32GiBV1_2 --sector "$dir/s1" \
  --randomness $rand -o "$dir/x"
stderr_has "another size" "2KiB"
expect 2 "non-canonical randomness" post_vanilla --kind window --sector "$dir/s1" --randomness $notfr -o "$dir/x"
stderr_has "non-canonical randomness" "canonical"
expect 2 "no such sector" post_vanilla --kind window --sector "$dir/none" --randomness $rand -o "$dir/x"
stderr_has "no such sector" "sector.json"
no_file "bad input" "$dir/x"
cp -r "$dir/s2" "$dir/bad"
head -c 2000 "$dir/s2/sealed" >"$dir/bad/sealed"
expect 2 "short replica" post_vanilla --kind window --sector "$dir/s1" --sector "$dir/bad" --randomness $rand \
  -o "$dir/x1" -o "$dir/x2"
stderr_has "short replica" "sector 1 .*sealed: 2000 bytes, 2048 expected"
no_file "short replica" "$dir/x1"
no_file "short replica" "$dir/x2"
cp "$dir/s1/sealed" "$dir/bad/sealed"
expect 2 "another sector's replica" post_vanilla --kind window --sector "$dir/bad" --randomness $rand -o "$dir/x"
stderr_has "another sector's replica" "disagree"
cp "$dir/s2/sealed" "$dir/bad/sealed"
rm "$dir/bad/p_aux"
expect 2 "no p_aux" post_vanilla --kind window --sector "$dir/bad" --randomness $rand -o "$dir/x"
stderr_has "no p_aux" "p_aux"
cp "$dir/s1/p_aux" "$dir/bad/p_aux"
expect 2 "another sector's p_aux" post_vanilla --kind window --sector "$dir/bad" --randomness $rand -o "$dir/x"
stderr_has "another sector's p_aux" "comm_r"
no_file "bad sectors" "$dir/x"

# the proofs are what `cuzk post prove` takes: a Window PoSt of both sectors, proved and verified
expect 0 "params window-post" "$cuzk" params generate --kind window-post --sector-size 2KiB --out "$p"
post() {   # post <prove|verify> <kind> <extra args...>
  sub="$1"; kind="$2"; shift 2
  "$cuzk" post "$sub" --kind "$kind" --sector-size 2KiB --miner-id 1000 --params "$p" "$@"
}
expect 0 "post prove window" post prove window --vanilla "$dir/w1" --vanilla "$dir/w2" --randomness $rand \
  --out "$dir/wproof"
expect 0 "post verify window" post verify window --vanilla "$dir/w1" --vanilla "$dir/w2" --randomness $rand \
  --proof "$dir/wproof"
expect 1 "post verify window, sectors swapped" post verify window --vanilla "$dir/w2" --vanilla "$dir/w1" \
  --randomness $rand --proof "$dir/wproof"
if [ "$full" = "--full" ]; then
  expect 0 "params winning-post" "$cuzk" params generate --kind winning-post --sector-size 2KiB --out "$p"
  expect 0 "post prove winning" post prove winning --vanilla "$dir/win" --randomness $rand --out "$dir/pwin"
  expect 0 "post verify winning" post verify winning --vanilla "$dir/win" --randomness $rand --proof "$dir/pwin"
fi

# cuzk-bench gen-vanilla: by sealing, and synthetic of any size
expect 0 "gen-vanilla window" "$bench" gen-vanilla window --sector-size 2KiB --sectors 2 --randomness $rand \
  -o "$dir/g1" -o "$dir/g2"
stdout_has "gen-vanilla window" "StackedDrgWindow2KiBV1_2: 2 sealed vanilla proof"
size_is "gen-vanilla window" "$dir/g2" 5680
expect 0 "gen-vanilla winning" "$bench" gen-vanilla winning --sector-size 2KiB -o "$dir/gw"
size_is "gen-vanilla winning" "$dir/gw" 36816
ls "$dir"/.cuzk-gen-vanilla-* >/dev/null 2>&1 && { echo "FAIL: gen-vanilla left its sectors"; fails=$((fails + 1)); }
expect 0 "gen-vanilla synthetic 32GiB" "$bench" gen-vanilla window-post --sector-size 32GiB --synthetic \
  --sectors 3 --randomness $rand --out-dir "$dir/syn"
size_is "gen-vanilla synthetic 32GiB" "$dir/syn/sector-3.vproof" 24960
expect 0 "post prove window with gen-vanilla's sectors" post prove window --vanilla "$dir/g1" --vanilla "$dir/g2" \
  --randomness $rand --out "$dir/gproof"
expect 2 "gen-vanilla 32GiB sealed" "$bench" gen-vanilla window --sector-size 32GiB -o "$dir/x"
stderr_has "gen-vanilla 32GiB sealed" "synthetic"
expect 2 "gen-vanilla outputs" "$bench" gen-vanilla window --sector-size 2KiB --sectors 2 -o "$dir/x"
expect 2 "gen-vanilla non-canonical" "$bench" gen-vanilla window --sector-size 2KiB --randomness $notfr -o "$dir/x"
expect 2 "gen-vanilla porep with PoSt options" "$bench" gen-vanilla porep --sectors 2
no_file "gen-vanilla bad input" "$dir/x"

[ "$fails" -eq 0 ] && echo "test_post_vanilla_cli: all passed"
exit "$fails"
