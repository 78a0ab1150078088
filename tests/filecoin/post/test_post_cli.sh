#!/bin/sh
# The tool's PoSt lines on 2KiB sectors whose vanilla proofs test_post_api writes (--write-vanilla: a
# Winning sector, two Window sectors and a damaged copy of the second): `params generate --kind
# winning-post|window-post` under rust-fil-proofs' v28 names (tests/vectors/params/parameters-excerpt.json),
# marked and announced as development parameters, then reused; `circuit info` of both kinds (the counts of
# docs/REFERENCE.md's cost model); `post prove` (checked, proved, verified, written) and `post verify`
# (exit 0 valid, 1 not: another randomness, sector order or sector), also for a sector sealed by `cuzk
# seal` whose vanilla proof `cuzk post vanilla` makes; every bad input exits 2 with a message naming the
# sector and path and leaves no file. The parameters go to PARAMS_DIR (made once, then reused, as the
# PoRep tests' are).
# Usage: test_post_cli.sh <cuzk> <test_post_api> <params dir>
set -u
cuzk="$1"
writer="$2"
p="$3"
msg_on="1 2"   # an invalid proof (exit 1) says why too
. "$(dirname "$0")/../../cli_expect.sh"
manifest="$(dirname "$0")/../../vectors/params/parameters-excerpt.json"

"$writer" --write-vanilla "$dir" >/dev/null || { echo "FAIL: test_post_api --write-vanilla"; exit 1; }
rand=1111111111111111111111111111111111111111111111111111111111111111
other=1111111111111111111111111111111111111111111111111111111111111112
win="$dir/winning.vproof"
w0="$dir/window-0.vproof"
w1="$dir/window-1.vproof"

# the usage names the new lines
expect 0 "cuzk --help" "$cuzk" --help
stdout_has "cuzk --help" "post prove"
stdout_has "cuzk --help" "winning-post|window-post"
expect 0 "cuzk post --help" "$cuzk" post --help
expect 0 "cuzk post prove --help" "$cuzk" post prove --help
stdout_has "post prove --help" "partition-index"

# circuit info: the cost model's counts (66·1373 and 2·10913) and inputs with ONE (1 + 66·2, 1 + 2·11)
expect 0 "circuit info winning" "$cuzk" circuit info --kind winning-post --sector-size 2KiB
stdout_has "circuit info winning" "constraints=90750 inputs=133 "
expect 0 "circuit info window" "$cuzk" circuit info --kind window-post --sector-size 2KiB --hash
stdout_has "circuit info window" "constraints=21866 inputs=23 .* hash=[0-9a-f]\{64\}"
expect 0 "circuit info window by name" "$cuzk" circuit info --kind window-post --registered-proof StackedDrgWindow2KiBV1
stdout_has "circuit info window by name" "constraints=21866 inputs=23 "
expect 2 "circuit info: kind and proof disagree" "$cuzk" circuit info --kind winning-post --registered-proof 10
expect 2 "circuit info: winning partition" "$cuzk" circuit info --kind winning-post --sector-size 2KiB --partition 1

# development parameters under the v28 names, announced and marked; then reused
expect 0 "params generate winning" "$cuzk" params generate --kind winning-post --sector-size 2KiB --out "$p"
stderr_has "params generate winning" "WARNING: .* development parameters"
expect 0 "params generate window" "$cuzk" params generate --kind window-post --sector-size 2KiB --out "$p"
n=0
for f in "$p"/v28-proof-of-spacetime-*.params "$p"/v28-proof-of-spacetime-*.vk; do
  name=$(basename "$f")
  grep -q "\"$name\"" "$manifest" || { echo "FAIL: $name is not a v28 name of parameters.json"; fails=$((fails + 1)); }
  n=$((n + 1))
