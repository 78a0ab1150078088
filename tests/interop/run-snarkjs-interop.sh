#!/bin/sh
# End-to-end exchange with snarkjs 0.7.6 / circom2 0.2.23 / circomlib 2.0.5 (pinned in
# package-lock.json): for each circuit of tests/interop/circuits, circom compiles it for BLS12-381,
# snarkjs makes the zkey and a proof, and then
#   - snarkjs verifies cuzk's proof, and cuzk verifies snarkjs's;
#   - cuzk's public.json and exported verification_key.json equal snarkjs's byte for byte;
#   - a tampered proof and a tampered public input are rejected by both.
# npm packages, the powers of tau and each circuit's artifacts are cached under <work dir> (keyed by
# the lock file, and by the hash of the circuit and its input), so only the first run pays for them.
#   usage: run-snarkjs-interop.sh <cuzk binary> <repository root> <work dir>
set -u
cuzk=$1
src=$2/tests/interop
work=$3
mkdir -p "$work" || exit 1
failures=0

die() { echo "run-snarkjs-interop: $*" >&2; exit 1; }
fail() { failures=$((failures + 1)); echo "FAIL: $*" >&2; }
step() { echo "== $*"; }
hash_of() { cat "$@" | sha256sum | cut -c1-16; }

command -v node >/dev/null 2>&1 || die "node is not installed (the interop test needs node >= 18 and npm)"
command -v npm >/dev/null 2>&1 || die "npm is not installed (the interop test needs node >= 18 and npm)"

# ---- test peers: npm ci once per lock file --------------------------------------------------------
peers="$work/peers"
lock_hash=$(hash_of "$src/package.json" "$src/package-lock.json")
if [ "$(cat "$peers/.stamp" 2>/dev/null)" != "$lock_hash" ]; then
    step "npm ci (snarkjs, circom2, circomlib) into $peers"
    rm -rf "$peers"
    mkdir -p "$peers"
    cp "$src/package.json" "$src/package-lock.json" "$peers/"
    (cd "$peers" && npm ci --no-audit --no-fund --loglevel=error --fetch-timeout=60000 --fetch-retries=1) ||
        die "npm ci failed: the npm registry must be reachable for this test (nothing was skipped)"
    echo "$lock_hash" >"$peers/.stamp"
fi
snarkjs() { node "$peers/node_modules/snarkjs/build/cli.cjs" "$@"; }
quiet() { "$@" >"$work/last.log" 2>&1 || { cat "$work/last.log" >&2; return 1; }; }

# ---- powers of tau (BLS12-381, 2^9: circuits up to 255 rows) -------------------------------------
power=9
ptau="$work/ptau/bls12381_$power.ptau"
if [ ! -f "$ptau" ]; then
    step "powers of tau, BLS12-381, 2^$power"
    mkdir -p "$work/ptau"
    t="$work/ptau/tmp.$$"
    quiet snarkjs powersoftau new bls12381 $power "$t.0" &&
        quiet snarkjs powersoftau contribute "$t.0" "$t.1" --name=cuzk-test -e="cuzk interop test" &&
        quiet snarkjs powersoftau prepare phase2 "$t.1" "$t.2" && mv "$t.2" "$ptau" ||
        die "powers of tau generation failed"
    rm -f "$t.0" "$t.1"
fi

# ---- per circuit ----------------------------------------------------------------------------------
# artifacts <name>: compiles and sets up once; sets $art.
artifacts() {
    name=$1
    key=$(hash_of "$src/circuits/$name.circom" "$src/circuits/$name.input.json" "$src/package-lock.json")
    art="$work/cache/$name-$key"
    [ -f "$art/done" ] && return 0
    step "$name: circom, setup, witness, snarkjs proof (cached in $art)"
    rm -rf "$art"
    mkdir -p "$art"
    # circom2 runs under WASI and sees only its working directory and the parents of it: run it from
    # the peers directory so that -l node_modules finds circomlib.
    cp "$src/circuits/$name.circom" "$art/$name.circom"
    (cd "$peers" && quiet node node_modules/circom2/cli.js "$art/$name.circom" --r1cs --wasm --O2 \
        --prime bls12381 -l node_modules -o "$art") || { fail "$name: circom failed"; return 1; }
    quiet snarkjs groth16 setup "$art/$name.r1cs" "$ptau" "$art/key_0.zkey" &&
        quiet snarkjs zkey contribute "$art/key_0.zkey" "$art/circuit.zkey" --name=cuzk-test -e="cuzk $name" &&
        quiet snarkjs zkey export verificationkey "$art/circuit.zkey" "$art/verification_key.json" &&
        quiet snarkjs wtns calculate "$art/${name}_js/$name.wasm" "$src/circuits/$name.input.json" "$art/witness.wtns" &&
        quiet snarkjs groth16 prove "$art/circuit.zkey" "$art/witness.wtns" "$art/proof.json" "$art/public.json" ||
        { fail "$name: snarkjs setup or proof failed"; return 1; }
    touch "$art/done"
}

