#!/bin/sh
# The snarkjs-compatible commands of the cuzk tool on the checked-in vectors: results, exit codes
# (0 valid, 1 invalid proof, 2 usage or bad input), messages, and no output file (nor temp file)
# left behind by a failing command.
#   usage: test_interop_cli.sh <cuzk binary> <repository root>
set -u
cuzk=$1
V=$2/tests/interop/vectors
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
failures=0
checks=0

fail() { failures=$((failures + 1)); echo "FAIL: $*" >&2; }

# expect <exit code> <description> <command...>: runs it, output in $work/out.txt.
expect() {
    want=$1 what=$2
    shift 2
    checks=$((checks + 1))
    "$@" >"$work/out.txt" 2>&1
    got=$?
    [ "$got" -eq "$want" ] || { fail "$what: exit $got, want $want"; sed 's/^/  | /' "$work/out.txt" >&2; }
}

# says <text>: the last command's output mentions text.
says() {
    checks=$((checks + 1))
    grep -q -- "$1" "$work/out.txt" || { fail "output lacks '$1'"; sed 's/^/  | /' "$work/out.txt" >&2; }
}

# empty_dir <dir>: nothing was written there.
empty_dir() {
    checks=$((checks + 1))
    [ -z "$(ls -A "$1")" ] || { fail "files left in $1: $(ls -A "$1")"; }
}

same() {
    checks=$((checks + 1))
    cmp -s "$1" "$2" || fail "$1 differs from $2"
}

out="$work/out"
mkdir -p "$out"

# Usage errors.
expect 2 "no command" "$cuzk"
expect 2 "groth16 alone" "$cuzk" groth16
expect 2 "prove with 3 files" "$cuzk" groth16 prove "$V/mult.zkey" "$V/mult.wtns" "$out/p.json"
says "try 'cuzk groth16 prove --help'"
expect 2 "bad --threads" "$cuzk" groth16 prove "$V/mult.zkey" "$V/mult.wtns" "$out/p.json" "$out/q.json" --threads x
expect 2 "unknown option" "$cuzk" groth16 verify --fast "$V/mult_vk.json" "$V/mult_public.json" "$V/mult_proof.json"
expect 2 "zkey export without files" "$cuzk" zkey export verificationkey
empty_dir "$out"

