#!/bin/sh
# The tool's SnapDeals proof lines on a real 2KiB update: a CC sector sealed by `cuzk seal --data /dev/null`,
# random data encoded by `cuzk snap encode`, its vanilla partition proof written by `cuzk snap vanilla`.
# Bad input exits 2 with a message naming what is wrong and leaves no proof file, before any parameter is
# read: a truncated vanilla file, another registered proof (its partition count), an unknown one, each of
# the three commitments changed, commitments that are not field elements, malformed hex, synthetic 8MiB
# partition proofs (4) under the 2KiB proof, a parameter directory without the files (the message says how
# to make them); `params generate --kind snap` refuses a size SnapDeals does not have and a proof of
# another size. With --full (the slow suite; PARAMS_DIR holds the 2KiB development parameters
# snap_params_dev made): `params generate --kind snap` reuses them under rust-fil-proofs' v28 names
# (tests/vectors/filecoin/parameters.json), `snap prove` checks, proves, verifies and writes 192 bytes
# (1,705,039 constraints, tests/circuit.rs), `snap verify` says valid (with or without the vanilla file)
# and exits 1 for another commitment of each kind, a changed byte, a short or long proof.
# Usage: test_snap_prove_cli.sh <cuzk> <cuzk-bench> <params dir> [--full]
set -u
cuzk="$1"
bench="$2"
p="$3"
full="${4:-}"
msg_on="1 2"   # an invalid proof (exit 1) says why too
. "$(dirname "$0")/../../cli_expect.sh"
manifest="$(dirname "$0")/../../vectors/filecoin/parameters.json"
no_file() {   # no_file <description> <path>
  if [ -e "$2" ] || ls "$2".tmp.* >/dev/null 2>&1; then
    echo "FAIL: $1: $2 (or a temporary file) was left behind"; fails=$((fails + 1))
  fi
}
stderr_has() {   # stderr_has <description> <text>
  grep -q "$2" "$dir/err" || { echo "FAIL: $1: stderr lacks '$2'"; cat "$dir/err"; fails=$((fails + 1)); }
}
stdout_has() {   # stdout_has <description> <text>
  grep -q "$2" "$dir/out" || { echo "FAIL: $1: stdout lacks '$2'"; cat "$dir/out"; fails=$((fails + 1)); }
}
# the commitment with its first byte's low bit flipped (still a field element)
other() {
  printf '%s%s%s' "$(printf '%s' "$1" | cut -c1)" "$(printf '%s' "$1" | cut -c2 | tr 0-9a-f 1032547698badcfe)" \
    "$(printf '%s' "$1" | cut -c3-)"
}

expect 0 "cuzk snap --help" "$cuzk" snap --help
stdout_has "cuzk snap --help" "prove"
expect 0 "cuzk snap prove --help" "$cuzk" snap prove --help
stdout_has "snap prove --help" "comm-d-new"

