#!/bin/sh
# The micro benchmarks at small sizes (part of `make run`). Usage: run-micro.sh <cuzk-bench>
set -e
bench="$1"
"$bench" micro fp-mul
"$bench" micro fp-inv
"$bench" micro fr-mul
"$bench" micro g1-add
"$bench" micro g1-batch-add
"$bench" micro pairing
"$bench" micro ntt --log2 16
"$bench" micro msm-g1 --log2 14
"$bench" micro msm-g1-bits --log2 14
"$bench" micro msm-g2 --log2 12
"$bench" micro groth16-verify
"$bench" micro groth16-prove --log2 14 --iters 3