done
[ "$n" -ge 4 ] || { echo "FAIL: $n parameter files, 4 expected"; ls "$p"; fails=$((fails + 1)); }
for f in "$p"/v28-proof-of-spacetime-*.params; do
  [ -f "${f%.params}.cuzk-dev" ] || { echo "FAIL: $f has no development marker"; fails=$((fails + 1)); }
done
expect 0 "params generate window again" "$cuzk" params generate --kind window-post \
  --registered-proof StackedDrgWindow2KiBV1 --out "$p"
stdout_has "params generate window again" "reusing"
expect 2 "params generate: kind and proof disagree" "$cuzk" params generate --kind winning-post \
  --registered-proof StackedDrgWindow2KiBV1_2 --out "$dir/pg"
no_file "params generate: kind and proof disagree" "$dir/pg"
expect 2 "params generate: bad kind" "$cuzk" params generate --kind post --sector-size 2KiB --out "$dir/pg"

# Winning: prove (development parameters announced), verify; another randomness or sector id does not verify
post() {   # post <prove|verify> <kind> <extra args...>
  sub="$1"; kind="$2"; shift 2
  "$cuzk" post "$sub" --kind "$kind" --sector-size 2KiB --miner-id 1000 --params "$p" "$@"
}
expect 0 "winning prove" post prove winning --vanilla "$win" --randomness $rand --out "$dir/win.proof"
stderr_has "winning prove" "WARNING: .* development parameters"
stdout_has "winning prove" "StackedDrgWinning2KiBV1, 1 sector(s), partition 0, 90750 constraints"
[ "$(wc -c <"$dir/win.proof")" -eq 192 ] || { echo "FAIL: the Winning proof is not 192 bytes"; fails=$((fails + 1)); }
expect 0 "winning verify" post verify winning --vanilla "$win" --randomness $rand --proof "$dir/win.proof"
stdout_has "winning verify" ": valid"
expect 1 "winning verify: other randomness" post verify winning --vanilla "$win" --randomness $other \
  --proof "$dir/win.proof"
expect 1 "winning verify: another sector" post verify winning --vanilla "$w0" --randomness $rand \
  --proof "$dir/win.proof"

# Window: two sectors by name; the proof does not verify for the sectors swapped or the first alone
expect 0 "window prove" post prove window --registered-proof StackedDrgWindow2KiBV1_2 --vanilla "$w0" --vanilla "$w1" \
  --randomness $rand --out "$dir/wdw.proof" --threads 2
expect 0 "window verify" post verify window --vanilla "$w0" --vanilla "$w1" --randomness $rand --proof "$dir/wdw.proof"
expect 1 "window verify: swapped" post verify window --vanilla "$w1" --vanilla "$w0" --randomness $rand \
  --proof "$dir/wdw.proof"
expect 1 "window verify: one sector" post verify window --vanilla "$w0" --randomness $rand --proof "$dir/wdw.proof"
expect 1 "window verify: a Winning proof" post verify window --vanilla "$w0" --vanilla "$w1" --randomness $rand \
  --proof "$dir/win.proof"
cp "$dir/wdw.proof" "$dir/flip.proof"
printf '\001' | dd of="$dir/flip.proof" bs=1 seek=100 conv=notrunc 2>/dev/null
expect 1 "window verify: a changed byte" post verify window --vanilla "$w0" --vanilla "$w1" --randomness $rand \
  --proof "$dir/flip.proof"
head -c 191 "$dir/wdw.proof" >"$dir/short.proof"
expect 1 "window verify: a short proof" post verify window --vanilla "$w0" --vanilla "$w1" --randomness $rand \
  --proof "$dir/short.proof"
expect 2 "window verify: no proof file" post verify window --vanilla "$w0" --randomness $rand --proof "$dir/none"

# a sealed sector's vanilla proof, as `cuzk seal` and `cuzk post vanilla` make it, proved and verified
expect 0 "seal" "$cuzk" seal --sector-size 2KiB --out "$dir/sector" --sector-num 41 --threads 1
expect 0 "post vanilla" "$cuzk" post vanilla --kind window --sector "$dir/sector" --randomness $rand \
  -o "$dir/sealed.vproof"
