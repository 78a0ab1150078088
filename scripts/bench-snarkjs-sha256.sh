#!/bin/sh
# snarkjs vs cuzk on the same Groth16 proof: circomlib's Sha256(512) (about 60k constraints)
# compiled for BLS12-381, one zkey, one witness; times `snarkjs groth16 prove` and
# `cuzk groth16 prove` (whole commands: load, prove, write; median of 3 each) and checks cuzk's
# proof with `snarkjs groth16 verify`. The pinned npm peers, the powers of tau (2^17 for this
# circuit: generating it takes a long time once) and the circuit's artifacts are cached.
#   usage: scripts/bench-snarkjs-sha256.sh [--cache DIR] [--cuzk BIN] [--runs N] [--threads N]
#          [--circuit FILE.circom --input FILE.json]   (another circuit, e.g. to try the script)
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cache="$repo/build/snarkjs-bench"
cuzk="$repo/build/bin/cuzk"
runs=3
threads=0
circuit=""
input=""
while [ $# -gt 0 ]; do
    case "$1" in
    --cache) cache=$2; shift 2 ;;
    --cuzk) cuzk=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --circuit) circuit=$2; shift 2 ;;
    --input) input=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
[ -x "$cuzk" ] || { echo "$cuzk not built (make, or --cuzk BIN)" >&2; exit 2; }
command -v npm >/dev/null 2>&1 || { echo "node and npm are needed" >&2; exit 2; }
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
log="$cache/last.log"
quiet() { "$@" >"$log" 2>&1 || { cat "$log" >&2; return 1; }; }
note() { echo "-- $*" >&2; }
ms() { echo $(($(date +%s%N) / 1000000)); }