# Proving: the public signals are the witness's, the proof verifies (cuzk), outputs appear together.
expect 0 "prove" "$cuzk" groth16 prove "$V/mult.zkey" "$V/mult.wtns" "$out/proof.json" "$out/public.json" --threads 2
same "$out/public.json" "$V/mult_public.json"
expect 0 "verify cuzk's proof" "$cuzk" groth16 verify "$V/mult_vk.json" "$out/public.json" "$out/proof.json"
says "OK"
expect 0 "verify snarkjs's proof" "$cuzk" groth16 verify "$V/mult_vk.json" "$V/mult_public.json" "$V/mult_proof.json"
expect 0 "prove cmp" "$cuzk" groth16 prove "$V/cmp.zkey" "$V/cmp.wtns" "$out/cproof.json" "$out/cpublic.json"
same "$out/cpublic.json" "$V/cmp_public.json"
expect 0 "verify cmp" "$cuzk" groth16 verify "$V/cmp_vk.json" "$out/cpublic.json" "$out/cproof.json"
rm -f "$out"/*

# Failing proofs leave nothing behind.
expect 2 "witness of another circuit" "$cuzk" groth16 prove "$V/mult.zkey" "$V/cmp.wtns" "$out/p.json" "$out/q.json"
says "witness has 19 values"
expect 2 "bn128 zkey" "$cuzk" groth16 prove "$V/mult_bn128.zkey" "$V/mult.wtns" "$out/p.json" "$out/q.json"
says "bn128"
expect 2 "bn128 witness" "$cuzk" groth16 prove "$V/mult.zkey" "$V/mult_bn128.wtns" "$out/p.json" "$out/q.json"
says "another curve"
head -c 3000 "$V/mult.zkey" >"$work/short.zkey"
expect 2 "truncated zkey" "$cuzk" groth16 prove "$work/short.zkey" "$V/mult.wtns" "$out/p.json" "$out/q.json"
says "truncated"
expect 2 "missing witness" "$cuzk" groth16 prove "$V/mult.zkey" "$work/none.wtns" "$out/p.json" "$out/q.json"
says "cannot open"
# Witness value 5 (ab = 33) changed to 34: a canonical witness that does not satisfy the circuit.
cp "$V/mult.wtns" "$work/bad.wtns"
size=$(wc -c <"$work/bad.wtns")
printf '\042' | dd of="$work/bad.wtns" bs=1 seek=$((size - 32)) conv=notrunc 2>/dev/null
expect 1 "unsatisfied witness" "$cuzk" groth16 prove "$V/mult.zkey" "$work/bad.wtns" "$out/p.json" "$out/q.json"
says "does not satisfy"
expect 2 "second output in a missing directory" "$cuzk" groth16 prove "$V/mult.zkey" "$V/mult.wtns" "$out/p.json" "$out/nodir/q.json"
empty_dir "$out"

# Verification: tampered proof and public input are invalid (1), unusable input is 2.
sed 's/"165"/"166"/' "$V/mult_public.json" >"$work/pub_tampered.json"
expect 1 "tampered public input" "$cuzk" groth16 verify "$V/mult_vk.json" "$work/pub_tampered.json" "$V/mult_proof.json"
says "invalid proof"
# pi_c := pi_a (a valid point, wrong proof).
awk 'BEGIN{n=0} /"pi_a"/{a=1} a&&n<2&&/^  "[0-9]/{v[n++]=$0} /"pi_c"/{c=1;k=0} c&&/^  "[0-9]/&&k<2{print v[k++];next} {print}' \
    "$V/mult_proof.json" >"$work/proof_c.json"
expect 1 "tampered proof (pi_c = pi_a)" "$cuzk" groth16 verify "$V/mult_vk.json" "$V/mult_public.json" "$work/proof_c.json"
# pi_a.x (line 3) with its last digit doubled: off the curve or not below p, invalid for snarkjs too.
sed '3s/\([0-9]\)"/\1\1"/' "$V/mult_proof.json" >"$work/proof_a.json"
checks=$((checks + 1))
cmp -s "$V/mult_proof.json" "$work/proof_a.json" && fail "proof_a.json was not changed"
expect 1 "proof point off the curve" "$cuzk" groth16 verify "$V/mult_vk.json" "$V/mult_public.json" "$work/proof_a.json"
expect 2 "public count mismatch" "$cuzk" groth16 verify "$V/mult_vk.json" "$V/cmp_public.json" "$V/mult_proof.json"
says "expects 3"
printf '{"pi_a": [' >"$work/broken.json"
expect 2 "malformed proof.json" "$cuzk" groth16 verify "$V/mult_vk.json" "$V/mult_public.json" "$work/broken.json"
sed 's/"bls12381"/"bn128"/' "$V/mult_vk.json" >"$work/vk_bn128.json"
expect 2 "bn128 verification key" "$cuzk" groth16 verify "$work/vk_bn128.json" "$V/mult_public.json" "$V/mult_proof.json"
expect 2 "missing vk" "$cuzk" groth16 verify "$work/none.json" "$V/mult_public.json" "$V/mult_proof.json"

# Export: byte for byte what snarkjs exported; failures write nothing.
expect 0 "zkey export" "$cuzk" zkey export verificationkey "$V/cmp.zkey" "$out/vk.json"
same "$out/vk.json" "$V/cmp_vk.json"
rm -f "$out/vk.json"
expect 2 "zkey export bn128" "$cuzk" zkey export verificationkey "$V/mult_bn128.zkey" "$out/vk.json"
expect 2 "zkey export truncated" "$cuzk" zkey export verificationkey "$work/short.zkey" "$out/vk.json"
empty_dir "$out"

echo "test_interop_cli: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
