#!/bin/sh
# Regenerates the snarkjs-made vectors in tests/interop/vectors/ that the C tests read: the
# multiplier and comparator circuits over BLS12-381 (r1cs, witness, zkey, verification key, proof,
# public signals) and the multiplier over bn128 (wrong-curve inputs). Needs node and npm (the pinned
# peers of package-lock.json are installed into a temporary directory). Every run makes new random
# keys and proofs; the tests only rely on their relations, not on fixed values.
#   usage: tests/interop/gen-vectors.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/vectors"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

cp "$here/package.json" "$here/package-lock.json" "$work/"
(cd "$work" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
snarkjs() { node "$work/node_modules/snarkjs/build/cli.cjs" "$@" >/dev/null; }
# circom2 (WASI) sees only the working directory and its parents: compile from $work so that
# -l node_modules resolves circomlib.
circom() { (cd "$work" && node node_modules/circom2/cli.js "$@" >/dev/null); }

ptau() { # curve power -> $work/<curve>.ptau
    snarkjs powersoftau new "$1" "$2" "$work/$1_0.ptau"
    snarkjs powersoftau contribute "$work/$1_0.ptau" "$work/$1_1.ptau" --name=vectors -e="cuzk vectors $1"
    snarkjs powersoftau prepare phase2 "$work/$1_1.ptau" "$work/$1.ptau"
}

vectors() { # circuit curve prefix
    mkdir -p "$work/$3"
    cp "$here/circuits/$1.circom" "$work/$3.circom"
    circom "$3.circom" --r1cs --wasm --O2 --prime "$2" -l node_modules -o "$3"
    snarkjs groth16 setup "$work/$3/$3.r1cs" "$work/$2.ptau" "$work/$3_0.zkey"
    snarkjs zkey contribute "$work/$3_0.zkey" "$out/$3.zkey" --name=vectors -e="cuzk vectors $3"
    snarkjs zkey export verificationkey "$out/$3.zkey" "$out/$3_vk.json"
    snarkjs wtns calculate "$work/$3/$3_js/$3.wasm" "$here/circuits/$1.input.json" "$out/$3.wtns"
    snarkjs groth16 prove "$out/$3.zkey" "$out/$3.wtns" "$out/$3_proof.json" "$out/$3_public.json"
    snarkjs groth16 verify "$out/$3_vk.json" "$out/$3_public.json" "$out/$3_proof.json"
    cp "$work/$3/$3.r1cs" "$out/$3.r1cs"
}

mkdir -p "$out"
ptau bls12381 6
ptau bn128 4
vectors multiplier bls12381 mult
vectors comparator bls12381 cmp
vectors multiplier bn128 mult_bn128
rm -f "$out/mult_bn128_proof.json" "$out/mult_bn128_public.json" "$out/mult_bn128_vk.json"
echo "vectors written to $out"