# ---- npm peers (same pinned versions as the interop tests) ----------------------------------------
peers="$cache/peers"
stamp=$(cat "$repo/tests/interop/package.json" "$repo/tests/interop/package-lock.json" | sha256sum | cut -c1-16)
if [ "$(cat "$peers/.stamp" 2>/dev/null)" != "$stamp" ]; then
    note "npm ci into $peers"
    rm -rf "$peers"
    mkdir -p "$peers"
    cp "$repo/tests/interop/package.json" "$repo/tests/interop/package-lock.json" "$peers/"
    (cd "$peers" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$stamp" >"$peers/.stamp"
fi
snarkjs() { node "$peers/node_modules/snarkjs/build/cli.cjs" "$@"; }

# ---- the circuit ---------------------------------------------------------------------------------
if [ -z "$circuit" ]; then
    name=sha256_512
    circuit="$cache/$name.circom"
    cat >"$circuit.new" <<'EOF'
pragma circom 2.0.0;

include "circomlib/circuits/sha256/sha256.circom";

// SHA-256 of a 512-bit message given as bits; the 256 digest bits are public outputs.
template Sha256Bench() {
    signal input in[512];
    signal output out[256];
    component h = Sha256(512);
    for (var i = 0; i < 512; i++) h.in[i] <== in[i];
    for (var i = 0; i < 256; i++) out[i] <== h.out[i];
}

component main = Sha256Bench();
EOF
    mv "$circuit.new" "$circuit"
    input="$cache/$name.input.json"
    # The message: the bits of SHA-256("cuzk") twice.
    node -e 'const h=require("crypto").createHash("sha256").update("cuzk").digest();
             const b=[];for(let r=0;r<2;r++)for(const x of h)for(let i=7;i>=0;i--)b.push(String((x>>i)&1));
             process.stdout.write(JSON.stringify({in:b}))' >"$input"
else
    [ -n "$input" ] || { echo "--circuit needs --input" >&2; exit 2; }
    name=$(basename "$circuit" .circom)
    circuit=$(cd "$(dirname "$circuit")" && pwd)/$(basename "$circuit")
    input=$(cd "$(dirname "$input")" && pwd)/$(basename "$input")
fi
key=$(cat "$circuit" "$input" "$peers/.stamp" | sha256sum | cut -c1-16)
art="$cache/$name-$key"
if [ ! -f "$art/done" ]; then
    rm -rf "$art"
    mkdir -p "$art"
    note "compiling $name for BLS12-381"
    cp "$circuit" "$art/$name.circom"
    # circom2 (WASI) only sees its working directory and the parents: run it from the peers.
    (cd "$peers" && quiet node node_modules/circom2/cli.js "$art/$name.circom" --r1cs --wasm --O2 \
        --prime bls12381 -l node_modules -o "$art")
    snarkjs r1cs info "$art/$name.r1cs" >"$art/info.txt" 2>&1
    touch "$art/compiled"
fi
cons=$(sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p' "$art/info.txt")
outs=$(sed -n 's/.*# of Outputs: *\([0-9]*\).*/\1/p' "$art/info.txt")
pubs=$(sed -n 's/.*# of Public Inputs: *\([0-9]*\).*/\1/p' "$art/info.txt")
# zkey new needs the Lagrange bases of 2·domain: power = log2(domain) + 1.
rows=$((cons + outs + pubs + 1))
power=1
while [ $((1 << power)) -lt "$rows" ]; do power=$((power + 1)); done
power=$((power + 1))
ptau="$cache/ptau/bls12381_$power.ptau"
if [ ! -f "$ptau" ]; then
    note "powers of tau 2^$power for BLS12-381 (once; slow for large powers)"
    mkdir -p "$cache/ptau"
    t="$cache/ptau/tmp.$$"
    quiet snarkjs powersoftau new bls12381 "$power" "$t.0"
    quiet snarkjs powersoftau contribute "$t.0" "$t.1" --name=cuzk-bench -e="cuzk bench $power"
    quiet snarkjs powersoftau prepare phase2 "$t.1" "$t.2"
    mv "$t.2" "$ptau"
    rm -f "$t.0" "$t.1"
fi
if [ ! -f "$art/done" ]; then
    note "zkey and witness ($cons constraints)"
    quiet snarkjs groth16 setup "$art/$name.r1cs" "$ptau" "$art/key_0.zkey"
    quiet snarkjs zkey contribute "$art/key_0.zkey" "$art/circuit.zkey" --name=cuzk-bench -e="cuzk bench"
    rm -f "$art/key_0.zkey"
    quiet snarkjs zkey export verificationkey "$art/circuit.zkey" "$art/verification_key.json"
    quiet snarkjs wtns calculate "$art/${name}_js/$name.wasm" "$input" "$art/witness.wtns"
    touch "$art/done"
fi

# ---- timing --------------------------------------------------------------------------------------
median() { sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
out="$art/out"
mkdir -p "$out"
snark_ms=""
cuzk_ms=""
for i in $(seq "$runs"); do
    t0=$(ms)
    quiet snarkjs groth16 prove "$art/circuit.zkey" "$art/witness.wtns" "$out/snarkjs_proof.json" "$out/snarkjs_public.json"
    t1=$(ms)
    quiet "$cuzk" groth16 prove "$art/circuit.zkey" "$art/witness.wtns" "$out/cuzk_proof.json" "$out/cuzk_public.json" \
        --threads "$threads"
    t2=$(ms)
    snark_ms="$snark_ms $((t1 - t0))"
    cuzk_ms="$cuzk_ms $((t2 - t1))"
done
# Outside the timed region: snarkjs must accept cuzk's proof, and both agree on the public signals.
snarkjs groth16 verify "$art/verification_key.json" "$out/cuzk_public.json" "$out/cuzk_proof.json" >"$log" 2>&1 ||
    { cat "$log" >&2; echo "snarkjs REJECTED cuzk's proof" >&2; exit 1; }
cmp -s "$out/cuzk_public.json" "$out/snarkjs_public.json" || { echo "public signals differ" >&2; exit 1; }
CUZK_TIMING=1 "$cuzk" groth16 prove "$art/circuit.zkey" "$art/witness.wtns" "$out/cuzk_proof.json" \
    "$out/cuzk_public.json" --threads "$threads" 2>&1 | grep CUZK_TIMING | sed 's/^/  /' >&2 || true

s_med=$(echo "$snark_ms" | tr ' ' '\n' | grep . | median)
c_med=$(echo "$cuzk_ms" | tr ' ' '\n' | grep . | median)
echo "circuit: $name, $cons constraints, $((outs + pubs)) public signals, domain 2^$((power - 1)), $(nproc) CPUs"
echo "snarkjs groth16 prove: median ${s_med} ms of${snark_ms}"
echo "cuzk groth16 prove:    median ${c_med} ms of${cuzk_ms}"
awk -v s="$s_med" -v c="$c_med" 'BEGIN{ if (c > 0) printf "speed-up: %.1fx\n", s / c }'
echo "snarkjs groth16 verify accepts cuzk's proof: yes"
