#!/usr/bin/env bash
# One 32GiB PoRep partition end to end, at production scale, by hand (not part of any test suite):
#   1. a synthetic 32GiB C1 output (it passes every check, describes no real sector; ~40 MB),
#   2. development parameters of the 32GiB circuit under their v28 names (cuzk params generate, streamed:
#      a 47.4 GB .params, reused when already there),
#   3. partition K proved out of core (CUZK_TIMING phases, peak RSS from /usr/bin/time -v), or with K = all
#      the whole sector: its 10 partitions one after the other, the key streamed for each (1,920 bytes),
#   4. the proof verified against the .vk; refused with A and C swapped, under another partition (one
#      partition) and for another miner.
# Needs: ~50 GB free in DIR, 24 GiB of RAM, the Release build (make build). Time on a 2-core Zen 5 VM:
# parameters once 8–11 min, each partition's proof 3–4 min, the whole sector 30–42 min (docs/PERF.md, "Production scale");
# on a 2-core Xeon VM parameters 10.6 min, a partition's proof 3.5–3.7 min (4.5 min in its slow hours).
#
# usage: scripts/bench-32g-partition.sh [DIR] [PARTITION|all] [THREADS]   (defaults: bench-32g 0 every CPU)
set -euo pipefail

DIR=${1:-bench-32g}
PART=${2:-0}
THREADS=${3:-0}
BUILD=${BUILD:-build}
CUZK="$BUILD/bin/cuzk"
BENCH="$BUILD/bin/cuzk-bench"
MINER=1000  # the synthetic C1's miner and sector (cuzk-bench c1-check)
SECTOR=1

for b in "$CUZK" "$BENCH"; do
    [ -x "$b" ] || { echo "bench-32g-partition: $b is missing: run 'make build' first" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench-32g-partition: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
mkdir -p "$DIR/params"

if ! ls "$DIR"/params/v28-stacked-proof-of-replication-*.params >/dev/null 2>&1; then
    free_gb=$(df -P -BG "$DIR" | awk 'NR == 2 { sub("G", "", $4); print $4 }')
    if [ "$free_gb" -lt 50 ]; then
        echo "bench-32g-partition: $DIR has ${free_gb} GB free; the 32GiB parameters need 48 GB" >&2
        exit 2
    fi
fi

C1="$DIR/c1-32GiB.json"
if [ ! -s "$C1" ]; then
    echo "== synthetic 32GiB C1 -> $C1"
    "$BENCH" c1-check --sector-size 32GiB --iters 1 --out "$C1" >/dev/null
fi

echo "== parameters (streamed; reused when present) -> $DIR/params"
/usr/bin/time -f "params generate: %e s wall, %M KB peak RSS" \
    "$CUZK" params generate --kind porep --sector-size 32GiB --out "$DIR/params" --threads "$THREADS"

PROOF="$DIR/proof-$PART"
SELECT=(--partition "$PART") # the options that name what is proved and verified
[ "$PART" = all ] && SELECT=()
echo "== prove partition $PART -> $PROOF"
CUZK_TIMING=1 /usr/bin/time -v "$CUZK" porep prove --c1 "$C1" --params "$DIR/params" "${SELECT[@]}" \
    --out "$PROOF" --miner-id "$MINER" --sector-num "$SECTOR" --threads "$THREADS" 2>"$DIR/prove-$PART.log"
grep -E "phase=|Elapsed|Maximum resident" "$DIR/prove-$PART.log" || true

echo "== verify partition $PART"
"$CUZK" porep verify --c1 "$C1" --params "$DIR/params" --proof "$PROOF" "${SELECT[@]}" \
    --miner-id "$MINER" --sector-num "$SECTOR"

# Each refusal must be a verdict (exit 1), not a decoding error: the tampered proof keeps valid points.
refused() { # what, proof, partition (empty: the whole sector), miner
    set +e
    "$CUZK" porep verify --c1 "$C1" --params "$DIR/params" --proof "$2" ${3:+--partition "$3"} \
        --miner-id "$4" --sector-num "$SECTOR"
    rc=$?
    set -e
    if [ "$rc" -ne 1 ]; then
        echo "bench-32g-partition: $1 gave exit $rc, expected 1 (invalid)" >&2
        exit 1
    fi
}
ONE=$PART # the partition verified alone (the whole sector: empty)
[ "$PART" = all ] && ONE=
echo "== refused: the (first) proof with A and C swapped, under another partition, for another miner"
# A (48 bytes), B (96), C (48) of the first proof; the rest of the file as it was
{ head -c 192 "$PROOF" | tail -c 48; head -c 144 "$PROOF" | tail -c 96; head -c 48 "$PROOF"; tail -c +193 "$PROOF"; } \
    > "$PROOF.swapped"
refused "the proof with A and C swapped" "$PROOF.swapped" "$ONE" "$MINER"
rm -f "$PROOF.swapped"
[ -n "$ONE" ] && refused "the proof under another partition" "$PROOF" "$(( (PART + 1) % 10 ))" "$MINER"
refused "the proof for another miner" "$PROOF" "$ONE" "$(( MINER + 1 ))"
echo "bench-32g-partition: partition $PART proved and verified; a tampered proof, another partition (one partition)" \
    "and another miner refused"
