#!/bin/sh
# `cuzk params check` and `cuzk params digest` on a good pair of files and on damaged ones: exit 0 for
# good files, 1 for a digest that differs from the manifest, 2 with a message for bad input.
# Usage: test_params_cli.sh <cuzk> <params_fixture>
set -u
cuzk="$1"
fixture="$2"
. "$(dirname "$0")/../cli_expect.sh"

"$fixture" "$dir" >/dev/null || { echo "FAIL: fixture"; exit 1; }
p="$dir/tiny.params"; v="$dir/tiny.vk"
expect 0 "good params, subgroup checks" "$cuzk" params check "$p"
expect 0 "good params, no checks" "$cuzk" params check "$p" --check none --threads 1
expect 0 "good vk" "$cuzk" params check "$v"
expect 0 "digest" "$cuzk" params digest "$p"
digest=$(cut -d' ' -f1 "$dir/out")
[ ${#digest} -eq 32 ] || { echo "FAIL: digest is not 32 hex characters: $digest"; fails=$((fails + 1)); }
# The digest must be BLAKE2b-512 of the file, first 32 hex characters (checked with Python).
want=$(python3 -c "import hashlib,sys; print(hashlib.blake2b(open(sys.argv[1],'rb').read()).hexdigest()[:32])" "$p")
[ "$digest" = "$want" ] || { echo "FAIL: digest $digest, hashlib says $want"; fails=$((fails + 1)); }

printf '{"tiny.params": {"cid": "Qm", "digest": "%s", "sector_size": 2048}}\n' "$digest" >"$dir/good.json"
printf '{"tiny.params": {"cid": "Qm", "digest": "%s", "sector_size": 2048}}\n' \
  "00000000000000000000000000000000" >"$dir/bad.json"
expect 0 "manifest match" "$cuzk" params digest "$p" --manifest "$dir/good.json"
expect 1 "manifest mismatch" "$cuzk" params digest "$p" --manifest "$dir/bad.json"
printf '{"other.params": {}}\n' >"$dir/none.json"
expect 2 "no manifest entry" "$cuzk" params digest "$p" --manifest "$dir/none.json"
printf 'not json' >"$dir/broken.json"
expect 2 "broken manifest" "$cuzk" params digest "$p" --manifest "$dir/broken.json"

size=$(wc -c <"$p")
head -c $((size - 7)) "$p" >"$dir/trunc.params"
expect 2 "truncated params" "$cuzk" params check "$dir/trunc.params"
head -c 500 "$v" >"$dir/trunc.vk"
expect 2 "truncated vk" "$cuzk" params check "$dir/trunc.vk"
# ic_len 0: readable (bellperson reads it), reported as no public inputs.
{ head -c 864 "$v"; printf '\000\000\000\000'; } >"$dir/noic.vk"
expect 0 "vk without ic" "$cuzk" params check "$dir/noic.vk"
grep -q "0 public inputs (ic 0)" "$dir/out" || { echo "FAIL: vk without ic: $(cat "$dir/out")"; fails=$((fails + 1)); }
# Flip a bit in the middle of the last point (b_g2): off the curve or out of the subgroup. The byte
# is read first: writing a fixed value would leave the file intact when the byte already holds it.
cp "$p" "$dir/flip.params"
byte=$(od -An -tu1 -j $((size - 100)) -N1 "$p" | tr -d ' ')
printf "\\$(printf %03o $((byte ^ 1)))" | dd of="$dir/flip.params" bs=1 seek=$((size - 100)) conv=notrunc 2>/dev/null
cmp -s "$p" "$dir/flip.params" && { echo "FAIL: the bit flip did not change the file"; fails=$((fails + 1)); }
expect 2 "corrupt point" "$cuzk" params check "$dir/flip.params" --check subgroup
expect 2 "missing file" "$cuzk" params check "$dir/absent.params"
expect 2 "unknown level" "$cuzk" params check "$p" --check everything
expect 2 "no subcommand" "$cuzk" params

[ "$fails" -eq 0 ] && echo "test_params_cli: all checks passed"
exit "$fails"