# expect_rc <code or "nonzero"> <what> <command...>
expect_rc() {
    want=$1 what=$2
    shift 2
    "$@" >"$work/last.log" 2>&1
    got=$?
    if [ "$want" = nonzero ]; then
        [ "$got" -ne 0 ] || fail "$what: accepted"
    elif [ "$got" -ne "$want" ]; then
        fail "$what: exit $got, want $want"
        sed 's/^/  | /' "$work/last.log" >&2
    fi
}

check_circuit() {
    name=$1
    artifacts "$name" || return
    run="$work/run/$name"
    rm -rf "$run"
    mkdir -p "$run"
    step "$name: cuzk prove, cross-verification, tampering"
    expect_rc 0 "$name: cuzk groth16 prove" "$cuzk" groth16 prove "$art/circuit.zkey" "$art/witness.wtns" \
        "$run/proof.json" "$run/public.json" --threads 2
    [ -f "$run/proof.json" ] || { fail "$name: no proof written"; return; }
    cmp -s "$run/public.json" "$art/public.json" || fail "$name: cuzk's public.json differs from snarkjs's"
    expect_rc 0 "$name: snarkjs verifies cuzk's proof" snarkjs groth16 verify "$art/verification_key.json" \
        "$run/public.json" "$run/proof.json"
    expect_rc 0 "$name: cuzk verifies snarkjs's proof" "$cuzk" groth16 verify "$art/verification_key.json" \
        "$art/public.json" "$art/proof.json"
    expect_rc 0 "$name: cuzk zkey export verificationkey" "$cuzk" zkey export verificationkey \
        "$art/circuit.zkey" "$run/verification_key.json"
    cmp -s "$run/verification_key.json" "$art/verification_key.json" ||
        fail "$name: cuzk's verification_key.json differs from snarkjs's"

    # Tampered proof: pi_c replaced by pi_a (a valid point, the wrong one).
    awk '/"pi_a"/{a=1} a&&n<2&&/^  "[0-9]/{v[n++]=$0} /"pi_c"/{c=1} c&&/^  "[0-9]/&&k<2{print v[k++];next} {print}' \
        "$run/proof.json" >"$run/proof_tampered.json"
    cmp -s "$run/proof.json" "$run/proof_tampered.json" && fail "$name: tampering did not change the proof"
    expect_rc nonzero "$name: snarkjs on a tampered proof" snarkjs groth16 verify "$art/verification_key.json" \
        "$run/public.json" "$run/proof_tampered.json"
    expect_rc 1 "$name: cuzk on a tampered proof" "$cuzk" groth16 verify "$art/verification_key.json" \
        "$run/public.json" "$run/proof_tampered.json"
    # Tampered public input: the first signal replaced by another small value.
    first=$(sed -n 2p "$art/public.json" | tr -dc 0-9)
    if [ "$first" = 7 ]; then other=8; else other=7; fi
    sed "2s/\"$first\"/\"$other\"/" "$art/public.json" >"$run/public_tampered.json"
    cmp -s "$art/public.json" "$run/public_tampered.json" && fail "$name: tampering did not change public.json"
    expect_rc nonzero "$name: snarkjs on a tampered public input" snarkjs groth16 verify \
        "$art/verification_key.json" "$run/public_tampered.json" "$art/proof.json"
    expect_rc 1 "$name: cuzk on a tampered public input" "$cuzk" groth16 verify "$art/verification_key.json" \
        "$run/public_tampered.json" "$art/proof.json"
    expect_rc 1 "$name: cuzk on its own proof with a tampered input" "$cuzk" groth16 verify \
        "$art/verification_key.json" "$run/public_tampered.json" "$run/proof.json"
}

[ -x "$cuzk" ] || die "$cuzk: not built (build the cuzk-tool target first)"
for c in multiplier poseidon_below; do
    check_circuit "$c"
done
echo "run-snarkjs-interop: $failures failures"
[ "$failures" -eq 0 ]