expect 0 "seal a CC sector" "$cuzk" seal --sector-size 2KiB --out "$dir/cc" --data /dev/null
head -c 2032 /dev/urandom >"$dir/data"
expect 0 "encode" "$cuzk" snap encode --sector "$dir/cc" --data "$dir/data" --out "$dir/up"
line=$(cat "$dir/out")
r_old=$(printf '%s' "$line" | sed -n 's/.*comm_r_old=\([0-9a-f]*\).*/\1/p')
d_new=$(printf '%s' "$line" | sed -n 's/.*comm_d_new=\([0-9a-f]*\).*/\1/p')
r_new=$(printf '%s' "$line" | sed -n 's/.*comm_r_new=\([0-9a-f]*\).*/\1/p')
[ ${#r_old} -eq 64 ] && [ ${#d_new} -eq 64 ] && [ ${#r_new} -eq 64 ] ||
  { echo "FAIL: encode's line: $line"; exit 1; }
[ "$(other "$r_new")" != "$r_new" ] || { echo "FAIL: other() changed nothing"; exit 1; }
expect 0 "vanilla" "$cuzk" snap vanilla --update "$dir/up" -o "$dir/v"

snap() {   # snap <prove|verify> <comm_r_old> <comm_d_new> <comm_r_new> <extra args...>
  sub="$1"; shift
  a="$1"; b="$2"; c="$3"; shift 3
  "$cuzk" snap "$sub" --comm-r-old "$a" --comm-d-new "$b" --comm-r-new "$c" --params "$p" "$@"
}
out="$dir/proof"

# bad input: exit 2, a message, no proof written, the parameters never read
head -c 5000 "$dir/v" >"$dir/cut"
expect 2 "a truncated vanilla file" snap prove "$r_old" "$d_new" "$r_new" --registered-proof 0 --vanilla "$dir/cut" \
  --out "$out"
stderr_has "a truncated vanilla file" "$dir/cut"
no_file "a truncated vanilla file" "$out"
expect 2 "no vanilla file" snap prove "$r_old" "$d_new" "$r_new" --registered-proof 0 --vanilla "$dir/none" \
  --out "$out"
stderr_has "no vanilla file" "$dir/none"
expect 2 "the 8MiB proof" snap prove "$r_old" "$d_new" "$r_new" --registered-proof StackedDrg8MiBV1 \
  --vanilla "$dir/v" --out "$out"
stderr_has "the 8MiB proof" "4 partitions"
no_file "the 8MiB proof" "$out"
expect 2 "an unknown proof" snap prove "$r_old" "$d_new" "$r_new" --registered-proof 5 --vanilla "$dir/v" --out "$out"
stderr_has "an unknown proof" "5"
expect 2 "another comm_r_old" snap prove "$(other "$r_old")" "$d_new" "$r_new" --registered-proof 0 \
  --vanilla "$dir/v" --out "$out"
stderr_has "another comm_r_old" "partition 0"
expect 2 "another comm_d_new" snap prove "$r_old" "$(other "$d_new")" "$r_new" --registered-proof 0 \
  --vanilla "$dir/v" --out "$out"
stderr_has "another comm_d_new" "partition 0"
expect 2 "another comm_r_new" snap prove "$r_old" "$d_new" "$(other "$r_new")" --registered-proof 0 \
  --vanilla "$dir/v" --out "$out"
stderr_has "another comm_r_new" "partition 0"
no_file "other commitments" "$out"
ff=ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff
expect 2 "a commitment above the modulus" snap prove "$r_old" "$ff" "$r_new" --registered-proof 0 --vanilla "$dir/v" \
  --out "$out"
stderr_has "a commitment above the modulus" "comm_d_new"
expect 2 "malformed hex" snap prove "$r_old" "$d_new" "${r_new%?}" --registered-proof 0 --vanilla "$dir/v" --out "$out"
expect 2 "no --out" snap prove "$r_old" "$d_new" "$r_new" --registered-proof 0 --vanilla "$dir/v"
expect 0 "synthetic 8MiB partition proofs" "$bench" gen-vanilla snap --sector-size 8MiB --synthetic -o "$dir/v8"
expect 2 "four partitions under the 2KiB proof" snap prove "$r_old" "$d_new" "$r_new" --registered-proof 0 \
  --vanilla "$dir/v8" --out "$out"
stderr_has "four partitions under the 2KiB proof" "4 vanilla"
no_file "bad input" "$out"
expect 2 "a directory without parameters" "$cuzk" snap prove --comm-r-old "$r_old" --comm-d-new "$d_new" \
  --comm-r-new "$r_new" --params "$dir/noparams" --registered-proof 0 --vanilla "$dir/v" --out "$out"
stderr_has "a directory without parameters" "params generate"
no_file "a directory without parameters" "$out"
expect 2 "verify: a directory without parameters" "$cuzk" snap verify --comm-r-old "$r_old" --comm-d-new "$d_new" \
  --comm-r-new "$r_new" --params "$dir/noparams" --registered-proof 0 --proof "$dir/v"
expect 2 "params generate: a size SnapDeals does not have" "$cuzk" params generate --kind snap --sector-size 4KiB \
  --out "$dir/pg"
expect 2 "params generate: a proof of another size" "$cuzk" params generate --kind snap --sector-size 2KiB \
  --registered-proof StackedDrg32GiBV1 --out "$dir/pg"
no_file "params generate refused" "$dir/pg"

if [ "$full" = "--full" ]; then
  # the development parameters snap_params_dev made: reused, under the v28 names, marked
  expect 0 "params generate snap again" "$cuzk" params generate --kind snap --registered-proof 0 --out "$p"
  stdout_has "params generate snap again" "reusing"
  n=0
  for f in "$p"/v28-empty-sector-update-merkletree-*.params "$p"/v28-empty-sector-update-merkletree-*.vk; do
    name=$(basename "$f")
    grep -q "\"$name\"" "$manifest" || { echo "FAIL: $name is not a v28 name of parameters.json"; fails=$((fails + 1)); }
    n=$((n + 1))
  done
  [ "$n" -eq 2 ] || { echo "FAIL: $n SnapDeals parameter files, 2 expected"; ls "$p"; fails=$((fails + 1)); }
  for f in "$p"/v28-empty-sector-update-*.params; do
    [ -f "${f%.params}.cuzk-dev" ] || { echo "FAIL: $f has no development marker"; fails=$((fails + 1)); }
  done

  expect 0 "prove" snap prove "$r_old" "$d_new" "$r_new" --registered-proof 0 --vanilla "$dir/v" --out "$out" \
    --threads 2
  stderr_has "prove" "WARNING: .* development parameters"
  stdout_has "prove" "StackedDrg2KiBV1, 1 partition(s), 1705039 constraints each, .*verified"
  [ "$(wc -c <"$out")" -eq 192 ] || { echo "FAIL: the proof is not 192 bytes"; fails=$((fails + 1)); }
  expect 0 "verify" snap verify "$r_old" "$d_new" "$r_new" --registered-proof StackedDrg2KiBV1 --vanilla "$dir/v" \
    --proof "$out"
  stdout_has "verify" ": valid"
  expect 0 "verify without the vanilla file" snap verify "$r_old" "$d_new" "$r_new" --registered-proof 0 \
    --proof "$out"
  expect 1 "verify: another comm_r_old" snap verify "$(other "$r_old")" "$d_new" "$r_new" --registered-proof 0 \
    --proof "$out"
  stdout_has "verify: another comm_r_old" "INVALID"
  expect 1 "verify: another comm_d_new" snap verify "$r_old" "$(other "$d_new")" "$r_new" --registered-proof 0 \
    --proof "$out"
  expect 1 "verify: another comm_r_new" snap verify "$r_old" "$d_new" "$(other "$r_new")" --registered-proof 0 \
    --proof "$out"
  cp "$out" "$dir/flip"
  printf '\001' | dd of="$dir/flip" bs=1 seek=100 conv=notrunc 2>/dev/null
  expect 1 "verify: a changed byte" snap verify "$r_old" "$d_new" "$r_new" --registered-proof 0 --proof "$dir/flip"
  head -c 191 "$out" >"$dir/short"
  expect 1 "verify: a short proof" snap verify "$r_old" "$d_new" "$r_new" --registered-proof 0 --proof "$dir/short"
  stderr_has "verify: a short proof" "191 bytes"
  cat "$out" "$out" >"$dir/long"
  expect 1 "verify: two proofs" snap verify "$r_old" "$d_new" "$r_new" --registered-proof 0 --proof "$dir/long"
  expect 2 "verify: a vanilla file of four partitions" snap verify "$r_old" "$d_new" "$r_new" --registered-proof 0 \
    --vanilla "$dir/v8" --proof "$out"
  expect 2 "verify: no proof file" snap verify "$r_old" "$d_new" "$r_new" --registered-proof 0 --proof "$dir/none"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "test_snap_prove_cli: ok"