expect 0 "sealed sector: prove" post prove window --vanilla "$dir/sealed.vproof" --randomness $rand \
  --out "$dir/sealed.proof"
expect 0 "sealed sector: verify" post verify window --vanilla "$dir/sealed.vproof" --randomness $rand \
  --proof "$dir/sealed.proof"
expect 1 "sealed sector: verify as the other sector" post verify window --vanilla "$w0" --randomness $rand \
  --proof "$dir/sealed.proof"

# bad input: exit 2, a message naming what is wrong, no proof file
out="$dir/bad.proof"
expect 2 "damaged sector" post prove window --vanilla "$w0" --vanilla "$dir/window-bad.vproof" --randomness $rand \
  --out "$out"
stderr_has "damaged sector" "vanilla 1 of 2"
stderr_has "damaged sector" "sector 12"
stderr_has "damaged sector" "path 3"
no_file "damaged sector" "$out"
expect 2 "vanilla of another randomness" post prove window --vanilla "$w0" --randomness $other --out "$out"
stderr_has "vanilla of another randomness" "leaf"
expect 2 "winning: two sectors" post prove winning --vanilla "$win" --vanilla "$win" --randomness $rand --out "$out"
expect 2 "winning: partition 1" post prove winning --vanilla "$win" --randomness $rand --partition-index 1 --out "$out"
stderr_has "winning: partition 1" "partition"
expect 2 "window: a Winning vanilla" post prove window --vanilla "$win" --randomness $rand --out "$out"
stderr_has "window: a Winning vanilla" "66"
expect 2 "kind and proof disagree" post prove winning --registered-proof StackedDrgWindow2KiBV1_2 --vanilla "$win" \
  --randomness $rand --out "$out"
expect 2 "size and proof disagree" post prove window --registered-proof StackedDrgWindow32GiBV1_1 --vanilla "$w0" \
  --randomness $rand --out "$out"
expect 2 "non-canonical randomness" post prove window --vanilla "$w0" --randomness $(printf 'f%.0s' $(seq 64)) \
  --out "$out"
stderr_has "non-canonical randomness" "randomness"
expect 2 "missing vanilla file" post prove window --vanilla "$dir/none.vproof" --randomness $rand --out "$out"
stderr_has "missing vanilla file" "none.vproof"
head -c 1000 "$w0" >"$dir/cut.vproof"
expect 2 "truncated vanilla" post prove window --vanilla "$dir/cut.vproof" --randomness $rand --out "$out"
stderr_has "truncated vanilla" "truncated"
cat "$w0" "$w0" >"$dir/long.vproof"
expect 2 "trailing bytes" post prove window --vanilla "$dir/long.vproof" --randomness $rand --out "$out"
stderr_has "trailing bytes" "trailing"
mkdir "$dir/empty"
expect 2 "missing params" "$cuzk" post prove --kind window --sector-size 2KiB --miner-id 1000 --params "$dir/empty" \
  --vanilla "$w0" --randomness $rand --out "$out"
stderr_has "missing params" "missing parameters"
no_file "bad input" "$out"
# usage errors
expect 2 "no --vanilla" post prove window --randomness $rand --out "$out"
expect 2 "bad randomness" post prove window --vanilla "$w0" --randomness 12 --out "$out"
expect 2 "no size or proof" "$cuzk" post prove --kind window --miner-id 1 --params "$p" --vanilla "$w0" \
  --randomness $rand --out "$out"
expect 2 "bad kind" post prove windows --vanilla "$w0" --randomness $rand --out "$out"
expect 2 "no subcommand" "$cuzk" post
no_file "usage errors" "$out"

[ "$fails" -eq 0 ] && echo "test_post_cli: all passed" && exit 0
echo "test_post_cli: $fails failure(s)"
exit 1
